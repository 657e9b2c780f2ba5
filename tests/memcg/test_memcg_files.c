// SPDX-License-Identifier: GPL-2.0-only
/*
 * cgroup v2 memory control files through memcontrol.c's own handlers:
 * what each write returns, what it changes, and what reads print.
 */
#include <linux/kernel.h>
#include <string.h>
#include "tb_memcg.h"

static void test_mkdir_rmdir(void **state)
{
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	assert_int_equal(tb_cgroup_mkdir("a"), -EEXIST);
	assert_int_equal(tb_cgroup_mkdir("a/b"), 0);
	assert_int_equal(tb_cgroup_mkdir("x/y"), -ENOENT);
	assert_non_null(tb_memcg("a/b"));
	assert_int_equal(tb_cgroup_rmdir("a"), -EBUSY);
	assert_int_equal(tb_cgroup_rmdir("a/b"), 0);
	assert_null(tb_memcg("a/b"));
	assert_int_equal(tb_cgroup_rmdir("a"), 0);
	assert_int_equal(tb_cgroup_rmdir("a"), -ENOENT);
}

static void test_max_write_read(void **state)
{
	char buf[64];

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	assert_int_equal(tb_cgroup_read("a", "memory.max", buf, sizeof(buf)), 4);
	assert_string_equal(buf, "max\n");
	assert_write_ok("a", "memory.max", "100M\n");
	assert_int_equal(tb_cgroup_read_u64("a", "memory.max"), 100 * MB);
	assert_write_ok("a", "memory.max", "max");
	assert_int_equal(tb_cgroup_read_u64("a", "memory.max"), LLONG_MAX);
}

static void test_charge_current(void **state)
{
	struct folio *f;
	int err;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	assert_int_equal(tb_task_enter("a"), 0);
	f = tb_folio_charge(1, GFP_KERNEL, &err);
	assert_non_null(f);
	assert_int_equal(err, 0);
	/* try_charge charges a whole batch; the rest waits in this CPU's stock */
	assert_int_equal(tb_cgroup_read_u64("a", "memory.current"), 64 * 4096);
	assert_int_equal(tb_stock_pages(0, NULL), 63);
	tb_folio_uncharge(f);
	/* uncharge_batch goes to the page counter, not the stock */
	assert_int_equal(tb_cgroup_read_u64("a", "memory.current"), 63 * 4096);
	tb_drain_local_stock();
	assert_int_equal(tb_cgroup_read_u64("a", "memory.current"), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		TB_MEMCG_TEST(test_mkdir_rmdir),
		TB_MEMCG_TEST(test_max_write_read),
		TB_MEMCG_TEST(test_charge_current),
	};

	return TB_RUN(tests);
}
