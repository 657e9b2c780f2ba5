// SPDX-License-Identifier: GPL-2.0-only
/*
 * Global reclaim through the real mm/vmscan.c: the watermarks the kernel
 * derives from the RAM size and the sysctls, kswapd woken at the low
 * watermark, direct reclaim when there is no kswapd, global OOM.
 */
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/vmstat.h>
#include <linux/pageblock-flags.h>
#include <linux/pagemap.h>
#include <linux/swap.h>
#include <kshim/trace.h>
#include "tb_reclaim.h"

/*
 * 64 MiB: calculate_min_free_kbytes() gives int_sqrt(65536 * 16) = 1024 kB,
 * 256 pages of min; __setup_per_zone_wmarks() adds max(min / 4,
 * managed * 10 / 10000) = max(64, 16) for low and twice that for high.
 */
static void watermarks_follow_ram_size(void **state)
{
	assert_int_equal(tb_wmark(0, WMARK_MIN), 256);
	assert_int_equal(tb_wmark(0, WMARK_LOW), 320);
	assert_int_equal(tb_wmark(0, WMARK_HIGH), 384);
}

/* vm.min_free_kbytes=4096 and vm.watermark_scale_factor=200 (2% of 16384 pages) */
static int setup_sysctls(void **state)
{
	tb_mem = (struct tb_mem_config){ .min_free_kbytes = 4096, .watermark_scale_factor = 200 };
	return tb_reclaim_setup(state);
}

static void watermarks_follow_sysctls(void **state)
{
	assert_int_equal(tb_wmark(0, WMARK_MIN), 1024);
	assert_int_equal(tb_wmark(0, WMARK_LOW), 1024 + 327);
	assert_int_equal(tb_wmark(0, WMARK_HIGH), 1024 + 2 * 327);
}

/* reading 1.5x RAM of files: kswapd keeps free memory up, no direct reclaim */
static void kswapd_reclaims_page_cache_between_low_and_high(void **state)
{
	unsigned long ram = PAGES(64 * MB);
	struct tb_file *f = tb_file_create(ram + ram / 2);

	tb_run_in("");
	tb_read_range(f, ram + ram / 2);
	assert_true(kshim_vm_event_read(PAGEOUTRUN) > 0);
	assert_true(kshim_reclaim_event_read(PGSTEAL_KSWAPD) >= ram / 2);
	assert_int_equal(kshim_vm_event_read(ALLOCSTALL_NORMAL), 0);
	assert_int_equal(kshim_reclaim_event_read(PGSTEAL_DIRECT), 0);
	assert_true(tb_free_pages(0) >= tb_wmark(0, WMARK_MIN));
	tb_assert_lrus_consistent();
}

/*
 * Each memcg item has a counter of its own: after kswapd scanned a
 * memcg's page cache (its pgscan in memory.stat), the zswap items, the
 * last of its state (nothing goes to zswap here), still read 0.
 */
static void memcg_zswap_items_stay_zero_after_kswapd_scans(void **state)
{
	unsigned long ram = PAGES(64 * MB);
	struct tb_file *f = tb_file_create(ram + ram / 2);
	struct mem_cgroup *a;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	tb_read_range(f, ram + ram / 2);
	assert_true(kshim_reclaim_event_read(PGSCAN_KSWAPD) > 0);
	a = tb_memcg("a");
	tb_memcg_flush_stats(a);
	assert_true(tb_cgroup_read_key("a", "memory.stat", "pgscan") > 0);
	assert_int_equal(tb_memcg_stat(a, MEMCG_ZSWAPPED), 0);
	assert_int_equal(tb_memcg_stat(a, MEMCG_ZSWAP_B), 0);
}

/*
 * kswapd goes back to sleep once the node is balanced (it reclaimed up to
 * the high watermark) and stays asleep while allocations keep free memory
 * above low: kswapd waits on kswapd_wait again.
 */
