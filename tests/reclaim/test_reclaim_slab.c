// SPDX-License-Identifier: GPL-2.0-only
/*
 * Slab shrinkers in real reclaim: shrink_node_memcgs() calls the real
 * mm/shrinker.c shrink_slab() for every memcg it visits, after its LRUs.
 * The caches are tests/shrinker's tb_cache (a real shrinker over object
 * counts per memcg and node), here beside the real memcontrol.c, whose
 * css online allocates each memcg's shrinker_info.
 */
#include <linux/kernel.h>
#include <linux/list_lru.h>
#include <linux/mm.h>
#include <linux/shrinker.h>
#include <linux/vmstat.h>
#include "tb_cache.h"
#include "tb_reclaim.h"

#define OBJS 1000000L

static struct tb_cache *aware, *plain;

/* a slab page: kernel memory of the node, off the LRU lists */
static struct folio *slab_page(int nid)
{
	return tb_alloc_folio(GFP_NOWAIT | __GFP_THISNODE, nid);
}

/* cache c's objects fill pages of per objects each */
static void slab_pages(struct tb_cache *c, long per)
{
	c->objs_per_page = per;
	c->alloc_page = slab_page;
	c->free_page = folio_put;
}

static int setup_caches(void **state)
{
	if (tb_reclaim_setup(state))
		return -1;
	aware = tb_cache_create(SHRINKER_MEMCG_AWARE);
	plain = tb_cache_create(0);
	return aware && plain ? 0 : -1;
}

static int teardown_caches(void **state)
{
	/* first: the clean-up below takes locks a failed test may hold */
	kshim_release_held();
	tb_cache_destroy(aware);
	tb_cache_destroy(plain);
	return tb_reclaim_teardown(state);
}

#define SLAB_TEST(fn) cmocka_unit_test_setup_teardown(fn, setup_caches, teardown_caches)

/*
 * memory.reclaim on "a", which holds no pages, only objects of a
 * memcg-aware cache: do_try_to_free_pages() goes down to priority 0
 * (nothing it frees is a page), where do_shrink_slab()'s delta is twice
 * the freeable objects and every one of a's objects is scanned and freed.
 * Only a's subtree is visited: b's objects stay, and the cache that is
 * not memcg-aware is never asked (shrink_slab_memcg() walks the bits of
 * memcg-aware shrinkers only). The objects are not pages: the write fails
 * with -EAGAIN, though the objects fill slab pages (1000 to a page) and
 * a's 1000 pages are freed: the slab pages a shrinker frees are counted
 * for global reclaim only (flush_reclaim_state(): they cannot be told to
 * be a's).
 */
static void memory_reclaim_shrinks_the_target_memcgs_slab_only(void **state)
{
	slab_pages(aware, 1000);
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	assert_int_equal(tb_cgroup_mkdir("b"), 0);
	tb_cache_add(aware, tb_memcg("a"), 0, OBJS);
	tb_cache_add(aware, tb_memcg("b"), 0, OBJS);
	tb_cache_add(plain, NULL, 0, OBJS);

	assert_write("a", "memory.reclaim", "1M", -EAGAIN);
	assert_int_equal(tb_cache_objects(aware, tb_memcg("a"), 0), 0);
	assert_int_equal(tb_cache_objects(aware, tb_memcg("b"), 0), OBJS);
	assert_int_equal(tb_cache_objects(plain, NULL, 0), OBJS);
	assert_int_equal(atomic_long_read(&plain->count_calls), 0);
	assert_true(kshim_vm_event_read(SLABS_SCANNED) >= OBJS);
}

/* a task in path holding 64 pages of anon (no swap: they stay) */
static void charge_some(const char *path)
{
	tb_run_in(path);
	tb_touch_range(tb_map_anon(64), 64, true);
}

static void objects_in_a_b_and_root(bool with_pages)
{
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	assert_int_equal(tb_cgroup_mkdir("b"), 0);
	if (with_pages) {
		charge_some("a");
		charge_some("b");
	}
	tb_cache_add(aware, tb_memcg("a"), 0, OBJS);
	tb_cache_add(aware, tb_memcg("b"), 0, OBJS);
	tb_cache_add(plain, NULL, 0, OBJS);
}

/* as the root, read 1.5x the RAM of page cache: kswapd balances the node */
static void read_beyond_ram(void)
{
	unsigned long ram = PAGES(64 * MB);

	tb_run_in("");
	tb_read_range(tb_file_create(ram + ram / 2), ram + ram / 2);
	assert_true(kshim_vm_event_read(PAGEOUTRUN) > 0);
	assert_int_equal(kshim_reclaim_event_read(PGSTEAL_DIRECT), 0);
}

