// SPDX-License-Identifier: GPL-2.0-only
/*
 * Kernel threads of the world: one kswapd per node, running the real
 * kswapd() of mm/vmscan.c on a thread of its own. The world is
 * deterministic because only one of the test's thread and the kthreads
 * runs at a time (a baton): a kthread that sleeps (schedule, or
 * schedule_timeout in virtual time) hands the baton back; the test's
 * thread hands it to a kthread at its yield points (after an allocation
 * woke kswapd, before each touch) when the kthread was woken or its
 * timeout passed. kswapd therefore balances a node right after the
 * allocation that woke it, and its own time is not the tasks' time (it
 * runs on another CPU).
 *
 * The threads outlive their worlds (a thread's start and join cost more
 * here than a small world's boot): node i's kswapd of the next world runs
 * on the thread node i's had, as a new task (kshim_thread_fresh()).
 */
#include <linux/kthread.h>
#include <linux/err.h>
#include <linux/mmzone.h>
#include <linux/sched.h>
#include <linux/cpumask.h>
#include <linux/jiffies.h>
#include <kshim/testbed.h>
#include <kshim/trace.h>
#include <time.h>
#include "world.h"
#include "../event.h"

/* mm/vmscan.c (globalized) */
int kswapd(void *p);

struct tb_kthread {
	/* the thread, kept from world to world: */
	pthread_t tid;
	bool alive;			/* the thread exists */
	bool go;			/* a world's kswapd to run (pgdat) */
	/* where it waits for that, and for the baton */
	struct kshim_event park, baton;
	u64 cpu_base;			/* its CPU time at the start of the world's */
	/* the world's kswapd (pgdat), or another kernel thread (fn): */
	struct pglist_data *pgdat;
	int (*fn)(void *data);
	void *data;
	const char *name;
	int ret;			/* fn's return */
	struct task_struct *task;
	bool runnable, stop, exited;
	bool preempted;			/* waiting in cond_resched() for the world */
	unsigned long deadline;		/* jiffies; 0: no timeout */
	struct kshim_trace *trace;	/* the thread's tracepoint record */
};

/* a kswapd per node, then khugepaged */
static struct tb_kthread kthreads[MAX_NUMNODES + 1];
static int nr_kthreads;
static pthread_mutex_t baton_lock = PTHREAD_MUTEX_INITIALIZER;
/*
 * the test's thread waits for the baton here, a kthread on its own; each
 * hand-off wakes its one taker after baton_lock is dropped (a waiter woken
 * would block on it at once: a second thread switch per hand-off)
 */
static struct kshim_event baton_main;
static struct tb_kthread *running;	/* NULL: the test's thread */
static __thread struct tb_kthread *self;
static bool settling;			/* run kthreads whatever their clocks */

static void baton_wait_for(struct tb_kthread *kt)
{
	while (running != kt)
		kshim_event_wait(&kt->baton, &baton_lock);
}

/* in baton_lock: the baton back to the test's thread, then wait for it again */
static void baton_return(struct tb_kthread *kt)
{
	running = NULL;
	pthread_mutex_unlock(&baton_lock);
	kshim_event_wake(&baton_main);
	pthread_mutex_lock(&baton_lock);
	baton_wait_for(kt);
}

/* in baton_lock, from the test's thread: the baton to kt until it hands it back */
static void baton_give(struct tb_kthread *kt, struct kshim_event *ev)
{
	running = kt;
	pthread_mutex_unlock(&baton_lock);
	kshim_event_wake(ev);
	pthread_mutex_lock(&baton_lock);
	while (running == kt)
		kshim_event_wait(&baton_main, &baton_lock);
}

static long kthread_sleep(long timeout)
{
	struct tb_kthread *kt = self;
	long remaining;

	pthread_mutex_lock(&baton_lock);
	if (current->__state == TASK_RUNNING) {	/* woken before it slept */
		pthread_mutex_unlock(&baton_lock);
		return timeout;
	}
	kt->deadline = timeout == MAX_SCHEDULE_TIMEOUT ? 0 : kshim_jiffies() + timeout;
	baton_return(kt);
	pthread_mutex_unlock(&baton_lock);
	current->__state = TASK_RUNNING;
	if (timeout == MAX_SCHEDULE_TIMEOUT)
		return timeout;
	remaining = (long)(kt->deadline - kshim_jiffies());
	kt->deadline = 0;
	return remaining > 0 ? remaining : 0;
}

/*
 * A kthread may run ahead of the world by one scheduler tick before it
 * waits: the granularity at which two CPUs interleave (and far fewer
 * thread switches than waiting at every cond_resched()).
 */
#define KTHREAD_SLACK_NS 1000000ULL

/* cond_resched(): a tick past world time, hand the baton back until the world catches up */
static void kthread_yield(void)
{
	struct tb_kthread *kt = self;

	if (!kt || kt->stop || READ_ONCE(settling) ||
	    current->kshim_vclock_ns <= tb_world_ns() + KTHREAD_SLACK_NS)
		return;
	pthread_mutex_lock(&baton_lock);
	kt->preempted = true;
	baton_return(kt);
	kt->preempted = false;
	pthread_mutex_unlock(&baton_lock);
}