static void kswapd_sleeps_once_free_memory_is_above_high(void **state)
{
	unsigned long ram = PAGES(64 * MB);
	struct tb_file *f = tb_file_create(ram);
	struct pglist_data *pgdat = NODE_DATA(0);
	struct tb_vma *vma;

	tb_run_in("");
	tb_read_range(f, ram);
	assert_true(kshim_vm_event_read(PAGEOUTRUN) > 0);
	/* one more touch: the world runs kswapd to its sleep first */
	vma = tb_map_anon(1);
	tb_touch_range(vma, 1, true);
	assert_true(waitqueue_active(&pgdat->kswapd_wait));
	assert_true(tb_free_pages(0) >= tb_wmark(0, WMARK_LOW));
	assert_true(kshim_vm_event_read(KSWAPD_LOW_WMARK_HIT_QUICKLY) +
		    kshim_vm_event_read(KSWAPD_HIGH_WMARK_HIT_QUICKLY) > 0);
}

/*
 * The allocator's fast path takes a page while zone_watermark_ok() holds
 * at the low watermark (free pages above it); the allocation that finds
 * free pages at low wakes kswapd (wakeup_kswapd: the node is not
 * balanced), and kswapd's balance_pgdat() reclaims until free pages are
 * above high, then sleeps again.
 */
static void kswapd_wakes_at_low_and_reclaims_to_high(void **state)
{
	unsigned long ram = PAGES(64 * MB), i = 0;
	unsigned long low = tb_wmark(0, WMARK_LOW), high = tb_wmark(0, WMARK_HIGH);
	struct tb_file *f = tb_file_create(ram);

	tb_run_in("");
	while (tb_free_pages(0) > low)
		assert_int_equal(tb_file_read(f, i++), 0);
	assert_int_equal(tb_free_pages(0), low);
	assert_int_equal(kshim_trace.wakeup_kswapd_count, 0);
	assert_int_equal(kshim_reclaim_event_read(PGSTEAL_KSWAPD), 0);

	assert_int_equal(tb_file_read(f, i++), 0);
	assert_int_equal(kshim_trace.wakeup_kswapd_count, 1);
	assert_true(kshim_reclaim_event_read(PGSTEAL_KSWAPD) >= high - low);
	assert_true(tb_free_pages(0) > high);
	assert_true(waitqueue_active(&NODE_DATA(0)->kswapd_wait));
	assert_int_equal(kshim_vm_event_read(ALLOCSTALL_MOVABLE), 0);
}

static int setup_no_kswapd(void **state)
{
	tb_mem = (struct tb_mem_config){ .no_kswapd = true };
	return tb_reclaim_setup(state);
}

/*
 * Without kswapd the allocating task reclaims for itself. The stall is
 * counted for the zone reclaim may go up to: GFP_HIGHUSER_MOVABLE's
 * ZONE_MOVABLE, so allocstall_movable, not the zone that had the pages.
 */
static void allocation_under_min_enters_direct_reclaim(void **state)
{
	unsigned long ram = PAGES(64 * MB);
	struct tb_file *f = tb_file_create(ram + ram / 2);

	tb_run_in("");
	tb_read_range(f, ram + ram / 2);
	assert_int_equal(kshim_vm_event_read(ALLOCSTALL_NORMAL), 0);
	assert_true(kshim_vm_event_read(ALLOCSTALL_MOVABLE) > 0);
	assert_true(kshim_reclaim_event_read(PGSTEAL_DIRECT) >= ram / 2);
	assert_int_equal(kshim_reclaim_event_read(PGSTEAL_KSWAPD), 0);
	tb_assert_lrus_consistent();
}

/* anonymous memory beyond RAM with no swap: the global OOM killer */
static void anon_beyond_ram_without_swap_oom_kills(void **state)
{
	unsigned long ram = PAGES(64 * MB), i;
	struct tb_vma *vma;
	int err = 0;

	tb_run_in("");
	vma = tb_map_anon(ram);
	for (i = 0; i < ram && !err; i++)
		err = tb_touch(vma, i, true);
	assert_int_equal(err, -ENOMEM);
	assert_int_equal(kshim_vm_event_read(OOM_KILL), 1);
	assert_true(tb_vma_resident(vma) <= 1);
}

