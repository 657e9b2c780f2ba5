// SPDX-License-Identifier: GPL-2.0-only
/*
 * RCU over liburcu (memb flavour). Readers are counted per thread so that
 * sleeping inside rcu_read_lock() is reported instead of deadlocking in
 * synchronize_rcu().
 */
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/sched.h>
#include <kshim/testbed.h>
#include <urcu/map/clear.h>
#include "event.h"

/*
 * liburcu is not built for TSan, so the orderings a grace period gives
 * (reader's accesses before the callback, queueing before the callback,
 * callbacks before rcu_barrier's return) are invisible to it and every
 * deferred free looks like a race. Restate them as acquire/release on
 * stand-in addresses; the plain build compiles them away.
 */
#ifdef __SANITIZE_THREAD__
void __tsan_acquire(void *addr);
void __tsan_release(void *addr);
#define tsan_acquire(addr) __tsan_acquire(addr)
#define tsan_release(addr) __tsan_release(addr)

/* liburcu's own queue nodes and wake-ups: uninstrumented or inline asm */
const char *__tsan_default_suppressions(void)
{
	return "called_from_lib:liburcu-memb.so\n"
	       "race:urcu_common_wake_up_gp\n"
	       "race:_urcu_memb_read_unlock_update_and_wakeup\n";
}
#else
#define tsan_acquire(addr) do { (void)(addr); } while (0)
#define tsan_release(addr) do { (void)(addr); } while (0)
#endif
#ifndef CONFIG_PROVE_RCU
#undef urcu_memb_has_sys_membarrier
extern int urcu_memb_has_sys_membarrier;

/*
 * The benchmark build's inline readers take no fence (urcu_inline.h):
 * correct only if liburcu's writers use sys_membarrier. Checked once,
 * after liburcu's own constructor probed for it.
 */
static void __attribute__((constructor)) check_sys_membarrier(void)
{
	if (!urcu_memb_has_sys_membarrier) {
		fprintf(stderr, "kshim: liburcu found no sys_membarrier(); the benchmark build's RCU readers need it (use a test build)\n");
		exit(1);
	}
}
#endif

static char gp_sync;		/* reader sections -> after a grace period */

void kshim_rcu_read_lock(void)
{
	kshim_ctx.rcu++;
	urcu_memb_read_lock();
}

void kshim_rcu_read_unlock(void)
{
	if (WARN_ON_ONCE(kshim_ctx.rcu <= 0))
		return;
	kshim_ctx.rcu--;
	tsan_release(&gp_sync);
	urcu_memb_read_unlock();
}

/* reader depth in either build (benchmark builds keep only liburcu's count) */
int kshim_rcu_depth(void)
{
#ifdef CONFIG_PROVE_RCU
	return kshim_ctx.rcu;
#else
	return (URCU_TLS(urcu_memb_reader).ctr & URCU_GP_CTR_NEST_MASK) / URCU_GP_COUNT;
#endif
}

/* failfast: end the read sections a failed test left open */
void kshim_rcu_release_all(void)
{
	int depth = kshim_rcu_depth();

	kshim_ctx.rcu = 0;
	while (depth-- > 0)
		urcu_memb_read_unlock();
}

void kshim_synchronize_rcu(const char *file, int line, const char *func)
{
	kshim_might_sleep(file, line, func);
	if (kshim_rcu_depth()) {
		/* would deadlock: already reported as a context violation */
		return;
	}
	urcu_memb_synchronize_rcu();
	tsan_acquire(&gp_sync);
}

/*
 * Callbacks: our own worker rather than liburcu's call_rcu threads, whose
 * idle poll costs ~10 ms per rcu_barrier(), which a test or a fuzz input
 * that tears its world down pays several times. The worker takes the
 * whole queue, waits one real grace period, then runs the batch; a
 * barrier waits until everything queued before it has run.
 *
 * As the kernel's RCU does, a callback waits to share a grace period
 * with others: until CB_BATCH are queued, a barrier waits or CB_DELAY_NS
 * have passed. One grace period per callback (sys_membarrier's IPIs and
 * a wake-up each) was an eighth of the reclaim suites' time.
 */
#define CB_BATCH	256
#define CB_DELAY_NS	(2 * 1000 * 1000L)
struct cb_rec {
	struct cb_rec *next;
	struct rcu_head *head;
	rcu_callback_t func;	/* NULL: kvfree ptr */
	void *ptr;
	int cpu;		/* the queuing CPU's: its callbacks run there */
};

static struct {
	pthread_mutex_t lock;
	struct kshim_event work, done;
	struct cb_rec *first, **last;
	unsigned long queued, taken, completed, batches;
	bool started;
} cb = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.last = &cb.first,
};

extern atomic_long_t kshim_async_count;
extern int kshim_async_inline_depth;	/* workqueue.c */
static int barriers_waiting;

int kshim_rcu_barriers_waiting(void)
{
	return __atomic_load_n(&barriers_waiting, __ATOMIC_RELAXED);
}

/* under cb.lock: the queue should not wait for more */
static bool cb_due(void)
{
	return cb.queued - cb.taken >= CB_BATCH || barriers_waiting;
}

unsigned long kshim_rcu_batches(void)
{
	unsigned long n;

	pthread_mutex_lock(&cb.lock);
	n = cb.batches;
	pthread_mutex_unlock(&cb.lock);
	return n;
}

/*
 * Each callback as on the CPU that queued it, as the kernel's per-CPU
 * callback lists run it, whichever thread runs the batch (the worker, or
 * a barrier of a world going away): what it frees or uncharges goes to
 * that CPU's caches and stocks.
 */
