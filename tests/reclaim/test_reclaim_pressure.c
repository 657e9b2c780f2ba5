// SPDX-License-Identifier: GPL-2.0-only
/*
 * Reclaim under pressure it cannot simply resolve, through the real
 * mm/vmscan.c: page cache dirtied faster than a slow disk writes it
 * (kswapd and direct reclaim throttled), writes that fail, free memory
 * under the pfmemalloc reserve, folios someone else holds (a reference,
 * a DMA pin), page cache that SHM_LOCK made unevictable after it was
 * cached.
 */
#include <linux/kernel.h>
#include <linux/delay.h>
#include <linux/mm.h>
#include <linux/mm_inline.h>
#include <linux/pagemap.h>
#include <linux/swap.h>
#include <linux/vmstat.h>
#include <linux/wait.h>
#include <linux/errseq.h>
#include <kshim/trace.h>
#include "tb_reclaim.h"

/* ---- writeback congestion and throttling ---- */

/*
 * A writer dirtying 1.5x the RAM of page cache in 64 MiB, on a disk whose
 * writes take 20 ms. Writers are not throttled in the world
 * (balance_dirty_pages is not modelled): reclaim meets page cache that is
 * all dirty or under writeback, which is what the throttling in
 * mm/vmscan.c is for.
 *
 * The memory controller is off (cgroup_disable=memory). With it on,
 * prepare_scan_control() decides whether to deactivate from the root
 * memcg's lruvec counters (lruvec_page_state()), which are rstat-flushed:
 * reclaim refreshes them only through mem_cgroup_flush_stats_ratelimited()
 * (when the periodic 2 s flush is a full cycle late). Within a kswapd run
 * they stay what they were at the last flush, inactive_is_low() stays
 * false while kswapd marks and activates the whole inactive list, the
 * folios never come back to it, kswapd gives up after MAX_RECLAIM_RETRIES
 * runs, and skip_throttle_noprogress() then spares direct reclaim every
 * throttle (the writer's allocation fails: no balance_dirty_pages, no OOM
 * victim holding the page cache). With the controller off the lruvec is
 * the node's, whose counters are exact.
 */
#define NS_PER_JIFFY (1000000000ULL / HZ)
#define SLOW_WRITE_NS 20000000ULL	/* 20 ms */

/* 64 MiB of swap on a disk, whose swap-in keeps a swap cache copy */
static int setup_swap_disk(void **state)
{
	tb_mem.swap_pages = PAGES(64 * MB);
	tb_mem.swap_disk = true;
	return tb_reclaim_setup(state);
}

static int setup_slow_disk(void **state)
{
#if !TB_HAVE_pgdat_dirty
	/*
	 * Reclaim writes back no page cache (no pgdat_dirty): nothing but the
	 * flushers cleans it, as in the kernel, where balance_dirty_pages()
	 * keeps the writer to vm.dirty_ratio (20) meanwhile. Without that
	 * the writer outruns a 20 ms disk and its allocation fails.
	 */
	tb_mem.dirty_ratio = 20;
#endif
	tb_setup(state);
	if (tb_boot_cmdline("cgroup_disable=memory") || tb_memcg_boot() || tb_mem_boot(&tb_mem))
		return -1;
	return 0;
}

static struct tb_task *write_beyond_ram_on_a_slow_disk(struct tb_file **file)
{
	unsigned long n = PAGES(64 * MB) + PAGES(32 * MB), i;
	struct tb_mem_costs costs = { .hit_ns = 1000, .minor_ns = 3000, .swapin_ns = 100000,
		.file_read_ns = 100000, .swapout_ns = 20000, .file_write_ns = SLOW_WRITE_NS,
		.reclaim_ns = 500 };
	struct tb_task *t;

	*file = tb_file_create(n);
	tb_mem_set_costs(&costs);
	t = tb_run_in("");
	for (i = 0; i < n; i++)
		assert_int_equal(tb_file_write(*file, i), 0);
	assert_int_equal(kshim_vm_event_read(OOM_KILL), 0);
	return t;
}

