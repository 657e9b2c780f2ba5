// SPDX-License-Identifier: GPL-2.0-only
/*
 * The task model: one task_struct per thread, sleeps on virtual jiffies,
 * and the might_sleep() check (RCU reader, spinlock, preempt or irq off).
 */
#include <linux/sched.h>
#include <sched.h>
#include <linux/rcupdate.h>
#include <linux/workqueue.h>
#include <linux/completion.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <kshim/report.h>
#include <linux/rwsem.h>
#include <kshim/testbed.h>
#include <kshim/trace.h>

#define INITIAL_JIFFIES ((unsigned long)(unsigned int)(-300 * HZ))

volatile unsigned long jiffies = INITIAL_JIFFIES;
static __thread struct task_struct task;
/* a world task switched in on this thread (tb_task_switch) */
static __thread struct task_struct *switched_in;
static __thread unsigned long slept;
/* of those, slept in a memory stall (psi_memstall_enter()) */
static __thread unsigned long memstall_slept;
static int next_pid = 1;

int kshim_new_pid(void)
{
	return __atomic_fetch_add(&next_pid, 1, __ATOMIC_RELAXED);
}

void kshim_set_current(struct task_struct *t)
{
	switched_in = t;
}

struct task_struct *kshim_current(void)
{
	if (switched_in)
		return switched_in;
	if (!task.pid) {
		task.pid = __atomic_fetch_add(&next_pid, 1, __ATOMIC_RELAXED);
		snprintf(task.comm, sizeof(task.comm), "kshim/%d", task.pid);
		spin_lock_init(&task.alloc_lock);
		task.group_leader = &task;
	}
	return &task;
}

void kshim_might_sleep(const char *file, int line, const char *func)
{
	if (!IS_ENABLED(CONFIG_DEBUG_ATOMIC_SLEEP))
		return;
	if (kshim_rcu_depth())
		kshim_context_violation(file, line, func, "inside rcu_read_lock()");
	else if (kshim_ctx.irq_off)
		kshim_context_violation(file, line, func, "with interrupts disabled");
	else if (kshim_ctx.preempt)
		kshim_context_violation(file, line, func,
					"with preemption disabled (spinlock, local_lock or preempt_disable)");
	else if (kshim_ctx.in_irq)
		kshim_context_violation(file, line, func, "in interrupt context");
}

void (*kshim_kthread_yield)(void);

void kshim_cond_resched(const char *file, int line, const char *func)
{
	kshim_might_sleep(file, line, func);
	if (current->kshim_kthread && kshim_kthread_yield)
		kshim_kthread_yield();
}

long (*kshim_kthread_sleep)(long timeout);
void (*kshim_sleep_hook)(long jiffies_slept);
void (*kshim_kthread_wake)(struct task_struct *t);

void kshim_schedule(const char *file, int line, const char *func)
{
	kshim_might_sleep(file, line, func);
	if (current->kshim_kthread && kshim_kthread_sleep)
		kshim_kthread_sleep(MAX_SCHEDULE_TIMEOUT);
	else
		kshim_schedule_timeout(1, file, line, func);
}

long kshim_schedule_timeout(long timeout, const char *file, int line, const char *func)
{
	kshim_might_sleep(file, line, func);
	if (current->kshim_kthread && kshim_kthread_sleep)
		return kshim_kthread_sleep(timeout);
	if (timeout <= 0 || timeout == MAX_SCHEDULE_TIMEOUT)
		return 0;
	/*
	 * A task that set a sleeping state (prepare_to_wait()) sleeps until
	 * a wake_up() makes it TASK_RUNNING or the timeout passes: jiffy by
	 * jiffy, the rest of the world going on in between. What is left of
	 * the timeout is returned, as the kernel's schedule_timeout() does.
	 */
	if (current->__state != TASK_RUNNING) {
		while (timeout > 0 && current->__state != TASK_RUNNING &&
		       !kshim_signal_wakes(current->__state)) {
			__atomic_fetch_add(&jiffies, 1, __ATOMIC_RELAXED);
			slept++;
			memstall_slept += current->in_memstall;
			timeout--;
			kshim_timers_run();
			if (kshim_sleep_hook)
				kshim_sleep_hook(1);
		}
		current->__state = TASK_RUNNING;
		return timeout;
	}
	__atomic_fetch_add(&jiffies, timeout, __ATOMIC_RELAXED);
	slept += timeout;
	if (current->in_memstall)
		memstall_slept += timeout;
	kshim_timers_run();
	if (kshim_sleep_hook)
		kshim_sleep_hook(timeout);
	return 0;
}

