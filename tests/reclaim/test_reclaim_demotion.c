// SPDX-License-Identifier: GPL-2.0-only
/*
 * Demotion to a slower memory tier: a machine of two nodes of 16 MiB,
 * node 1 slow memory (CXL or PMEM through dax/kmem: tb_mem_config.slow_nodes),
 * so mm/memory-tiers.c puts it in a lower tier and makes it node 0's
 * demotion target. With /sys/kernel/mm/numa/demotion_enabled set,
 * shrink_folio_list() on node 0 migrates the folios it would reclaim to
 * node 1 (demote_folio_list()), where they stay mapped, cached and
 * charged; when node 1 has no room it reclaims them after all, except
 * for proactive reclaim.
 */
#include <linux/kernel.h>
#include <linux/delay.h>
#include <linux/mm.h>
#include <linux/mmzone.h>
#include <linux/swap.h>
#include <linux/vmstat.h>
#include <linux/memory-tiers.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include "tb_reclaim.h"

#define DEMOTION "kernel/mm/numa/demotion_enabled"

static int setup_slow_node_1(void **state)
{
	tb_world.nr_nodes = 2;
	tb_mem.ram_pages = PAGES(16 * MB);
	tb_mem.slow_nodes = BIT(1);
	return tb_reclaim_setup(state);
}

/* three nodes, 1 and 2 slow: one lower tier of two nodes */
static int setup_slow_nodes_1_and_2(void **state)
{
	tb_world.nr_nodes = 3;
	tb_mem.ram_pages = PAGES(16 * MB);
	tb_mem.slow_nodes = BIT(1) | BIT(2);
	tb_mem.no_kswapd = true;
	return tb_reclaim_setup(state);
}

/* no kswapd: only the test's direct reclaim runs */
static int setup_slow_node_1_no_kswapd(void **state)
{
	tb_mem.no_kswapd = true;
	return setup_slow_node_1(state);
}

/*
 * The node reclaim demotes nid's folios to. Since 7.2 the choice is made
 * within the allowed targets (demotion_allowed_mask): asked as
 * demote_folio_list() asks, none when nid has no allowed target.
 */
static int next_demotion(int nid)
{
#if TB_HAVE_demotion_allowed_mask
	nodemask_t allowed;

	node_get_allowed_targets(NODE_DATA(nid), &allowed);
	if (nodes_empty(allowed))
		return NUMA_NO_NODE;
	return next_demotion_node(nid, &allowed);
#else
	return next_demotion_node(nid);
#endif
}

static void enable_demotion(void)
{
	assert_int_equal(tb_sysfs_write(DEMOTION, "1"), 1);
}

/* and a swap device */
static int setup_slow_node_1_swap(void **state)
{
	tb_mem.swap_pages = PAGES(64 * MB);
	return setup_slow_node_1_no_kswapd(state);
}

/*
 * and a swap disk, whose swap-in keeps a swap cache copy (from zram a read
 * frees the slot on every tree)
 */
static int setup_slow_node_1_swap_disk(void **state)
{
	tb_mem.swap_disk = true;
	return setup_slow_node_1_swap(state);
}

/* a task of cgroup "a" on CPU 0 (node 0), switched in */
static struct tb_task *run_in_a_on_node_0(void)
{
	struct tb_task *t;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	t = tb_run_in("a");
	assert_int_equal(tb_task_set_cpu(t, 0), 0);
	return t;
}

/* node nid's free pages held down to target (pages the rest of the kernel took) */
static void fill_node(int nid, unsigned long target, struct list_head *held)
{
	gfp_t gfp = (GFP_ATOMIC & ~__GFP_KSWAPD_RECLAIM) | __GFP_THISNODE;
	struct folio *folio;

	while (tb_free_pages(nid) > target) {
		folio = tb_alloc_folio(gfp, nid);
		assert_non_null(folio);
		list_add(&folio->lru, held);
	}
}