/*
 * kswapd, woken at the low watermark, takes dirty folios from the
 * inactive tail: shrink_folio_list() marks them PG_reclaim
 * (NR_VMSCAN_IMMEDIATE) and activates them; a batch that was all unqueued
 * dirty wakes the flushers (they run on other CPUs: the world runs their
 * work when kswapd yields), a pass whose file folios were all unqueued
 * dirty sets PGDAT_DIRTY, and from then on kswapd writes the PG_reclaim
 * folios it meets again itself (pageout(): NR_VMSCAN_WRITE) and keeps
 * them on the inactive list under writeback. A folio under writeback
 * without PG_reclaim gets it (case 2, nr_writeback), and a pass whose
 * folios were all under writeback sets PGDAT_WRITEBACK. Then kswapd meets
 * folios under writeback with PG_reclaim at the tail again, faster than
 * the disk writes them: case 1, nr_immediate (each one counted
 * nr_congested too), and at the end of shrink_node()
 * reclaim_throttle(VMSCAN_THROTTLE_WRITEBACK). kswapd sleeps up to HZ/10,
 * but __acct_reclaim_writeback() wakes it once more than
 * SWAP_CLUSTER_MAX pages were written since it went to sleep, earlier.
 * Balanced at last, kswapd clears the node's PGDAT_WRITEBACK,
 * PGDAT_DIRTY and LRUVEC_NODE_CONGESTED before it sleeps
 * (prepare_kswapd_sleep()).
 */
static void kswapd_throttles_on_writeback_it_meets_again(void **state)
{
	struct pglist_data *pgdat = NODE_DATA(0);
	const struct kshim_trace *k;
	struct tb_file *f;

	write_beyond_ram_on_a_slow_disk(&f);
	k = tb_kswapd_trace(0);
#if !TB_HAVE_pgdat_dirty
	/*
	 * No pgdat_dirty: kswapd writes no page cache, and the writer kept to
	 * the dirty limit leaves it none to meet: the flushers, woken by the
	 * writer over the limit, write every dirty folio, and the writer
	 * sleeps until the disk completed them; kswapd finds clean page cache
	 * at the tail, frees it, and never throttles.
	 */
	assert_int_equal(node_page_state(pgdat, NR_VMSCAN_WRITE), 0);
	assert_int_equal(node_page_state(pgdat, NR_VMSCAN_IMMEDIATE), 0);
	assert_int_equal(k->write_folio_count, 0);
	assert_int_equal(k->inactive_stat.nr_writeback + k->inactive_stat.nr_immediate, 0);
	assert_int_equal(k->throttled_count, 0);
	assert_true(kshim_reclaim_event_read(PGSTEAL_KSWAPD) > 0);
	assert_true(node_page_state(pgdat, NR_WRITTEN) >= PAGES(32 * MB));
	tb_assert_lrus_consistent();
	assert_false(test_bit(PGDAT_WRITEBACK, &pgdat->flags));
	assert_false(test_bit(LRUVEC_NODE_CONGESTED, &mem_cgroup_lruvec(NULL, pgdat)->flags));
	return;
#endif
	assert_true(node_page_state(pgdat, NR_VMSCAN_IMMEDIATE) > 0);
	assert_true(node_page_state(pgdat, NR_VMSCAN_WRITE) > 0);
	assert_int_equal(k->write_folio_count, node_page_state(pgdat, NR_VMSCAN_WRITE));
	assert_int_equal(k->inactive_stat.nr_pageout, node_page_state(pgdat, NR_VMSCAN_WRITE));
	assert_true(k->inactive_stat.nr_writeback > 0);
	assert_true(k->inactive_stat.nr_immediate > 0);
	assert_true(k->inactive_stat.nr_congested >= k->inactive_stat.nr_immediate);
	assert_true(k->throttled[VMSCAN_THROTTLE_WRITEBACK] > 0);
	assert_int_equal(k->throttled_count, k->throttled[VMSCAN_THROTTLE_WRITEBACK]);
	/* woken by the disk's completions, before the timeout */
	assert_true(k->throttled_usecs > 0);
	assert_true(k->throttled_usecs <
		    k->throttled[VMSCAN_THROTTLE_WRITEBACK] * jiffies_to_usecs(HZ / 10));
	assert_true(node_page_state(pgdat, NR_WRITTEN) >= PAGES(32 * MB));
	tb_assert_lrus_consistent();
	/* the writer done, kswapd went to sleep balanced: the node's flags cleared */
	assert_false(test_bit(PGDAT_WRITEBACK, &pgdat->flags));
#if TB_HAVE_pgdat_dirty
	assert_false(test_bit(PGDAT_DIRTY, &pgdat->flags));
#endif
	assert_false(test_bit(LRUVEC_NODE_CONGESTED, &mem_cgroup_lruvec(NULL, pgdat)->flags));
}

