// SPDX-License-Identifier: GPL-2.0-only
/*
 * Completions, refcount_t and atomics: blocking and wake-up across
 * threads, the refcount WARNs the kernel code relies on to expose a
 * use-after-free, and the return-value conventions of the atomic ops.
 */
#include <linux/kernel.h>
#include <linux/completion.h>
#include <linux/refcount.h>
#include <linux/atomic.h>
#include <linux/preempt.h>
#include <time.h>
#include "tb_test.h"

#define NR_WAITERS 3

struct done_race {
	struct completion done;
	int waiting;		/* waiters about to block */
	int woken;		/* waiters past wait_for_completion() */
	int woken_before_complete;
};

static void wait_count(int *v, int n)
{
	while (__atomic_load_n(v, __ATOMIC_ACQUIRE) < n)
		sched_yield();
}

/* A short real-time pause to give a non-blocking wait room to return. */
static void pause_a_little(void)
{
	struct timespec ts = { .tv_nsec = 20 * 1000 * 1000 };

	nanosleep(&ts, NULL);
}

/* thread 0 completes (once or for all); the others wait */
static void waiters_and_completer(void *arg, unsigned int i, bool all, int nr)
{
	struct done_race *d = arg;

	if (i) {
		__atomic_fetch_add(&d->waiting, 1, __ATOMIC_RELEASE);
		wait_for_completion(&d->done);
		__atomic_fetch_add(&d->woken, 1, __ATOMIC_RELEASE);
		return;
	}
	wait_count(&d->waiting, nr);
	pause_a_little();
	d->woken_before_complete = __atomic_load_n(&d->woken, __ATOMIC_ACQUIRE);
	if (all)
		complete_all(&d->done);
	else
		complete(&d->done);
}

static void one_waiter(void *arg, unsigned int i)
{
	waiters_and_completer(arg, i, false, 1);
}

static void many_waiters(void *arg, unsigned int i)
{
	waiters_and_completer(arg, i, true, NR_WAITERS);
}

static void test_wait_for_completion_blocks(void **state)
{
	struct done_race d = { 0 };

	init_completion(&d.done);
	tb_run_threads(2, one_waiter, &d);
	assert_int_equal(d.woken_before_complete, 0);
	assert_int_equal(d.woken, 1);
	/* the single complete() was consumed by the waiter */
	assert_false(completion_done(&d.done));
}

static void test_complete_all_releases_all(void **state)
{
	struct done_race d = { 0 };

	init_completion(&d.done);
	tb_run_threads(NR_WAITERS + 1, many_waiters, &d);
	assert_int_equal(d.woken_before_complete, 0);
	assert_int_equal(d.woken, NR_WAITERS);
	/* complete_all stays done for later waiters */
	assert_true(completion_done(&d.done));
	wait_for_completion(&d.done);
	assert_true(try_wait_for_completion(&d.done));
	reinit_completion(&d.done);
	assert_false(completion_done(&d.done));
}

static void test_complete_counts(void **state)
{
	DECLARE_COMPLETION(done);

	assert_false(try_wait_for_completion(&done));
	complete(&done);
	complete(&done);
	assert_true(try_wait_for_completion(&done));
	assert_true(completion_done(&done));
	wait_for_completion(&done);
	assert_false(try_wait_for_completion(&done));
}

static void test_wait_for_completion_might_sleep(void **state)
{
	DECLARE_COMPLETION(done);

	complete(&done);
	preempt_disable();
	wait_for_completion(&done);
	preempt_enable();
	assert_int_equal(kshim_context_violations(), 1);
	assert_non_null(strstr(kshim_last_report(), "test_sync.c:"));
	kshim_report_reset();
}

static void test_refcount_dec_and_test(void **state)
{
	refcount_t r = REFCOUNT_INIT(1);

	refcount_inc(&r);
	assert_int_equal(refcount_read(&r), 2);
	assert_false(refcount_dec_and_test(&r));
	assert_true(refcount_dec_and_test(&r));
	assert_int_equal(refcount_read(&r), 0);
	/* a dead object cannot be revived, and trying is not a bug */
	assert_false(refcount_inc_not_zero(&r));
	assert_int_equal(refcount_read(&r), 0);
	refcount_set(&r, 3);
	assert_true(refcount_inc_not_zero(&r));
	assert_false(refcount_sub_and_test(3, &r));
	assert_true(refcount_sub_and_test(1, &r));
	assert_int_equal(kshim_warn_count(), 0);
}