/*
 * kswapd visits every memcg: the root's shrink_slab() runs every shrinker
 * (the plain cache's objects), a's and b's run the memcg-aware cache on
 * their own objects. At DEF_PRIORITY a shrinker is asked to scan
 * (freeable >> 12) * 4 / seeks of its objects per call: with a million
 * each, every cache loses some, none all; a and b, equal and visited at
 * the same priorities, lose the same number.
 *
 * 7.2 with MGLRU on (mglru_age_at_three_gens): kswapd ages the root's
 * lruvec once three generations are left, at a priority below
 * DEF_PRIORITY; the root rotates young, a and b (nothing evictable
 * without swap: tail, then young) leave the old generation after it and
 * seq moves on. The walks after that visit a and b again, each at the
 * priorities of the rounds that reach it: they lose different numbers.
 */
static void kswapd_shrinks_the_slab_of_every_memcg(void **state)
{
	long a, b, p;

	objects_in_a_b_and_root(true);
	read_beyond_ram();
	a = tb_cache_objects(aware, tb_memcg("a"), 0);
	b = tb_cache_objects(aware, tb_memcg("b"), 0);
	p = tb_cache_objects(plain, NULL, 0);
	assert_true(a > 0 && a < OBJS);
	assert_true(p > 0 && p < OBJS);
	if (tb_lru_gen_on() && TB_HAVE_mglru_age_at_three_gens)
		assert_true(b > 0 && b < OBJS);
	else
		assert_int_equal(a, b);
}

/*
 * A memcg with nothing charged is skipped by global reclaim, its slab
 * too: shrink_node_memcgs() asks mem_cgroup_below_min() first, and an
 * effective memory.min of 0 is ">=" a usage of 0. (Slab objects are
 * charged to their memcg in the kernel, so such a memcg has no objects
 * either, but for a shrinker whose objects are not charged.)
 */
static void global_reclaim_skips_the_slab_of_a_memcg_with_no_usage(void **state)
{
	objects_in_a_b_and_root(false);
	read_beyond_ram();
	assert_int_equal(tb_cache_objects(aware, tb_memcg("a"), 0), OBJS);
	assert_int_equal(tb_cache_objects(aware, tb_memcg("b"), 0), OBJS);
	assert_true(tb_cache_objects(plain, NULL, 0) < OBJS);
}

/*
 * mem_cgroup_css_offline() hands a removed memcg's deferred shrinker work
 * to its parent (reparent_shrinker_deferred()): memory.reclaim of p/a,
 * whose shrinker stops at once (SHRINK_STOP), leaves work deferred in
 * p/a; removing p/a adds that count to p's.
 */
static void removed_memcgs_deferred_shrinker_work_goes_to_the_parent(void **state)
{
	int id = aware->shrinker->id;
	struct mem_cgroup *p;
	long deferred;

	assert_int_equal(tb_cgroup_mkdir("p"), 0);
	assert_int_equal(tb_cgroup_mkdir("p/a"), 0);
	p = tb_memcg("p");
	tb_cache_add(aware, tb_memcg("p/a"), 0, OBJS);
	aware->stop = true;
	assert_write("p/a", "memory.reclaim", "1M", -EAGAIN);
	aware->stop = false;
	deferred = tb_shrinker_deferred(tb_memcg("p/a"), 0, id);
	assert_true(deferred > 0);
	assert_int_equal(tb_shrinker_deferred(p, 0, id), 0);
	assert_int_equal(tb_cgroup_rmdir("p/a"), 0);
	assert_int_equal(tb_shrinker_deferred(p, 0, id), deferred);
}

/*
 * memory.reclaim of the root is global reclaim: the slab pages its
 * shrinkers free count as reclaimed (flush_reclaim_state() after each
 * shrink_node() takes what was credited since the last). The root holds
 * no LRU page, only 2^18 objects of the plain cache, 50 to a slab page
 * (5243 pages); "128K" asks for 32 pages. do_shrink_slab() scans in
 * batches of 128 while its target, (freeable >> priority) * 4 / seeks
 * plus the deferred work, allows: 128 objects at priority 12, 128 at 11,
 * 3 batches at 10, 7 at 9, 15 at 8: 128, 256, 640, 1536 and 3456 freed,
 * so 2, 5, 12, 30 and 69 pages, and 32 is reached at priority 8.
 */
static void root_reclaim_counts_the_slab_pages_its_shrinkers_free(void **state)
{
	long objs = 1L << 18;
	unsigned long free;

	TB_CLASSIC_LRU_ONLY("the classic LRU's priority loop");
	TB_ONE_NODE_ONLY("5243 slab pages on node 0, larger than a node of 4");
	slab_pages(plain, 50);
	tb_cache_add(plain, NULL, 0, objs);
	assert_int_equal(plain->nr_pages[0], 5243);
	free = tb_free_pages(0);
	assert_write_ok("", "memory.reclaim", "128K");
	assert_int_equal(tb_cache_objects(plain, NULL, 0), objs - 3456);
	assert_int_equal(atomic_long_read(&plain->scan_calls), 1 + 1 + 3 + 7 + 15);
	assert_int_equal(plain->nr_pages[0], 5243 - 69);
	assert_int_equal(tb_free_pages(0), free + 69);
}