/*
 * The writer's allocations fall under min while kswapd sleeps in that
 * throttle. Its direct reclaim finds the same folios (dirty: marked for
 * immediate reclaim; under writeback: case 2, direct reclaim never
 * waits on them) and frees next to nothing. kswapd has flagged the
 * node's lruvec LRUVEC_NODE_CONGESTED (a pass in which every dirty or
 * writeback folio it took was under writeback with PG_reclaim:
 * nr_dirty == nr_congested), so shrink_node() throttles the writer on
 * VMSCAN_THROTTLE_CONGESTED, and at priority 1 with nothing reclaimed
 * consider_reclaim_throttle() on VMSCAN_THROTTLE_NOPROGRESS. Neither is
 * skipped: kswapd is alive and skip_throttle_noprogress() finds more
 * than half the reclaimable pages write-pending. Both wait one jiffy and
 * nothing wakes them earlier (only another reclaimer's progress wakes
 * NOPROGRESS, nothing wakes CONGESTED): each costs the writer 1 ms of its
 * virtual time, during which the disk completes writes. Direct reclaim
 * writes no page cache itself, whatever it meets: only kswapd does
 * (shrink_folio_list()'s pageout() of a folio it marked PG_reclaim on
 * a node flagged PGDAT_DIRTY).
 */
static void direct_reclaim_is_throttled_while_the_node_is_congested(void **state)
{
	const struct kshim_trace *me = &kshim_trace;
	struct tb_file *f;
	unsigned long slept;
	struct tb_task *t;

	t = write_beyond_ram_on_a_slow_disk(&f);
#if !TB_HAVE_pgdat_dirty
	/*
	 * Kept to the dirty limit (see above), the writer's allocations find
	 * kswapd keeping up with clean page cache: it never enters direct
	 * reclaim, is never throttled there; its clock holds a read per page
	 * written and its sleeps in balance_dirty_pages().
	 */
	assert_int_equal(me->direct_reclaim_count, 0);
	assert_int_equal(me->throttled_count, 0);
	assert_int_equal(me->write_folio_count, 0);
	assert_true(tb_task_vclock_ns(t) >= (PAGES(64 * MB) + PAGES(32 * MB)) * 100000ULL +
					   SLOW_WRITE_NS);
	tb_assert_lrus_consistent();
	(void)slept;
	return;
#endif
	assert_true(me->direct_reclaim_count > 0);
	assert_true(me->inactive_stat.nr_congested > 0);
	assert_true(me->throttled[VMSCAN_THROTTLE_CONGESTED] > 0);
	assert_true(me->throttled[VMSCAN_THROTTLE_NOPROGRESS] > 0);
	assert_int_equal(me->throttled[VMSCAN_THROTTLE_WRITEBACK], 0);
	assert_int_equal(me->write_folio_count, 0);
	assert_int_equal(me->inactive_stat.nr_pageout, 0);
	/* nor counts a folio for immediate reclaim (case 1 is kswapd's) */
	assert_int_equal(me->inactive_stat.nr_immediate, 0);
	assert_true(me->inactive_stat.nr_writeback > 0);
	slept = me->throttled[VMSCAN_THROTTLE_CONGESTED] + me->throttled[VMSCAN_THROTTLE_NOPROGRESS];
	assert_int_equal(me->throttled_usecs, slept * jiffies_to_usecs(1));
	/* the writer's clock: a read per page written, and the sleeps */
	assert_true(tb_task_vclock_ns(t) >= (PAGES(64 * MB) + PAGES(32 * MB)) * 100000ULL +
					   slept * NS_PER_JIFFY);
	tb_assert_lrus_consistent();
}

/* ---- write errors ---- */

/*
 * The same writer on a file whose every write fails with -EIO, the way
 * hostfs_writepage() fails when the host's write does: it records the
 * error with mapping_set_error(), unlocks the folio and returns the
 * error, the folio left clean (pageout() cleared its dirty bit) and not
 * under writeback. The flushers' writes fail the same way. kswapd's own
 * pageout() of a PG_reclaim folio (PGDAT_DIRTY, as above) gets the
 * error: handle_write_error() takes the folio lock and, the folio still
 * in this mapping, records it again (AS_EIO and the mapping's errseq
 * wb_err, which fsync() reports); then, no writeback started, pageout()
 * clears PG_reclaim, counts NR_VMSCAN_WRITE and returns PAGE_SUCCESS:
 * shrink_folio_list() finds the folio neither dirty nor under writeback
 * ("a synchronous write"), takes it to __remove_mapping() and frees it.
 * The data is gone, the error waits in the mapping; nothing was written.
 */
