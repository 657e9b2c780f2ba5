// SPDX-License-Identifier: GPL-2.0-only
/*
 * reclaim_throttle(), the wait of a reclaimer that cannot make progress,
 * called here as shrink_node(), shrink_inactive_list() and
 * consider_reclaim_throttle() call it: how long it sleeps for each
 * reason when nothing wakes it, whom it never puts to sleep, when
 * skip_throttle_noprogress() spares a reclaimer, and how the disk's
 * completions end a writeback throttle early (__acct_reclaim_writeback()
 * counts the pages written since the first throttled task went to sleep).
 *
 * The test's task calls it directly: the sleeps are its own, jiffy by
 * jiffy, the disk completing writes meanwhile. Every cost but the disk's
 * write is 0, so the jiffies a throttle lasts are exact.
 */
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/mmzone.h>
#include <linux/pagemap.h>
#include <linux/sched.h>
#include <linux/swap.h>
#include <linux/vmstat.h>
#include <linux/writeback.h>
#include <signal.h>
#include <kshim/trace.h>
#include <kshim/reclaim.h>
#include <kgen/mm_internal_reclaim.h>
#include "tb_reclaim.h"

/* mm/internal.h */
void reclaim_throttle(pg_data_t *pgdat, enum vmscan_throttle_state reason);

/* a write takes the disk 150 ms; nothing else costs time */
#define WRITE_JIFFIES 150

static void set_costs(void)
{
	struct tb_mem_costs costs = { .file_write_ns = WRITE_JIFFIES * (1000000000ULL / HZ) };

	tb_mem_set_costs(&costs);
}

/* jiffies one reclaim_throttle(reason) of node 0 lasted */
static unsigned long throttle(enum vmscan_throttle_state reason)
{
	unsigned long start = jiffies;

	reclaim_throttle(NODE_DATA(0), reason);
	return jiffies - start;
}

/* pages [0, n) of f dirty, on the LRU lists (this CPU's batch drained) */
static void dirty_pages(struct tb_file *f, unsigned long n)
{
	unsigned long i;

	for (i = 0; i < n; i++)
		assert_int_equal(tb_file_write(f, i), 0);
	lru_add_drain();
}

/*
 * Nothing wakes a throttled task here (no writes in flight, no other
 * reclaimer): it sleeps its reason's whole timeout, "pulled out of thin
 * air": HZ/10 waiting on writeback, HZ/50 for too many isolated pages,
 * one jiffy for congestion or no progress (with more than half the
 * reclaimable pages write-pending: see below). Each sleep is traced
 * with the time it lasted.
 */
static void a_throttle_sleeps_its_reason_s_timeout_when_nothing_wakes_it(void **state)
{
	struct tb_file *f = tb_file_create(64);

	set_costs();
	tb_run_in("");
	dirty_pages(f, 64);
	kshim_trace_reset();

	assert_int_equal(throttle(VMSCAN_THROTTLE_WRITEBACK), HZ / 10);
	assert_int_equal(throttle(VMSCAN_THROTTLE_ISOLATED), HZ / 50);
	assert_int_equal(throttle(VMSCAN_THROTTLE_CONGESTED), 1);
	assert_int_equal(throttle(VMSCAN_THROTTLE_NOPROGRESS), 1);
	assert_int_equal(kshim_trace.throttled_count, 4);
	assert_int_equal(kshim_trace.throttled[VMSCAN_THROTTLE_WRITEBACK], 1);
	assert_int_equal(kshim_trace.throttled[VMSCAN_THROTTLE_ISOLATED], 1);
	assert_int_equal(kshim_trace.throttled_usecs,
			 jiffies_to_usecs(HZ / 10 + HZ / 50 + 2));
	/* the count of writeback waiters is back to none */
	assert_int_equal(atomic_read(&NODE_DATA(0)->nr_writeback_throttled), 0);
	assert_int_equal(tb_file_dirty(f), 64);
}

/*
 * Kernel threads other than kswapd and user workers (io_uring's) may be
 * what reclaim waits for: reclaim_throttle() only reschedules them,
 * whatever the reason. kswapd is a kernel thread too (kthread_run()),
 * yet it does sleep (test_reclaim_pressure:
 * kswapd_throttles_on_writeback_it_meets_again).
 */