/*
 * The same with the multi-gen LRU: lru_gen_shrink_node() runs
 * shrink_slab() for each memcg of the memcg LRU (shrink_one(), the
 * root's included) and flush_reclaim_state() after each. A target below
 * MIN_LRU_BATCH keeps do_try_to_free_pages()'s priorities
 * (set_initial_priority()), so the same batches free the same objects
 * and 32 pages are reached at priority 8 again.
 */
static void root_reclaim_counts_the_slab_pages_its_shrinkers_free_mglru(void **state)
{
	long objs = 1L << 18;
	unsigned long free;

	if (!tb_lru_gen_on())
		tb_skip("the multi-gen LRU's shrink_one()");
	TB_ONE_NODE_ONLY("5243 slab pages on node 0, larger than a node of 4");
	slab_pages(plain, 50);
	tb_cache_add(plain, NULL, 0, objs);
	free = tb_free_pages(0);
	assert_write_ok("", "memory.reclaim", "128K");
	assert_int_equal(tb_cache_objects(plain, NULL, 0), objs - 3456);
	assert_int_equal(atomic_long_read(&plain->scan_calls), 1 + 1 + 3 + 7 + 15);
	assert_int_equal(tb_free_pages(0), free + 69);
}

static int setup_caches_4_nodes(void **state)
{
	tb_world.nr_nodes = 4;
	tb_mem.ram_pages = PAGES(16 * MB);
	return setup_caches(state);
}

/*
 * memory.reclaim walks every node of the writer's zonelist, and
 * shrink_slab() asks a memcg's NUMA-aware shrinker about the node being
 * reclaimed: a's objects on all four nodes go. The memcg-aware cache
 * that is not NUMA-aware keeps its objects on node 0, where
 * do_shrink_slab() always asks it (nid 0), so they go too.
 */
static void memory_reclaim_shrinks_numa_aware_objects_on_every_node(void **state)
{
	struct tb_cache *numa = tb_cache_create(SHRINKER_MEMCG_AWARE | SHRINKER_NUMA_AWARE);
	int nid;

	assert_non_null(numa);
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	for (nid = 0; nid < 4; nid++)
		tb_cache_add(numa, tb_memcg("a"), nid, OBJS);
	tb_cache_add(aware, tb_memcg("a"), 0, OBJS);

	assert_write("a", "memory.reclaim", "1M", -EAGAIN);
	for (nid = 0; nid < 4; nid++)
		assert_int_equal(tb_cache_objects(numa, tb_memcg("a"), nid), 0);
	assert_int_equal(tb_cache_objects(aware, tb_memcg("a"), 0), 0);
	tb_cache_destroy(numa);
}

/*
 * A memcg's offline moves the objects of its memcg-aware list_lrus to its
 * parent (memcg_offline_kmem(): memcg_reparent_list_lrus()), where the
 * parent's shrinker finds and deletes them.
 */
static void offline_memcg_objects_move_to_the_parent_list_lru(void **state)
{
	struct list_head items[3];
	struct mem_cgroup *a;
	struct list_lru lru;
	int i;

	assert_int_equal(tb_cgroup_mkdir("p"), 0);
	assert_int_equal(tb_cgroup_mkdir("p/a"), 0);
	a = tb_memcg("p/a");
	assert_int_equal(list_lru_init_memcg(&lru, NULL), 0);
	assert_int_equal(memcg_list_lru_alloc(a, &lru, GFP_KERNEL), 0);
	for (i = 0; i < 3; i++) {
		INIT_LIST_HEAD(&items[i]);
		assert_true(list_lru_add(&lru, &items[i], 0, a));
	}
	assert_int_equal(list_lru_count_one(&lru, 0, a), 3);
	assert_int_equal(list_lru_count_one(&lru, 0, tb_memcg("p")), 0);
	assert_int_equal(tb_cgroup_rmdir("p/a"), 0);
	kshim_rcu_quiesce();
	assert_int_equal(list_lru_count_one(&lru, 0, tb_memcg("p")), 3);
	for (i = 0; i < 3; i++)
		assert_true(list_lru_del(&lru, &items[i], 0, tb_memcg("p")));
	assert_int_equal(list_lru_count_node(&lru, 0), 0);
	list_lru_destroy(&lru);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		SLAB_TEST(memory_reclaim_shrinks_the_target_memcgs_slab_only),
		SLAB_TEST(removed_memcgs_deferred_shrinker_work_goes_to_the_parent),
		cmocka_unit_test_setup_teardown(memory_reclaim_shrinks_numa_aware_objects_on_every_node,
						setup_caches_4_nodes, teardown_caches),
		SLAB_TEST(kswapd_shrinks_the_slab_of_every_memcg),
		SLAB_TEST(root_reclaim_counts_the_slab_pages_its_shrinkers_free),
		SLAB_TEST(root_reclaim_counts_the_slab_pages_its_shrinkers_free_mglru),
		SLAB_TEST(global_reclaim_skips_the_slab_of_a_memcg_with_no_usage),
		SLAB_TEST(offline_memcg_objects_move_to_the_parent_list_lru),
	};

	return TB_RUN(tests);
}