void msleep(unsigned int msecs)
{
	schedule_timeout(msecs_to_jiffies(msecs));
}

void kshim_jiffies_advance(unsigned long delta)
{
	__atomic_fetch_add(&jiffies, delta, __ATOMIC_RELAXED);
	kshim_timers_run();
}

unsigned long kshim_jiffies(void)
{
	return __atomic_load_n(&jiffies, __ATOMIC_RELAXED);
}

unsigned long kshim_slept_jiffies(void)
{
	return slept;
}

unsigned long kshim_memstall_slept_jiffies(void)
{
	return memstall_slept;
}

void kshim_mutex_unlock(struct mutex *l, const char *file, int line, const char *func)
{
	if (__atomic_load_n(&l->owner, __ATOMIC_RELAXED) != (unsigned long)pthread_self()) {
		/* unlocking another's (or a free) mutex is undefined for pthreads */
		kshim_warn(file, line, func, "mutex owner != current",
			   "mutex_unlock by a task that does not hold it");
		return;
	}
	__atomic_store_n(&l->owner, 0, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&l->m);
}

static inline void kshim_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#endif
}

/*
 * A contended spinlock: counted as a waiter (spin_is_contended()), spin
 * on the word, and after a while yield the host CPU, whose holder may
 * have been descheduled (a kernel holder cannot be: preemption is off).
 */