static void kthread_wake(struct task_struct *t)
{
	int i;

	for (i = 0; i < nr_kthreads; i++)
		if (kthreads[i].task == t)
			WRITE_ONCE(kthreads[i].runnable, true);
}

bool kthread_should_stop(void)
{
	return self && READ_ONCE(self->stop);
}

/* linux/kthread.h: a thread that is never scheduled, so never stopped either */
bool kthread_freezable_should_stop(bool *was_frozen)
{
	if (was_frozen)
		*was_frozen = false;
	return kthread_should_stop();
}

/*
 * kswapd() allows itself its node's CPUs (set_cpus_allowed_ptr): the
 * node's last CPU, or the machine's last for a node without CPUs
 */
static int kthread_cpu(int nid)
{
	int cpu, last = kshim_nr_cpus - 1;

	for_each_cpu(cpu, cpumask_of_node(nid))
		last = cpu;
	return last;
}

static u64 thread_cpu_ns(pthread_t tid)
{
	struct timespec ts;
	clockid_t clk;

	if (pthread_getcpuclockid(tid, &clk) || clock_gettime(clk, &ts))
		return 0;
	return (u64)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* one world's kswapd on this thread, from its start to its kthread_stop() */
static void kthread_run_world(struct tb_kthread *kt)
{
	kshim_thread_fresh();
	/* kswapd on its node's last CPU; an unbound thread on the machine's last */
	kshim_ctx.cpu = kt->pgdat ? kthread_cpu(kt->pgdat->node_id) : kshim_nr_cpus - 1;
	/* it starts working at the world's time */
	current->kshim_vclock_ns = tb_world_ns();
	current->kshim_kthread = 1;
	/* made by kthread_run(), as kswapd_run() makes it: a kernel thread */
	current->flags |= PF_KTHREAD;
	if (kt->pgdat)
		snprintf(current->comm, sizeof(current->comm), "kswapd%d", kt->pgdat->node_id);
	else
		snprintf(current->comm, sizeof(current->comm), "%s", kt->name);
	pthread_mutex_lock(&baton_lock);
	kt->trace = &kshim_trace;
	kt->task = current;
	if (kt->pgdat)
		kt->pgdat->kswapd = current;
	baton_wait_for(kt);
	pthread_mutex_unlock(&baton_lock);

	if (kt->pgdat)
		kswapd(kt->pgdat);
	else
		kt->ret = kt->fn(kt->data);

	current->kshim_kthread = 0;
	current->flags &= ~PF_KTHREAD;
}

static void *kthread_main(void *arg)
{
	struct tb_kthread *kt = arg;

	self = kt;
	kshim_thread_enter(0);
	pthread_mutex_lock(&baton_lock);
	for (;;) {
		while (!kt->go)
			kshim_event_wait(&kt->park, &baton_lock);
		kt->go = false;
		pthread_mutex_unlock(&baton_lock);
		kthread_run_world(kt);
		pthread_mutex_lock(&baton_lock);
		kt->exited = true;
		if (kt->pgdat)
			kt->pgdat->kswapd = NULL;
		running = NULL;
		pthread_mutex_unlock(&baton_lock);
		kshim_event_wake(&baton_main);
		pthread_mutex_lock(&baton_lock);
	}
	return NULL;
}

static bool kthread_due(struct tb_kthread *kt)
{
	if (kt->exited)
		return false;
	if (kt->preempted)
		return kt->stop || settling || kt->task->kshim_vclock_ns <= tb_world_ns();
	return READ_ONCE(kt->runnable) || kt->stop ||
	       (kt->deadline && time_after_eq(kshim_jiffies(), kt->deadline));
}

/* hand the baton to kt until it sleeps or yields again */
static void kthread_run_once(struct tb_kthread *kt)
{
	/* a sleeper that wakes starts working at the world's time */
	if (!kt->preempted && kt->task->kshim_vclock_ns < tb_world_ns())
		kt->task->kshim_vclock_ns = tb_world_ns();
	pthread_mutex_lock(&baton_lock);
	WRITE_ONCE(kt->runnable, false);
	baton_give(kt, &kt->baton);
	pthread_mutex_unlock(&baton_lock);
}

void tb_kthreads_run(void)
{
	int i, rounds = 0;
	bool ran;

	if (self || !nr_kthreads || kshim_atomic_depth())
		return;
	do {
		ran = false;
		for (i = 0; i < nr_kthreads; i++) {
			if (!kthread_due(&kthreads[i]))
				continue;
			kthread_run_once(&kthreads[i]);
			tb_flushers_run();
			ran = true;
		}
		/* a kthread that never sleeps for long is a hang: fail fast */
		if (++rounds > 10000) {
			fprintf(stderr, "tb: kswapd woke 10000 times without the world moving on\n");
			abort();
		}
	} while (ran);
}

const struct kshim_trace *tb_kswapd_trace(int nid)
{
	int i;

	for (i = 0; i < nr_kthreads; i++)
		if (kthreads[i].pgdat && kthreads[i].pgdat->node_id == nid)
			return kthreads[i].trace;
	return NULL;
}

/* host CPU time node nid's kswapd thread has used: what its reclaim costs here */
u64 tb_kswapd_cpu_ns(int nid)
{
	int i;

	for (i = 0; i < nr_kthreads; i++) {
		if (!kthreads[i].pgdat || kthreads[i].pgdat->node_id != nid || kthreads[i].exited)
			continue;
		return thread_cpu_ns(kthreads[i].tid) - kthreads[i].cpu_base;
	}
	return 0;
}

void tb_kthreads_settle(void)
{
	WRITE_ONCE(settling, true);
	tb_kthreads_run();
	WRITE_ONCE(settling, false);
}

/*
 * kt's thread, made once and kept from world to world, runs the world's
 * kswapd (pgdat) or fn into its first sleep: the baton is its from the start
 */
static int kthread_launch(struct tb_kthread *kt, struct pglist_data *pgdat,
			  int (*fn)(void *data), void *data, const char *name)
{
	pthread_mutex_lock(&baton_lock);
	/* the thread keeps its own fields; the world's start empty */
	memset(&kt->pgdat, 0, sizeof(*kt) - offsetof(struct tb_kthread, pgdat));
	kt->pgdat = pgdat;
	kt->fn = fn;
	kt->data = data;
	kt->name = name;
	if (!kt->alive) {
		kt->park = (struct kshim_event){ 0 };
		kt->baton = (struct kshim_event){ 0 };
		if (pthread_create(&kt->tid, NULL, kthread_main, kt)) {
			pthread_mutex_unlock(&baton_lock);
			return -ENOMEM;
		}
		kt->alive = true;
	}
	kt->cpu_base = thread_cpu_ns(kt->tid);
	nr_kthreads++;
	kt->go = true;
	baton_give(kt, &kt->park);
	pthread_mutex_unlock(&baton_lock);
	return 0;
}

/*
 * Another kernel thread (khugepaged, which start_stop_khugepaged() runs
 * while THP is on): made by kthread_run(), started after the kswapds once
 * the machine has booted (hugepage_init() asks for it earlier), and
 * scheduled as they are. Its task is this placeholder, the one thing
 * kthread_stop() is given back.
 */
static struct {
	bool wanted;
	int (*fn)(void *data);
	void *data;
	const char *name;
	struct tb_kthread *kt;		/* launched, NULL before */
} other;
static struct task_struct other_task;
static bool kthreads_on;		/* the kswapds run: others start at once */

static int other_launch(void)
{
	struct tb_kthread *kt = &kthreads[nr_kthreads];
	int err = kthread_launch(kt, NULL, other.fn, other.data, other.name);

	if (!err)
		other.kt = kt;
	return err;
}

struct task_struct *kshim_kthread_unscheduled(int (*threadfn)(void *data), void *data,
					      const char *name)
{
	if (WARN_ON_ONCE(other.wanted))
		return ERR_PTR(-EBUSY);
	other = (typeof(other)){ .wanted = true, .fn = threadfn, .data = data, .name = name };
	if (kthreads_on && other_launch()) {
		other.wanted = false;
		return ERR_PTR(-ENOMEM);
	}
	return &other_task;
}

int kthread_stop(struct task_struct *k)
{
	struct tb_kthread *kt = other.kt;
	int ret = 0;

	if (WARN_ON(k != &other_task || !other.wanted))
		return -EINVAL;
	if (kt) {
		kt->stop = true;
		while (!kt->exited)
			kthread_run_once(kt);
		ret = kt->ret;
		/* the last one launched: the kswapds stay */
		nr_kthreads--;
	}
	other.wanted = false;
	other.kt = NULL;
	return ret;
}

int tb_kswapd_start_all(void)
{
	int nid, err;

	kshim_kthread_sleep = kthread_sleep;
	kshim_kthread_wake = kthread_wake;
	kshim_kthread_yield = kthread_yield;
	for (nid = 0; nid < (int)nr_node_ids; nid++) {
		err = kthread_launch(&kthreads[nid], NODE_DATA(nid), NULL, NULL, NULL);
		if (err)
			return err;
	}
	kthreads_on = true;
	return other.wanted ? other_launch() : 0;
}

void tb_kswapd_stop_all(void)
{
	int i;

	for (i = 0; i < nr_kthreads; i++) {
		struct tb_kthread *kt = &kthreads[i];

		kt->stop = true;
		while (!kt->exited)
			kthread_run_once(kt);
		/* the thread waits for the next world's kthread (kthread_main()) */
	}
	nr_kthreads = 0;
	kthreads_on = false;
	/* khugepaged, if it ran, has returned: kthread_stop() finds it gone */
	other.kt = NULL;
}
