// SPDX-License-Identifier: GPL-2.0-only
/*
 * RCU on liburcu: grace periods must really wait for readers in other
 * threads, deferred frees must happen after (and only after) one, and a
 * sleep inside a reader is reported instead of deadlocking.
 */
#include <linux/kernel.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/sched.h>
#include <time.h>
#include <unistd.h>
#include "tb_test.h"

struct rcu_obj {
	long payload;
	struct rcu_head rcu;
};

/* Shared between a reader and a writer thread; results asserted after join. */
struct gp_race {
	int reader_locked;	/* reader is inside rcu_read_lock() */
	int writer_queued;	/* writer has started its grace-period wait */
	int reader_done;	/* reader about to unlock */
	int cb_ran;		/* call_rcu callback ran */
	int cb_seen_in_reader;	/* callback ran while the reader held the lock */
	int seen_done;		/* writer saw reader_done after its wait */
	long live_in_reader;	/* slab objects while the reader held the lock */
	struct rcu_obj *obj;
};

static void wait_flag(int *flag)
{
	while (!__atomic_load_n(flag, __ATOMIC_ACQUIRE))
		sched_yield();
}

static void set_flag(int *flag)
{
	__atomic_store_n(flag, 1, __ATOMIC_RELEASE);
}

/* A short real-time pause to give a broken grace period room to return. */
static void pause_a_little(void)
{
	struct timespec ts = { .tv_nsec = 20 * 1000 * 1000 };

	nanosleep(&ts, NULL);
}

static void test_read_lock_depth(void **state)
{
	assert_false(rcu_read_lock_held());
	rcu_read_lock();
	rcu_read_lock();
	assert_int_equal(kshim_ctx.rcu, 2);
	rcu_read_unlock();
	assert_true(rcu_read_lock_held());
	rcu_read_unlock();
	assert_false(rcu_read_lock_held());
	assert_int_equal(kshim_ctx.rcu, 0);
}

static void sync_reader_writer(void *arg, unsigned int i)
{
	struct gp_race *r = arg;

	if (i == 0) {
		rcu_read_lock();
		set_flag(&r->reader_locked);
		wait_flag(&r->writer_queued);
		pause_a_little();
		set_flag(&r->reader_done);
		rcu_read_unlock();
	} else {
		wait_flag(&r->reader_locked);
		set_flag(&r->writer_queued);
		synchronize_rcu();
		r->seen_done = __atomic_load_n(&r->reader_done, __ATOMIC_ACQUIRE);
	}
}

static void test_synchronize_waits_for_reader(void **state)
{
	struct gp_race r = { 0 };

	tb_run_threads(2, sync_reader_writer, &r);
	assert_int_equal(r.seen_done, 1);
}

static void note_cb(struct rcu_head *head)
{
	struct rcu_obj *o = container_of(head, struct rcu_obj, rcu);
	struct gp_race *r = (struct gp_race *)o->payload;

	set_flag(&r->cb_ran);
}

/* thread 0 reads; thread 1 queues the callback while the reader holds on */
static void call_rcu_reader(void *arg, unsigned int i)
{
	struct gp_race *r = arg;

	if (i == 0) {
		rcu_read_lock();
		set_flag(&r->reader_locked);
		wait_flag(&r->writer_queued);
		pause_a_little();
		r->cb_seen_in_reader = __atomic_load_n(&r->cb_ran, __ATOMIC_ACQUIRE);
		rcu_read_unlock();
	} else {
		wait_flag(&r->reader_locked);
		call_rcu(&r->obj->rcu, note_cb);
		set_flag(&r->writer_queued);
	}
}

static void test_call_rcu_after_grace_period(void **state)
{
	struct rcu_obj obj = { 0 };
	struct gp_race r = { .obj = &obj };

	obj.payload = (long)&r;
	tb_run_threads(2, call_rcu_reader, &r);
	assert_int_equal(r.cb_seen_in_reader, 0);
	rcu_barrier();
	assert_int_equal(r.cb_ran, 1);
}

static void kfree_rcu_reader(void *arg, unsigned int i)
{
	struct gp_race *r = arg;

	if (i == 0) {
		rcu_read_lock();
		set_flag(&r->reader_locked);
		wait_flag(&r->writer_queued);
		pause_a_little();
		r->live_in_reader = kshim_slab_live();
		rcu_read_unlock();
	} else {
		wait_flag(&r->reader_locked);
		kfree_rcu(r->obj, rcu);
		set_flag(&r->writer_queued);
	}
}

static void test_kfree_rcu_frees_after_grace_period(void **state)
{
	unsigned long base = kshim_slab_live();
	struct gp_race r = { 0 };

	r.obj = kmalloc(sizeof(*r.obj), GFP_KERNEL);
	assert_non_null(r.obj);
	tb_run_threads(2, kfree_rcu_reader, &r);
	/* still allocated while a pre-existing reader held the lock */
	assert_int_equal(r.live_in_reader, base + 1);
	rcu_barrier();
	assert_int_equal(kshim_slab_live(), base);
}