static void run_batch(struct cb_rec *rec)
{
	int home = kshim_ctx.cpu;

	/* a batch run while no barrier waits for it: beside the caller's code */
	if (!kshim_rcu_barriers_waiting())
		atomic_long_inc(&kshim_async_count);
	while (rec) {
		struct cb_rec *next = rec->next;

		tsan_acquire(rec);
		kshim_cpu_switch(rec->cpu);
		if (rec->func)
			rec->func(rec->head);
		else
			kshim_kfree(rec->ptr);
		free(rec);
		rec = next;
	}
	kshim_cpu_switch(home);
}

/*
 * in cb.lock, the queue not empty: take it, and after a grace period run
 * it (unlocked), as call_rcu()'s callbacks run; back in cb.lock
 */
static void take_and_run_batch(void)
{
	struct cb_rec *batch = cb.first;
	unsigned long upto = cb.queued;

	cb.taken = upto;
	cb.first = NULL;
	cb.last = &cb.first;
	pthread_mutex_unlock(&cb.lock);
	urcu_memb_synchronize_rcu();
	tsan_acquire(&gp_sync);
	run_batch(batch);
	pthread_mutex_lock(&cb.lock);
	cb.completed = upto;
	cb.batches++;
}

static void *cb_worker(void *arg)
{
	(void)arg;
	urcu_memb_register_thread();
	kshim_ctx.registered = true;
	pthread_mutex_lock(&cb.lock);
	for (;;) {
		while (!cb.first)
			kshim_event_wait(&cb.work, &cb.lock);
		if (!cb_due())
			kshim_event_wait_ns(&cb.work, &cb.lock, CB_DELAY_NS);
		/* a barrier may have taken the queue meanwhile (kshim_rcu_barrier()) */
		if (!cb.first)
			continue;
		take_and_run_batch();
		if (barriers_waiting) {
			/* after the unlock: a barrier woken would block on cb.lock */
			pthread_mutex_unlock(&cb.lock);
			kshim_event_wake(&cb.done);
			pthread_mutex_lock(&cb.lock);
		}
	}
	return NULL;
}

static void cb_enqueue(struct cb_rec *rec)
{
	pthread_t tid;
	bool wake;

	tsan_release(rec);
	rec->cpu = kshim_ctx.cpu;
	pthread_mutex_lock(&cb.lock);
	if (!cb.started) {
		cb.started = true;
		if (pthread_create(&tid, NULL, cb_worker, NULL))
			abort();
		pthread_detach(tid);
	}
	rec->next = NULL;
	/* the first starts the worker's delay, the CB_BATCH-th ends it */
	wake = !cb.first || cb.queued + 1 - cb.taken == CB_BATCH;
	*cb.last = rec;
	cb.last = &rec->next;
	cb.queued++;
	pthread_mutex_unlock(&cb.lock);
	/*
	 * after the unlock: the worker woken does not block on cb.lock at
	 * once; a world going away leaves the callbacks to the barrier
	 */
	if (wake && !__atomic_load_n(&kshim_async_inline_depth, __ATOMIC_RELAXED))
		kshim_event_wake(&cb.work);
}

/* callbacks queued while a world went away (kshim_async_inline()): the worker's now */
void kshim_rcu_kick(void)
{
	bool queued;

	pthread_mutex_lock(&cb.lock);
	queued = cb.first;
	pthread_mutex_unlock(&cb.lock);
	if (queued)
		kshim_event_wake(&cb.work);
}

static struct cb_rec *cb_alloc(void)
{
	struct cb_rec *rec = malloc(sizeof(*rec));

	if (!rec)
		abort();
	return rec;
}

void kshim_call_rcu(struct rcu_head *head, rcu_callback_t func)
{
	struct cb_rec *rec = cb_alloc();

	rec->head = head;
	rec->func = func;
	cb_enqueue(rec);
}

void kshim_rcu_barrier(void)
{
	unsigned long target;

	pthread_mutex_lock(&cb.lock);
	target = cb.queued;
	__atomic_add_fetch(&barriers_waiting, 1, __ATOMIC_RELAXED);
	/*
	 * a world going away (kshim_async_inline()): the barrier takes the
	 * queue and runs it itself after a grace period, as the worker would,
	 * unless the worker is running a batch (then it waits for that)
	 */
	if (__atomic_load_n(&kshim_async_inline_depth, __ATOMIC_RELAXED) &&
	    cb.first && cb.taken == cb.completed) {
		take_and_run_batch();
		if (barriers_waiting > 1) {
			pthread_mutex_unlock(&cb.lock);
			kshim_event_wake(&cb.done);
			pthread_mutex_lock(&cb.lock);
		}
	}
	if (cb.first) {
		/* the worker may be in its delay: the batch is due now */
		pthread_mutex_unlock(&cb.lock);
		kshim_event_wake(&cb.work);
		pthread_mutex_lock(&cb.lock);
	}
	while (cb.completed < target)
		kshim_event_wait(&cb.done, &cb.lock);
	__atomic_sub_fetch(&barriers_waiting, 1, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&cb.lock);
}

/* The kernel encodes the object's offset in the head; a record carries
 * the pointer instead, so the head itself is left untouched. */
void kshim_kvfree_rcu(void *ptr, struct rcu_head *head)
{
	struct cb_rec *rec;

	(void)head;
	if (!ptr)
		return;
	rec = cb_alloc();
	rec->func = NULL;
	rec->ptr = ptr;
	cb_enqueue(rec);
}

void kshim_kvfree_rcu_mightsleep(void *ptr, const char *file, int line, const char *func)
{
	kshim_synchronize_rcu(file, line, func);
	kshim_kfree(ptr);
}
