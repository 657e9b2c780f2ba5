// SPDX-License-Identifier: GPL-2.0-only
/*
 * Reclaim for high-order allocations, with compaction built in, on the
 * classic LRU: when direct reclaim goes on reclaiming so that compaction
 * can run (in_reclaim_compaction(), should_continue_reclaim()), when it
 * leaves a zone to compaction (compaction_ready()), and kswapd woken for
 * an order (kswapd_shrink_node() dropping to order 0, kcompactd woken as
 * kswapd goes to sleep, the order handed over in wakeup_kswapd()).
 *
 * Each case first fragments the world's free memory (tb_mem_fragment():
 * every free page's buddy held, kcompactd never runs): a watermark test
 * of order > 0 always fails, and compaction_suitable() (mm/compaction.c's) says yes once
 * free pages clear its watermark plus compact_gap(order), the
 * fragmentation index of a costly order being near 1000 (fragmentation,
 * not a lack of memory).
 *
 * Machine: 64 MiB, one node: watermarks min 256, low 320, high 384 pages.
 * A clean file of FILE_PAGES pages read once is the only LRU memory; a
 * pass of shrink_node() scans the inactive file list's size then >>
 * priority and frees every page it scans (the vmscan tracepoints'
 * per-priority sums): 4096 >> 12 = 1, 4095 >> 11 = 1, 4094 >> 10 = 3,
 * 4091 >> 9 = 7, ...
 */
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/mmzone.h>
#include <linux/swap.h>
#include <linux/vmstat.h>
#include <linux/compaction.h>
#include <linux/mman.h>
#include <kshim/trace.h>
#include "tb_reclaim.h"

#define ANON 0
#define FILE 1
#define MAX_RECLAIM_RETRIES 16	/* mm/internal.h */
#define FILE_PAGES 4096UL

static int setup_no_kswapd(void **state)
{
	tb_mem = (struct tb_mem_config){ .no_kswapd = true };
	return tb_reclaim_setup(state);
}

static int setup_swap_no_kswapd(void **state)
{
	tb_mem = (struct tb_mem_config){ .no_kswapd = true };
	return tb_reclaim_setup_swap(state);
}

static unsigned long scanned(int priority)
{
	return kshim_trace.inactive_scanned[FILE][priority];
}

/* pages scanned at priorities below the given one */
static unsigned long scanned_below(int priority)
{
	unsigned long n = 0;
	int p;

	for (p = 0; p < priority; p++)
		n += scanned(p);
	return n;
}

/* a clean file of nr pages read once, off the per-CPU batches: inactive */
static struct tb_file *clean_file(unsigned long nr)
{
	struct tb_file *f = tb_file_create(nr);

	tb_read_range(f, nr);
	lru_add_drain();
	return f;
}

/*
 * The test's task in the root cgroup, the free memory fragmented (every
 * free page's buddy on held), then the clean file its LRU memory, so
 * that what reclaim frees does not merge either; free memory taken down
 * to min onto held when at_min, else plenty
 */
static void file_world(struct list_head *held, bool at_min)
{
	TB_CLASSIC_LRU_ONLY("shrink_node()'s loop for compaction (MGLRU's has none)");
	tb_run_in("");
	tb_mem_fragment(0, ULONG_MAX, held);
	clean_file(FILE_PAGES);
	if (at_min)
		tb_take_free_pages_down_to(tb_wmark(0, WMARK_MIN), held);
}

/* direct reclaim of the test's task for 2^order pages on node 0 */
static unsigned long direct_reclaim(gfp_t gfp, int order)
{
	kshim_trace_reset();
	return try_to_free_pages(node_zonelist(0, gfp), order, gfp, NULL);
}

/* ---- order 3: reclaim for compaction once priority is below 10 ---- */

/*
 * Free memory at min: compaction_suitable() wants more than min +
 * compact_gap(3) = min + 16 free pages, so it says no. Priorities 12 to
 * 10 reclaim one pass each (1, 1, 3 pages), the gap still not there:
 * in_reclaim_compaction() holds for order 3 only below DEF_PRIORITY - 2.
 * At 9 the pass of 7 leaves min + 12: should_continue_reclaim() has
 * shrink_node() go again, 7 more (min + 19, compaction suitable), and 9
 * ends. Priority 8's pass of 15 makes 34 >= SWAP_CLUSTER_MAX.
 */