static void failed_writes_land_in_the_mapping_and_the_folios_are_freed(void **state)
{
	unsigned long n = PAGES(64 * MB) + PAGES(32 * MB), i;
	struct tb_file *f = tb_file_create(n);
	struct address_space *mapping = tb_file_mapping(f);
	struct pglist_data *pgdat = NODE_DATA(0);
	const struct kshim_trace *k = tb_kswapd_trace(0);
	errseq_t since = errseq_sample(&mapping->wb_err);	/* an open() before the writes */

	tb_file_set_write_error(f, -EIO);
	tb_run_in("");
	for (i = 0; i < n; i++)
		assert_int_equal(tb_file_write(f, i), 0);
	assert_int_equal(kshim_vm_event_read(OOM_KILL), 0);

#if !TB_HAVE_pgdat_dirty
	/*
	 * No pgdat_dirty: kswapd writes no page cache; the flushers' writes
	 * fail the same way, the folios left clean, and kswapd frees them.
	 */
	assert_int_equal(node_page_state(pgdat, NR_VMSCAN_WRITE), 0);
	assert_int_equal(k->write_folio_count, 0);
	assert_int_equal(node_page_state(pgdat, NR_WRITTEN), 0);
	assert_int_equal(node_page_state(pgdat, NR_WRITEBACK), 0);
	assert_int_equal(tb_writeback_inflight(), 0);
	assert_true(test_bit(AS_EIO, &mapping->flags));
	assert_false(test_bit(AS_ENOSPC, &mapping->flags));
	assert_int_equal(errseq_check_and_advance(&mapping->wb_err, &since), -EIO);
	assert_int_equal(errseq_check_and_advance(&mapping->wb_err, &since), 0);
	assert_int_equal(errseq_check(&mapping->host->i_sb->s_wb_err, 0), -EIO);
	assert_true(tb_file_cached(f) < n);
	assert_true(kshim_reclaim_event_read(PGSTEAL_KSWAPD) > 0);
	tb_assert_lrus_consistent();
	return;
#endif
	assert_true(node_page_state(pgdat, NR_VMSCAN_WRITE) > 0);
	assert_int_equal(k->write_folio_count, node_page_state(pgdat, NR_VMSCAN_WRITE));
	assert_int_equal(k->inactive_stat.nr_pageout, node_page_state(pgdat, NR_VMSCAN_WRITE));
	assert_int_equal(node_page_state(pgdat, NR_WRITTEN), 0);
	assert_int_equal(node_page_state(pgdat, NR_WRITEBACK), 0);
	assert_int_equal(tb_writeback_inflight(), 0);
	assert_true(test_bit(AS_EIO, &mapping->flags));
	assert_false(test_bit(AS_ENOSPC, &mapping->flags));
	/* what fsync() would return (file_check_and_advance_wb_err), once */
	assert_int_equal(errseq_check_and_advance(&mapping->wb_err, &since), -EIO);
	assert_int_equal(errseq_check_and_advance(&mapping->wb_err, &since), 0);
	assert_int_equal(errseq_check(&mapping->host->i_sb->s_wb_err, 0), -EIO);
	/* the folios written (and failed) were freed: the file lost that data */
	assert_true(tb_file_cached(f) + node_page_state(pgdat, NR_VMSCAN_WRITE) <= n);
	assert_true(kshim_reclaim_event_read(PGSTEAL_KSWAPD) >= node_page_state(pgdat, NR_VMSCAN_WRITE));
	tb_assert_lrus_consistent();
}

/* ---- the pfmemalloc reserve ---- */

