// SPDX-License-Identifier: GPL-2.0-only
/*
 * Seed 002's variant (mm/variants/memcg_iter_shrink_many.c) beside the
 * real 6.12 walk: the multi-gen LRU's root reclaim walking memcgs with
 * mem_cgroup_iter() and a per-node cookie instead of the memcg LRU.
 * - with the cookie (memory.reclaim of the root), consecutive reclaims
 *   go on from the memcg the last one stopped at, in css pre-order;
 * - the memcg LRU is left as it was: the walk never rotates it;
 * - as posted, a walk without a cookie (kswapd's) that stops early keeps
 *   the reference mem_cgroup_iter() took on the memcg it stopped at: the
 *   seed's "if (cookie) mem_cgroup_iter_break()" leaks it. Fixed, it
 *   does not.
 */
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/mm_inline.h>
#include <linux/memcontrol.h>
#include <linux/swap.h>
#include <kshim/testbed.h>
#include <kshim/variants.h>
#include "tb_reclaim.h"

static const char *const memcgs[] = { "a", "b", "c", "d" };
static struct tb_task *tasks[ARRAY_SIZE(memcgs)];

static struct lruvec *lruvec_of(const char *path)
{
	return mem_cgroup_lruvec(tb_memcg(path), NODE_DATA(0));
}

/* MGLRU on, the variant in mode, memcgs a..d each holding pages of page cache */
static void memcgs_with_page_cache(enum tb_memcg_iter mode, unsigned long pages)
{
	unsigned int i;

	assert_int_equal(tb_sysfs_write("kernel/mm/lru_gen/enabled", "y"), 1);
	tb_variant_memcg_iter(mode);
	for (i = 0; i < ARRAY_SIZE(memcgs); i++) {
		assert_int_equal(tb_cgroup_mkdir(memcgs[i]), 0);
		tasks[i] = tb_run_in(memcgs[i]);
		tb_read_range(tb_file_create(pages), pages);
	}
	tb_task_switch(NULL);
}

static long steal(const char *path)
{
	return tb_stat(path, "pgsteal");
}

static int variant_teardown(void **state)
{
	tb_variant_memcg_iter(TB_MEMCG_ITER_OFF);
	return tb_reclaim_teardown(state);
}

#define SEED002_TEST(fn) cmocka_unit_test_setup_teardown(fn, tb_reclaim_setup, variant_teardown)

/*
 * Each small memory.reclaim of the root stops once it has its pages
 * (mem_cgroup_iter_break()), and the next walk starts after the memcg the
 * node's cookie last handed out.
 * Before mglru_evict_budget, a memcg's first visit at a priority that
 * scans it evicts a whole batch (64 pages, more than the 32 asked): each
 * reclaim takes from one memcg, a, then b, then c.
 * With it, a visit evicts 1024 >> priority pages: every priority's walk,
 * going on where the last one stopped, takes a few pages from each memcg
 * in turn, and a reclaim stops within a walk: each reclaim takes from
 * every memcg, and a memcg never gets ahead of one before it in css
 * order.
 */
static void iter_walk_takes_turns_in_css_order(void **state)
{
	unsigned int i, j;

	memcgs_with_page_cache(TB_MEMCG_ITER_FIXED, 1024);
	for (i = 0; i < 3; i++) {
		assert_write_ok("", "memory.reclaim", "128K");
		for (j = 0; j < ARRAY_SIZE(memcgs); j++) {
#if TB_HAVE_mglru_evict_budget
			assert_true(steal(memcgs[j]) > 0);
			if (j)
				assert_true(steal(memcgs[j]) <= steal(memcgs[j - 1]));
#else
			if (j <= i)
				assert_true(steal(memcgs[j]) > 0);
			else
				assert_int_equal(steal(memcgs[j]), 0);
#endif
		}
	}
}

/* 6.12's walk moves a memcg it reclaimed from within the memcg LRU; the seed's never does */
static void iter_walk_leaves_the_memcg_lru_alone(void **state)
{
	int gen[ARRAY_SIZE(memcgs)], seg[ARRAY_SIZE(memcgs)];
	unsigned long seq = READ_ONCE(NODE_DATA(0)->memcg_lru.seq);
	unsigned int i;

	memcgs_with_page_cache(TB_MEMCG_ITER_FIXED, 1024);
	for (i = 0; i < ARRAY_SIZE(memcgs); i++) {
		gen[i] = READ_ONCE(lruvec_of(memcgs[i])->lrugen.gen);
		seg[i] = READ_ONCE(lruvec_of(memcgs[i])->lrugen.seg);
	}
	assert_write_ok("", "memory.reclaim", "8M");
	assert_true(steal("a") > 0 && steal("d") > 0);
	assert_int_equal(READ_ONCE(NODE_DATA(0)->memcg_lru.seq), seq);
	for (i = 0; i < ARRAY_SIZE(memcgs); i++) {
		assert_int_equal(READ_ONCE(lruvec_of(memcgs[i])->lrugen.gen), gen[i]);
		assert_int_equal(READ_ONCE(lruvec_of(memcgs[i])->lrugen.seg), seg[i]);
	}
}