static void kernel_threads_and_user_workers_are_never_throttled(void **state)
{
	static const unsigned int flags[] = { PF_KTHREAD, PF_USER_WORKER };
	struct tb_file *f = tb_file_create(64);
	unsigned int i;

	set_costs();
	tb_run_in("");
	dirty_pages(f, 64);
	assert_true(NODE_DATA(0)->kswapd->flags & PF_KTHREAD);
	kshim_trace_reset();
	for (i = 0; i < ARRAY_SIZE(flags); i++) {
		current->flags |= flags[i];
		assert_int_equal(throttle(VMSCAN_THROTTLE_WRITEBACK), 0);
		assert_int_equal(throttle(VMSCAN_THROTTLE_NOPROGRESS), 0);
		assert_int_equal(throttle(VMSCAN_THROTTLE_ISOLATED), 0);
		current->flags &= ~flags[i];
	}
	assert_int_equal(kshim_trace.throttled_count, 0);
	assert_int_equal(atomic_read(&NODE_DATA(0)->nr_writeback_throttled), 0);
	/* the same task, a user task again, sleeps */
	assert_int_equal(throttle(VMSCAN_THROTTLE_WRITEBACK), HZ / 10);
}

/*
 * skip_throttle_noprogress(): a congestion or no-progress throttle is
 * skipped unless more than half the node's reclaimable pages (its file
 * LRU pages; no swap here, so not the 64 anon pages of the task) are
 * dirty or under writeback, "as throttling will occur when the folios
 * cycle towards the end of the LRU". With 32 dirty pages and 31 clean
 * ones, 2 * 32 > 63: a jiffy's sleep; one clean page more, 2 * 32 <= 64:
 * no sleep and nothing traced.
 */
static void noprogress_throttle_needs_more_than_half_the_reclaimable_pages_write_pending(void **state)
{
	struct tb_file *dirty = tb_file_create(32), *clean = tb_file_create(32);

	set_costs();
	tb_run_in("");
	tb_touch_range(tb_map_anon(64), 64, true);
	dirty_pages(dirty, 32);
	tb_read_range(clean, 31);
	lru_add_drain();
	kshim_trace_reset();
	assert_int_equal(throttle(VMSCAN_THROTTLE_NOPROGRESS), 1);
	assert_int_equal(throttle(VMSCAN_THROTTLE_CONGESTED), 1);
	assert_int_equal(kshim_trace.throttled_count, 2);

	assert_int_equal(tb_file_read(clean, 31), 0);
	lru_add_drain();
	assert_int_equal(throttle(VMSCAN_THROTTLE_NOPROGRESS), 0);
	assert_int_equal(throttle(VMSCAN_THROTTLE_CONGESTED), 0);
	assert_int_equal(kshim_trace.throttled_count, 2);
	/* a writeback or isolation throttle is not skipped for that */
	assert_int_equal(throttle(VMSCAN_THROTTLE_ISOLATED), HZ / 50);
}

/*
 * The active page cache is reclaimable as well: 32 dirty pages, 22 clean
 * ones read once and 10 read twice (active), 2 * 32 <= 64: no throttle.
 */
static void noprogress_throttle_counts_active_page_cache_as_reclaimable(void **state)
{
	struct tb_file *dirty = tb_file_create(32), *clean = tb_file_create(32);

	set_costs();
	tb_run_in("");
	dirty_pages(dirty, 32);
	tb_read_range(clean, 32);
	tb_read_range(clean, 10);
	lru_add_drain();
	assert_int_equal(zone_page_state(&NODE_DATA(0)->node_zones[ZONE_NORMAL],
					 NR_ZONE_ACTIVE_FILE), 10);
	assert_int_equal(throttle(VMSCAN_THROTTLE_NOPROGRESS), 0);
}

/*
 * One dirty page and nothing else on the LRU lists: it is all the node
 * has to reclaim, 2 * 1 > 1, and the throttle sleeps. (Only a node with
 * no LRU page at all counts its free pages as reclaimable instead.)
 */
static void noprogress_throttle_sleeps_when_the_one_lru_page_is_dirty(void **state)
{
	struct tb_file *f = tb_file_create(1);

	set_costs();
	tb_run_in("");
	assert_int_equal(throttle(VMSCAN_THROTTLE_NOPROGRESS), 0);
	dirty_pages(f, 1);
	assert_int_equal(throttle(VMSCAN_THROTTLE_NOPROGRESS), 1);
}

static int setup_one_swap_slot(void **state)
{
	tb_mem.swap_pages = 1;
	return tb_reclaim_setup(state);
}