/* demotion on, n anon pages written by a task of "a" on node 0 */
static struct tb_vma *anon_written_on_node_0(unsigned long n)
{
	struct tb_vma *vma;

	enable_demotion();
	run_in_a_on_node_0();
	vma = tb_map_anon(n);
	tb_touch_range(vma, n, true);
	return vma;
}

/*
 * Demotion on, node 1 below its min watermark, n pages of page cache
 * read by a task of "a" on node 0
 */
static struct tb_file *page_cache_with_the_slow_node_full(unsigned long n,
							   struct list_head *held)
{
	struct tb_file *f = tb_file_create(n);

	enable_demotion();
	fill_node(1, tb_wmark(1, WMARK_MIN) / 2, held);
	run_in_a_on_node_0();
	tb_read_range(f, n);
	return f;
}

/* a task of "a" bound to node 0 reads n pages, past node 0's low watermark */
static struct tb_file *read_past_node_0s_low_watermark(unsigned long *n)
{
	struct tb_file *f;

	*n = tb_free_pages(0) - tb_wmark(0, WMARK_LOW) + 256;
	f = tb_file_create(*n);
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	assert_int_equal(tb_task_bind_node(tb_run_in("a"), 0), 0);
	tb_read_range(f, *n);
	tb_kthreads_settle();
	return f;
}

static unsigned long file_folios_on(struct tb_file *f, unsigned long n, int nid)
{
	unsigned long i, on = 0;

	for (i = 0; i < n; i++)
		on += tb_file_folio(f, i) && folio_nid(tb_file_folio(f, i)) == nid;
	return on;
}

static unsigned long vma_folios_on(struct tb_vma *vma, unsigned long n, int nid)
{
	unsigned long i, on = 0;

	for (i = 0; i < n; i++)
		on += tb_vma_folio(vma, i) && folio_nid(tb_vma_folio(vma, i)) == nid;
	return on;
}

static unsigned long pgdemote(int nid, enum node_stat_item item)
{
	return node_page_state(NODE_DATA(nid), item);
}

/* a direct reclaim of node 0's zonelist, as an allocation's slow path makes it */
static unsigned long direct_reclaim(void)
{
	return try_to_free_pages(node_zonelist(0, GFP_KERNEL), 0, GFP_KERNEL, NULL);
}

/*
 * The tiers mm/memory-tiers.c makes of the firmware's description: node
 * 1's memory type (the dax/kmem driver's, five times DRAM's abstract
 * distance) is a tier below node 0's, so node 0 demotes to node 1 and
 * node 1, the last tier, nowhere; node 0's fallback targets are every
 * lower tier's nodes. Demotion starts off, as the kernel boots.
 */
static void the_slow_node_is_the_demotion_target_of_the_fast_one(void **state)
{
	nodemask_t targets;
	char buf[16];

	assert_int_equal(next_demotion(0), 1);
	assert_int_equal(next_demotion(1), NUMA_NO_NODE);
	node_get_allowed_targets(NODE_DATA(0), &targets);
	assert_true(node_isset(1, targets));
	assert_false(node_isset(0, targets));
	node_get_allowed_targets(NODE_DATA(1), &targets);
	assert_true(nodes_empty(targets));
	assert_true(tb_sysfs_read(DEMOTION, buf, sizeof(buf)) > 0);
	assert_string_equal(buf, "false\n");
}

/*
 * A task bound to node 0 reads page cache until node 0 is below its low
 * watermark: node 0's kswapd reclaims, and every folio it takes is
 * demoted to node 1 instead of dropped: PGSTEAL_KSWAPD counts them, as
 * many as node 0's PGDEMOTE_KSWAPD and the memcg's pgdemote_kswapd; they
 * are all still cached, now on node 1, and still charged to the memcg.
 */