/*
 * Direct reclaim waits while free memory is under half of min (the
 * pfmemalloc reserve), until kswapd restores it. Memory full of clean
 * page cache and kswapd asleep; then allocations that may not sleep and
 * do not wake kswapd (GFP_ATOMIC without __GFP_KSWAPD_RECLAIM) take pages
 * until __zone_watermark_ok() refuses them: gfp_to_alloc_flags() gives
 * them ALLOC_MIN_RESERVE (__GFP_HIGH: min - min/2) and ALLOC_NON_BLOCK
 * (another quarter off), so of min = 256 they may use all but 96 pages.
 * 96 is not above 256 / 2: a GFP_KERNEL allocation (without kswapd
 * reclaim, so kswapd is still asleep) enters try_to_free_pages(), whose
 * throttle_direct_reclaim() finds allow_direct_reclaim() false; that
 * wakes kswapd (asleep on kswapd_wait; kswapd_highest_zoneidx lowered to
 * ZONE_NORMAL), counts PGSCAN_DIRECT_THROTTLE and, the caller having
 * __GFP_FS, waits killable on pfmemalloc_wait. kswapd runs on its CPU
 * meanwhile; in balance_pgdat(), once allow_direct_reclaim() holds, it
 * wakes the waiter. The task slept one jiffy, then reclaims directly.
 */
static void pfmemalloc_throttled_allocation(gfp_t gfp)
{
	unsigned long ram = PAGES(64 * MB);
	struct tb_file *f = tb_file_create(ram);
	struct pglist_data *pgdat = NODE_DATA(0);
	const struct kshim_trace *k = tb_kswapd_trace(0);
	struct folio *folio, *tmp;
	unsigned long wakes, runs;
	struct tb_task *t;
	LIST_HEAD(held);
	u64 t0;

	t = tb_run_in("");
	tb_read_range(f, ram);
	tb_touch_range(tb_map_anon(1), 1, true);	/* the world runs kswapd to its sleep */
	assert_true(waitqueue_active(&pgdat->kswapd_wait));
	assert_int_equal(tb_wmark(0, WMARK_MIN), 256);
	while ((folio = tb_alloc_folio(GFP_ATOMIC & ~__GFP_KSWAPD_RECLAIM, 0)))
		list_add(&folio->lru, &held);
	assert_int_equal(tb_free_pages(0), 96);
	assert_true(waitqueue_active(&pgdat->kswapd_wait));

	wakes = k->kswapd_wake_count;
	runs = kshim_vm_event_read(PAGEOUTRUN);
	t0 = tb_task_vclock_ns(t);
	folio = tb_alloc_folio(gfp & ~__GFP_KSWAPD_RECLAIM, 0);
	assert_non_null(folio);
	assert_int_equal(kshim_vm_event_read(PGSCAN_DIRECT_THROTTLE), 1);
	assert_int_equal(k->kswapd_wake_count, wakes + 1);
	assert_int_equal(kshim_vm_event_read(PAGEOUTRUN), runs + 1);
	assert_false(waitqueue_active(&pgdat->pfmemalloc_wait));
	/* one jiffy on pfmemalloc_wait, then its own reclaim */
	assert_true(tb_task_vclock_ns(t) - t0 >= NS_PER_JIFFY);
	assert_true(tb_task_vclock_ns(t) - t0 < 2 * NS_PER_JIFFY);
	assert_int_equal(kshim_vm_event_read(ALLOCSTALL_NORMAL), 1);
	assert_true(kshim_reclaim_event_read(PGSTEAL_DIRECT) > 0);
	assert_true(tb_free_pages(0) > tb_wmark(0, WMARK_MIN) / 2);

	folio_put(folio);
	list_for_each_entry_safe(folio, tmp, &held, lru) {
		list_del(&folio->lru);
		folio_put(folio);
	}
}

static void direct_reclaim_waits_for_kswapd_to_restore_the_pfmemalloc_reserve(void **state)
{
	pfmemalloc_throttled_allocation(GFP_KERNEL);
}

/*
 * Without __GFP_FS the caller may hold a lock kswapd needs (a journal
 * transaction): throttle_direct_reclaim() waits on pfmemalloc_wait with
 * a timeout of HZ instead, woken by kswapd the same way.
 */
static void nofs_direct_reclaim_waits_for_the_reserve_with_a_timeout(void **state)
{
	pfmemalloc_throttled_allocation(GFP_NOFS);
}

/* ---- extra references and pins ---- */

/*
 * A page cache folio someone holds a reference on (find_get_page(), a
 * get_user_pages() in flight) is not freed. memory.reclaim isolates each
 * folio of "a" (one reference more); an unmapped clean folio read once
 * is FOLIOREF_RECLAIM_CLEAN and goes to __remove_mapping(), which freezes
 * the refcount only at 1 + folio_nr_pages() (isolation + page cache):
 * our reference makes folio_ref_freeze() fail (cannot_free), the folio is
 * kept (keep_locked: not activated) and move_folios_to_lru() puts it back
 * on the inactive list. Every other folio is freed, so memory.reclaim
 * falls one page short of 1M: -EAGAIN after its retries.
 */
