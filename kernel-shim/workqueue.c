// SPDX-License-Identifier: GPL-2.0-only
/*
 * Workqueues: one worker thread per virtual CPU, started on first use and
 * kept from world to world (a thread's start and join cost more here than
 * a small world's boot): at each world's first work a worker becomes a new
 * task, as a thread started for that world would be (kshim_thread_fresh()).
 * A work item is pending at most once, and
 * flush_work() waits until it is neither queued nor running, which is all
 * the mm code relies on.
 */
#include <linux/workqueue.h>
#include <linux/sched.h>
#include <kshim/testbed.h>
#include <linux/jiffies.h>
#include <linux/rcupdate.h>
#include "event.h"

struct workqueue_struct {
	const char *name;
};
static struct workqueue_struct wq_system = { "events" }, wq_unbound = { "events_unbound" };
struct workqueue_struct *system_wq = &wq_system;
struct workqueue_struct *system_unbound_wq = &wq_unbound;

/*
 * a subsystem's workqueue lives as long as the kernel: one per name, kept
 * across worlds (each boot's init asks for it again)
 */
struct workqueue_struct *alloc_workqueue(const char *fmt, unsigned int flags, int max_active, ...)
{
	static struct workqueue_struct wqs[8];
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	struct workqueue_struct *wq = NULL;
	int i;

	pthread_mutex_lock(&lock);
	for (i = 0; i < (int)(sizeof(wqs) / sizeof(wqs[0])) && !wq; i++)
		if (!wqs[i].name || !strcmp(wqs[i].name, fmt)) {
			wqs[i].name = fmt;
			wq = &wqs[i];
		}
	pthread_mutex_unlock(&lock);
	return wq;
}

struct worker {
	pthread_t tid;
	int cpu;
	bool started;
	struct list_head queue;
	struct work_struct *running;
	struct kshim_event wake;	/* work queued for this worker */
	unsigned long world;		/* the world whose task it is (wq_world) */
};
static struct worker workers[KSHIM_MAX_CPUS];
static pthread_mutex_t wq_lock = PTHREAD_MUTEX_INITIALIZER;
/* a work done: flushers wait on it (workers on their own wake) */
static struct kshim_event wq_done;
/* the world the workers serve: kshim_workqueue_teardown() moves it on */
static unsigned long wq_world;
/* flushers waiting, and the async runs of kshim_async_runs() (rcu.c's too) */
static int wq_flushers;
/* of those, the ones that wait for one work (flush_work, fired timers) */
static int wq_work_waiters;
atomic_long_t kshim_async_count;
int kshim_rcu_barriers_waiting(void);

unsigned long kshim_async_runs(void)
{
	return atomic_long_read(&kshim_async_count);
}

/*
 * A world going away (kshim_async_inline()): works queued are left for the
 * flusher, which runs them itself, each as on its worker's CPU, and RCU
 * callbacks for the barrier (rcu.c), instead of a hand-off to a worker
 * thread and back for each: the chain of works and callbacks that frees
 * the cgroups cost a dozen thread switches per world. Nesting count.
 */
int kshim_async_inline_depth;

void kshim_rcu_kick(void);

void kshim_async_inline(bool on)
{
	bool wake[KSHIM_MAX_CPUS] = { false };
	int cpu;

	if (__atomic_add_fetch(&kshim_async_inline_depth, on ? 1 : -1, __ATOMIC_RELAXED) || on)
		return;
	/* what was queued since and not flushed goes to the threads, as it would have */
	pthread_mutex_lock(&wq_lock);
	for (cpu = 0; cpu < KSHIM_MAX_CPUS; cpu++)
		wake[cpu] = workers[cpu].started && !list_empty(&workers[cpu].queue);
	pthread_mutex_unlock(&wq_lock);
	for (cpu = 0; cpu < KSHIM_MAX_CPUS; cpu++)
		if (wake[cpu])
			kshim_event_wake(&workers[cpu].wake);
	kshim_rcu_kick();
}

static bool async_inline(void)
{
	return __atomic_load_n(&kshim_async_inline_depth, __ATOMIC_RELAXED) > 0;
}

static __thread bool in_worker;
static __thread struct worker *self_worker;	/* the worker this thread is */

#define WORK_PENDING 1L