/*
 * With swap space free (one slot is enough) anon pages are reclaimable
 * too: 32 dirty pages, 16 clean and 16 anon, 2 * 32 <= 64: no throttle;
 * 15 anon, a jiffy's.
 */
static void noprogress_throttle_counts_anon_when_swap_is_free(void **state)
{
	struct tb_file *dirty = tb_file_create(32), *clean = tb_file_create(16);
	struct tb_vma *vma;

	assert_int_equal(get_nr_swap_pages(), 1);
	set_costs();
	tb_run_in("");
	vma = tb_map_anon(16);
	tb_touch_range(vma, 15, true);
	dirty_pages(dirty, 32);
	tb_read_range(clean, 16);
	lru_add_drain();
	assert_int_equal(throttle(VMSCAN_THROTTLE_NOPROGRESS), 1);
	assert_int_equal(tb_touch(vma, 15, true), 0);
	lru_add_drain();
	assert_int_equal(throttle(VMSCAN_THROTTLE_NOPROGRESS), 0);
}

/*
 * Once kswapd has failed MAX_RECLAIM_RETRIES times in a row the node is
 * "likely near OOM": no congestion or no-progress throttle, however much
 * is write-pending. One failure fewer, the throttle sleeps.
 */
static void noprogress_throttle_is_skipped_once_kswapd_gave_up(void **state)
{
	struct pglist_data *pgdat = NODE_DATA(0);
	struct tb_file *f = tb_file_create(64);

	set_costs();
	tb_run_in("");
	dirty_pages(f, 64);
	/* what balance_pgdat() counts up when a run reclaims nothing */
	tb_set_kswapd_failures(pgdat, MAX_RECLAIM_RETRIES - 1);
	assert_int_equal(throttle(VMSCAN_THROTTLE_NOPROGRESS), 1);
	tb_set_kswapd_failures(pgdat, MAX_RECLAIM_RETRIES);
	assert_int_equal(throttle(VMSCAN_THROTTLE_NOPROGRESS), 0);
	assert_int_equal(throttle(VMSCAN_THROTTLE_CONGESTED), 0);
	assert_int_equal(throttle(VMSCAN_THROTTLE_WRITEBACK), HZ / 10);
	tb_set_kswapd_failures(pgdat, 0);
}

/*
 * A writeback throttle ends when more than SWAP_CLUSTER_MAX pages per
 * throttled task were written since the first of them went to sleep
 * (nr_reclaim_start, taken when nr_writeback_throttled goes 0 -> 1).
 * 96 pages are written one a jiffy, the disk completing each 150 jiffies
 * later. The first throttle starts 96 jiffies in and ends with the 33rd
 * completion (150 + 32 jiffies after the first write): 86 jiffies. The
 * second starts then and counts from there: 33 completions more, 33
 * jiffies, not the first completion (the 33 written before it went to
 * sleep are not its own).
 */
static void a_writeback_throttle_ends_after_33_pages_written_since_it_began(void **state)
{
	struct tb_file *f = tb_file_create(96);
	struct pglist_data *pgdat = NODE_DATA(0);
	unsigned long i;

	set_costs();
	tb_run_in("");
	for (i = 0; i < 96; i++) {
		assert_int_equal(tb_file_write(f, i), 0);
		wakeup_flusher_threads(WB_REASON_SYNC);
		msleep(1);
	}
	assert_int_equal(tb_writeback_inflight(), 96);
	kshim_trace_reset();

	assert_int_equal(throttle(VMSCAN_THROTTLE_WRITEBACK), WRITE_JIFFIES + 32 - 96);
	assert_int_equal(tb_writeback_inflight(), 96 - 33);
	assert_int_equal(throttle(VMSCAN_THROTTLE_WRITEBACK), 33);
	assert_int_equal(tb_writeback_inflight(), 96 - 66);
	assert_int_equal(node_page_state(pgdat, NR_THROTTLED_WRITTEN), 66);
	assert_int_equal(kshim_trace.throttled_usecs,
			 jiffies_to_usecs(WRITE_JIFFIES + 32 - 96 + 33));
	/* the pages written with no task throttled are not counted */
	msleep(WRITE_JIFFIES);
	assert_int_equal(tb_writeback_inflight(), 0);
	assert_int_equal(node_page_state(pgdat, NR_THROTTLED_WRITTEN), 66);
	assert_int_equal(atomic_read(&pgdat->nr_writeback_throttled), 0);
}