static void page_cache_folio_with_an_extra_reference_is_not_freed(void **state)
{
	struct tb_file *f = tb_file_create(PAGES(1 * MB));
	struct folio *folio;

	TB_CLASSIC_LRU_ONLY("asserts the inactive list the folio is put back on");
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	tb_read_range(f, PAGES(1 * MB));
	folio = tb_file_folio(f, 7);
	tb_folio_get(folio);
	assert_int_equal(folio_ref_count(folio), 2);	/* the cache's and ours */

	assert_write("a", "memory.reclaim", "1M", -EAGAIN);
	assert_int_equal(tb_file_cached(f), 1);
	assert_ptr_equal(tb_file_folio(f, 7), folio);
	assert_true(folio_test_lru(folio));
	assert_false(folio_test_active(folio));
	assert_int_equal(folio_ref_count(folio), 2);
	assert_int_equal(tb_stat("a", "pgsteal"), PAGES(1 * MB) - 1);
	assert_int_equal(tb_stat("a", "inactive_file"), 4096);
	tb_assert_lrus_consistent();

	/* the reference gone, the same folio is reclaimed */
	tb_folio_put(folio);
	assert_write_ok("a", "memory.reclaim", "4K");
	assert_int_equal(tb_file_cached(f), 0);
}

/*
 * A DMA-pinned anon folio is not added to swap: shrink_folio_list()
 * checks folio_maybe_dma_pinned() (refcount >= GUP_PIN_COUNTING_BIAS for
 * an order-0 folio) before add_to_swap() and keeps the folio where it is
 * (keep_locked). The first pass finds every pte young (FOLIOREF_KEEP, the
 * referenced flag set); the next reclaims the others to swap. The pinned
 * folio keeps its pte, gets no swap slot, stays on the inactive anon list.
 */
static void dma_pinned_anon_folio_is_not_added_to_swap(void **state)
{
	unsigned long n = PAGES(1 * MB);
	struct tb_vma *vma;
	struct folio *folio;

	TB_CLASSIC_LRU_ONLY("asserts the inactive list the folio is put back on");
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	vma = tb_map_anon(n);
	tb_touch_range(vma, n, true);
	folio = tb_vma_folio(vma, 3);
	tb_folio_pin(folio);
	assert_true(folio_maybe_dma_pinned(folio));
	assert_int_equal(node_page_state(NODE_DATA(0), NR_FOLL_PIN_ACQUIRED), 1);

	assert_write("a", "memory.reclaim", "1M", -EAGAIN);
	assert_int_equal(tb_vma_swapped(vma), n - 1);
	assert_int_equal(tb_vma_resident(vma), 1);
	assert_ptr_equal(tb_vma_folio(vma, 3), folio);
	assert_false(folio_test_swapcache(folio));
	assert_true(folio_test_lru(folio));
	assert_false(folio_test_active(folio));
	assert_int_equal(tb_swap_used(), n - 1);
	assert_int_equal(tb_stat("a", "inactive_anon"), 4096);

	/* unpinned, it goes to swap like the others */
	tb_folio_unpin(folio);
	assert_false(folio_maybe_dma_pinned(folio));
	assert_int_equal(node_page_state(NODE_DATA(0), NR_FOLL_PIN_RELEASED), 1);
	assert_write_ok("a", "memory.reclaim", "4K");
	assert_int_equal(tb_vma_swapped(vma), n);
}

/*
 * A DMA-pinned anon folio already in the swap cache (swapped out to a
 * disk, read back in, then pinned: from zram a read keeps no swap cache
 * copy on any tree) skips the pin check before add_to_swap(), and
 * try_to_unmap() cannot unmap it (an exclusive anon page that may be
 * pinned is not shared: folio_try_share_anon_rmap_pte()): an unmap
 * failure, activated (one pgactivate; on 7.2.13 a later pass of the same
 * memory.reclaim scans the active list and deactivates it again, one
 * pgdeactivate, so the case counts the event, not the flag after the
 * write). With a's swap at half its memory.swap.max or more
 * (32 of 48 pages: mem_cgroup_swap_full()) the activation gives the
 * folio's swap slot back (folio_free_swap()): it stays mapped, out of the
 * swap cache. The 31 others, clean copies of their slots, are freed
 * without a write. (At 32 of 32 anon would not be scanned at all:
 * can_reclaim_anon_pages() wants room for a slot, even for folios that
 * have theirs.)
 */
