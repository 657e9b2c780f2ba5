// SPDX-License-Identifier: GPL-2.0-only
/*
 * Reports: the teardown check is what fails a test on the kernel code's
 * own complaints, so it must name the WARN's site and let a fixture
 * announce exactly the WARNs it expects, no more.
 */
#include <linux/kernel.h>
#include <linux/bug.h>
#include "tb_test.h"

static void test_clean_world_passes(void **state)
{
	assert_null(kshim_world_check());
	assert_int_equal(kshim_warn_count(), 0);
	assert_int_equal(kshim_unexpected_warns(), 0);
}

static void test_unexpected_warn_names_site(void **state)
{
	char site[64];
	const char *msg;
	int line;

	line = __LINE__ + 1;
	WARN(1, "value %d", 42);
	msg = kshim_world_check();
	assert_non_null(msg);
	snprintf(site, sizeof(site), "test_report.c:%d", line);
	assert_non_null(strstr(msg, site));
	assert_non_null(strstr(msg, "1 unexpected WARN"));
	assert_non_null(strstr(msg, "value 42"));
	kshim_report_reset();
	assert_null(kshim_world_check());
}

static void test_expect_warns_absorbs_exactly_n(void **state)
{
	const char *msg;
	int line;

	kshim_expect_warns(2);
	WARN_ON(1);
	assert_false(WARN_ON(0));
	WARN_ON(true);
	assert_int_equal(kshim_warn_count(), 2);
	assert_null(kshim_world_check());
	line = __LINE__ + 1;
	WARN_ON(1);
	msg = kshim_world_check();
	assert_non_null(msg);
	assert_int_equal(kshim_unexpected_warns(), 1);
	{
		char site[64];

		snprintf(site, sizeof(site), "test_report.c:%d", line);
		assert_non_null(strstr(msg, site));
	}
	kshim_report_reset();
}

static void test_expect_before_or_after(void **state)
{
	/* a fixture may announce the WARN after provoking it */
	WARN_ON(1);
	assert_non_null(kshim_world_check());
	kshim_expect_warns(1);
	assert_null(kshim_world_check());
}

static void test_violation_fails_check(void **state)
{
	const char *msg;

	kshim_context_violation("some/file.c", 12, "fn", "inside rcu_read_lock()");
	msg = kshim_world_check();
	assert_non_null(msg);
	assert_non_null(strstr(msg, "1 context violation"));
	assert_non_null(strstr(msg, "some/file.c:12"));
	/* an expected WARN does not excuse a violation */
	kshim_expect_warns(1);
	assert_non_null(kshim_world_check());
	kshim_report_reset();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		TB_TEST(test_clean_world_passes),
		TB_TEST(test_unexpected_warn_names_site),
		TB_TEST(test_expect_warns_absorbs_exactly_n),
		TB_TEST(test_expect_before_or_after),
		TB_TEST(test_violation_fails_check),
	};

	return TB_RUN(tests);
}