static void *worker_main(void *arg)
{
	struct worker *w = arg;

	kshim_thread_enter(w->cpu);
	in_worker = true;
	self_worker = w;
	pthread_mutex_lock(&wq_lock);
	for (;;) {
		struct work_struct *work;

		/* a flusher may be running one of its works (run_inline()) */
		if (list_empty(&w->queue) || w->running) {
			kshim_event_wait(&w->wake, &wq_lock);
			continue;
		}
		if (w->world != wq_world) {
			/* a new world's first work: a new task, as a new thread has */
			w->world = wq_world;
			kshim_thread_fresh();
		}
		work = list_first_entry(&w->queue, struct work_struct, entry);
		list_del_init(&work->entry);
		atomic_long_set(&work->data, 0);
		w->running = work;
		if (!wq_flushers && !kshim_rcu_barriers_waiting())
			atomic_long_inc(&kshim_async_count);
		pthread_mutex_unlock(&wq_lock);
		work->func(work);
		pthread_mutex_lock(&wq_lock);
		w->running = NULL;
		/*
		 * Wake the flushers only when one may be done: a flush_work()
		 * (or a timer's wait) at every completion, a flush_workqueue()
		 * when this worker goes idle; and after the unlock, or each one
		 * woken would block on wq_lock at once.
		 */
		if (wq_work_waiters || (wq_flushers && list_empty(&w->queue))) {
			pthread_mutex_unlock(&wq_lock);
			kshim_event_wake(&wq_done);
			pthread_mutex_lock(&wq_lock);
		}
	}
	return NULL;
}

/* delayed works waiting for virtual time, in wq_lock */
static LIST_HEAD(timers);

/* the worker to wake, after wq_lock is dropped (it would block on it at once) */
static struct worker *enqueue_locked(int cpu, struct work_struct *work)
{
	struct worker *w;

	if (cpu < 0 || cpu >= (int)kshim_nr_cpus)
		cpu = kshim_ctx.cpu;
	w = &workers[cpu];
	if (!w->started) {
		INIT_LIST_HEAD(&w->queue);
		w->wake = (struct kshim_event){ 0 };
		w->cpu = cpu;
		w->world = wq_world;
		w->started = true;
		if (pthread_create(&w->tid, NULL, worker_main, w))
			abort();
	}
	list_add_tail(&work->entry, &w->queue);
	return w;
}

bool queue_work_on(int cpu, struct workqueue_struct *wq, struct work_struct *work)
{
	struct worker *w;

	(void)wq;
	pthread_mutex_lock(&wq_lock);
	if (atomic_long_read(&work->data) & WORK_PENDING) {
		pthread_mutex_unlock(&wq_lock);
		return false;
	}
	atomic_long_set(&work->data, WORK_PENDING);
	w = enqueue_locked(cpu, work);
	pthread_mutex_unlock(&wq_lock);
	if (!async_inline())
		kshim_event_wake(&w->wake);
	return true;
}

/*
 * A delayed work waits on the timer list until virtual time passes its
 * expiry (kshim_timers_run, called whenever jiffies advance); it is
 * pending meanwhile, so cancel_work_sync() takes it off either list.
 */
bool queue_delayed_work_on(int cpu, struct workqueue_struct *wq, struct delayed_work *dw,
			   unsigned long delay)
{
	if (!delay)
		return queue_work_on(cpu, wq, &dw->work);
	pthread_mutex_lock(&wq_lock);
	if (atomic_long_read(&dw->work.data) & WORK_PENDING) {
		pthread_mutex_unlock(&wq_lock);
		return false;
	}
	atomic_long_set(&dw->work.data, WORK_PENDING);
	dw->timer_expires = kshim_jiffies() + delay;
	dw->cpu = cpu;
	list_add_tail(&dw->work.entry, &timers);
	pthread_mutex_unlock(&wq_lock);
	return true;
}

/* in wq_lock: a worker is running the work */
static bool work_running(struct work_struct *work)
{
	int cpu;

	for (cpu = 0; cpu < KSHIM_MAX_CPUS; cpu++)
		if (workers[cpu].running == work)
			return true;
	return false;
}

/* in wq_lock: the worker whose queue holds work, or NULL */
static struct worker *queued_at(struct work_struct *work)
{
	struct work_struct *q;
	int cpu;

	for (cpu = 0; cpu < KSHIM_MAX_CPUS; cpu++) {
		if (!workers[cpu].started)
			continue;
		list_for_each_entry(q, &workers[cpu].queue, entry)
			if (q == work)
				return &workers[cpu];
	}
	return NULL;
}

