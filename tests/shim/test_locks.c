// SPDX-License-Identifier: GPL-2.0-only
/*
 * Locks: real mutual exclusion, the kernel's trylock semantics (including
 * rwsem writer preference), and might_sleep() reports from every kind of
 * atomic section, each naming its call site.
 */
#include <linux/kernel.h>
#include <linux/spinlock.h>
#include <linux/mutex.h>
#include <linux/rwsem.h>
#include <linux/rcupdate.h>
#include <sched.h>
#include "tb_test.h"

#define NR_LOOPS 20000
/* bound on polls for a queued writer to show; never reached when it works */
#define MAX_POLLS 2000000

static DEFINE_SPINLOCK(counter_lock);
static DEFINE_MUTEX(static_mutex);
static DECLARE_RWSEM(static_rwsem);

static void wait_flag(int *flag)
{
	while (!__atomic_load_n(flag, __ATOMIC_ACQUIRE))
		sched_yield();
}

static void set_flag(int *flag)
{
	__atomic_store_n(flag, 1, __ATOMIC_RELEASE);
}

struct counter {
	int value;
	spinlock_t *lock;
};

/* Plain increments: only the lock keeps updates from being lost. */
static void locked_increments(void *arg, unsigned int i)
{
	struct counter *c = arg;
	int n, v;

	for (n = 0; n < NR_LOOPS; n++) {
		spin_lock(c->lock);
		v = c->value;
		if (!(n % 32))
			sched_yield();
		c->value = v + 1;
		spin_unlock(c->lock);
	}
}

static void test_spinlock_mutual_exclusion(void **state)
{
	spinlock_t lock;
	struct counter c = { .lock = &lock };

	spin_lock_init(&lock);
	tb_run_threads(4, locked_increments, &c);
	assert_int_equal(c.value, 4 * NR_LOOPS);
	/* a static DEFINE_SPINLOCK works as well */
	c.value = 0;
	c.lock = &counter_lock;
	tb_run_threads(3, locked_increments, &c);
	assert_int_equal(c.value, 3 * NR_LOOPS);
}

struct trylock_race {
	spinlock_t lock;
	struct mutex mutex;
	int held, release, released;
	int try_while_held, try_after_release;
	bool preemptible_after_fail;
};

static void spin_holder_trier(void *arg, unsigned int i)
{
	struct trylock_race *t = arg;

	if (i == 0) {
		spin_lock(&t->lock);
		set_flag(&t->held);
		wait_flag(&t->release);
		spin_unlock(&t->lock);
		set_flag(&t->released);
		return;
	}
	wait_flag(&t->held);
	t->try_while_held = spin_trylock(&t->lock);
	t->preemptible_after_fail = preemptible();
	set_flag(&t->release);
	wait_flag(&t->released);
	t->try_after_release = spin_trylock(&t->lock);
	if (t->try_after_release)
		spin_unlock(&t->lock);
}

static void test_spin_trylock_contended(void **state)
{
	struct trylock_race t = { 0 };

	spin_lock_init(&t.lock);
	tb_run_threads(2, spin_holder_trier, &t);
	assert_int_equal(t.try_while_held, 0);
	/* a failed trylock gives preemption back */
	assert_true(t.preemptible_after_fail);
	assert_int_equal(t.try_after_release, 1);
	assert_false(spin_is_locked(&t.lock));
}

struct contended {
	spinlock_t lock;
	int held, seen, waiter_got_it;
};

/* thread 1 waits in spin_lock() until thread 0 has seen it waiting */
static void spin_holder_waiter(void *arg, unsigned int i)
{
	struct contended *c = arg;
	int tries;

	if (i == 0) {
		spin_lock(&c->lock);
		set_flag(&c->held);
		for (tries = 0; tries < 10000000 && !spin_is_contended(&c->lock); tries++)
			sched_yield();
		c->seen = spin_is_contended(&c->lock);
		spin_unlock(&c->lock);
		return;
	}
	wait_flag(&c->held);
	spin_lock(&c->lock);
	c->waiter_got_it = 1;
	spin_unlock(&c->lock);
}

