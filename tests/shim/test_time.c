// SPDX-License-Identifier: GPL-2.0-only
/*
 * Virtual time, sleeps and randomness: jiffies start where the kernel's
 * do (so wrap bugs show early), sleeps advance virtual time only, and
 * get_random_*() is reproducible per seed.
 */
#include <linux/kernel.h>
#include <linux/jiffies.h>
#include <linux/sched.h>
#include <linux/delay.h>
#include <linux/random.h>
#include <linux/bug.h>
#include <linux/preempt.h>
#include "tb_test.h"

#define NR_DRAWS 64
/* the kernel's INITIAL_JIFFIES, restated: 32-bit jiffies wrap 5 min after boot */
#define KERNEL_INITIAL_JIFFIES ((unsigned long)(unsigned int)(-300 * HZ))

static void test_jiffies_start_at_initial(void **state)
{
	assert_int_equal(HZ, 1000);
	assert_int_equal(jiffies, KERNEL_INITIAL_JIFFIES);
	assert_int_equal(kshim_jiffies(), KERNEL_INITIAL_JIFFIES);
	assert_int_equal(get_jiffies_64(), KERNEL_INITIAL_JIFFIES);
	/* the low 32 bits wrap 300 s of virtual time after boot */
	kshim_jiffies_advance(300 * HZ);
	assert_int_equal((unsigned int)jiffies, 0);
}

/* A new world starts over: time from one test does not leak into the next. */
static void test_jiffies_reset_per_world(void **state)
{
	kshim_jiffies_advance(12345);
	kshim_world_teardown();
	kshim_world_boot(&tb_world);
	assert_int_equal(jiffies, KERNEL_INITIAL_JIFFIES);
	assert_int_equal(kshim_slept_jiffies(), 0);
}

static void test_schedule_timeout_advances_virtual_time(void **state)
{
	unsigned long j0 = jiffies, s0 = kshim_slept_jiffies();

	schedule_timeout_uninterruptible(2 * HZ);
	assert_int_equal(jiffies - j0, 2 * HZ);
	assert_int_equal(kshim_slept_jiffies() - s0, 2 * HZ);
	/* an advance by the test is time, not a sleep of this task */
	kshim_jiffies_advance(5);
	assert_int_equal(jiffies - j0, 2 * HZ + 5);
	assert_int_equal(kshim_slept_jiffies() - s0, 2 * HZ);
}

static void test_msleep_in_jiffies(void **state)
{
	unsigned long j0 = jiffies;

	msleep(20);
	assert_int_equal(jiffies - j0, 20);
	assert_int_equal(msecs_to_jiffies(20), 20);
	assert_int_equal(jiffies_to_msecs(20), 20);
	/* partial jiffies round up */
	assert_int_equal(usecs_to_jiffies(1), 1);
	assert_int_equal(kshim_slept_jiffies(), 20);
}

static void test_sleep_in_atomic_is_violation(void **state)
{
	preempt_disable();
	schedule_timeout(1);
	preempt_enable();
	assert_int_equal(kshim_context_violations(), 1);
	assert_non_null(strstr(kshim_last_report(), "test_time.c:"));
	kshim_report_reset();
}

static void test_time_after_across_wrap(void **state)
{
	unsigned long before = ULONG_MAX - 5, after = before + 10;

	assert_true(after < before);	/* wrapped */
	assert_true(time_after(after, before));
	assert_true(time_before(before, after));
	assert_false(time_after(before, after));
	assert_true(time_after_eq(after, after));
	assert_true(time_before_eq(before, before));
	kshim_jiffies_advance(ULONG_MAX - jiffies - 2);
	before = jiffies;
	kshim_jiffies_advance(7);
	assert_true(jiffies < before);
	assert_true(time_is_before_jiffies(before));
	assert_true(time_is_after_jiffies(jiffies + 1));
	assert_true(time_after(jiffies, before));
}

static void draw(u32 *out, unsigned long seed)
{
	struct kshim_world_config cfg = tb_world;
	int i;

	kshim_world_teardown();
	cfg.seed = seed;
	kshim_world_boot(&cfg);
	for (i = 0; i < NR_DRAWS; i++)
		out[i] = get_random_u32();
	kshim_world_teardown();
	kshim_world_boot(&tb_world);
}

static void test_random_reproducible_per_seed(void **state)
{
	u32 a[NR_DRAWS], b[NR_DRAWS], c[NR_DRAWS];
	int i, distinct = 0;

	draw(a, 77);
	draw(b, 77);
	draw(c, 78);
	assert_memory_equal(a, b, sizeof(a));
	assert_memory_not_equal(a, c, sizeof(a));
	for (i = 1; i < NR_DRAWS; i++)
		distinct += a[i] != a[i - 1];
	assert_true(distinct > NR_DRAWS / 2);
}

static void test_random_below_bounds(void **state)
{
	static const u32 ceils[] = { 1, 2, 3, 7, 1000, 0x80000001u };
	unsigned int seen[7] = { 0 };
	unsigned int i, k;
	u32 v;

	for (k = 0; k < ARRAY_SIZE(ceils); k++) {
		for (i = 0; i < 1000; i++) {
			v = get_random_u32_below(ceils[k]);
			assert_true(v < ceils[k]);
			if (ceils[k] == 7)
				seen[v]++;
		}
	}
	/* every value of a small range comes up */
	for (i = 0; i < 7; i++)
		assert_true(seen[i] > 0);
	for (i = 0; i < 1000; i++) {
		v = get_random_u32_inclusive(10, 12);
		assert_in_range(v, 10, 12);
	}
}

static noinline void warn_site_a(int cond)
{
	WARN_ON_ONCE(cond);
}

static noinline void warn_site_b(void)
{
	WARN_ON_ONCE(1);
}

static void test_warn_on_once_per_site(void **state)
{
	kshim_expect_warns(2);
	warn_site_a(0);
	assert_int_equal(kshim_warn_count(), 0);
	warn_site_a(1);
	warn_site_a(1);
	warn_site_a(1);
	assert_int_equal(kshim_warn_count(), 1);
	warn_site_b();
	warn_site_b();
	assert_int_equal(kshim_warn_count(), 2);
	/* the condition's value is still returned every time */
	assert_true(WARN_ON_ONCE(0) == 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		TB_TEST(test_jiffies_start_at_initial),
		TB_TEST(test_jiffies_reset_per_world),
		TB_TEST(test_schedule_timeout_advances_virtual_time),
		TB_TEST(test_msleep_in_jiffies),
		TB_TEST(test_sleep_in_atomic_is_violation),
		TB_TEST(test_time_after_across_wrap),
		TB_TEST(test_random_reproducible_per_seed),
		TB_TEST(test_random_below_bounds),
		TB_TEST(test_warn_on_once_per_site),
	};

	return TB_RUN(tests);
}