static void order_3_direct_reclaim_goes_on_for_compaction_from_priority_9(void **state)
{
	LIST_HEAD(held);

	file_world(&held, true);
	assert_int_equal(direct_reclaim(GFP_KERNEL, 3), 34);
	assert_int_equal(scanned(12), 1);
	assert_int_equal(scanned(11), 1);
	assert_int_equal(scanned(10), 3);
	assert_int_equal(scanned(9), 14);
	assert_int_equal(scanned(8), 15);
	assert_int_equal(scanned_below(8), 0);
	assert_int_equal(tb_free_pages(0), tb_wmark(0, WMARK_MIN) + 34);
	/* asked after each pass from 9 on: no, yes (9), yes (8) */
	assert_int_equal(kshim_trace.compaction_suitable_count, 3);
	assert_int_equal(kshim_trace.compaction_suitable_order, 3);
	assert_int_equal(kshim_trace.compaction_suitable_result, COMPACT_CONTINUE);
	tb_put_folios(&held);
}

/*
 * Plenty of free memory: compaction is suitable after every pass, so
 * priority 9 reclaims one pass (7) like the others; 1 + 1 + 3 + 7 + 15 =
 * 27 is short of SWAP_CLUSTER_MAX, and priority 7 scans its pass of
 * 4069 >> 7 = 31.
 */
static void order_3_direct_reclaim_stops_a_pass_when_compaction_is_suitable(void **state)
{
	LIST_HEAD(held);

	file_world(&held, false);
	assert_true(tb_free_pages(0) > tb_wmark(0, WMARK_HIGH) + compact_gap(3));
	assert_int_equal(direct_reclaim(GFP_KERNEL, 3), 58);
	assert_int_equal(scanned(10), 3);
	assert_int_equal(scanned(9), 7);
	assert_int_equal(scanned(8), 15);
	assert_int_equal(scanned(7), 31);
	assert_int_equal(scanned_below(7), 0);
	assert_int_equal(kshim_trace.compaction_suitable_count, 3);
	assert_int_equal(kshim_trace.compaction_suitable_result, COMPACT_CONTINUE);
	tb_put_folios(&held);
}

/*
 * GFP_NOIO: compaction may not run for such a request
 * (gfp_compaction_allowed()), so reclaim never goes on for it nor asks
 * compaction_suitable(): at min, priority 9 reclaims one pass, and
 * reclaim goes down to priority 7 as with plenty of free memory.
 */
static void order_3_direct_reclaim_without_io_never_reclaims_for_compaction(void **state)
{
	LIST_HEAD(held);

	file_world(&held, true);
	assert_int_equal(direct_reclaim(GFP_NOIO, 3), 58);
	assert_int_equal(scanned(9), 7);
	assert_int_equal(scanned(7), 31);
	assert_int_equal(kshim_trace.compaction_suitable_count, 0);
	tb_put_folios(&held);
}

/*
 * The same over anonymous memory only, made cold (MADV_COLD: old ptes,
 * inactive), with a swap device: each scanned page is swapped out, and
 * the figures are the file's. The file lists are empty, so priority 9
 * goes on only because should_continue_reclaim() counts the inactive
 * anon pages as well when reclaim can swap them.
 */
static void order_3_direct_reclaim_counts_inactive_anon_for_compaction_with_swap(void **state)
{
	struct tb_vma *vma;
	LIST_HEAD(held);

	TB_CLASSIC_LRU_ONLY("shrink_node()'s loop for compaction (MGLRU's has none)");
	tb_run_in("");
	tb_mem_fragment(0, ULONG_MAX, &held);
	vma = tb_map_anon(FILE_PAGES);
	tb_touch_range(vma, FILE_PAGES, true);
	assert_int_equal(tb_madvise(vma, MADV_COLD), 0);
	lru_add_drain();
	tb_take_free_pages_down_to(tb_wmark(0, WMARK_MIN), &held);
	assert_int_equal(direct_reclaim(GFP_KERNEL, 3), 34);
	assert_int_equal(kshim_trace.inactive_scanned[ANON][9], 14);
	assert_int_equal(kshim_trace.inactive_scanned[ANON][8], 15);
	assert_int_equal(scanned(9), 0);
	assert_int_equal(tb_swap_used(), 34);
	tb_put_folios(&held);
}