static void kswapd_demotes_cold_page_cache_to_the_slow_node(void **state)
{
	unsigned long n, demoted;
	struct tb_file *f;

	enable_demotion();
	f = read_past_node_0s_low_watermark(&n);
	demoted = pgdemote(0, PGDEMOTE_KSWAPD);
	assert_true(demoted >= SWAP_CLUSTER_MAX);
	assert_int_equal(kshim_reclaim_event_read(PGSTEAL_KSWAPD), demoted);
	assert_int_equal(kshim_vm_event_read(PGMIGRATE_SUCCESS), demoted);
	assert_int_equal(tb_stat("a", "pgdemote_kswapd"), demoted);
	assert_int_equal(tb_file_cached(f), n);
	assert_int_equal(file_folios_on(f, n, 1), demoted);
	assert_int_equal(tb_stat("a", "file"), n * PAGE_SIZE);
	assert_int_equal(pgdemote(0, PGDEMOTE_DIRECT), 0);
	tb_assert_lrus_consistent();
}

/*
 * The root's page cache is demoted as any other, and its charge stays
 * out of the root's page counter, which only sums its children's: the
 * root's folios were never charged to it, so their migration uncharges
 * nothing there (mem_cgroup_migrate()).
 */
static void kswapd_demotes_the_root_s_page_cache_without_uncharging_it(void **state)
{
	unsigned long n, usage = page_counter_read(&root_mem_cgroup->memory);
	struct tb_file *f;

	enable_demotion();
	n = tb_free_pages(0) - tb_wmark(0, WMARK_LOW) + 256;
	f = tb_file_create(n);
	assert_int_equal(tb_task_bind_node(tb_run_in(""), 0), 0);
	tb_read_range(f, n);
	tb_kthreads_settle();
	assert_true(pgdemote(0, PGDEMOTE_KSWAPD) >= SWAP_CLUSTER_MAX);
	assert_int_equal(file_folios_on(f, n, 1), pgdemote(0, PGDEMOTE_KSWAPD));
	assert_int_equal(page_counter_read(&root_mem_cgroup->memory), usage);
	tb_assert_lrus_consistent();
}

/* The same reads with demotion off: kswapd drops the page cache it reclaims. */
static void kswapd_drops_page_cache_when_demotion_is_off(void **state)
{
	unsigned long n;
	struct tb_file *f = read_past_node_0s_low_watermark(&n);

	assert_true(kshim_reclaim_event_read(PGSTEAL_KSWAPD) >= SWAP_CLUSTER_MAX);
	assert_int_equal(pgdemote(0, PGDEMOTE_KSWAPD), 0);
	assert_int_equal(kshim_vm_event_read(PGMIGRATE_SUCCESS), 0);
	assert_int_equal(tb_file_cached(f), n - kshim_reclaim_event_read(PGSTEAL_KSWAPD));
	assert_int_equal(file_folios_on(f, n, 1), 0);
}

/*
 * Anonymous memory without swap is reclaimable on node 0 only because
 * it can be demoted (can_reclaim_anon_pages()). A direct reclaim ages
 * the young pages and demotes what it takes, PGDEMOTE_DIRECT and
 * PGSTEAL_DIRECT alike, its return value: the pages stay mapped (a
 * touch is a hit, not a fault), now on node 1, charged to the memcg
 * (memory.current, numa_stat's anon on node 1).
 */
static void direct_reclaim_demotes_mapped_anon_without_swap(void **state)
{
	unsigned long n = 1024, demoted, reclaimed;
	struct tb_mem_stats before, after;
	struct tb_vma *vma;

	vma = anon_written_on_node_0(n);

	reclaimed = direct_reclaim();
	demoted = pgdemote(0, PGDEMOTE_DIRECT);
	assert_true(demoted >= SWAP_CLUSTER_MAX);
	assert_int_equal(reclaimed, demoted);
	assert_int_equal(kshim_reclaim_event_read(PGSTEAL_DIRECT), demoted);
	assert_int_equal(vma_folios_on(vma, n, 1), demoted);
	assert_int_equal(tb_vma_resident(vma), n);
	assert_int_equal(tb_usage("a"), n * PAGE_SIZE + tb_stat("a", "kernel"));
	assert_int_equal(tb_stat("a", "pgdemote_direct"), demoted);
	tb_mem_stats(&before);
	tb_touch_range(vma, n, false);
	tb_mem_stats(&after);
	assert_int_equal(after.minor + after.major_anon, before.minor + before.major_anon);
	tb_assert_lrus_consistent();
}