/*
 * A pageblock stolen from another migratetype boosts the zone's watermarks
 * (page_alloc.c's boost_watermark(): by a pageblock, up to the larger of a
 * pageblock and watermark_boost_factor, 150%, of high) and wakes kswapd
 * though free memory is far above high: wakeup_kswapd() wakes it for the
 * boost alone. balance_pgdat() reclaims the boost from the page cache (at
 * DEF_PRIORITY it scans an LRU's size >> 12 pages and gives the boost up
 * when a pass reclaims nothing: the file LRU here is over 4096 pages) and
 * takes it off the zone when done. Since 6.3 the multi-gen LRU reclaims
 * nothing for a boost: boosted reclaim may not write pages, and
 * lru_gen_shrink_node() then skips the node. Either way, a boost taken
 * off wakes kcompactd for a pageblock (the order a steal of a pageblock
 * wants back), where kswapd's own sleep asks it for order 0 only.
 */
static void kswapd_reclaims_a_watermark_boost_then_drops_it(void **state)
{
	unsigned long ram = PAGES(64 * MB);
	struct zone *zone = &NODE_DATA(0)->node_zones[ZONE_NORMAL];
	struct tb_file *f = tb_file_create(ram * 3 / 4);
	unsigned long boost;

	tb_run_in("");
	tb_read_range(f, ram * 3 / 4);
	tb_kthreads_settle();
	assert_int_equal(kshim_vm_event_read(PAGEOUTRUN), 0);
	assert_int_equal(tb_kcompactd_wakeups(0).max_order, 0);

	tb_mem_steal_pageblock(0);
	assert_int_equal(zone->watermark_boost, pageblock_nr_pages);
	/* a second steal before kswapd ran: the boost stops at its cap */
	tb_mem_steal_pageblock(0);
	boost = zone->watermark_boost;
	assert_int_equal(boost, max(pageblock_nr_pages, zone->_watermark[WMARK_HIGH] * 3 / 2));
	/* the boosted high watermark too: kswapd wakes for the boost alone */
	assert_true(tb_free_pages(0) > tb_wmark(0, WMARK_HIGH));
	tb_kthreads_settle();
	assert_true(kshim_vm_event_read(PAGEOUTRUN) > 0);
	if (tb_lru_gen_on() && TB_HAVE_lru_gen_shrink_node)
		/* lru_gen_shrink_node() does not reclaim without may_writepage */
		assert_int_equal(kshim_reclaim_event_read(PGSTEAL_KSWAPD), 0);
	else
		assert_true(kshim_reclaim_event_read(PGSTEAL_KSWAPD) >= boost);
	assert_int_equal(zone->watermark_boost, 0);
	assert_int_equal(tb_kcompactd_wakeups(0).max_order, pageblock_order);
	tb_assert_lrus_consistent();
}

/*
 * Boosted reclaim neither swaps nor writes back (balance_pgdat(): may_swap
 * and may_writepage off while a boost is left): with anonymous memory
 * only, kswapd reclaims nothing, gives the boost up and drops it.
 */
static void kswapd_never_swaps_for_a_watermark_boost(void **state)
{
	unsigned long ram = PAGES(64 * MB);
	struct zone *zone = &NODE_DATA(0)->node_zones[ZONE_NORMAL];
	struct tb_vma *vma;

	tb_run_in("");
	/* over 4096 pages: boosted reclaim at DEF_PRIORITY scans some */
	vma = tb_map_anon(ram / 2);
	tb_touch_range(vma, ram / 2, true);
	tb_kthreads_settle();

	tb_mem_steal_pageblock(0);
	assert_true(zone->watermark_boost > 0);
	tb_kthreads_settle();
	assert_true(kshim_vm_event_read(PAGEOUTRUN) > 0);
	assert_int_equal(kshim_vm_event_read(PSWPOUT), 0);
	assert_int_equal(tb_vma_resident(vma), ram / 2);
	assert_int_equal(zone->watermark_boost, 0);
}

/* the node's own lruvec (exact counters: no rstat), a swap device */
static int setup_memcg_off_swap(void **state)
{
	tb_mem.swap_pages = PAGES(64 * MB);
	tb_setup(state);
	if (tb_boot_cmdline("cgroup_disable=memory") || tb_memcg_boot() || tb_mem_boot(&tb_mem))
		return -1;
	return 0;
}

#define LOCKED_PAGES 4096UL

