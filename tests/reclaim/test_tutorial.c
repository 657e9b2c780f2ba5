// SPDX-License-Identifier: GPL-2.0-only
/*
 * The suite docs/tutorial.md writes: a memcg at its memory.max, a task
 * reading page cache through it, and what the real mm/memcontrol.c and
 * mm/vmscan.c do about it.
 */
#include "tb_reclaim.h"

/*
 * try_charge_memcg() charges MEMCG_CHARGE_BATCH pages at a time
 * ("batch = max(MEMCG_CHARGE_BATCH, nr_pages)") and keeps what the folio
 * did not use in this CPU's stock: one page read, 64 pages charged.
 */
static void first_page_charges_a_whole_batch(void **state)
{
	struct tb_file *f = tb_file_create(1);

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	tb_read_range(f, 1);
	assert_int_equal(tb_cgroup_read_u64("a", "memory.current"), 64 * 4096);
	assert_int_equal(tb_stat("a", "file"), 4096);
}

/*
 * 4 MiB read through a 1 MiB memory.max: each charge over the limit
 * raises a "max" event and reclaims the memcg's own page cache
 * (try_to_free_mem_cgroup_pages()), so usage never passes the limit and
 * nobody is OOM-killed. Every page read is either still cached or was
 * reclaimed: pgsteal is exactly the difference.
 */
static void reader_at_its_limit_reclaims_its_own_page_cache(void **state)
{
	struct tb_file *f = tb_file_create(PAGES(4 * MB));

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	assert_write_ok("a", "memory.max", "1M");
	tb_run_in("a");
	tb_read_range(f, PAGES(4 * MB));

	assert_true(tb_cgroup_read_u64("a", "memory.current") <= (long long)(1 * MB));
	assert_int_equal(tb_stat("a", "pgsteal"), PAGES(4 * MB) - tb_file_cached(f));
	assert_true(tb_cgroup_read_key("a", "memory.events", "max") > 0);
	assert_int_equal(tb_cgroup_read_key("a", "memory.events", "oom_kill"), 0);
	tb_assert_lrus_consistent();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		TB_RECLAIM_TEST(first_page_charges_a_whole_batch),
		TB_RECLAIM_TEST(reader_at_its_limit_reclaims_its_own_page_cache),
	};

	return TB_RUN(tests);
}