static void pinned_swap_cache_folio_is_activated_and_gives_its_slot_back(void **state)
{
	struct tb_vma *vma;
	struct folio *folio;
	long long act;

	TB_CLASSIC_LRU_ONLY("shrink_folio_list()'s activation of the classic LRU");
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	vma = tb_map_anon(32);
	tb_touch_range(vma, 32, true);
	/* the disk's writes complete later: the pass may free less than asked */
	tb_cgroup_write_str("a", "memory.reclaim", "128K");
	assert_int_equal(tb_vma_swapped(vma), 32);
	msleep(1);
	tb_touch_range(vma, 32, false);
	folio = tb_vma_folio(vma, 3);
	assert_true(folio_test_swapcache(folio));
	tb_folio_pin(folio);
	assert_write_ok("a", "memory.swap.max", "192K");
	kshim_trace_reset();
	act = tb_stat("a", "pgactivate");

	assert_write("a", "memory.reclaim", "128K", -EAGAIN);
	assert_true(kshim_trace.inactive_stat.nr_unmap_fail > 0);
	assert_ptr_equal(tb_vma_folio(vma, 3), folio);
	assert_int_equal(tb_stat("a", "pgactivate"), act + 1);
	assert_false(folio_test_swapcache(folio));
	assert_int_equal(tb_vma_resident(vma), 1);
	assert_int_equal(tb_vma_swapped(vma), 31);
	assert_int_equal(tb_swap_used(), 31);
	tb_folio_unpin(folio);
}

/*
 * A pinned page cache folio mapped by a task is unmapped, then kept:
 * only an anon folio is checked for a pin before try_to_unmap(); after
 * it ("Folio is unmapped now so it cannot be newly pinned anymore")
 * folio_maybe_dma_pinned() sends every folio to activate_locked. The
 * task's pte is gone, the folio stays in the page cache. It does not stay
 * active: a do_try_to_free_pages() that reclaimed nothing and skipped the
 * active list (prepare_scan_control() reads the memcg's rstat-flushed
 * counters, which do not show the inactive list low) retries with
 * force_deactivate, and shrink_active_list() deactivates it (unmapped, no
 * young pte); memory.reclaim retries, shrink_folio_list() activates it
 * again. After the last retry it is inactive, every activation (only its
 * own: the other folios were unmapped and freed) matched by a
 * deactivation.
 */
static void pinned_mapped_file_folio_is_unmapped_but_kept(void **state)
{
	unsigned long n = PAGES(1 * MB);
	struct tb_file *f = tb_file_create(n);
	struct tb_vma *vma;
	struct folio *folio;

	TB_CLASSIC_LRU_ONLY("asserts activations matched by shrink_active_list() deactivations");
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	vma = tb_map_file(f);
	tb_touch_range(vma, n, false);
	folio = tb_vma_folio(vma, 5);
	tb_folio_pin(folio);

	assert_write("a", "memory.reclaim", "1M", -EAGAIN);
	assert_int_equal(tb_vma_resident(vma), 0);
	assert_false(folio_mapped(folio));
	assert_int_equal(tb_file_cached(f), 1);
	assert_ptr_equal(tb_file_folio(f, 5), folio);
	assert_true(folio_test_lru(folio));
	/* activated by each pass, deactivated by the next shrink_active_list() */
	assert_true(tb_stat("a", "pgactivate") > 0);
	assert_int_equal(tb_stat("a", "pgactivate"), tb_stat("a", "pgdeactivate"));
	assert_false(folio_test_active(folio));
	assert_int_equal(tb_stat("a", "inactive_file"), 4096);
	assert_int_equal(tb_stat("a", "file_mapped"), 0);
	assert_int_equal(tb_stat("a", "pgsteal"), n - 1);
	tb_folio_unpin(folio);
	tb_assert_lrus_consistent();
}

/* ---- SHM_LOCK ---- */