static void test_kvfree_rcu_after_barrier(void **state)
{
	unsigned long base = kshim_slab_live();
	struct rcu_obj *a = kvmalloc(sizeof(*a), GFP_KERNEL);
	struct rcu_obj *b = kzalloc(sizeof(*b), GFP_KERNEL);

	assert_non_null(a);
	assert_non_null(b);
	assert_int_equal(kshim_slab_live(), base + 2);
	kvfree_rcu(a, rcu);
	kfree_rcu(b, rcu);
	rcu_barrier();
	assert_int_equal(kshim_slab_live(), base);
}

/* No barrier: the worker still runs the callback once its delay is over. */
static void test_callback_runs_without_a_barrier(void **state)
{
	unsigned long base = kshim_slab_live();
	struct rcu_obj *o = kmalloc(sizeof(*o), GFP_KERNEL);
	int ms;

	assert_non_null(o);
	kfree_rcu(o, rcu);
	for (ms = 0; ms < 2000 && kshim_slab_live() != base; ms++)
		usleep(1000);
	assert_int_equal(kshim_slab_live(), base);
}

static unsigned long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000UL + ts.tv_nsec;
}

/*
 * Callbacks queued some 50 us apart (as reclaim frees xarray nodes) wait
 * to share grace periods: a batch waits 2 ms of real time (rcu.c's
 * CB_DELAY_NS) for more, or for 256 of them, so 1,000 callbacks make at
 * most one batch per 2 ms they took to queue, and four more, however
 * loaded the machine (a grace period each would be 1,000)
 */
static void test_callbacks_queued_apart_share_grace_periods(void **state)
{
	unsigned long base = kshim_slab_live(), batches, start;
	int i;

	rcu_barrier();
	batches = kshim_rcu_batches();
	start = now_ns();
	for (i = 0; i < 1000; i++) {
		struct rcu_obj *o = kmalloc(sizeof(*o), GFP_KERNEL);

		assert_non_null(o);
		kfree_rcu(o, rcu);
		usleep(20);
	}
	rcu_barrier();
	assert_int_equal(kshim_slab_live(), base);
	assert_in_range(kshim_rcu_batches() - batches, 1,
			(now_ns() - start) / 2000000 + 1 + 1000 / 256 + 1);
}

static struct rcu_obj *take(struct rcu_obj **slot, int *calls)
{
	struct rcu_obj *p = *slot;

	(*calls)++;
	*slot = NULL;
	return p;
}

/* Like the kernel's macro: the pointer is evaluated once, NULL is a no-op. */
static void test_kfree_rcu_argument_evaluated_once(void **state)
{
	unsigned long base = kshim_slab_live();
	struct rcu_obj *slot = kmalloc(sizeof(*slot), GFP_KERNEL), *none = NULL;
	int calls = 0;

	assert_non_null(slot);
	kfree_rcu(take(&slot, &calls), rcu);
	assert_int_equal(calls, 1);
	kfree_rcu(none, rcu);
	kvfree_rcu(none, rcu);
	rcu_barrier();
	assert_int_equal(kshim_slab_live(), base);
}

static void test_kvfree_rcu_mightsleep(void **state)
{
	unsigned long base = kshim_slab_live();
	long *p = kmalloc(sizeof(*p), GFP_KERNEL);

	assert_non_null(p);
	kvfree_rcu_mightsleep(p);
	assert_int_equal(kshim_slab_live(), base);
}

/* Must return (no deadlock) and be counted as exactly one violation. */
static void test_synchronize_in_reader_is_violation(void **state)
{
	int line;

	rcu_read_lock();
	line = __LINE__ + 1;
	synchronize_rcu();
	rcu_read_unlock();
	assert_int_equal(kshim_context_violations(), 1);
	{
		char site[64];

		snprintf(site, sizeof(site), "test_rcu.c:%d", line);
		assert_non_null(strstr(kshim_last_report(), site));
		assert_non_null(strstr(kshim_last_report(), "rcu_read_lock"));
	}
	assert_non_null(kshim_world_check());
	kshim_report_reset();
}

static void test_rcu_pointer_publish(void **state)
{
	struct rcu_obj *gp = NULL, *o = kzalloc(sizeof(*o), GFP_KERNEL), *old;

	assert_non_null(o);
	o->payload = 7;
	rcu_assign_pointer(gp, o);
	rcu_read_lock();
	assert_int_equal(rcu_dereference(gp)->payload, 7);
	rcu_read_unlock();
	old = rcu_replace_pointer(gp, NULL, true);
	assert_ptr_equal(old, o);
	assert_null(rcu_access_pointer(gp));
	synchronize_rcu();
	kfree(old);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		TB_TEST(test_read_lock_depth),
		TB_TEST(test_synchronize_waits_for_reader),
		TB_TEST(test_call_rcu_after_grace_period),
		TB_TEST(test_kfree_rcu_frees_after_grace_period),
		TB_TEST(test_kvfree_rcu_after_barrier),
		TB_TEST(test_callback_runs_without_a_barrier),
		TB_TEST(test_callbacks_queued_apart_share_grace_periods),
		TB_TEST(test_kfree_rcu_argument_evaluated_once),
		TB_TEST(test_kvfree_rcu_mightsleep),
		TB_TEST(test_synchronize_in_reader_is_violation),
		TB_TEST(test_rcu_pointer_publish),
	};

	return TB_RUN(tests);
}
