// SPDX-License-Identifier: GPL-2.0-only
/*
 * Per-CPU data over virtual CPUs: one copy per CPU, this_cpu ops on the
 * caller's CPU, dynamic areas zeroed and counted, and CPU ownership that
 * serializes non-preemptible sections of tasks sharing one CPU.
 */
#include <linux/kernel.h>
#include <linux/percpu.h>
#include <linux/percpu-refcount.h>
#include <linux/slab.h>
#include "tb_test.h"

#define NR_LOOPS 20000

static DEFINE_PER_CPU(long, pcpu_val);
static DEFINE_PER_CPU(int, pcpu_init) = 42;
static DEFINE_PER_CPU(unsigned long, pcpu_count);

static void test_static_copy_per_cpu(void **state)
{
	int cpu;

	for_each_possible_cpu(cpu)
		per_cpu(pcpu_val, cpu) = 100 + cpu;
	for_each_possible_cpu(cpu)
		assert_int_equal(per_cpu(pcpu_val, cpu), 100 + cpu);
	/* distinct storage, not one variable seen four times */
	assert_ptr_not_equal(per_cpu_ptr(&pcpu_val, 0), per_cpu_ptr(&pcpu_val, 1));
	assert_int_equal(kshim_nr_cpus, 4);
}

/* The initializer reaches every CPU, and a new world starts from it again. */
static void test_static_initializer(void **state)
{
	int cpu;

	for_each_possible_cpu(cpu)
		assert_int_equal(per_cpu(pcpu_init, cpu), 42);
	per_cpu(pcpu_init, 2) = 7;
	assert_int_equal(per_cpu(pcpu_init, 1), 42);
	kshim_world_teardown();
	kshim_world_boot(&tb_world);
	for_each_possible_cpu(cpu)
		assert_int_equal(per_cpu(pcpu_init, cpu), 42);
}

static void test_this_cpu_follows_thread_cpu(void **state)
{
	int cpu;

	for_each_possible_cpu(cpu)
		per_cpu(pcpu_val, cpu) = 0;
	kshim_cpu_switch(2);
	this_cpu_add(pcpu_val, 5);
	this_cpu_inc(pcpu_val);
	assert_int_equal(this_cpu_read(pcpu_val), 6);
	assert_int_equal(smp_processor_id(), 2);
	kshim_cpu_switch(3);
	this_cpu_write(pcpu_val, 9);
	assert_int_equal(this_cpu_xchg(pcpu_val, 11), 9);
	assert_int_equal(this_cpu_cmpxchg(pcpu_val, 11, 12), 11);
	assert_int_equal(this_cpu_cmpxchg(pcpu_val, 11, 13), 12);
	kshim_cpu_switch(0);
	assert_int_equal(per_cpu(pcpu_val, 0), 0);
	assert_int_equal(per_cpu(pcpu_val, 1), 0);
	assert_int_equal(per_cpu(pcpu_val, 2), 6);
	assert_int_equal(per_cpu(pcpu_val, 3), 12);
	kshim_thread_enter(1);
	this_cpu_dec(pcpu_val);
	kshim_thread_enter(0);
	assert_int_equal(per_cpu(pcpu_val, 1), -1);
}

static void test_alloc_percpu_zeroed_and_reused(void **state)
{
	unsigned long base = kshim_percpu_live();
	long *p, *q;
	int cpu;

	p = alloc_percpu(long);
	assert_non_null(p);
	assert_int_equal(kshim_percpu_live(), base + 1);
	for_each_possible_cpu(cpu) {
		assert_int_equal(*per_cpu_ptr(p, cpu), 0);
		*per_cpu_ptr(p, cpu) = -1 - cpu;
	}
	for_each_possible_cpu(cpu)
		assert_int_equal(*per_cpu_ptr(p, cpu), -1 - cpu);
	free_percpu(p);
	assert_int_equal(kshim_percpu_live(), base);
	/* the freed area comes back, zeroed again on every CPU */
	q = alloc_percpu(long);
	assert_ptr_equal(q, p);
	for_each_possible_cpu(cpu)
		assert_int_equal(*per_cpu_ptr(q, cpu), 0);
	free_percpu(q);
	assert_int_equal(kshim_percpu_live(), base);
}