static int setup_swap_no_kswapd(void **state)
{
	tb_mem.no_kswapd = true;
	tb_mem.swap_pages = PAGES(64 * MB);
	return tb_reclaim_setup(state);
}

/* pages [0, n) of f off the LRU as compaction or migration isolates them */
static void isolate(struct tb_file *f, unsigned long n, bool on)
{
	unsigned long i;

	for (i = 0; i < n; i++) {
		struct folio *folio = tb_file_folio(f, i);

		if (on) {
			assert_true(folio_isolate_lru(folio));
			node_stat_mod_folio(folio, NR_ISOLATED_FILE, 1);
		} else {
			node_stat_mod_folio(folio, NR_ISOLATED_FILE, -1);
			folio_putback_lru(folio);
		}
	}
}

/*
 * too_many_isolated(): a direct reclaimer (not kswapd, global reclaim)
 * about to isolate page cache waits (VMSCAN_THROTTLE_ISOLATED, HZ/50)
 * while more is isolated than the inactive file list holds, an eighth of
 * it for a reclaimer that may do I/O (GFP_KERNEL: NOIO and NOFS ones are
 * let through further), then, still too many, leaves that list for this
 * pass. 1024 pages read, n of them isolated; the task's allocations run
 * into direct reclaim (no kswapd), which swaps anon. Returns the
 * isolation throttles of its first direct reclaim.
 */
static unsigned long isolated_throttles(unsigned long n)
{
	struct tb_file *f = tb_file_create(1024);
	unsigned long i, throttles;
	struct tb_vma *vma;

	tb_run_in("");
	tb_read_range(f, 1024);
	lru_add_drain();
	isolate(f, n, true);
	vma = tb_map_anon(PAGES(64 * MB));
	for (i = 0; !kshim_trace.direct_reclaim_count; i++)
		assert_int_equal(tb_touch(vma, i, true), 0);
	throttles = kshim_trace.throttled[VMSCAN_THROTTLE_ISOLATED];
	assert_int_equal(kshim_trace.throttled_count, throttles);
	isolate(f, n, false);
	lru_add_drain();
	/* what reclaim isolated it accounted and put back: the raw counters are 0 again */
	assert_int_equal(atomic_long_read(&NODE_DATA(0)->vm_stat[NR_ISOLATED_FILE]), 0);
	assert_int_equal(atomic_long_read(&NODE_DATA(0)->vm_stat[NR_ISOLATED_ANON]), 0);
	tb_unmap(vma);
	return throttles;
}

/* 200 isolated > 824 / 8: each file shrink waits, and the page cache stays */
static void direct_reclaim_waits_while_more_than_an_eighth_of_inactive_is_isolated(void **state)
{
	assert_true(isolated_throttles(200) > 0);
}

/* 100 isolated <= 924 / 8 = 115: no wait */
static void direct_reclaim_goes_on_while_an_eighth_of_inactive_is_not_isolated(void **state)
{
	assert_int_equal(isolated_throttles(100), 0);
}

/*
 * The same for anon: a direct reclaim about to isolate anon pages waits
 * while more anon is isolated than an eighth of the inactive anon list.
 * 1024 anon pages, 200 of them isolated (> 824 / 8), swap on, no page
 * cache: each anon shrink waits HZ/50 once, then leaves the list for this
 * pass, so nothing is swapped out; 100 isolated (<= 924 / 8) let it swap.
 */
static unsigned long anon_isolated_throttles_as(unsigned long n, bool killed,
						unsigned long *swapped, unsigned long *reclaimed)
{
	struct tb_vma *vma;
	unsigned long i, throttles;
	struct tb_task *t;

	TB_CLASSIC_LRU_ONLY("too_many_isolated() of the classic LRU");
	t = tb_run_in("");
	if (killed)
		tb_task_signal(t, SIGKILL);
	vma = tb_map_anon(1024);
	tb_touch_range(vma, 1024, true);
	lru_add_drain();
	for (i = 0; i < n; i++) {
		assert_true(folio_isolate_lru(tb_vma_folio(vma, i)));
		node_stat_mod_folio(tb_vma_folio(vma, i), NR_ISOLATED_ANON, 1);
	}
	kshim_trace_reset();
	*reclaimed = try_to_free_pages(node_zonelist(0, GFP_KERNEL), 0, GFP_KERNEL, NULL);
	throttles = kshim_trace.throttled[VMSCAN_THROTTLE_ISOLATED];
	*swapped = tb_vma_swapped(vma);
	for (i = 0; i < n; i++) {
		node_stat_mod_folio(tb_vma_folio(vma, i), NR_ISOLATED_ANON, -1);
		folio_putback_lru(tb_vma_folio(vma, i));
	}
	return throttles;
}