void kshim_spin_lock_slowpath(spinlock_t *l)
{
	unsigned int v, spins = 0;

	__atomic_fetch_add(&l->val, KSHIM_SPIN_WAITER, __ATOMIC_RELAXED);
	for (;;) {
		v = __atomic_load_n(&l->val, __ATOMIC_RELAXED);
		if (!(v & KSHIM_SPIN_LOCKED) &&
		    __atomic_compare_exchange_n(&l->val, &v, v | KSHIM_SPIN_LOCKED, false,
						__ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
			break;
		if (++spins < 128)
			kshim_cpu_relax();
		else
			sched_yield();
	}
	__atomic_fetch_sub(&l->val, KSHIM_SPIN_WAITER, __ATOMIC_RELAXED);
}

void kshim_spin_bad_magic(spinlock_t *l, const char *func)
{
	/* one report per lock: it is a usable (zeroed) pthread mutex */
	if (__atomic_exchange_n(&l->magic, KSHIM_SPINLOCK_MAGIC, __ATOMIC_RELAXED) !=
	    KSHIM_SPINLOCK_MAGIC)
		kshim_warn(__FILE__, __LINE__, func, "lock->magic != SPINLOCK_MAGIC",
			   "spinlock bad magic: used before spin_lock_init");
}

int kshim_mutex_held_by_me(const struct mutex *l)
{
	return __atomic_load_n(&l->owner, __ATOMIC_RELAXED) == (unsigned long)pthread_self();
}

void kshim_lockdep_not_held(const char *file, int line, const char *func, const char *what)
{
	kshim_warn(file, line, func, what, "lockdep_assert_held(%s): not held", what);
}

/*
 * A thread kept from one world to the next (a worker, a kthread) starts
 * the next as a thread started for it would: a new task (a new pid, no
 * virtual time used, nothing slept) and an empty tracepoint record. The
 * task of the last world is gone with it: nothing refers to it any more.
 */
void kshim_thread_fresh(void)
{
	memset(&task, 0, sizeof(task));
	switched_in = NULL;
	slept = 0;
	memstall_slept = 0;
	kshim_trace_reset();
}

void kshim_sched_reset(void)
{
	jiffies = INITIAL_JIFFIES;
	slept = 0;
	memstall_slept = 0;
}

void init_completion(struct completion *x)
{
	pthread_mutex_init(&x->lock, NULL);
	pthread_cond_init(&x->wait, NULL);
	x->done = 0;
	x->inited = true;
}

/* the kernel would follow a NULL wait-queue list: a WARN names the call */
static void completion_check(struct completion *x, const char *func)
{
	if (!x->inited)
		kshim_warn(__FILE__, __LINE__, func, "!x->inited",
			   "%s: completion used before init_completion", func);
}

void reinit_completion(struct completion *x)
{
	completion_check(x, __func__);
	pthread_mutex_lock(&x->lock);
	x->done = 0;
	pthread_mutex_unlock(&x->lock);
}

void complete(struct completion *x)
{
	completion_check(x, __func__);
	pthread_mutex_lock(&x->lock);
	if (x->done != UINT_MAX)
		x->done++;
	pthread_cond_signal(&x->wait);
	pthread_mutex_unlock(&x->lock);
}

void complete_all(struct completion *x)
{
	completion_check(x, __func__);
	pthread_mutex_lock(&x->lock);
	x->done = UINT_MAX;
	pthread_cond_broadcast(&x->wait);
	pthread_mutex_unlock(&x->lock);
}

void kshim_wait_for_completion(struct completion *x, const char *file, int line, const char *func)
{
	completion_check(x, __func__);
	kshim_might_sleep(file, line, func);
	pthread_mutex_lock(&x->lock);
	while (!x->done)
		pthread_cond_wait(&x->wait, &x->lock);
	if (x->done != UINT_MAX)
		x->done--;
	pthread_mutex_unlock(&x->lock);
}

bool try_wait_for_completion(struct completion *x)
{
	bool ret = false;

	completion_check(x, __func__);
	pthread_mutex_lock(&x->lock);
	if (x->done) {
		if (x->done != UINT_MAX)
			x->done--;
		ret = true;
	}
	pthread_mutex_unlock(&x->lock);
	return ret;
}

bool completion_done(struct completion *x)
{
	bool ret;

	completion_check(x, __func__);
	pthread_mutex_lock(&x->lock);
	ret = x->done != 0;
	pthread_mutex_unlock(&x->lock);
	return ret;
}

void kshim_init_rwsem(struct rw_semaphore *sem)
{
	*sem = (struct rw_semaphore)__RWSEM_INITIALIZER(*sem);
}

/* one try of a sleeper: the waiters bit, which it set itself, does not stop it */
static bool rwsem_try_waiting(struct rw_semaphore *sem, bool write)
{
	long c = __atomic_load_n(&sem->count, __ATOMIC_RELAXED);

	for (;;) {
		long want;

		if (write ? (c & ~KSHIM_RWSEM_WAITERS) : (c & KSHIM_RWSEM_WRITER))
			return false;
		want = write ? c | KSHIM_RWSEM_WRITER : c + KSHIM_RWSEM_READER;
		if (__atomic_compare_exchange_n(&sem->count, &c, want, false,
						__ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
			return true;
	}
}

/*
 * The slow path: announce a waiter (new readers' trylocks now fail, as in
 * the kernel), sleep until the lock can be taken. The bit is set under
 * wait_lock before the last try, so a release either sees it and wakes us
 * or happened before that try.
 */
void kshim_rwsem_sleep(struct rw_semaphore *sem, bool write)
{
	pthread_mutex_lock(&sem->wait_lock);
	sem->waiters++;
	__atomic_fetch_or(&sem->count, KSHIM_RWSEM_WAITERS, __ATOMIC_RELAXED);
	while (!rwsem_try_waiting(sem, write))
		pthread_cond_wait(&sem->wake, &sem->wait_lock);
	if (!--sem->waiters)
		__atomic_fetch_and(&sem->count, ~KSHIM_RWSEM_WAITERS, __ATOMIC_RELAXED);
	else
		pthread_cond_broadcast(&sem->wake);	/* other readers may follow */
	pthread_mutex_unlock(&sem->wait_lock);
}

void kshim_rwsem_wake(struct rw_semaphore *sem)
{
	pthread_mutex_lock(&sem->wait_lock);
	pthread_cond_broadcast(&sem->wake);
	pthread_mutex_unlock(&sem->wait_lock);
}