/*
 * Both inactive lists count, whichever reclaim scans: 4096 pages of cold
 * anonymous memory beside a clean file of 4116 pages, a swap device.
 * The page cache is large and not low (cache_trim_mode): reclaim scans
 * it alone, 1, 2, 4 pages at priorities 12 to 10. Priority 9's pass of
 * 8 leaves 4101 inactive file pages and min + 15 free: compaction not
 * yet suitable, and 4101 + 4096 inactive pages are more than
 * compact_gap(3), so shrink_node() goes again, 8 more; priority 8's
 * pass of 15 makes 38. Free memory is fragmented after the anonymous
 * memory is made, before the file (which reclaim frees) is read.
 */
static void order_3_direct_reclaim_counts_both_inactive_lists_for_compaction(void **state)
{
	struct tb_vma *vma;
	LIST_HEAD(held);
	int p;

	TB_CLASSIC_LRU_ONLY("shrink_node()'s loop for compaction (MGLRU's has none)");
	tb_run_in("");
	vma = tb_map_anon(FILE_PAGES);
	tb_touch_range(vma, FILE_PAGES, true);
	assert_int_equal(tb_madvise(vma, MADV_COLD), 0);
	tb_mem_fragment(0, ULONG_MAX, &held);
	clean_file(FILE_PAGES + 20);
	tb_take_free_pages_down_to(tb_wmark(0, WMARK_MIN), &held);
	assert_int_equal(direct_reclaim(GFP_KERNEL, 3), 38);
	assert_int_equal(scanned(12), 1);
	assert_int_equal(scanned(11), 2);
	assert_int_equal(scanned(10), 4);
	assert_int_equal(scanned(9), 16);
	assert_int_equal(scanned(8), 15);
	assert_int_equal(scanned_below(8), 0);
	for (p = 0; p < KSHIM_TRACE_PRIORITIES; p++)
		assert_int_equal(kshim_trace.inactive_scanned[ANON][p], 0);
	assert_int_equal(tb_swap_used(), 0);
	tb_put_folios(&held);
}

/* ---- above PAGE_ALLOC_COSTLY_ORDER: compaction_ready() ---- */

/*
 * Order 4, free memory above high + compact_gap(4) = high + 32:
 * compaction_suitable() (low + 32, fragmentation index ~940 > 500) and
 * enough for it to finish: shrink_zones() leaves the zone to compaction,
 * do_try_to_free_pages() stops at priority 12 and, having reclaimed
 * nothing, returns 1 (no OOM: compaction is to be tried).
 */
static void costly_order_direct_reclaim_leaves_a_zone_ready_for_compaction(void **state)
{
	unsigned long free;
	LIST_HEAD(held);

	file_world(&held, false);
	free = tb_free_pages(0);
	assert_int_equal(direct_reclaim(GFP_KERNEL, 4), 1);
	assert_int_equal(kshim_trace.shrink_inactive_count, 0);
	assert_int_equal(kshim_trace.compaction_suitable_count, 1);
	assert_int_equal(kshim_trace.compaction_suitable_order, 4);
	assert_int_equal(kshim_trace.compaction_suitable_result, COMPACT_CONTINUE);
	assert_int_equal(tb_free_pages(0), free);
	tb_put_folios(&held);
}

/*
 * GFP_NOIO at order 4, plenty of free memory: compaction may not run for
 * it, so compaction_ready() never leaves the zone to it: reclaim goes down
 * the priorities to SWAP_CLUSTER_MAX as at order 0.
 */
static void costly_order_direct_reclaim_without_io_never_leaves_a_zone_to_compaction(
	void **state)
{
	LIST_HEAD(held);

	file_world(&held, false);
	assert_int_equal(direct_reclaim(GFP_NOIO, 4), 58);
	assert_int_equal(scanned(12), 1);
	assert_int_equal(scanned(7), 31);
	assert_int_equal(kshim_trace.compaction_suitable_count, 0);
	tb_put_folios(&held);
}