/*
 * in wq_lock: a work queued on a worker or running there (a periodic work
 * that queued itself again is pending on the timer list: not at a worker)
 */
static bool work_at_worker(struct work_struct *work)
{
	return work_running(work) || queued_at(work);
}

/*
 * Whether the task moving virtual time may wait for the works whose timers
 * that fired: it could sleep here (no spinlock, RCU reader or irq section)
 * and is not a worker or kernel thread, which the works may need.
 */
static bool may_wait_for_timers(void)
{
	return !in_worker && !kshim_atomic_depth() && !kshim_rcu_depth() &&
	       !kshim_ctx.in_irq && !current->kshim_kthread;
}

#define NR_FIRED 32

/*
 * Delayed works whose expiry virtual time has passed are queued to their
 * CPU's worker. The virtual CPUs keep pace with virtual time: a work due
 * at T has run once the task that moved time past T goes on (where that
 * task may sleep), as it would have on an idle CPU. Otherwise the moment it
 * runs, e.g. the periodic memcg stats flush that reclaim's decisions read,
 * would follow the host's scheduling, not the virtual clock.
 */
void kshim_timers_run(void)
{
	struct delayed_work *dw, *tmp;
	struct work_struct *fired[NR_FIRED];
	unsigned long now = kshim_jiffies();
	bool wake[KSHIM_MAX_CPUS] = { false };
	int wait = -1;		/* may_wait_for_timers(), once a timer fired */
	int cpu, i, nr_fired = 0;

	/* virtual time moved: the watchdog sees progress */
	kshim_progress();

	pthread_mutex_lock(&wq_lock);
	list_for_each_entry_safe(dw, tmp, &timers, work.entry) {
		if (time_before(now, dw->timer_expires))
			continue;
		if (wait < 0) {
			/* the fired works run while this task waits for them: not async */
			wait = may_wait_for_timers();
			wq_flushers += wait;
		}
		list_del_init(&dw->work.entry);
		wake[enqueue_locked(dw->cpu, &dw->work)->cpu] = true;
		if (nr_fired < NR_FIRED)
			fired[nr_fired++] = &dw->work;
	}
	pthread_mutex_unlock(&wq_lock);
	for (cpu = 0; cpu < KSHIM_MAX_CPUS; cpu++)
		if (wake[cpu])
			kshim_event_wake(&workers[cpu].wake);
	if (wait <= 0)
		return;
	pthread_mutex_lock(&wq_lock);
	wq_work_waiters++;
	for (i = 0; i < nr_fired; i++)
		while (work_at_worker(fired[i]))
			kshim_event_wait(&wq_done, &wq_lock);
	wq_work_waiters--;
	wq_flushers--;
	pthread_mutex_unlock(&wq_lock);
}

/*
 * The delayed works pending when a harness's world was booted (a periodic
 * flush), and the time each had left: kshim_world_rewind() gives them that
 * time again, so a reused world's timers fire as a fresh world's would.
 */
#define NR_MARKED 16
static struct {
	struct delayed_work *dw;
	unsigned long left;
} marked[NR_MARKED];
static int nr_marked;

/* on: mark the delayed works pending now; off: none */
void kshim_timers_mark(bool on)
{
	struct delayed_work *dw;
	unsigned long now = kshim_jiffies();

	pthread_mutex_lock(&wq_lock);
	nr_marked = 0;
	list_for_each_entry(dw, &timers, work.entry) {
		if (!on)
			break;
		if (nr_marked == NR_MARKED)
			break;
		marked[nr_marked].dw = dw;
		marked[nr_marked++].left = dw->timer_expires - now;
	}
	pthread_mutex_unlock(&wq_lock);
}

/* 0, or how many marked timers are no longer pending, or pending unmarked */
int kshim_timers_restore(void)
{
	struct delayed_work *dw;
	unsigned long now = kshim_jiffies();
	int i, bad = 0, found = 0;

	pthread_mutex_lock(&wq_lock);
	list_for_each_entry(dw, &timers, work.entry) {
		for (i = 0; i < nr_marked && marked[i].dw != dw; i++)
			;
		if (i == nr_marked) {
			bad++;
			continue;
		}
		dw->timer_expires = now + marked[i].left;
		found++;
	}
	pthread_mutex_unlock(&wq_lock);
	return bad + nr_marked - found;
}