/*
 * Node 1 below its min watermark: the demotion target cannot be
 * allocated (GFP_NOWAIT, no reserves), migrate_pages() leaves every
 * folio on the list, and shrink_folio_list() tries them again without
 * demotion: direct reclaim drops the page cache instead.
 */
static void direct_reclaim_drops_page_cache_when_the_slow_node_is_full(void **state)
{
	unsigned long n = 1024, reclaimed;
	LIST_HEAD(held);
	struct tb_file *f = page_cache_with_the_slow_node_full(n, &held);

	reclaimed = direct_reclaim();
	assert_true(reclaimed >= SWAP_CLUSTER_MAX);
	assert_int_equal(kshim_reclaim_event_read(PGSTEAL_DIRECT), reclaimed);
	assert_int_equal(pgdemote(0, PGDEMOTE_DIRECT), 0);
	assert_int_equal(kshim_vm_event_read(PGMIGRATE_SUCCESS), 0);
	assert_true(kshim_vm_event_read(PGMIGRATE_FAIL) > 0);
	assert_int_equal(tb_file_cached(f), n - reclaimed);
	assert_int_equal(file_folios_on(f, n, 1), 0);
	tb_put_folios(&held);
}

/*
 * memory.reclaim is proactive: a folio that cannot be demoted is not
 * reclaimed from the top tier at all (no retry without demotion), so
 * with node 1 full nothing of node 0's page cache goes and the write
 * fails with -EAGAIN after its retries.
 */
static void proactive_reclaim_keeps_what_it_cannot_demote(void **state)
{
	unsigned long n = 1024;
	LIST_HEAD(held);
	struct tb_file *f = page_cache_with_the_slow_node_full(n, &held);

	assert_write("a", "memory.reclaim", "1M", -EAGAIN);
	assert_int_equal(tb_file_cached(f), n);
	assert_int_equal(tb_stat("a", "pgsteal_direct"), 0);
	assert_true(kshim_vm_event_read(PGMIGRATE_FAIL) > 0);
	tb_put_folios(&held);
}

/*
 * memory.reclaim of a memcg on node 0 with room on node 1: demotion
 * counts as reclaim, and the same call's later shrinks of node 1 (the
 * last tier: nothing to demote to) drop some of what came there. The
 * memcg's pgsteal_direct is both; only the dropped pages left it. 7.2
 * (reclaim_stat_proactive): counted as pgdemote_proactive and
 * pgsteal_proactive.
 */
static void proactive_reclaim_counts_demotion_as_reclaim(void **state)
{
	unsigned long n = 1024, demoted, dropped;
	struct tb_file *f = tb_file_create(n);

	enable_demotion();
	run_in_a_on_node_0();
	tb_read_range(f, n);

	assert_write_ok("a", "memory.reclaim", "1M");
	demoted = pgdemote(0, TB_PGDEMOTE_PROACTIVE);
	dropped = n - tb_file_cached(f);
	assert_true(demoted >= SWAP_CLUSTER_MAX);
	/*
	 * node 1 has no demotion target (can_demote()): the classic LRU's
	 * shrink of it counts its own reclaim against the target
	 * (shrink_lruvec()) and drops some; the multi-gen LRU's stops at
	 * once, the call's target met (should_abort_scan())
	 */
	if (!tb_lru_gen_on())
		assert_true(dropped > 0);
	assert_int_equal(tb_stat("a", TB_PROACTIVE_KEY("pgdemote")), demoted);
	assert_int_equal(tb_stat("a", TB_PROACTIVE_KEY("pgsteal")), demoted + dropped);
	assert_true(demoted + dropped >= PAGES(1 * MB));
	assert_int_equal(file_folios_on(f, n, 1), demoted - dropped);
	assert_int_equal(tb_stat("a", "file"), (n - dropped) * PAGE_SIZE);
}

