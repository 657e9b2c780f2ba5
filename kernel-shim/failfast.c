// SPDX-License-Identifier: GPL-2.0-only
/*
 * A failing test fails fast (DESIGN.md, principle 4):
 * - signals: signal_pending()/fatal_signal_pending() are per task, a test
 *   may send one (kshim_send_signal), and kernel loops that end on a
 *   signal end;
 * - what a failed test held: a CMocka assertion or a caught crash leaves
 *   the test function by longjmp, inside whatever section it was in;
 *   kshim_release_held() gives back its spinlocks, RCU read sections and
 *   preempt/irq depth and names them, so teardown fails the test instead
 *   of waiting forever on a grace period or a lock;
 * - a hung-task watchdog: when neither virtual time moves nor a world
 *   boots or is torn down for TB_WATCHDOG_SECONDS (default 30) of wall
 *   time, every task gets SIGKILL (as the hung-task detector's users would
 *   kill it); if that brings no progress within a quarter of the period,
 *   every thread's backtrace is printed and the process aborts, well
 *   before ctest's own timeout. A world check after a watchdog SIGKILL
 *   fails the test.
 */
#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/rcupdate.h>
#include <linux/spinlock.h>
#include <kshim/testbed.h>
#include <execinfo.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <urcu.h>

/* ---- signals ---- */
static int watchdog_kill;	/* the watchdog sent every task SIGKILL */
static int watchdog_fired;	/* ... since the last world boot */

bool kshim_signal_pending(struct task_struct *p)
{
	return __atomic_load_n(&p->kshim_sigpending, __ATOMIC_ACQUIRE) ||
	       __atomic_load_n(&watchdog_kill, __ATOMIC_ACQUIRE);
}

bool kshim_fatal_signal_pending(struct task_struct *p)
{
	return (__atomic_load_n(&p->kshim_sigpending, __ATOMIC_ACQUIRE) &
		(1UL << (SIGKILL - 1))) ||
	       __atomic_load_n(&watchdog_kill, __ATOMIC_ACQUIRE);
}

void kshim_send_signal(struct task_struct *p, int sig)
{
	__atomic_fetch_or(&p->kshim_sigpending, 1UL << (sig - 1), __ATOMIC_RELEASE);
}

void kshim_clear_signals(struct task_struct *p)
{
	__atomic_store_n(&p->kshim_sigpending, 0, __ATOMIC_RELEASE);
}

/* a sleeper in state (TASK_INTERRUPTIBLE / TASK_KILLABLE) woken by a signal */
bool kshim_signal_wakes(unsigned int state)
{
	if (state & TASK_WAKEKILL)
		return kshim_fatal_signal_pending(current);
	return (state & TASK_INTERRUPTIBLE) && kshim_signal_pending(current);
}

/* ---- what a failed test left held ---- */
static char held_msg[256];
static bool held_released;	/* since the last world boot */

/* append one held thing to held_msg if n: fmt takes the separator, then n */
static void held_part(const char **sep, int n, const char *fmt)
{
	size_t len = strlen(held_msg);

	if (!n)
		return;
	snprintf(held_msg + len, sizeof(held_msg) - len, fmt, *sep, n);
	*sep = ",";
}

/*
 * A fixture's teardown calls it first (its own clean-up takes locks a
 * failed test may still hold); kshim_world_check() calls it again and
 * reports what the first call released.
 */
const char *kshim_release_held(void)
{
	int locks = kshim_ctx.nr_held, rcu = kshim_rcu_depth();
	int preempt = kshim_ctx.preempt, irq = kshim_ctx.irq_off, i;
	const char *sep = "";

	if (!locks && !rcu && !preempt && !irq)
		return held_released ? held_msg : NULL;
	held_released = true;
	/* most recent first, as the sections would have ended */
	for (i = min(locks, KSHIM_MAX_HELD) - 1; i >= 0; i--)
		kshim_spin_release(kshim_ctx.held[i]);
	kshim_ctx.nr_held = 0;
	kshim_rcu_release_all();
	if (kshim_atomic_depth() > 0)
		kshim_cpu_release();
	kshim_ctx.preempt = 0;
	kshim_ctx.irq_off = 0;
	/* name what was held, e.g. "1 spinlock(s), preempt depth 1" */
	strcpy(held_msg, "the test ended inside");
	held_part(&sep, locks, "%s %d spinlock(s)");
	held_part(&sep, rcu, "%s %d RCU read section(s)");
	held_part(&sep, preempt, "%s preempt depth %d");
	held_part(&sep, irq, "%s irq-off depth %d");
	strcat(held_msg, " (released)");
	return held_msg;
}