/* spin_is_contended(): a waiter is queued (vmscan.c's lru_gen_look_around) */
static void test_spin_is_contended_while_a_waiter_spins(void **state)
{
	struct contended c = { 0 };

	spin_lock_init(&c.lock);
	assert_false(spin_is_contended(&c.lock));
	tb_run_threads(2, spin_holder_waiter, &c);
	assert_true(c.seen);
	assert_true(c.waiter_got_it);
	assert_false(spin_is_contended(&c.lock));
	assert_false(spin_is_locked(&c.lock));
}

static void mutex_holder_trier(void *arg, unsigned int i)
{
	struct trylock_race *t = arg;

	if (i == 0) {
		mutex_lock(&t->mutex);
		set_flag(&t->held);
		wait_flag(&t->release);
		mutex_unlock(&t->mutex);
		set_flag(&t->released);
		return;
	}
	wait_flag(&t->held);
	t->try_while_held = mutex_trylock(&t->mutex);
	set_flag(&t->release);
	wait_flag(&t->released);
	t->try_after_release = mutex_trylock(&t->mutex);
	if (t->try_after_release)
		mutex_unlock(&t->mutex);
}

static void test_mutex_trylock(void **state)
{
	struct trylock_race t = { 0 };

	mutex_init(&t.mutex);
	assert_true(mutex_trylock(&t.mutex));
	assert_true(mutex_is_locked(&t.mutex));
	/* held by the caller itself: the kernel's trylock still fails */
	assert_false(mutex_trylock(&t.mutex));
	mutex_unlock(&t.mutex);
	assert_false(mutex_is_locked(&t.mutex));
	tb_run_threads(2, mutex_holder_trier, &t);
	assert_int_equal(t.try_while_held, 0);
	assert_int_equal(t.try_after_release, 1);
	mutex_destroy(&t.mutex);
	assert_true(mutex_trylock(&static_mutex));
	mutex_unlock(&static_mutex);
}

struct rwsem_race {
	struct rw_semaphore *sem;
	int reader_in, solo_done, writer_going, checked;
	int writer_got_it;
	int read_try_with_reader;	/* another reader holds it */
	int write_try_with_reader;
	int read_try_with_writer;	/* a writer holds it */
	bool read_try_failed_queued;	/* a writer waits behind a reader */
};

/*
 * Thread 0 holds the rwsem for read; thread 2 tries it beside that reader;
 * then thread 1 queues for write while thread 2 polls down_read_trylock until the queued writer makes it fail, then
 * lets the reader go. Without writer preference the poll never fails.
 */
static void rwsem_roles(void *arg, unsigned int i)
{
	struct rwsem_race *r = arg;
	long n;

	if (i == 0) {
		down_read(r->sem);
		set_flag(&r->reader_in);
		wait_flag(&r->checked);
		up_read(r->sem);
	} else if (i == 1) {
		wait_flag(&r->solo_done);
		set_flag(&r->writer_going);
		down_write(r->sem);
		r->writer_got_it = 1;
		up_write(r->sem);
	} else {
		wait_flag(&r->reader_in);
		r->read_try_with_reader = down_read_trylock(r->sem);
		if (r->read_try_with_reader)
			up_read(r->sem);
		r->write_try_with_reader = down_write_trylock(r->sem);
		if (r->write_try_with_reader)
			up_write(r->sem);
		set_flag(&r->solo_done);
		wait_flag(&r->writer_going);
		for (n = 0; n < MAX_POLLS && !r->read_try_failed_queued; n++) {
			if (down_read_trylock(r->sem)) {
				up_read(r->sem);
				sched_yield();
			} else {
				r->read_try_failed_queued = true;
			}
		}
		set_flag(&r->checked);
	}
}

static void check_rwsem(struct rw_semaphore *sem)
{
	struct rwsem_race r = { .sem = sem };

	assert_true(down_write_trylock(sem));
	assert_true(rwsem_is_locked(sem));
	r.read_try_with_writer = down_read_trylock(sem);
	up_write(sem);
	assert_false(rwsem_is_locked(sem));
	assert_int_equal(r.read_try_with_writer, 0);

	tb_run_threads(3, rwsem_roles, &r);
	assert_int_equal(r.read_try_with_reader, 1);
	assert_int_equal(r.write_try_with_reader, 0);
	assert_true(r.read_try_failed_queued);
	assert_int_equal(r.writer_got_it, 1);
}