static unsigned long anon_isolated_throttles(unsigned long n, unsigned long *swapped,
					     unsigned long *reclaimed)
{
	return anon_isolated_throttles_as(n, false, swapped, reclaimed);
}

static void direct_reclaim_waits_while_more_than_an_eighth_of_inactive_anon_is_isolated(void **state)
{
	unsigned long swapped, reclaimed;

	assert_true(anon_isolated_throttles(200, &swapped, &reclaimed) > 0);
	assert_int_equal(swapped, 0);
	/* a list left for isolation counts nothing reclaimed */
	assert_int_equal(reclaimed, 0);
}

static void direct_reclaim_swaps_while_an_eighth_of_inactive_anon_is_not_isolated(void **state)
{
	unsigned long swapped, reclaimed;

	assert_int_equal(anon_isolated_throttles(100, &swapped, &reclaimed), 0);
	assert_true(swapped > 0);
}

/*
 * The same 200 isolated, the reclaimer with a fatal signal pending (its
 * pages were mapped before): throttle_direct_reclaim() lets it through,
 * shrink_inactive_list() waits once for the isolated pages, then gives
 * the list up claiming SWAP_CLUSTER_MAX reclaimed, so that the task
 * leaves reclaim to exit: try_to_free_pages() returns 32, nothing swapped.
 */
static void killed_direct_reclaimer_waits_once_then_claims_a_batch_reclaimed(void **state)
{
	unsigned long swapped, reclaimed;

	assert_int_equal(anon_isolated_throttles_as(200, true, &swapped, &reclaimed), 1);
	assert_int_equal(swapped, 0);
	assert_int_equal(reclaimed, SWAP_CLUSTER_MAX);
}

static int setup_no_kswapd(void **state)
{
	tb_mem.no_kswapd = true;
	return tb_reclaim_setup(state);
}

/*
 * consider_reclaim_throttle(): a direct reclaim that reaches priority 1
 * having reclaimed nothing sleeps once on VMSCAN_THROTTLE_NOPROGRESS (a
 * jiffy: all 10 pages on the LRU are write-pending), before its last
 * pass. 10 dirty pages, a write takes the disk half a jiffy, the rest of
 * memory free, no swap. Priority 3 takes 10 >> 3 = 1 page: dirty, so
 * marked PG_reclaim and activated, and a batch all unqueued dirty wakes
 * the flushers (all 10 under writeback now). Priority 2 takes 9 >> 2 = 2,
 * priority 1 7 >> 1 = 3: under writeback without PG_reclaim, marked and
 * activated. Nothing reclaimed: the throttle, during which the writes
 * complete and the 6 marked folios wait in this CPU's batch to rotate
 * to the inactive tail (folio_rotate_reclaimable()). Priority 0's
 * targets are the lists' sizes before its lru_add_drain() rotates them:
 * it takes 4 pages from the inactive tail, 4 of the rotated ones, clean
 * now, and frees them. (Throttled at priority 2, it would free 3 at
 * priority 1; at priority 0, after the pass, nothing.)
 */
static void direct_reclaim_without_progress_throttles_once_before_priority_0(void **state)
{
	struct tb_mem_costs costs = { .file_write_ns = 1000000000ULL / HZ / 2 };
	struct tb_file *f = tb_file_create(10);
	int p;

	TB_CLASSIC_LRU_ONLY("the classic LRU's scan per priority");
	tb_mem_set_costs(&costs);
	tb_run_in("");
	dirty_pages(f, 10);
	kshim_trace_reset();
	assert_int_equal(try_to_free_pages(node_zonelist(0, GFP_KERNEL), 0, GFP_KERNEL, NULL), 4);
	assert_int_equal(kshim_trace.throttled_count, 1);
	assert_int_equal(kshim_trace.throttled[VMSCAN_THROTTLE_NOPROGRESS], 1);
	assert_int_equal(kshim_trace.throttled_usecs, jiffies_to_usecs(1));
	for (p = 12; p > 3; p--)
		assert_int_equal(kshim_trace.inactive_scanned[1][p], 0);
	assert_int_equal(kshim_trace.inactive_scanned[1][3], 1);
	assert_int_equal(kshim_trace.inactive_scanned[1][2], 2);
	assert_int_equal(kshim_trace.inactive_scanned[1][1], 3);
	assert_int_equal(kshim_trace.inactive_scanned[1][0], 4);
	for (p = 12; p > 0; p--)
		assert_int_equal(kshim_trace.inactive_reclaimed[1][p], 0);
	assert_int_equal(kshim_trace.inactive_reclaimed[1][0], 4);
	assert_int_equal(tb_file_cached(f), 6);
	assert_int_equal(kshim_trace.inactive_stat.nr_dirty, 6);
	assert_int_equal(kshim_trace.inactive_stat.nr_unqueued_dirty, 1);
	assert_int_equal(kshim_trace.inactive_stat.nr_writeback, 5);
	assert_int_equal(kshim_trace.inactive_stat.nr_activate_file, 6);
}