static void memcg_lru_walk_rotates_the_memcgs_it_reclaims(void **state)
{
	unsigned long seq = READ_ONCE(NODE_DATA(0)->memcg_lru.seq);
	unsigned int i, moved = 0;
	int gen[ARRAY_SIZE(memcgs)];

	memcgs_with_page_cache(TB_MEMCG_ITER_OFF, 1024);
	for (i = 0; i < ARRAY_SIZE(memcgs); i++)
		gen[i] = READ_ONCE(lruvec_of(memcgs[i])->lrugen.gen);
	assert_write_ok("", "memory.reclaim", "8M");
	for (i = 0; i < ARRAY_SIZE(memcgs); i++)
		moved += READ_ONCE(lruvec_of(memcgs[i])->lrugen.gen) != gen[i];
	assert_true(moved > 0 || READ_ONCE(NODE_DATA(0)->memcg_lru.seq) != seq);
}

/* reading twice the RAM through memcgs a..d: kswapd walks them without a cookie */
static void kswapd_pressure(void)
{
	unsigned long ram = PAGES(64 * MB);
	struct tb_file *f[ARRAY_SIZE(memcgs)];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(memcgs); i++)
		f[i] = tb_file_create(ram / 2);
	for (i = 0; i < ARRAY_SIZE(memcgs); i++) {
		tb_task_switch(tasks[i]);
		tb_read_range(f[i], ram / 2);
	}
	tb_task_switch(NULL);
	/* kswapd back asleep: no walk of its own in flight holds a reference */
	tb_kthreads_settle();
	assert_true(kshim_reclaim_event_read(PGSTEAL_KSWAPD) > 0);
}

/*
 * Every user of the memcgs gone (tasks exited, page cache dropped, LRU
 * batches and stocks drained, rmdir killed the refcount's bias) with one reference of ours
 * held on each: the references left beyond ours, summed; *held gets the
 * memcgs so the caller can drop them.
 */
static long references_left_after_rmdir(struct mem_cgroup **held)
{
	unsigned int i;
	long n = 0;

	for (i = 0; i < ARRAY_SIZE(memcgs); i++) {
		held[i] = tb_memcg(memcgs[i]);
		css_get(&held[i]->css);
		tb_task_exit(tasks[i]);
	}
	tb_files_destroy_all();
	/*
	 * folios in the per-CPU LRU batches keep their charge until drained;
	 * a stock keeps its memcg even when its pages ran out, which
	 * drain_all_stock() leaves alone
	 */
	lru_add_drain_all();
	tb_drain_local_stock();
	tb_drain_all_stock(root_mem_cgroup, true);
	for (i = 0; i < ARRAY_SIZE(memcgs); i++) {
		assert_int_equal(tb_cgroup_rmdir(memcgs[i]), 0);
		n += atomic_long_read(&held[i]->css.refcnt.count) - 1;
	}
	return n;
}

static void drop_references(struct mem_cgroup **held)
{
	unsigned int i;
	long n;

	/* counted first: the last put frees the memcg */
	for (i = 0; i < ARRAY_SIZE(memcgs); i++)
		for (n = atomic_long_read(&held[i]->css.refcnt.count); n > 0; n--)
			css_put(&held[i]->css);
}

/* 6.12's own walk, the control: kswapd's reclaim leaves no reference behind */
static void memcg_lru_kswapd_walk_keeps_no_memcg_reference(void **state)
{
	struct mem_cgroup *held[ARRAY_SIZE(memcgs)];

	memcgs_with_page_cache(TB_MEMCG_ITER_OFF, 16);
	kswapd_pressure();
	assert_int_equal(references_left_after_rmdir(held), 0);
	drop_references(held);
}

static void fixed_kswapd_walk_keeps_no_memcg_reference(void **state)
{
	struct mem_cgroup *held[ARRAY_SIZE(memcgs)];

	memcgs_with_page_cache(TB_MEMCG_ITER_FIXED, 16);
	kswapd_pressure();
	assert_int_equal(references_left_after_rmdir(held), 0);
	drop_references(held);
}

/*
 * The seed as posted: kswapd's walk has no cookie, so should_abort_scan()
 * breaks out holding the reference mem_cgroup_iter() took; one leaks per
 * walk that stops before the last memcg, and the memcg is never freed.
 */
static void as_posted_kswapd_walk_leaks_memcg_references(void **state)
{
	struct mem_cgroup *held[ARRAY_SIZE(memcgs)];
	long leaked;

	memcgs_with_page_cache(TB_MEMCG_ITER_AS_POSTED, 16);
	kswapd_pressure();
	leaked = references_left_after_rmdir(held);
	print_message("references leaked by kswapd's walks: %ld\n", leaked);
	assert_true(leaked > 0);
	/* ours and the leaked ones, so the world can be torn down */
	drop_references(held);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		SEED002_TEST(iter_walk_takes_turns_in_css_order),
		SEED002_TEST(iter_walk_leaves_the_memcg_lru_alone),
		SEED002_TEST(memcg_lru_walk_rotates_the_memcgs_it_reclaims),
		SEED002_TEST(memcg_lru_kswapd_walk_keeps_no_memcg_reference),
		SEED002_TEST(fixed_kswapd_walk_keeps_no_memcg_reference),
		SEED002_TEST(as_posted_kswapd_walk_leaks_memcg_references),
	};

	return TB_RUN(tests);
}
