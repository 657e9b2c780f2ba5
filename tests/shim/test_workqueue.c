// SPDX-License-Identifier: GPL-2.0-only
/*
 * Workqueues: an item runs once per queueing on the worker of the CPU it
 * was queued on, is pending at most once, and flush/cancel wait for it.
 */
#include <linux/kernel.h>
#include <linux/workqueue.h>
#include <linux/smp.h>
#include <unistd.h>
#include "tb_test.h"

struct item {
	struct work_struct work;
	int runs;
	int cpu;
	volatile int block;
};

static void item_fn(struct work_struct *w)
{
	struct item *it = container_of(w, struct item, work);

	while (__atomic_load_n(&it->block, __ATOMIC_ACQUIRE))
		sched_yield();
	it->cpu = smp_processor_id();
	__atomic_fetch_add(&it->runs, 1, __ATOMIC_RELEASE);
}

static void test_runs_on_target_cpu(void **state)
{
	struct item it[4];
	int cpu;

	(void)state;
	for (cpu = 0; cpu < 4; cpu++) {
		memset(&it[cpu], 0, sizeof(it[cpu]));
		INIT_WORK(&it[cpu].work, item_fn);
		assert_true(schedule_work_on(cpu, &it[cpu].work));
	}
	for (cpu = 0; cpu < 4; cpu++) {
		flush_work(&it[cpu].work);
		assert_int_equal(it[cpu].runs, 1);
		assert_int_equal(it[cpu].cpu, cpu);
	}
}

static void test_pending_once(void **state)
{
	struct item blocker = { .block = 1 }, it = { 0 };

	(void)state;
	INIT_WORK(&blocker.work, item_fn);
	INIT_WORK(&it.work, item_fn);
	/* the blocker holds CPU 1's worker, so it stays queued behind it */
	assert_true(schedule_work_on(1, &blocker.work));
	assert_true(schedule_work_on(1, &it.work));
	assert_false(schedule_work_on(1, &it.work));
	assert_true(work_pending(&it.work));
	__atomic_store_n(&blocker.block, 0, __ATOMIC_RELEASE);
	flush_work(&it.work);
	assert_int_equal(it.runs, 1);
	assert_false(work_pending(&it.work));
	flush_work(&blocker.work);
}

static void test_cancel_pending(void **state)
{
	struct item blocker = { .block = 1 }, it = { 0 };

	(void)state;
	INIT_WORK(&blocker.work, item_fn);
	INIT_WORK(&it.work, item_fn);
	schedule_work_on(2, &blocker.work);
	schedule_work_on(2, &it.work);
	assert_true(cancel_work_sync(&it.work));
	__atomic_store_n(&blocker.block, 0, __ATOMIC_RELEASE);
	flush_workqueue(system_wq);
	assert_int_equal(it.runs, 0);
	assert_int_equal(blocker.runs, 1);
}

/* flush_work sleeps: calling it in atomic context is reported */
static void test_flush_might_sleep(void **state)
{
	struct item it = { 0 };

	(void)state;
	INIT_WORK(&it.work, item_fn);
	preempt_disable();
	flush_work(&it.work);
	preempt_enable();
	assert_int_equal(kshim_context_violations(), 1);
	kshim_report_reset();
}

struct slow_item {
	struct delayed_work dwork;
	int runs;
	volatile int block;
};

/* a work that takes a while (or until unblocked) on its worker */
static void slow_fn(struct work_struct *w)
{
	struct slow_item *it = container_of(w, struct slow_item, dwork.work);

	usleep(20000);
	while (__atomic_load_n(&it->block, __ATOMIC_ACQUIRE))
		sched_yield();
	__atomic_fetch_add(&it->runs, 1, __ATOMIC_RELEASE);
}

/* the virtual CPUs keep pace with virtual time */
static void test_delayed_work_has_run_once_time_passes_its_expiry(void **state)
{
	struct slow_item it = { 0 };

	(void)state;
	INIT_DELAYED_WORK(&it.dwork, slow_fn);
	assert_true(queue_delayed_work_on(1, system_wq, &it.dwork, 10));
	kshim_jiffies_advance(9);
	assert_int_equal(__atomic_load_n(&it.runs, __ATOMIC_ACQUIRE), 0);
	kshim_jiffies_advance(1);
	assert_int_equal(__atomic_load_n(&it.runs, __ATOMIC_ACQUIRE), 1);
	assert_false(delayed_work_pending(&it.dwork));
}

/* a task that cannot sleep moves time on without waiting for the work */
static void test_time_moved_in_atomic_section_does_not_wait_for_work(void **state)
{
	struct slow_item it = { .block = 1 };

	(void)state;
	INIT_DELAYED_WORK(&it.dwork, slow_fn);
	queue_delayed_work_on(1, system_wq, &it.dwork, 1);
	preempt_disable();
	kshim_jiffies_advance(1);
	preempt_enable();
	assert_int_equal(__atomic_load_n(&it.runs, __ATOMIC_ACQUIRE), 0);
	__atomic_store_n(&it.block, 0, __ATOMIC_RELEASE);
	flush_delayed_work(&it.dwork);
	assert_int_equal(it.runs, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		TB_TEST(test_runs_on_target_cpu),
		TB_TEST(test_pending_once),
		TB_TEST(test_cancel_pending),
		TB_TEST(test_flush_might_sleep),
		TB_TEST(test_delayed_work_has_run_once_time_passes_its_expiry),
		TB_TEST(test_time_moved_in_atomic_section_does_not_wait_for_work),
	};

	return TB_RUN(tests);
}
