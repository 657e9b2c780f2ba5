// SPDX-License-Identifier: GPL-2.0-only
/*
 * Workqueues: an item runs once per queueing on the worker of the CPU it
 * was queued on, is pending at most once, and flush/cancel wait for it.
 */
#include <linux/kernel.h>
#include <linux/workqueue.h>
#include <linux/smp.h>
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		TB_TEST(test_runs_on_target_cpu),
		TB_TEST(test_pending_once),
		TB_TEST(test_cancel_pending),
		TB_TEST(test_flush_might_sleep),
	};

	return TB_RUN(tests);
}