/*
 * A direct reclaim that freed anything at all is not throttled for lack
 * of progress, however little: one clean page read first (the inactive
 * tail), then 40 dirty ones, the disk 10 s a write. Priority 5 frees
 * the clean page (41 >> 5 = 1); priorities 4 to 2 take 2, 4 and 8 dirty
 * ones, marked and activated (the flushers queue them all at the first);
 * priority 1 takes 26 >> 1 = 13 under writeback and frees none: 1 is
 * not more than 13 / 8, but one page was reclaimed: no throttle.
 */
static void direct_reclaim_with_a_little_progress_is_not_throttled(void **state)
{
	struct tb_mem_costs costs = { .file_write_ns = 10 * 1000000000ULL };
	struct tb_file *clean = tb_file_create(1), *f = tb_file_create(40);

	TB_CLASSIC_LRU_ONLY("the classic LRU's scan per priority");
	tb_mem_set_costs(&costs);
	tb_run_in("");
	tb_read_range(clean, 1);
	dirty_pages(f, 40);
	kshim_trace_reset();
	assert_int_equal(try_to_free_pages(node_zonelist(0, GFP_KERNEL), 0, GFP_KERNEL, NULL), 1);
	assert_int_equal(kshim_trace.inactive_reclaimed[1][5], 1);
	assert_int_equal(kshim_trace.inactive_scanned[1][1], 13);
	assert_int_equal(kshim_trace.throttled_count, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		TB_RECLAIM_TEST(a_throttle_sleeps_its_reason_s_timeout_when_nothing_wakes_it),
		TB_RECLAIM_TEST(kernel_threads_and_user_workers_are_never_throttled),
		TB_RECLAIM_TEST(noprogress_throttle_needs_more_than_half_the_reclaimable_pages_write_pending),
		TB_RECLAIM_TEST(noprogress_throttle_counts_active_page_cache_as_reclaimable),
		TB_RECLAIM_TEST(noprogress_throttle_sleeps_when_the_one_lru_page_is_dirty),
		TB_RECLAIM_TEST_ON(noprogress_throttle_counts_anon_when_swap_is_free, setup_one_swap_slot),
		TB_RECLAIM_TEST(noprogress_throttle_is_skipped_once_kswapd_gave_up),
		TB_RECLAIM_TEST(a_writeback_throttle_ends_after_33_pages_written_since_it_began),
		TB_RECLAIM_TEST_ON(direct_reclaim_without_progress_throttles_once_before_priority_0,
				   setup_no_kswapd),
		TB_RECLAIM_TEST_ON(direct_reclaim_with_a_little_progress_is_not_throttled,
				   setup_no_kswapd),
		TB_RECLAIM_TEST_ON(direct_reclaim_waits_while_more_than_an_eighth_of_inactive_is_isolated,
				   setup_swap_no_kswapd),
		TB_RECLAIM_TEST_ON(direct_reclaim_goes_on_while_an_eighth_of_inactive_is_not_isolated,
				   setup_swap_no_kswapd),
		TB_RECLAIM_TEST_ON(direct_reclaim_waits_while_more_than_an_eighth_of_inactive_anon_is_isolated,
				   setup_swap_no_kswapd),
		TB_RECLAIM_TEST_ON(direct_reclaim_swaps_while_an_eighth_of_inactive_anon_is_not_isolated,
				   setup_swap_no_kswapd),
		TB_RECLAIM_TEST_ON(killed_direct_reclaimer_waits_once_then_claims_a_batch_reclaimed,
				   setup_swap_no_kswapd),
	};

	return TB_RUN(tests);
}