/*
 * SHM_LOCK after the pages are cached: shmem_lock() only sets
 * AS_UNEVICTABLE on the mapping (so does the world), the folios stay on
 * the evictable lists until reclaim meets them. shrink_folio_list() finds
 * !folio_evictable() and sends the folio to activate_locked (PG_active
 * set, counted in pgactivate), then move_folios_to_lru() sees it is
 * unevictable and gives it to folio_putback_lru(): folio_add_lru()'s
 * lru_add() clears PG_active, sets PG_unevictable and counts
 * unevictable_pgs_culled. The active list's folios go the same way
 * through shrink_active_list()'s own !folio_evictable() check, taken
 * (pgrefill) when do_try_to_free_pages(), having reclaimed nothing and
 * skipped the active list (the memcg's rstat-flushed counters in
 * prepare_scan_control() still show the inactive list full), retries with
 * force_deactivate. Nothing is freed: -EAGAIN. SHM_UNLOCK rescues every
 * folio back to the evictable lists.
 */
static void shm_locked_page_cache_is_culled_to_the_unevictable_list(void **state)
{
	unsigned long n = PAGES(1 * MB), active = 64;
	struct tb_file *f = tb_file_create(n);
	long long pgactivate;
	unsigned long i;

	TB_CLASSIC_LRU_ONLY("asserts the active/inactive counts and pgrefill");
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	tb_read_range(f, n);
	for (i = 0; i < active; i++)		/* read twice: activated */
		assert_int_equal(tb_file_read(f, i), 0);
	lru_add_drain();
	assert_int_equal(tb_stat("a", "active_file"), active * 4096);
	assert_int_equal(tb_stat("a", "inactive_file"), (n - active) * 4096);

	pgactivate = tb_stat("a", "pgactivate");		/* the second reads' */
	tb_file_set_unevictable(f, true);
	assert_int_equal(tb_stat("a", "unevictable"), 0);	/* nothing moved yet */

	assert_write("a", "memory.reclaim", "1M", -EAGAIN);
	assert_int_equal(kshim_vm_event_read(UNEVICTABLE_PGCULLED), n);
	assert_int_equal(tb_stat("a", "unevictable"), n * 4096);
	assert_int_equal(tb_stat("a", "active_file"), 0);
	assert_int_equal(tb_stat("a", "inactive_file"), 0);
	assert_int_equal(tb_stat("a", "pgsteal"), 0);
	/* the inactive ones went through activate_locked first */
	assert_int_equal(tb_stat("a", "pgactivate") - pgactivate, n - active);
	assert_int_equal(tb_stat("a", "pgscan"), n - active);
	assert_int_equal(tb_stat("a", "pgrefill"), active);
	assert_int_equal(tb_file_cached(f), n);
	assert_true(folio_test_unevictable(tb_file_folio(f, 0)));
	assert_false(folio_test_active(tb_file_folio(f, 0)));
	tb_assert_lrus_consistent();

	/* SHM_UNLOCK: check_move_unevictable_folios() rescues them all */
	tb_file_set_unevictable(f, false);
	assert_int_equal(kshim_vm_event_read(UNEVICTABLE_PGRESCUED), n);
	assert_int_equal(tb_stat("a", "unevictable"), 0);
	assert_write_ok("a", "memory.reclaim", "1M");
	assert_int_equal(tb_file_cached(f), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		TB_RECLAIM_TEST_ON(kswapd_throttles_on_writeback_it_meets_again, setup_slow_disk),
		TB_RECLAIM_TEST_ON(direct_reclaim_is_throttled_while_the_node_is_congested,
				   setup_slow_disk),
		TB_RECLAIM_TEST_ON(failed_writes_land_in_the_mapping_and_the_folios_are_freed,
				   setup_slow_disk),
		TB_RECLAIM_TEST(direct_reclaim_waits_for_kswapd_to_restore_the_pfmemalloc_reserve),
		TB_RECLAIM_TEST(nofs_direct_reclaim_waits_for_the_reserve_with_a_timeout),
		TB_RECLAIM_TEST(page_cache_folio_with_an_extra_reference_is_not_freed),
		TB_RECLAIM_SWAP_TEST(dma_pinned_anon_folio_is_not_added_to_swap),
		TB_RECLAIM_TEST_ON(pinned_swap_cache_folio_is_activated_and_gives_its_slot_back,
				   setup_swap_disk),
		TB_RECLAIM_TEST(pinned_mapped_file_folio_is_unmapped_but_kept),
		TB_RECLAIM_TEST(shm_locked_page_cache_is_culled_to_the_unevictable_list),
	};

	return TB_RUN(tests);
}
