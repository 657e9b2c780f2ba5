// SPDX-License-Identifier: GPL-2.0-only
/*
 * How memory.min divides a parent's protection among children that are
 * filled unevenly, with the classic LRU and with the multi-gen LRU: the
 * situation of the kernel's selftest test_memcg_min, whose three page
 * cache writers share one file description and so end up owning uneven
 * shares of the file (44-58 MiB each instead of 50 on the real 6.12.117).
 *
 *   A       max = 200M
 *   A/B     min = 50M
 *   A/B/C   min = 75M, fill[0] of page cache
 *   A/B/D   min = 25M, fill[1]
 *   A/B/E   min = 0,   fill[2]
 *   A/G     allocates 148M of anon
 *
 * get_scan_count() scales each child's scan by its unprotected share
 * (mem_cgroup_protection()), which pulls C and D toward the selftest's
 * 29M/21M whatever the fill; the multi-gen LRU's get_nr_to_scan() only
 * skips a child below its memory.min, so memcg reclaim takes about the
 * same amount from each and the fill's difference survives.
 *
 * The machine is the oracle's (tools/tb oracle selftests): 1 GiB of RAM,
 * 60 MiB held by the rest of the system, the selftest's own sizes.
 */
#include <linux/kernel.h>
#include <linux/mm.h>
#include <stdio.h>
#include "tb_mglru.h"

static const char *const child[] = { "A/B/C", "A/B/D", "A/B/E" };

/* the selftest's values_close(): a and b differ by at most err% of their sum */
static bool values_close(long a, long b, int err)
{
	return labs(a - b) <= (a + b) / 100 * err;
}

static void set_size(const char *cg, const char *file, long bytes)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%ld", bytes);
	assert_write_ok(cg, file, buf);
}

/* a task in cg reads pages [first, first + n) of file and stays */
static void read_and_stay(const char *cg, struct tb_file *f, unsigned long first,
			  unsigned long n)
{
	unsigned long i;

	tb_run_in(cg);
	for (i = first; i < first + n; i++) {
		assert_int_equal(tb_file_read(f, i), 0);
		tb_task_return_to_user();
	}
	tb_task_switch(NULL);
}

/* a task in cg fills size bytes of anon memory, then exits */
static void alloc_anon(const char *cg, long size)
{
	struct tb_task *t = tb_run_in(cg);
	struct tb_vma *vma = tb_map_anon(PAGES(size));
	unsigned long i;

	for (i = 0; i < PAGES(size); i++) {
		assert_int_equal(tb_touch(vma, i, true), 0);
		tb_task_return_to_user();
	}
	tb_task_exit(t);
}

/* C's and D's memory.current after A/G's 148M, C, D and E filled with fill[] MiB */
static void split_after(const long fill[3], long out[2])
{
	struct tb_file *f = tb_file_create(PAGES((fill[0] + fill[1] + fill[2]) * MB));
	unsigned long first = 0;
	int c;

	assert_int_equal(tb_cgroup_mkdir("A"), 0);
	set_size("A", "memory.max", 200 * MB);
	assert_int_equal(tb_cgroup_mkdir("A/B"), 0);
	assert_int_equal(tb_cgroup_mkdir("A/G"), 0);
	for (c = 0; c < 3; c++) {
		assert_int_equal(tb_cgroup_mkdir(child[c]), 0);
		read_and_stay(child[c], f, first, PAGES(fill[c] * MB));
		first += PAGES(fill[c] * MB);
	}
	set_size("A/B", "memory.min", 50 * MB);
	set_size("A/B/C", "memory.min", 75 * MB);
	set_size("A/B/D", "memory.min", 25 * MB);

	alloc_anon("A/G", 148 * MB);
	for (c = 0; c < 2; c++)
		out[c] = tb_cgroup_read_u64(child[c], "memory.current");
}

static const long uneven[3] = { 60, 40, 50 };

/* get_scan_count() scans each child in proportion to its unprotected share */
static void classic_lru_splits_memory_min_by_share_whatever_the_fill(void **state)
{
	long cd[2];

	split_after(uneven, cd);
	assert_true(values_close(cd[0], 29 * MB, 10));
	assert_true(values_close(cd[1], 21 * MB, 10));
}

/*
 * get_nr_to_scan() skips a child only below its memory.min: memcg reclaim
 * takes the same amount from C and D until A/G has its memory, so D, filled
 * least, ends below the selftest's 10% of 21M.
 * With mglru_proportional_protection get_nr_to_scan() scales each child's
 * scan by its usage above its protection, as get_scan_count() does: the
 * split of the classic LRU.
 */
static void mglru_reclaims_the_same_amount_from_each_protected_child(void **state)
{
	long cd[2], lost_c, lost_d;

	split_after(uneven, cd);
#if TB_HAVE_mglru_proportional_protection
	assert_true(values_close(cd[0], 29 * MB, 10));
	assert_true(values_close(cd[1], 21 * MB, 10));
	return;
#endif
	lost_c = uneven[0] * MB - cd[0];
	lost_d = uneven[1] * MB - cd[1];
	assert_true(values_close(lost_c, lost_d, 5));
	assert_false(values_close(cd[1], 21 * MB, 10));
	assert_true(cd[0] - cd[1] > (uneven[0] - uneven[1]) * MB * 9 / 10);
}

/* the oracle's machine */
static int setup(void **state, bool mglru)
{
	tb_mem.ram_pages = PAGES(1024 * MB);
	tb_mem.reserved_pages = PAGES(60 * MB);
	return mglru ? tb_mglru_setup(state) : tb_reclaim_setup(state);
}

static int setup_classic(void **state)
{
	return setup(state, false);
}

static int setup_mglru(void **state)
{
	return setup(state, true);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(classic_lru_splits_memory_min_by_share_whatever_the_fill,
						setup_classic, tb_reclaim_teardown),
		cmocka_unit_test_setup_teardown(mglru_reclaims_the_same_amount_from_each_protected_child,
						setup_mglru, tb_reclaim_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