/* ---- the watchdog ---- */
static unsigned long progress;
static pthread_t wd_thread;
static int wd_started;

#define MAX_THREADS 256
static pthread_mutex_t threads_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_t threads[MAX_THREADS];
static bool used[MAX_THREADS];

void kshim_progress(void)
{
	__atomic_fetch_add(&progress, 1, __ATOMIC_RELAXED);
}

void kshim_thread_register(void)
{
	int i;

	pthread_mutex_lock(&threads_lock);
	for (i = 0; i < MAX_THREADS; i++) {
		if (used[i] && pthread_equal(threads[i], pthread_self()))
			break;
		if (!used[i]) {
			threads[i] = pthread_self();
			used[i] = true;
			break;
		}
	}
	pthread_mutex_unlock(&threads_lock);
}

void kshim_thread_unregister(void)
{
	int i;

	pthread_mutex_lock(&threads_lock);
	for (i = 0; i < MAX_THREADS; i++)
		if (used[i] && pthread_equal(threads[i], pthread_self()))
			used[i] = false;
	pthread_mutex_unlock(&threads_lock);
}

static void backtrace_handler(int sig)
{
	void *frames[64];
	int n = backtrace(frames, 64);
	char head[64];
	int len;

	(void)sig;
	len = snprintf(head, sizeof(head), "---- thread %lu:\n", (unsigned long)pthread_self());
	if (write(STDERR_FILENO, head, len) < 0)
		return;
	backtrace_symbols_fd(frames, n, STDERR_FILENO);
}

static void dump_threads(void)
{
	struct timespec ts = { 0, 100 * 1000 * 1000 };
	int i;

	signal(SIGUSR2, backtrace_handler);
	pthread_mutex_lock(&threads_lock);
	for (i = 0; i < MAX_THREADS; i++) {
		if (!used[i])
			continue;
		pthread_kill(threads[i], SIGUSR2);
		/* one at a time: their lines do not interleave */
		nanosleep(&ts, NULL);
	}
	pthread_mutex_unlock(&threads_lock);
}

static unsigned int watchdog_period(void)
{
	const char *s = getenv("TB_WATCHDOG_SECONDS");

	return s ? (unsigned int)strtoul(s, NULL, 10) : 30;
}

static void *watchdog_main(void *arg)
{
	unsigned int period = (unsigned int)(unsigned long)arg;
	struct timespec tick = { 0, 100 * 1000 * 1000 };
	unsigned long seen = __atomic_load_n(&progress, __ATOMIC_RELAXED), now;
	unsigned int idle = 0, grace = period * 10 / 4 + 1;

	for (;;) {
		nanosleep(&tick, NULL);
		now = __atomic_load_n(&progress, __ATOMIC_RELAXED);
		if (now != seen) {
			seen = now;
			idle = 0;
			__atomic_store_n(&watchdog_kill, 0, __ATOMIC_RELEASE);
			continue;
		}
		if (++idle == period * 10) {
			fprintf(stderr, "tb watchdog: no progress (virtual time, world boot or teardown) for %u s: SIGKILL to every task\n",
				period);
			__atomic_store_n(&watchdog_fired, 1, __ATOMIC_RELEASE);
			__atomic_store_n(&watchdog_kill, 1, __ATOMIC_RELEASE);
		} else if (idle == period * 10 + grace) {
			fprintf(stderr, "tb watchdog: still no progress %.1f s after SIGKILL: every thread's backtrace, then abort\n",
				grace / 10.0);
			dump_threads();
			abort();
		}
	}
	return NULL;
}

/* at each world boot: the watchdog runs from the first (TB_WATCHDOG_SECONDS=0: never) */
void kshim_watchdog_boot(void)
{
	unsigned int period;

	__atomic_store_n(&watchdog_fired, 0, __ATOMIC_RELEASE);
	__atomic_store_n(&watchdog_kill, 0, __ATOMIC_RELEASE);
	held_released = false;
	kshim_clear_signals(current);
	kshim_progress();
	if (wd_started)
		return;
	wd_started = 1;
	period = watchdog_period();
	if (!period)
		return;
	if (pthread_create(&wd_thread, NULL, watchdog_main, (void *)(unsigned long)period) ||
	    pthread_detach(wd_thread)) {
		fprintf(stderr, "tb watchdog: cannot start its thread\n");
		abort();
	}
}

bool kshim_watchdog_fired(void)
{
	return __atomic_load_n(&watchdog_fired, __ATOMIC_ACQUIRE);
}