static void test_refcount_inc_on_zero_warns(void **state)
{
	refcount_t r = REFCOUNT_INIT(0);

	kshim_expect_warns(1);
	refcount_inc(&r);
	assert_int_equal(kshim_warn_count(), 1);
	assert_non_null(strstr(kshim_last_report(), "addition on 0"));
}

static void test_refcount_underflow_warns(void **state)
{
	refcount_t r = REFCOUNT_INIT(0);

	kshim_expect_warns(1);
	assert_false(refcount_dec_and_test(&r));
	assert_int_equal(kshim_warn_count(), 1);
	assert_non_null(strstr(kshim_last_report(), "underflow"));
}

static void test_atomic_long_ops(void **state)
{
	atomic_long_t v = ATOMIC_LONG_INIT(5);

	atomic_long_add(10, &v);
	assert_int_equal(atomic_long_read(&v), 15);
	atomic_long_sub(20, &v);
	assert_int_equal(atomic_long_read(&v), -5);
	assert_int_equal(atomic_long_add_return(6, &v), 1);
	assert_int_equal(atomic_long_fetch_add(2, &v), 1);
	assert_int_equal(atomic_long_fetch_sub(2, &v), 3);
	assert_true(atomic_long_dec_and_test(&v));
	assert_int_equal(atomic_long_inc_return(&v), 1);
	assert_false(atomic_long_add_unless(&v, 1, 1));
	assert_true(atomic_long_add_unless(&v, 1, 0));
	assert_int_equal(atomic_long_read(&v), 2);
	atomic_long_set(&v, LONG_MAX);
	atomic_long_inc(&v);
	assert_int_equal(atomic_long_read(&v), LONG_MIN);
	atomic_long_set(&v, 0xf0);
	atomic_long_or(0x0f, &v);
	atomic_long_and(0x3c, &v);
	assert_int_equal(atomic_long_read(&v), 0x3c);
}

static void test_cmpxchg_semantics(void **state)
{
	atomic_t a = ATOMIC_INIT(3);
	long plain = 10, old;

	/* cmpxchg returns the value found, swapping only on a match */
	assert_int_equal(atomic_cmpxchg(&a, 4, 9), 3);
	assert_int_equal(atomic_read(&a), 3);
	assert_int_equal(atomic_cmpxchg(&a, 3, 9), 3);
	assert_int_equal(atomic_read(&a), 9);
	assert_int_equal(cmpxchg(&plain, 11L, 12L), 10);
	assert_int_equal(cmpxchg(&plain, 10L, 12L), 10);
	assert_int_equal(plain, 12);
	/* try_cmpxchg updates the expected value on failure */
	old = 5;
	assert_false(try_cmpxchg(&plain, &old, 20L));
	assert_int_equal(old, 12);
	assert_true(try_cmpxchg(&plain, &old, 20L));
	assert_int_equal(plain, 20);
	{
		int o = 1;

		assert_false(atomic_try_cmpxchg(&a, &o, 2));
		assert_int_equal(o, 9);
		assert_true(atomic_try_cmpxchg(&a, &o, 2));
		assert_int_equal(atomic_read(&a), 2);
	}
}

static void test_xchg(void **state)
{
	atomic_long_t v = ATOMIC_LONG_INIT(4);
	unsigned long plain = 1;

	assert_int_equal(xchg(&plain, 2UL), 1);
	assert_int_equal(plain, 2);
	assert_int_equal(atomic_long_xchg(&v, -1), 4);
	assert_int_equal(atomic_long_read(&v), -1);
}

static void atomic_adders(void *arg, unsigned int i)
{
	atomic_long_t *v = arg;
	int n;

	for (n = 0; n < 10000; n++)
		atomic_long_inc(v);
}

static void test_atomic_concurrent_adds(void **state)
{
	atomic_long_t v = ATOMIC_LONG_INIT(0);

	tb_run_threads(4, atomic_adders, &v);
	assert_int_equal(atomic_long_read(&v), 40000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		TB_TEST(test_wait_for_completion_blocks),
		TB_TEST(test_complete_all_releases_all),
		TB_TEST(test_complete_counts),
		TB_TEST(test_wait_for_completion_might_sleep),
		TB_TEST(test_refcount_dec_and_test),
		TB_TEST(test_refcount_inc_on_zero_warns),
		TB_TEST(test_refcount_underflow_warns),
		TB_TEST(test_atomic_long_ops),
		TB_TEST(test_cmpxchg_semantics),
		TB_TEST(test_xchg),
		TB_TEST(test_atomic_concurrent_adds),
	};

	return TB_RUN(tests);
}