/*
 * MADV_PAGEOUT reclaims through reclaim_pages(), whose scan_control has
 * no_demotion: the folios of a node with a demotion target are swapped
 * out, not demoted (can_demote() says no).
 */
static void madv_pageout_swaps_out_instead_of_demoting(void **state)
{
	unsigned long n = 64;
	struct tb_vma *vma;

	vma = anon_written_on_node_0(n);

	assert_int_equal(tb_madvise(vma, MADV_PAGEOUT), 0);
	assert_int_equal(tb_vma_swapped(vma), n);
	assert_int_equal(tb_vma_resident(vma), 0);
	assert_int_equal(kshim_vm_event_read(PSWPOUT), n);
	assert_int_equal(pgdemote(0, PGDEMOTE_DIRECT), 0);
	assert_int_equal(kshim_vm_event_read(PGMIGRATE_SUCCESS) + kshim_vm_event_read(PGMIGRATE_FAIL), 0);
	assert_int_equal(tb_stat("a", "anon"), 0);
}

/*
 * Demotion migrates asynchronously: a dirty page cache folio of a
 * mapping without ->migrate_folio would need writeout first
 * (fallback_migrate_folio()), so it is busy, counted a failure, and left
 * to reclaim; the clean ones go. Every folio on node 1 is clean. The
 * multi-gen LRU without mglru_sort_lets_dirty_through (6.12 before
 * 6.12.115) holds the dirty folios back in sort_folio(): none reaches
 * demote_folio_list(), so no migration fails.
 *
 * 7.2 with MGLRU on (lru_gen_folio_seq): a demoted folio is added to
 * node 1's oldest generation, and the same reclaim, going on to node 1's
 * zones, evicts some of them again.
 */
static void demotion_leaves_dirty_page_cache_behind(void **state)
{
	unsigned long n = 1024, i, demoted, clean_on_1 = 0;
	struct tb_file *f = tb_file_create(n);

	enable_demotion();
	run_in_a_on_node_0();
	for (i = 0; i < n; i++)
		assert_int_equal(i % 2 ? tb_file_read(f, i) : tb_file_write(f, i), 0);

	direct_reclaim();
	demoted = pgdemote(0, PGDEMOTE_DIRECT);
	assert_true(demoted >= SWAP_CLUSTER_MAX);
	assert_int_equal(kshim_vm_event_read(PGMIGRATE_SUCCESS), demoted);
	if (tb_lru_gen_on() && !TB_HAVE_mglru_sort_lets_dirty_through)
		assert_int_equal(kshim_vm_event_read(PGMIGRATE_FAIL), 0);
	else
		assert_true(kshim_vm_event_read(PGMIGRATE_FAIL) > 0);
	for (i = 0; i < n; i++) {
		struct folio *folio = tb_file_folio(f, i);

		clean_on_1 += folio && folio_nid(folio) == 1 && !folio_test_dirty(folio);
	}
	if (tb_lru_gen_on() && TB_HAVE_lru_gen_folio_seq)
		assert_true(tb_file_cached(f) < n);
	else
		assert_int_equal(tb_file_cached(f), n);
	assert_int_equal(clean_on_1 + n - tb_file_cached(f), demoted);
	assert_int_equal(file_folios_on(f, n, 1), clean_on_1);
}