static void test_rwsem_init_writer_preference(void **state)
{
	struct rw_semaphore sem;

	init_rwsem(&sem);
	check_rwsem(&sem);
}

static void test_rwsem_static_writer_preference(void **state)
{
	check_rwsem(&static_rwsem);
}

/* Sleep in an atomic section: one violation, naming our line and why. */
static void assert_one_violation(int line, const char *why)
{
	char site[64];

	snprintf(site, sizeof(site), "test_locks.c:%d", line);
	assert_int_equal(kshim_context_violations(), 1);
	assert_non_null(strstr(kshim_last_report(), site));
	assert_non_null(strstr(kshim_last_report(), why));
	assert_non_null(kshim_world_check());
	kshim_report_reset();
}

static void test_might_sleep_clean_context(void **state)
{
	might_sleep();
	spin_lock(&counter_lock);
	spin_unlock(&counter_lock);
	might_sleep();
	assert_int_equal(kshim_context_violations(), 0);
}

static void test_might_sleep_in_spinlock(void **state)
{
	int line;

	spin_lock(&counter_lock);
	line = __LINE__ + 1;
	might_sleep();
	spin_unlock(&counter_lock);
	assert_one_violation(line, "preemption disabled");
}

static void test_might_sleep_in_spin_lock_irq(void **state)
{
	int line;

	spin_lock_irq(&counter_lock);
	line = __LINE__ + 1;
	might_sleep();
	spin_unlock_irq(&counter_lock);
	assert_one_violation(line, "interrupts disabled");
}

static void test_might_sleep_preempt_disabled(void **state)
{
	int line;

	preempt_disable();
	line = __LINE__ + 1;
	might_sleep();
	preempt_enable();
	assert_one_violation(line, "preemption disabled");
}

static void test_might_sleep_irqs_disabled(void **state)
{
	int line;

	local_irq_disable();
	line = __LINE__ + 1;
	might_sleep();
	local_irq_enable();
	assert_one_violation(line, "interrupts disabled");
}

static void test_might_sleep_in_rcu_reader(void **state)
{
	int line;

	rcu_read_lock();
	line = __LINE__ + 1;
	might_sleep();
	rcu_read_unlock();
	assert_one_violation(line, "rcu_read_lock");
}

static void test_mutex_lock_under_spinlock(void **state)
{
	struct mutex m;
	int line;

	mutex_init(&m);
	spin_lock(&counter_lock);
	line = __LINE__ + 1;
	mutex_lock(&m);
	mutex_unlock(&m);
	spin_unlock(&counter_lock);
	assert_one_violation(line, "preemption disabled");
}

static void test_down_read_under_spinlock(void **state)
{
	struct rw_semaphore sem;
	int line;

	init_rwsem(&sem);
	spin_lock(&counter_lock);
	line = __LINE__ + 1;
	down_read(&sem);
	up_read(&sem);
	spin_unlock(&counter_lock);
	assert_one_violation(line, "preemption disabled");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		TB_TEST(test_spinlock_mutual_exclusion),
		TB_TEST(test_spin_trylock_contended),
		TB_TEST(test_spin_is_contended_while_a_waiter_spins),
		TB_TEST(test_mutex_trylock),
		TB_TEST(test_rwsem_init_writer_preference),
		TB_TEST(test_rwsem_static_writer_preference),
		TB_TEST(test_might_sleep_clean_context),
		TB_TEST(test_might_sleep_in_spinlock),
		TB_TEST(test_might_sleep_in_spin_lock_irq),
		TB_TEST(test_might_sleep_preempt_disabled),
		TB_TEST(test_might_sleep_irqs_disabled),
		TB_TEST(test_might_sleep_in_rcu_reader),
		TB_TEST(test_mutex_lock_under_spinlock),
		TB_TEST(test_down_read_under_spinlock),
	};

	return TB_RUN(tests);
}