static void test_alloc_percpu_distinct(void **state)
{
	unsigned long base = kshim_percpu_live();
	int *a = alloc_percpu(int), *b = alloc_percpu(int);
	int cpu;

	assert_non_null(a);
	assert_non_null(b);
	assert_int_equal(kshim_percpu_live(), base + 2);
	for_each_possible_cpu(cpu)
		*per_cpu_ptr(a, cpu) = 1;
	for_each_possible_cpu(cpu)
		assert_int_equal(*per_cpu_ptr(b, cpu), 0);
	free_percpu(a);
	free_percpu(b);
}

static void test_alloc_percpu_leak_reported(void **state)
{
	int *p = alloc_percpu(int);
	const char *msg;

	assert_non_null(p);
	msg = kshim_world_check();
	assert_non_null(msg);
	assert_non_null(strstr(msg, "per-CPU area(s) leaked"));
	free_percpu(p);
	assert_null(kshim_world_check());
}

static void ref_release(struct percpu_ref *ref)
{
}

/* percpu_ref_init() takes a per-CPU counter that percpu_ref_exit() gives back */
static void test_percpu_ref_exit_frees_its_counter(void **state)
{
	unsigned long live = kshim_percpu_live();
	struct percpu_ref ref;

	assert_int_equal(percpu_ref_init(&ref, ref_release, 0, GFP_KERNEL), 0);
	assert_int_equal(kshim_percpu_live(), live + 1);
	percpu_ref_exit(&ref);
	assert_int_equal(kshim_percpu_live(), live);
}

static void count_own_cpu(void *arg, unsigned int i)
{
	int n;

	for (n = 0; n < NR_LOOPS; n++)
		this_cpu_inc(pcpu_count);
}

static void test_this_cpu_counters_sum(void **state)
{
	unsigned long sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		per_cpu(pcpu_count, cpu) = 0;
	tb_run_threads(4, count_own_cpu, NULL);
	for_each_possible_cpu(cpu) {
		/* each thread hit its own CPU's copy, and only that one */
		assert_int_equal(per_cpu(pcpu_count, cpu), NR_LOOPS);
		sum += per_cpu(pcpu_count, cpu);
	}
	assert_int_equal(sum, 4 * NR_LOOPS);
}

/*
 * Two tasks on one CPU: a plain read-modify-write inside preempt_disable()
 * must not lose updates, since the section owns the CPU. The yield between
 * read and write would expose any interleaving.
 */
static void rmw_shared_cpu(void *arg, unsigned int i)
{
	unsigned long *p;
	unsigned long v;
	int n;

	kshim_cpu_switch(1);
	for (n = 0; n < NR_LOOPS; n++) {
		preempt_disable();
		p = this_cpu_ptr(&pcpu_count);
		v = *p;
		if (!(n % 16))
			sched_yield();
		*p = v + 1;
		preempt_enable();
	}
}

static void test_preempt_disable_serializes_cpu(void **state)
{
	per_cpu(pcpu_count, 1) = 0;
	tb_run_threads(2, rmw_shared_cpu, NULL);
	assert_int_equal(per_cpu(pcpu_count, 1), 2 * NR_LOOPS);
}

/* get_cpu_ptr/put_cpu_ptr is a non-preemptible section too. */
static void test_get_cpu_ptr_is_atomic(void **state)
{
	long *p = get_cpu_ptr(&pcpu_val);

	assert_ptr_equal(p, per_cpu_ptr(&pcpu_val, 0));
	assert_false(preemptible());
	put_cpu_ptr(&pcpu_val);
	assert_true(preemptible());
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		TB_TEST(test_static_copy_per_cpu),
		TB_TEST(test_static_initializer),
		TB_TEST(test_this_cpu_follows_thread_cpu),
		TB_TEST(test_alloc_percpu_zeroed_and_reused),
		TB_TEST(test_alloc_percpu_distinct),
		TB_TEST(test_alloc_percpu_leak_reported),
		TB_TEST(test_percpu_ref_exit_frees_its_counter),
		TB_TEST(test_this_cpu_counters_sum),
		TB_TEST(test_preempt_disable_serializes_cpu),
		TB_TEST(test_get_cpu_ptr_is_atomic),
	};

	return TB_RUN(tests);
}