/*
 * A folio read back from a swap disk stays in the swap cache (from zram
 * the kernel keeps no copy): demoted, the new
 * folio takes its swap cache slot and entry (NR_SWAPCACHE moves to node
 * 1), the swap slots stay as they were and nothing is written again.
 *
 * 7.2 with MGLRU on (lru_gen_folio_seq): a demoted folio goes to node 1's
 * oldest generation, and the same reclaim evicts some there: clean in
 * the swap cache, they are dropped without a write, their slots kept.
 */
static void demotion_moves_a_swap_cache_folio_with_its_slot(void **state)
{
	unsigned long n = 64, i, reclaimed, demoted, in_cache = 0, evicted = 0;
	struct tb_vma *vma;

	vma = anon_written_on_node_0(n);
	assert_int_equal(tb_madvise(vma, MADV_PAGEOUT), 0);
	/* the disk completes the writes: clean folios in the swap cache */
	msleep(1);
	tb_touch_range(vma, n, false);
	assert_int_equal(node_page_state(NODE_DATA(0), NR_SWAPCACHE), n);

	reclaimed = direct_reclaim();
	demoted = pgdemote(0, PGDEMOTE_DIRECT);
	assert_true(demoted > 0);
	for (i = 0; i < n; i++) {
		struct folio *folio = tb_vma_folio(vma, i);

		if (!folio) {
			evicted++;
			continue;
		}
		in_cache += folio_nid(folio) == 1 && folio_test_swapcache(folio);
	}
	if (tb_lru_gen_on() && TB_HAVE_lru_gen_folio_seq)
		assert_true(evicted > 0);
	else
		assert_int_equal(evicted, 0);
	assert_int_equal(reclaimed, demoted + evicted);
	assert_int_equal(in_cache, demoted - evicted);
	assert_int_equal(node_page_state(NODE_DATA(1), NR_SWAPCACHE), demoted - evicted);
	assert_int_equal(node_page_state(NODE_DATA(0), NR_SWAPCACHE), n - demoted);
	assert_int_equal(tb_swap_used(), n);
	assert_int_equal(kshim_vm_event_read(PSWPOUT), n);
	tb_assert_lrus_consistent();
}

/*
 * Without swap MADV_PAGEOUT can reclaim no anonymous folio (and demotes
 * none): reclaim_pages() hands each node's folios to shrink_folio_list()
 * in turn, which activates them all (add_to_swap() fails), and they go
 * back to their LRUs, still mapped on the node they were on.
 */
static void madv_pageout_without_swap_activates_the_folios_of_each_node(void **state)
{
	unsigned long n = 64;
	struct tb_vma *vma;
	struct tb_task *t;
	unsigned long i;

	enable_demotion();
	t = run_in_a_on_node_0();
	vma = tb_map_anon(n);
	tb_touch_range(vma, n / 2, true);
	/* CPU 0's add batch emptied: MADV_PAGEOUT drains only its own CPU's */
	lru_add_drain();
	assert_int_equal(tb_task_set_cpu(t, 2), 0);
	for (i = n / 2; i < n; i++)
		assert_int_equal(tb_touch(vma, i, true), 0);

	assert_int_equal(tb_madvise(vma, MADV_PAGEOUT), 0);
	assert_int_equal(tb_vma_resident(vma), n);
	assert_int_equal(vma_folios_on(vma, n, 0), n / 2);
	assert_int_equal(vma_folios_on(vma, n, 1), n / 2);
	assert_int_equal(kshim_vm_event_read(PGACTIVATE), n);
	assert_int_equal(pgdemote(0, PGDEMOTE_DIRECT), 0);
	assert_int_equal(kshim_vm_event_read(PGMIGRATE_SUCCESS) + kshim_vm_event_read(PGMIGRATE_FAIL), 0);
	tb_assert_lrus_consistent();
}

/* nothing mapped, nothing isolated: reclaim_pages() of an empty list */
static void madv_pageout_of_an_untouched_vma_reclaims_nothing(void **state)
{
	struct tb_vma *vma;

	run_in_a_on_node_0();
	vma = tb_map_anon(64);
	assert_int_equal(tb_madvise(vma, MADV_PAGEOUT), 0);
	assert_int_equal(kshim_vm_event_read(PGACTIVATE) + kshim_vm_event_read(PSWPOUT), 0);
}