/*
 * Order 4 at min: compaction is not suitable (more than low + 32 = 352
 * free pages wanted), so compaction_ready() says reclaim, and from
 * priority 12 on should_continue_reclaim() holds (a costly order):
 * shrink_node() goes again, but its second pass scans 4095 >> 12 = 0,
 * and a pass that reclaims nothing ends the loop. At 11 one page a pass
 * (4095 >> 11 down to 3999 >> 11), 96 passes, until 97 pages have come
 * back (353 free) and compaction is suitable; 97 >= SWAP_CLUSTER_MAX ends
 * reclaim. compaction_suitable() was asked 99 times: by
 * compaction_ready() once a priority, and after each pass but the empty
 * one.
 */
static void costly_order_direct_reclaim_goes_on_in_one_priority_until_compaction_is_suitable(
	void **state)
{
	unsigned long want = tb_wmark(0, WMARK_LOW) + compact_gap(4) + 1 - tb_wmark(0, WMARK_MIN);
	LIST_HEAD(held);

	file_world(&held, true);
	assert_int_equal(direct_reclaim(GFP_KERNEL, 4), want);
	assert_int_equal(want, 97);
	assert_int_equal(scanned(12), 1);
	assert_int_equal(scanned(11), 96);
	assert_int_equal(scanned_below(11), 0);
	assert_int_equal(kshim_trace.compaction_suitable_count, 99);
	assert_int_equal(kshim_trace.compaction_suitable_result, COMPACT_CONTINUE);
	tb_put_folios(&held);
}

/* ---- kswapd woken for an order ---- */

/*
 * An order-3 allocation wakes kswapd (wakeup_kswapd(): kswapd_order 3)
 * on a node with plenty of free memory, fragmented. Balanced at order 0
 * but not at order 3 (no free block of order 3), kswapd reclaims from priority 12
 * on: 1, 1, 3, then 7 at 9 (compaction suitable, one pass): 12, short of
 * compact_gap(3) = 16; 15 at 8: 27, and kswapd_shrink_node() drops to
 * order 0, at which the node is balanced. balance_pgdat() returns order
 * 0, below the order asked: kswapd tries to sleep at once and, before it
 * does, wakes kcompactd for order 3 (the allocation's order, not the one
 * it reclaimed for).
 */
static void kswapd_woken_for_order_3_reclaims_compact_gap_then_wakes_kcompactd(void **state)
{
	struct pglist_data *pgdat = NODE_DATA(0);
	struct tb_kcompactd_wakeups before;
	const struct kshim_trace *kt = tb_kswapd_trace(0);
	unsigned long steal;
	LIST_HEAD(held);

	TB_CLASSIC_LRU_ONLY("kswapd's scan figures");
	tb_run_in("");
	tb_mem_fragment(0, ULONG_MAX, &held);
	clean_file(FILE_PAGES);
	before = tb_kcompactd_wakeups(0);
	steal = kshim_reclaim_event_read(PGSTEAL_KSWAPD);
	tb_wake_kswapd(GFP_KERNEL, 3, 0);
	assert_int_equal(pgdat->kswapd_order, 3);
	assert_int_equal(pgdat->kswapd_highest_zoneidx, ZONE_NORMAL);
	tb_kthreads_settle();
	assert_int_equal(kshim_reclaim_event_read(PGSTEAL_KSWAPD) - steal, 27);
	assert_int_equal(kt->inactive_scanned[FILE][9], 7);
	assert_int_equal(kt->inactive_scanned[FILE][8], 15);
	assert_int_equal(kt->inactive_scanned[FILE][7], 0);
	assert_int_equal(tb_kcompactd_wakeups(0).count, before.count + 1);
	assert_int_equal(tb_kcompactd_wakeups(0).last_order, 3);
	assert_int_equal(tb_kcompactd_wakeups(0).last_highest_zoneidx, ZONE_NORMAL);
	/* kswapd took the order and reset it when it woke */
	assert_int_equal(pgdat->kswapd_order, 0);
	assert_int_equal(pgdat->kswapd_highest_zoneidx, MAX_NR_ZONES);
	tb_put_folios(&held);
}

/*
 * wakeup_kswapd() keeps the highest order asked since kswapd last woke:
 * order 2 after order 3 leaves 3. Free memory fragmented and no page on
 * the LRU lists, kswapd
 * can neither balance the node at order 3 nor reclaim compact_gap(3) to
 * drop to order 0: its run fails (one kswapd failure), although the
 * node is balanced at order 0. Having returned the order it was asked,
 * kswapd starts its loop again with the order asked since (none: 0), so
 * it sleeps and wakes kcompactd for order 0, never for 3.
 */