static bool work_busy(struct work_struct *work)
{
	return (atomic_long_read(&work->data) & WORK_PENDING) || work_running(work);
}

/*
 * in wq_lock: a work that a worker flushes waits in that worker's own
 * queue (lru_add_drain_all() from a work): the kernel's pool would start
 * another worker for it; this one runs it in place
 */
static bool run_own_queued(struct work_struct *work)
{
	struct work_struct *q;

	if (!self_worker || !(atomic_long_read(&work->data) & WORK_PENDING))
		return false;
	list_for_each_entry(q, &self_worker->queue, entry) {
		if (q != work)
			continue;
		list_del_init(&work->entry);
		atomic_long_set(&work->data, 0);
		pthread_mutex_unlock(&wq_lock);
		work->func(work);
		pthread_mutex_lock(&wq_lock);
		return true;
	}
	return false;
}

/*
 * in wq_lock, with async_inline(), from a thread that is no worker: run
 * worker w's first queued work here, on w's CPU, as w would; false when
 * it has none or runs one (the flusher waits for that as before)
 */
static bool run_inline(struct worker *w)
{
	struct work_struct *work;
	int home = kshim_ctx.cpu;

	if (!async_inline() || in_worker || !w->started || w->running ||
	    list_empty(&w->queue) || kshim_atomic_depth())
		return false;
	work = list_first_entry(&w->queue, struct work_struct, entry);
	list_del_init(&work->entry);
	atomic_long_set(&work->data, 0);
	w->running = work;
	pthread_mutex_unlock(&wq_lock);
	kshim_cpu_switch(w->cpu);
	work->func(work);
	kshim_cpu_switch(home);
	pthread_mutex_lock(&wq_lock);
	w->running = NULL;
	/* the worker, if it waited for this one, goes on with its queue */
	if (!list_empty(&w->queue) && !async_inline()) {
		pthread_mutex_unlock(&wq_lock);
		kshim_event_wake(&w->wake);
		pthread_mutex_lock(&wq_lock);
	}
	return true;
}

bool flush_work(struct work_struct *work)
{
	bool waited = false;

	might_sleep();
	pthread_mutex_lock(&wq_lock);
	wq_flushers++;
	wq_work_waiters++;
	while (work_busy(work)) {
		struct worker *w;

		if (run_own_queued(work))
			continue;
		/* inline: the works queued before it on its worker, then it */
		w = async_inline() ? queued_at(work) : NULL;
		if (w && run_inline(w))
			continue;
		waited = true;
		kshim_event_wait(&wq_done, &wq_lock);
	}
	wq_work_waiters--;
	wq_flushers--;
	pthread_mutex_unlock(&wq_lock);
	return waited;
}

bool cancel_work_sync(struct work_struct *work)
{
	bool was_pending = false;

	pthread_mutex_lock(&wq_lock);
	if (atomic_long_read(&work->data) & WORK_PENDING) {
		list_del_init(&work->entry);
		atomic_long_set(&work->data, 0);
		was_pending = true;
	}
	pthread_mutex_unlock(&wq_lock);
	flush_work(work);
	return was_pending;
}

void flush_workqueue(struct workqueue_struct *wq)
{
	int cpu;

	(void)wq;
	might_sleep();
	pthread_mutex_lock(&wq_lock);
	wq_flushers++;
	for (cpu = 0; cpu < KSHIM_MAX_CPUS; cpu++)
		while (workers[cpu].started &&
		       (!list_empty(&workers[cpu].queue) || workers[cpu].running)) {
			if (run_inline(&workers[cpu])) {
				/* a work may queue another on an earlier CPU */
				cpu = -1;
				break;
			}
			kshim_event_wait(&wq_done, &wq_lock);
		}
	wq_flushers--;
	pthread_mutex_unlock(&wq_lock);
}

/* the workers stay, idle (every work ran: kshim_world_teardown() flushed) */
void kshim_workqueue_teardown(void)
{
	struct delayed_work *dw, *tmp;

	pthread_mutex_lock(&wq_lock);
	/* timers still waiting die with the world (the kernel's never stop) */
	list_for_each_entry_safe(dw, tmp, &timers, work.entry) {
		list_del_init(&dw->work.entry);
		atomic_long_set(&dw->work.data, 0);
	}
	wq_world++;
	pthread_mutex_unlock(&wq_lock);
}