/*
 * cache_trim_mode (prepare_scan_control(): plenty of inactive page cache,
 * not thrashing) makes reclaim take page cache only. Here all of it is
 * locked by someone else (4096 pages read once, each folio locked: every
 * trylock of shrink_folio_list() fails and the folio is kept), and a task
 * touches 48M of anon with swap free. kswapd, woken at the low
 * watermark, trims the cache at every priority and reclaims nothing
 * (cache_trim_mode_failed); balance_pgdat() then restarts with
 * no_cache_trim_mode, which prepare_scan_control() honours: the scan
 * balance takes anon too and kswapd swaps it out, never failing. (Without
 * the restart, or ignoring no_cache_trim_mode, kswapd would fail
 * MAX_RECLAIM_RETRIES times and leave it all to direct reclaim.)
 * Two of kswapd's first runs do fail, the anon they scan being young:
 * the node's kswapd_failures reaches 2, and a later run's progress
 * resets it (shrink_node()). With kswapd_try_clear_hopeless only a
 * balanced node is revived; here every reclaim that progresses leaves the
 * node under its high watermark (the task keeps allocating): the count
 * stays at 2, far from MAX_RECLAIM_RETRIES.
 */
static void kswapd_retries_without_cache_trim_mode_when_trimming_reclaimed_nothing(void **state)
{
	struct tb_file *f = tb_file_create(LOCKED_PAGES);
	unsigned long i, n = PAGES(48 * MB), anon = 0, scanned = 0;
	const struct kshim_trace *k;
	struct tb_vma *vma;
	int p;

	tb_skip_before_6_4("mm/vmscan.c's kswapd retries");

	TB_CLASSIC_LRU_ONLY("prepare_scan_control()'s cache_trim_mode");
	TB_ONE_NODE_ONLY("one node's kswapd");
	tb_run_in("");
	tb_read_range(f, LOCKED_PAGES);
	lru_add_drain();
	for (i = 0; i < LOCKED_PAGES; i++)
		assert_true(folio_trylock(tb_file_folio(f, i)));
	vma = tb_map_anon(n);
	tb_touch_range(vma, n, true);
	/* the locks go first: a failed assertion must not leave them to the teardown */
	for (i = 0; i < LOCKED_PAGES; i++)
		folio_unlock(tb_file_folio(f, i));
	k = tb_kswapd_trace(0);
	for (p = 0; p < KSHIM_TRACE_PRIORITIES; p++) {
		anon += k->inactive_reclaimed[0][p];
		scanned += k->inactive_scanned[0][p] + k->inactive_scanned[1][p];
	}
	assert_true(anon > 0);
	/* global reclaim's scans count in /proc/vmstat, kswapd's as such */
	assert_true(scanned > 0);
	assert_true(kshim_reclaim_event_read(PGSCAN_KSWAPD) >= scanned);
	assert_int_equal(tb_kswapd_failures(NODE_DATA(0)), TB_HAVE_kswapd_try_clear_hopeless ? 2 : 0);
	assert_int_equal(kshim_vm_event_read(OOM_KILL), 0);
	assert_int_equal(tb_file_cached(f), LOCKED_PAGES);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		TB_RECLAIM_TEST(watermarks_follow_ram_size),
		TB_RECLAIM_TEST_ON(watermarks_follow_sysctls, setup_sysctls),
		/* again after a boot with the sysctl: nothing of it is left */
		TB_RECLAIM_TEST(watermarks_follow_ram_size),
		TB_RECLAIM_TEST(kswapd_reclaims_page_cache_between_low_and_high),
		TB_RECLAIM_TEST(memcg_zswap_items_stay_zero_after_kswapd_scans),
		TB_RECLAIM_TEST(kswapd_sleeps_once_free_memory_is_above_high),
		TB_RECLAIM_TEST(kswapd_wakes_at_low_and_reclaims_to_high),
		TB_RECLAIM_TEST_ON(allocation_under_min_enters_direct_reclaim, setup_no_kswapd),
		TB_RECLAIM_TEST(anon_beyond_ram_without_swap_oom_kills),
		TB_RECLAIM_TEST(kswapd_reclaims_a_watermark_boost_then_drops_it),
		TB_RECLAIM_SWAP_TEST(kswapd_never_swaps_for_a_watermark_boost),
		TB_RECLAIM_TEST_ON(kswapd_retries_without_cache_trim_mode_when_trimming_reclaimed_nothing,
				   setup_memcg_off_swap),
	};

	return TB_RUN(tests);
}