static void wakeup_kswapd_keeps_the_highest_order_asked(void **state)
{
	struct pglist_data *pgdat = NODE_DATA(0);
	LIST_HEAD(held);

	tb_run_in("");
	tb_mem_fragment(0, ULONG_MAX, &held);
	tb_wake_kswapd(GFP_KERNEL, 3, 0);
	tb_wake_kswapd(GFP_KERNEL, 2, 0);
	assert_int_equal(pgdat->kswapd_order, 3);
	tb_kthreads_settle();
	assert_int_equal(pgdat->kswapd_order, 0);
	assert_int_equal(tb_kswapd_failures(pgdat), 1);
	assert_int_equal(tb_kcompactd_wakeups(0).max_order, 0);
	tb_put_folios(&held);
}

/*
 * A node kswapd has given up on (MAX_RECLAIM_RETRIES failed runs:
 * anonymous memory, no swap) is left to direct reclaim: a wake-up does
 * not wake kswapd; for a request that cannot reclaim itself (GFP_ATOMIC)
 * it wakes kcompactd for the order instead, for one that can (GFP_KERNEL)
 * nothing.
 */
static void a_hopeless_node_wakes_kcompactd_for_an_atomic_high_order_request(void **state)
{
	unsigned long ram = PAGES(64 * MB), i = 0, wakes;
	struct pglist_data *pgdat = NODE_DATA(0);
	struct tb_kcompactd_wakeups before;
	struct tb_vma *vma;

	tb_run_in("");
	vma = tb_map_anon(ram);
	while (tb_free_pages(0) > tb_wmark(0, WMARK_LOW))
		assert_int_equal(tb_touch(vma, i++, true), 0);
	assert_int_equal(tb_touch(vma, i++, true), 0);
	assert_int_equal(tb_kswapd_failures(pgdat), MAX_RECLAIM_RETRIES);
	wakes = kshim_trace.wakeup_kswapd_count;
	before = tb_kcompactd_wakeups(0);

	tb_wake_kswapd(GFP_KERNEL, 3, 0);
	assert_int_equal(tb_kcompactd_wakeups(0).count, before.count);
	tb_wake_kswapd(GFP_ATOMIC, 3, 0);
	assert_int_equal(tb_kcompactd_wakeups(0).count, before.count + 1);
	assert_int_equal(tb_kcompactd_wakeups(0).last_order, 3);
	assert_int_equal(kshim_trace.wakeup_kswapd_count, wakes);
	tb_unmap(vma);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		TB_RECLAIM_TEST_ON(order_3_direct_reclaim_goes_on_for_compaction_from_priority_9,
				   setup_no_kswapd),
		TB_RECLAIM_TEST_ON(order_3_direct_reclaim_stops_a_pass_when_compaction_is_suitable,
				   setup_no_kswapd),
		TB_RECLAIM_TEST_ON(order_3_direct_reclaim_without_io_never_reclaims_for_compaction,
				   setup_no_kswapd),
		TB_RECLAIM_TEST_ON(order_3_direct_reclaim_counts_both_inactive_lists_for_compaction,
				   setup_swap_no_kswapd),
		TB_RECLAIM_TEST_ON(order_3_direct_reclaim_counts_inactive_anon_for_compaction_with_swap,
				   setup_swap_no_kswapd),
		TB_RECLAIM_TEST_ON(costly_order_direct_reclaim_leaves_a_zone_ready_for_compaction,
				   setup_no_kswapd),
		TB_RECLAIM_TEST_ON(costly_order_direct_reclaim_without_io_never_leaves_a_zone_to_compaction,
				   setup_no_kswapd),
		TB_RECLAIM_TEST_ON(costly_order_direct_reclaim_goes_on_in_one_priority_until_compaction_is_suitable,
				   setup_no_kswapd),
		TB_RECLAIM_TEST(kswapd_woken_for_order_3_reclaims_compact_gap_then_wakes_kcompactd),
		TB_RECLAIM_TEST(wakeup_kswapd_keeps_the_highest_order_asked),
		TB_RECLAIM_TEST(a_hopeless_node_wakes_kcompactd_for_an_atomic_high_order_request),
	};

	return TB_RUN(tests);
}