/*
 * Two slow nodes at the same distance are both node 0's preferred
 * targets (next_demotion_node() picks one at random) and its allowed
 * ones. Node 1 full: a folio whose pick is node 1 fails there
 * (__GFP_THISNODE) and is allocated again within the allowed mask, on
 * node 2; so every demoted folio lands on node 2.
 */
static void demotion_falls_back_to_another_node_of_the_lower_tier(void **state)
{
	unsigned long n = 1024, demoted;
	struct tb_file *f = tb_file_create(n);
	nodemask_t targets;
	LIST_HEAD(held);

	node_get_allowed_targets(NODE_DATA(0), &targets);
	assert_true(node_isset(1, targets) && node_isset(2, targets));
	assert_int_equal(nodes_weight(targets), 2);
	assert_int_equal(next_demotion(1), NUMA_NO_NODE);
	enable_demotion();
	fill_node(1, tb_wmark(1, WMARK_MIN) / 2, &held);
	run_in_a_on_node_0();
	tb_read_range(f, n);

	assert_true(direct_reclaim() >= SWAP_CLUSTER_MAX);
	demoted = pgdemote(0, PGDEMOTE_DIRECT);
	assert_true(demoted >= SWAP_CLUSTER_MAX);
	assert_int_equal(file_folios_on(f, n, 2), demoted);
	assert_int_equal(file_folios_on(f, n, 1), 0);
	assert_int_equal(tb_file_cached(f), n);
	tb_put_folios(&held);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		TB_RECLAIM_TEST_ON(the_slow_node_is_the_demotion_target_of_the_fast_one,
				   setup_slow_node_1),
		TB_RECLAIM_TEST_ON(kswapd_demotes_cold_page_cache_to_the_slow_node,
				   setup_slow_node_1),
		TB_RECLAIM_TEST_ON(kswapd_demotes_the_root_s_page_cache_without_uncharging_it,
				   setup_slow_node_1),
		TB_RECLAIM_TEST_ON(kswapd_drops_page_cache_when_demotion_is_off, setup_slow_node_1),
		TB_RECLAIM_TEST_ON(direct_reclaim_demotes_mapped_anon_without_swap,
				   setup_slow_node_1_no_kswapd),
		TB_RECLAIM_TEST_ON(direct_reclaim_drops_page_cache_when_the_slow_node_is_full,
				   setup_slow_node_1_no_kswapd),
		TB_RECLAIM_TEST_ON(proactive_reclaim_keeps_what_it_cannot_demote,
				   setup_slow_node_1_no_kswapd),
		TB_RECLAIM_TEST_ON(proactive_reclaim_counts_demotion_as_reclaim,
				   setup_slow_node_1_no_kswapd),
		TB_RECLAIM_TEST_ON(demotion_falls_back_to_another_node_of_the_lower_tier,
				   setup_slow_nodes_1_and_2),
		TB_RECLAIM_TEST_ON(demotion_leaves_dirty_page_cache_behind,
				   setup_slow_node_1_no_kswapd),
		TB_RECLAIM_TEST_ON(demotion_moves_a_swap_cache_folio_with_its_slot,
				   setup_slow_node_1_swap_disk),
		TB_RECLAIM_TEST_ON(madv_pageout_swaps_out_instead_of_demoting,
				   setup_slow_node_1_swap),
		TB_RECLAIM_TEST_ON(madv_pageout_without_swap_activates_the_folios_of_each_node,
				   setup_slow_node_1_no_kswapd),
		TB_RECLAIM_TEST_ON(madv_pageout_of_an_untouched_vma_reclaims_nothing,
				   setup_slow_node_1_no_kswapd),
	};

	return TB_RUN(tests);
}
