// SPDX-License-Identifier: GPL-2.0-only
/*
 * How hard mm/vmscan.c scans, per sc->priority and per LRU: the scan
 * targets get_scan_count() hands shrink_lruvec() (lru_size >> priority),
 * the anon/file fraction at swappiness 60 and how reclaim costs move it,
 * the "file is tiny" case of global reclaim; and the paths that decide
 * which memory goes first: executable file pages, kswapd's anon aging,
 * memory.high, memory.low and memory.min under global and ancestor
 * pressure.
 *
 * The per-priority figures come from the vmscan tracepoints
 * (kshim_trace: pages shrink_inactive_list scanned and reclaimed, pages
 * shrink_active_list took and kept active, summed per sc->priority). They
 * are the reclaiming thread's: the test's own thread for memcg reclaim
 * and for direct reclaim in a world without kswapd.
 */
#include <linux/kernel.h>
#include <linux/delay.h>
#include <linux/mm.h>
#include <linux/swap.h>
#include <linux/vmstat.h>
#include <linux/memcontrol.h>
#include <linux/pagemap.h>
#include <sys/mman.h>
#include <kshim/trace.h>
#include "tb_reclaim.h"

#define ANON 0
#define FILE 1
#define PRIO_MAX (KSHIM_TRACE_PRIORITIES - 1)	/* DEF_PRIORITY */

/* a per-priority sum of the trace equals want[priority] at every priority */
static void assert_per_priority(const unsigned long *got, const unsigned long *want,
				const char *what)
{
	int p;

	for (p = PRIO_MAX; p >= 0; p--)
		if (got[p] != want[p])
			fail_msg("%s at priority %d: %lu, expected %lu", what, p, got[p], want[p]);
}

static unsigned long sum(const unsigned long *per_prio)
{
	unsigned long n = 0;
	int p;

	for (p = 0; p <= PRIO_MAX; p++)
		n += per_prio[p];
	return n;
}

static struct lruvec *lruvec_of(const char *path)
{
	return mem_cgroup_lruvec(tb_memcg(path), NODE_DATA(0));
}

static long long event(const char *path, const char *key)
{
	long long v = tb_cgroup_read_key(path, "memory.events", key);

	assert_true(v >= 0);
	return v;
}

/* ---- 1. scan targets per priority ---- */

/*
 * memory.reclaim "1M" (256 pages) on a memcg holding nothing but 8192
 * pages of page cache read once (inactive file), no swap.
 *
 * memory_reclaim() calls try_to_free_mem_cgroup_pages() with a quarter of
 * what is still to do, which reclaim raises to SWAP_CLUSTER_MAX (32):
 * 256 / 4 = 64, then (256 - 121) / 4 = 33, then 32 and 32. Each call's
 * do_try_to_free_pages() starts at DEF_PRIORITY (12) and lowers it until
 * the call's target is met. get_scan_count() has no swap to reclaim anon
 * into (SCAN_FILE) and targets the inactive file list's exact size (the
 * memcg's lru_zone_size) >> priority; shrink_lruvec() scans it in chunks
 * of 32 and stops at the end of the chunk that met the target. Every page
 * read once is reclaimed on its first scan, so the list shrinks by what
 * was scanned:
 *
 *   call 1 (64): 8192>>12 = 2, 8190>>11 = 3, 8187>>10 = 7, 8180>>9 = 15,
 *                8165>>8 = 31 (58 so far), 8134>>7 = 63 (32 + 31) -> 121
 *   call 2 (33): 8071>>12 = 1, 3, 7, 15, 8045>>8 = 31            -> 57
 *   call 3 (32): 8014>>12 = 1, 3, 7, 15, 7988>>8 = 31            -> 57
 *   call 4 (32): 7957>>12 = 1, 3, 7, 15, 7931>>8 = 30            -> 56
 *
 * Per priority: 12: 5, 11: 12, 10: 28, 9: 60, 8: 123, 7: 63; 291 pages.
 */
static void memory_reclaim_scans_lru_size_shifted_by_priority(void **state)
{
	static const unsigned long want[KSHIM_TRACE_PRIORITIES] = {
		[12] = 5, [11] = 12, [10] = 28, [9] = 60, [8] = 123, [7] = 63,
	};
	static const unsigned long none[KSHIM_TRACE_PRIORITIES];
	struct tb_file *f = tb_file_create(8192);
#if !TB_HAVE_reclaim_quarter_batches
	tb_skip("memory.reclaim asks for all that is left per call before 6.2 (one call, not 4)");
#endif

	TB_CLASSIC_LRU_ONLY("get_scan_count()'s lru_size >> priority");
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	tb_read_range(f, 8192);
	tb_task_switch(NULL);
	/* the LRU sizes count every page: empty this CPU's lru_add batch */
	lru_add_drain();
	kshim_trace_reset();

	assert_write_ok("a", "memory.reclaim", "1M");
	assert_int_equal(kshim_trace.memcg_reclaim_count, 4);
	assert_per_priority(kshim_trace.inactive_scanned[FILE], want, "inactive file scanned");
	assert_per_priority(kshim_trace.inactive_reclaimed[FILE], want, "inactive file reclaimed");
	assert_per_priority(kshim_trace.inactive_scanned[ANON], none, "inactive anon scanned");
	assert_per_priority(kshim_trace.active_taken[FILE], none, "active file taken");
	assert_int_equal(tb_file_cached(f), 8192 - 291);
	assert_int_equal(tb_stat("a", "pgscan"), 291);
	assert_int_equal(tb_stat("a", "pgsteal"), 291);
}

/* ---- 2. the anon/file fraction at swappiness 60 ---- */

/*
 * get_scan_count() with swap, swappiness 60 (the default; cgroup v2 has no
 * per-memcg value) and neither of its shortcuts: the inactive file list is
 * smaller than the active one (inactive_is_low(), so sc->may_deactivate has
 * DEACTIVATE_FILE and there is no cache_trim_mode) and priority > 0. That
 * is SCAN_FRACT. With the anon and file costs a and f that
 * prepare_scan_control() copies from the target memcg's lruvec before each
 * pass:
 *
 *   total = a + f, A = total + a, F = total + f,
 *   ap = 60 * (A + F + 1) / (A + 1), fp = 140 * (A + F + 1) / (F + 1)
 *
 * and each list is scanned (size >> priority) * ap (anon) or fp (file) /
 * (ap + fp), rounded down. With a = f = 0 that is anon:file = 60:140.
 *
 * memory.reclaim "128K" asks one call for SWAP_CLUSTER_MAX (32) pages. The
 * memcg holds 4096 anon pages touched once (inactive), 2048 pages of page
 * cache read twice (active) and 1024 read once (inactive); its rstat
 * counters are flushed (prepare_scan_control's inactive_is_low() reads
 * them). The first pass to give a list a page is priority 10: inactive
 * anon 4096 >> 10 = 4 -> 4 * 60 / 200 = 1, active file 2048 >> 10 = 2 ->
 * 2 * 140 / 200 = 1, inactive file 1024 >> 10 = 1 -> 0.
 *
 * Every anon page is young: folio_check_references() keeps it, and
 * shrink_inactive_list() notes it as rotated, lru_note_cost(anon, 0 io,
 * 1 rotated), so a grows by the anon pages scanned; the page cache read
 * once is reclaimed and the active pages deactivated at no cost, f stays 0.
 * Priority 9, a = 1: A = 2, F = 1, ap = 60 * 4 / 3 = 80, fp = 140 * 4 / 2 =
 * 280: anon 8 * 80 / 360 = 1, inactive file (1024 + 1 deactivated) >> 9 =
 * 2 -> 1, active file 2047 >> 9 = 3 -> 2. And so on, a = 2, 5, 11, 22:
 *
 *   priority        10   9   8   7   6   5
 *   inactive anon    1   1   3   6  11  22   (ap:fp 60:140 ... 89:407)
 *   inactive file    0   1   3   6  13  26   (all reclaimed: 49 >= 32)
 *   active file      1   2   5  12  25  50
 *
 * The anon share of a pass falls from 60/200 toward 90/510 as a outgrows
 * f (a >> f: A = 2a, F = a, ap -> 60 * 3/2, fp -> 140 * 3).
 */
static void swappiness_60_scans_both_types_and_anon_rotations_shift_it_to_file(void **state)
{
#if !TB_HAVE_lru_note_cost
	/*
	 * 7.3's cost model: prepare_scan_control() folds into the costs the
	 * lruvec's PGROTATE_ANON/FILE (and WORKINGSET_RESTORE_*) counters as
	 * the memcg's stats give them, and those are rstat-flushed: its
	 * mem_cgroup_flush_stats_ratelimited() flushes only once the memcg has
	 * more than MEMCG_CHARGE_BATCH * num_online_cpus() (256) updates
	 * pending. Priorities 10 to 6 see a = 0 (60:140, as without costs);
	 * their rotations and LRU moves pass the threshold by priority 5,
	 * which sees a = 1 + 2 + 4 + 9 + 19 = 35: ap = 60 * 106 / 71 = 89,
	 * fp = 140 * 106 / 36 = 412, anon 128 * 89 / 501 = 22. Priority 5's
	 * own rotations are folded by no later pass: a stays 35.
	 *
	 *   priority        10   9   8   7   6   5
	 *   inactive anon    1   2   4   9  19  22
	 *   inactive file    0   1   2   5  11  26
	 *   active file      1   2   4  10  21  50
	 */
	static const unsigned long ia[KSHIM_TRACE_PRIORITIES] = {
		[10] = 1, [9] = 2, [8] = 4, [7] = 9, [6] = 19, [5] = 22,
	};
	static const unsigned long inf[KSHIM_TRACE_PRIORITIES] = {
		[9] = 1, [8] = 2, [7] = 5, [6] = 11, [5] = 26,
	};
	static const unsigned long af[KSHIM_TRACE_PRIORITIES] = {
		[10] = 1, [9] = 2, [8] = 4, [7] = 10, [6] = 21, [5] = 50,
	};
	const unsigned long anon_cost = 35, cold_reclaimed = 45;
#elif TB_HAVE_lru_note_cost_rotations
	static const unsigned long ia[KSHIM_TRACE_PRIORITIES] = {
		[10] = 1, [9] = 1, [8] = 3, [7] = 6, [6] = 11, [5] = 22,
	};
	static const unsigned long inf[KSHIM_TRACE_PRIORITIES] = {
		[9] = 1, [8] = 3, [7] = 6, [6] = 13, [5] = 26,
	};
	static const unsigned long af[KSHIM_TRACE_PRIORITIES] = {
		[10] = 1, [9] = 2, [8] = 5, [7] = 12, [6] = 25, [5] = 50,
	};
	const unsigned long anon_cost = 44, cold_reclaimed = 49;
#else
	/*
	 * lru_note_cost() of such trees counts only the pages
	 * shrink_inactive_list() wrote out (stat.nr_pageout) and, from
	 * workingset_refault(), restored refaults; shrink_active_list() notes
	 * no cost at all. The anon kept on the inactive list costs nothing:
	 * a = f = 0 at every priority, anon:file stays 60:140 and, with less
	 * file reclaimed per priority, the pass still ends at priority 5
	 * (1 + 2 + 5 + 11 + 22 = 41 >= 32):
	 *
	 *   priority        10   9   8   7   6   5
	 *   inactive anon    1   2   4   9  19  38   (4096 >> p * 60 / 200)
	 *   inactive file    0   1   2   5  11  22
	 *   active file      1   2   4  10  21  43
	 */
	static const unsigned long ia[KSHIM_TRACE_PRIORITIES] = {
		[10] = 1, [9] = 2, [8] = 4, [7] = 9, [6] = 19, [5] = 38,
	};
	static const unsigned long inf[KSHIM_TRACE_PRIORITIES] = {
		[9] = 1, [8] = 2, [7] = 5, [6] = 11, [5] = 22,
	};
	static const unsigned long af[KSHIM_TRACE_PRIORITIES] = {
		[10] = 1, [9] = 2, [8] = 4, [7] = 10, [6] = 21, [5] = 43,
	};
	const unsigned long anon_cost = 0, cold_reclaimed = 41;
#endif
	struct tb_file *hot = tb_file_create(2048), *cold = tb_file_create(1024);
	struct tb_vma *vma;
	struct lruvec *lruvec;

	TB_CLASSIC_LRU_ONLY("get_scan_count()'s cost balance");
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	vma = tb_map_anon(4096);
	tb_touch_range(vma, 4096, true);
	tb_read_range(hot, 2048);
	tb_read_range(hot, 2048);
	tb_read_range(cold, 1024);
	tb_task_switch(NULL);
	lru_add_drain();
	tb_memcg_flush_stats(tb_memcg("a"));
	lruvec = lruvec_of("a");
	assert_int_equal(tb_anon_cost(lruvec), 0);
	assert_int_equal(tb_file_cost(lruvec), 0);
	kshim_trace_reset();

	assert_write_ok("a", "memory.reclaim", "128K");
	assert_int_equal(kshim_trace.memcg_reclaim_count, 1);
	assert_per_priority(kshim_trace.inactive_scanned[ANON], ia, "inactive anon scanned");
	assert_per_priority(kshim_trace.inactive_scanned[FILE], inf, "inactive file scanned");
	assert_per_priority(kshim_trace.inactive_reclaimed[FILE], inf, "inactive file reclaimed");
	assert_per_priority(kshim_trace.active_taken[FILE], af, "active file taken");
	assert_int_equal(sum(kshim_trace.inactive_reclaimed[ANON]), 0);
	assert_int_equal(tb_anon_cost(lruvec), anon_cost);
	assert_int_equal(tb_file_cost(lruvec), 0);
	assert_int_equal(tb_vma_swapped(vma), 0);
	assert_int_equal(tb_file_cached(cold), 1024 - cold_reclaimed);
}

/*
 * The same fraction, with a file cost first. A memcg with 64 pages of a
 * mapped file touched once and, after them, 512 pages read once: a first
 * memory.reclaim "128K" (page cache only: SCAN_FILE by cache_trim_mode)
 * scans the inactive list from its tail, the mapped pages first. Each is
 * young: kept and noted as a file rotation; then the pages read once are
 * reclaimed: 576 >> 9..5 = 1, 2, 4, 9, 18 mapped pages kept (34), at
 * priority 4 30 more kept (64) and 6 reclaimed, at priority 3 one chunk of
 * 32 reclaimed (38 >= 32). So f = 64, a = 0 (the lruvec's costs decay by
 * half only once they pass a quarter of its LRU pages: 144 here).
 *
 * Then 4096 anon pages and 2048 active page cache pages, as above, and
 * memory.reclaim "128K" again: a = 0, f = 64, so total = 64, A = 64,
 * F = 128, ap = 60 * 193 / 65 = 178, fp = 140 * 193 / 129 = 209: anon
 * gets 178/387, more than the 60/200 of no costs. Anon rotations then
 * raise a as before (1, 4, 11, 24, 47, 88, 159):
 *
 *   priority        10   9   8   7   6   5   4
 *   inactive anon    1   3   7  13  23  41  71   (ap:fp 178:209 ... 113:294)
 *   inactive file    0   0   1   2   5  11  26   (538 pages: 474 read once
 *   active file      1   1   3   8  19  42  88    at the tail, 64 mapped)
 *
 * Anon is 159 of 366 pages scanned (43%), where a memcg whose costs were
 * anon's scanned it 44 of 188 (23%).
 */
static void file_rotations_shift_the_fraction_to_anon(void **state)
{
#if !TB_HAVE_lru_note_cost
	/*
	 * 7.3's cost model (see above): the first reclaim leaves f = 64; the
	 * second starts from the flushed counters, a = 0, f = 64 (178:209),
	 * and sees its own anon rotations only when the pending stat updates
	 * pass the flush threshold: at priority 5 (a = 1 + 3 + 7 + 14 + 29 =
	 * 54) and 4 (a = 93). Priority 4's rotations are never folded.
	 *
	 *   priority        10   9   8   7   6   5   4
	 *   inactive anon    1   3   7  14  29  39  70
	 *   inactive file    0   0   1   2   4  11  26
	 *   active file      1   1   3   8  16  43  89
	 */
	static const unsigned long ia[KSHIM_TRACE_PRIORITIES] = {
		[10] = 1, [9] = 3, [8] = 7, [7] = 14, [6] = 29, [5] = 39, [4] = 70,
	};
	static const unsigned long inf[KSHIM_TRACE_PRIORITIES] = {
		[8] = 1, [7] = 2, [6] = 4, [5] = 11, [4] = 26,
	};
	static const unsigned long af[KSHIM_TRACE_PRIORITIES] = {
		[10] = 1, [9] = 1, [8] = 3, [7] = 8, [6] = 16, [5] = 43, [4] = 89,
	};
	const unsigned long file_cost = 64, anon_cost = 93, cold_reclaimed = 44;
#elif TB_HAVE_lru_note_cost_rotations
	static const unsigned long ia[KSHIM_TRACE_PRIORITIES] = {
		[10] = 1, [9] = 3, [8] = 7, [7] = 13, [6] = 23, [5] = 41, [4] = 71,
	};
	static const unsigned long inf[KSHIM_TRACE_PRIORITIES] = {
		[8] = 1, [7] = 2, [6] = 5, [5] = 11, [4] = 26,
	};
	static const unsigned long af[KSHIM_TRACE_PRIORITIES] = {
		[10] = 1, [9] = 1, [8] = 3, [7] = 8, [6] = 19, [5] = 42, [4] = 88,
	};
	const unsigned long file_cost = 64, anon_cost = 159, cold_reclaimed = 45;
#else
	/*
	 * lru_note_cost() of such trees counts no rotation (see above): the
	 * 64 mapped pages kept by the first memory.reclaim cost nothing,
	 * f = 0, and the second one scans 60:140 as a memcg without costs,
	 * down to priority 4 (the inactive file list's 538 pages give less
	 * per priority: 1 + 2 + 5 + 11 = 19, then 25 read-once pages more):
	 *
	 *   priority        10   9   8   7   6   5   4
	 *   inactive anon    1   2   4   9  19  38  76
	 *   inactive file    0   0   1   2   5  11  25
	 *   active file      1   2   4  10  21  43  85
	 */
	static const unsigned long ia[KSHIM_TRACE_PRIORITIES] = {
		[10] = 1, [9] = 2, [8] = 4, [7] = 9, [6] = 19, [5] = 38, [4] = 76,
	};
	static const unsigned long inf[KSHIM_TRACE_PRIORITIES] = {
		[8] = 1, [7] = 2, [6] = 5, [5] = 11, [4] = 25,
	};
	static const unsigned long af[KSHIM_TRACE_PRIORITIES] = {
		[10] = 1, [9] = 2, [8] = 4, [7] = 10, [6] = 21, [5] = 43, [4] = 85,
	};
	const unsigned long file_cost = 0, anon_cost = 0, cold_reclaimed = 44;
#endif
	struct tb_file *mapped = tb_file_create(64), *cold = tb_file_create(512);
	struct tb_file *hot = tb_file_create(2048);
	struct tb_vma *vma, *mv;
	struct lruvec *lruvec;

	TB_CLASSIC_LRU_ONLY("get_scan_count()'s cost balance");
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	mv = tb_map_file(mapped);
	tb_touch_range(mv, 64, false);
	tb_read_range(cold, 512);
	tb_task_switch(NULL);
	lru_add_drain();
	tb_memcg_flush_stats(tb_memcg("a"));
	lruvec = lruvec_of("a");
	assert_write_ok("a", "memory.reclaim", "128K");
	assert_int_equal(tb_file_cached(cold), 512 - 38);
	assert_int_equal(tb_vma_resident(mv), 64);
	assert_int_equal(tb_anon_cost(lruvec), 0);
	assert_int_equal(tb_file_cost(lruvec), file_cost);

	tb_run_in("a");
	vma = tb_map_anon(4096);
	tb_touch_range(vma, 4096, true);
	tb_read_range(hot, 2048);
	tb_read_range(hot, 2048);
	tb_task_switch(NULL);
	lru_add_drain();
	tb_memcg_flush_stats(tb_memcg("a"));
	kshim_trace_reset();

	assert_write_ok("a", "memory.reclaim", "128K");
	assert_int_equal(kshim_trace.memcg_reclaim_count, 1);
	assert_per_priority(kshim_trace.inactive_scanned[ANON], ia, "inactive anon scanned");
	assert_per_priority(kshim_trace.inactive_scanned[FILE], inf, "inactive file scanned");
	assert_per_priority(kshim_trace.active_taken[FILE], af, "active file taken");
	assert_int_equal(tb_anon_cost(lruvec), anon_cost);
	assert_int_equal(tb_file_cost(lruvec), file_cost);
	assert_int_equal(tb_file_cached(cold), 474 - cold_reclaimed);
}

/* ---- 3. global reclaim with almost no page cache ---- */

/* 64 MiB of swap on a disk, whose swap-in keeps a swap cache copy */
static int setup_swap_disk(void **state)
{
	tb_mem.swap_pages = PAGES(64 * MB);
	tb_mem.swap_disk = true;
	return tb_reclaim_setup(state);
}

static int setup_swap_no_kswapd(void **state)
{
	tb_mem = (struct tb_mem_config){ .swap_pages = PAGES(64 * MB), .no_kswapd = true };
	return tb_reclaim_setup(state);
}

/*
 * prepare_scan_control(), global reclaim: file + free <= the high
 * watermarks (384 pages), no anon deactivation wanted and inactive anon
 * >> priority > 0 set sc->file_is_tiny, and get_scan_count() answers
 * SCAN_ANON: anon is scanned at its full size >> priority, file not at all.
 *
 * No kswapd, so the task reclaims for itself. It has read 64 pages of a
 * file and touches anon until an allocation finds free memory at the min
 * watermark (256): file + free = 320. Its first direct reclaim (32 pages
 * wanted) sees the A anon pages it touched, all on the inactive list. Each
 * is young: folio_check_references() keeps it (first pte reference), so
 * priorities 12 to 1 scan A >> priority each and reclaim nothing: 16056
 * pages for A = 16064 (fewer since the page tables take memory too), all
 * but the A - 16056 newest. Priority 1 without
 * progress would throttle the task (consider_reclaim_throttle() calls
 * reclaim_throttle(NOPROGRESS)), but skip_throttle_noprogress() lets it
 * go on at once: nothing waits for writeback (2 * 0 <= the reclaimable
 * pages), so the tracepoint of a throttled task never fires. At priority 0
 * get_scan_count() takes SCAN_EQUAL before it looks at file_is_tiny, so
 * the file list is scanned as well: a chunk of 32 of each, the anon chunk
 * the pages never scanned (kept) and the rest of 32 of those kept at
 * priorities 12 to 10 (referenced, pte now old: reclaimed to swap), the file chunk
 * read-once pages (reclaimed); 56 >= 32, and shrink_lruvec() stops the
 * smaller file side and scans one more anon chunk (32 reclaimed).
 */
static void global_reclaim_with_tiny_page_cache_scans_anon_only(void **state)
{
	struct tb_file *f = tb_file_create(64);
	unsigned long i, anon = 0, scanned = 0;
	struct tb_vma *vma;
	int p;

	TB_CLASSIC_LRU_ONLY("prepare_scan_control()'s file_is_tiny");
	tb_run_in("");
	tb_read_range(f, 64);
	vma = tb_map_anon(PAGES(64 * MB));
	for (i = 0; !kshim_trace.direct_reclaim_count; i++) {
		/* the LRU sizes reclaim reads count every page touched */
		if (tb_free_pages(0) <= tb_wmark(0, WMARK_MIN) + 1) {
			lru_add_drain();
			anon = i;
		}
		assert_int_equal(tb_touch(vma, i, true), 0);
	}
	assert_int_equal(tb_wmark(0, WMARK_HIGH), 384);
	assert_true(anon > 16000);
	for (p = PRIO_MAX; p >= 1; p--) {
		scanned += anon >> p;
		assert_int_equal(kshim_trace.inactive_scanned[ANON][p], anon >> p);
		assert_int_equal(kshim_trace.inactive_reclaimed[ANON][p], 0);
		assert_int_equal(kshim_trace.inactive_scanned[FILE][p], 0);
	}
	assert_int_equal(kshim_trace.throttled_count, 0);
	assert_int_equal(kshim_trace.inactive_scanned[ANON][0], 64);
	/* the chunk's pages never scanned are kept, the rest and the next chunk go */
	assert_int_equal(kshim_trace.inactive_reclaimed[ANON][0], 32 - (anon - scanned) + 32);
	assert_int_equal(kshim_trace.inactive_scanned[FILE][0], 32);
	assert_int_equal(kshim_trace.inactive_reclaimed[FILE][0], 32);
	assert_int_equal(tb_vma_swapped(vma), kshim_trace.inactive_reclaimed[ANON][0]);
	assert_int_equal(tb_file_cached(f), 32);
}

/*
 * The same first direct reclaim with more page cache: once pages read
 * once (inactive), twice pages read twice (active). Returns the page
 * cache pages shrink_inactive_list() scanned at priorities 12 to 1.
 */
static unsigned long file_scanned_above_priority_0(unsigned long once, unsigned long twice)
{
	struct tb_file *f = tb_file_create(once + twice);
	unsigned long i, n = 0;
	struct tb_vma *vma;
	int p;

	tb_run_in("");
	tb_read_range(f, once + twice);
	for (i = 0; i < twice; i++)
		assert_int_equal(tb_file_read(f, i), 0);
	vma = tb_map_anon(PAGES(64 * MB));
	for (i = 0; !kshim_trace.direct_reclaim_count; i++) {
		if (tb_free_pages(0) <= tb_wmark(0, WMARK_MIN) + 1)
			lru_add_drain();
		assert_int_equal(tb_touch(vma, i, true), 0);
	}
	assert_int_equal(tb_wmark(0, WMARK_HIGH), 384);
	for (p = PRIO_MAX; p >= 1; p--)
		n += kshim_trace.inactive_scanned[FILE][p];
	return n;
}

/*
 * file + free <= the high watermarks: free is at min (256) when the
 * first direct reclaim comes, so 128 pages of page cache are tiny (384),
 * 129 are not (385): get_scan_count() no longer answers SCAN_ANON, and
 * the file list is scanned above priority 0.
 */
static void page_cache_of_high_minus_free_pages_is_tiny(void **state)
{
	TB_CLASSIC_LRU_ONLY("prepare_scan_control()'s file_is_tiny");
	assert_int_equal(file_scanned_above_priority_0(128, 0), 0);
}

static void page_cache_one_page_above_high_minus_free_is_not_tiny(void **state)
{
	TB_CLASSIC_LRU_ONLY("prepare_scan_control()'s file_is_tiny");
	assert_true(file_scanned_above_priority_0(129, 0) > 0);
}

static int setup_swappiness_0_no_kswapd(void **state)
{
	tb_mem = (struct tb_mem_config){ .swap_pages = PAGES(64 * MB), .no_kswapd = true,
					 .swappiness = 0, .swappiness_set = true };
	return tb_reclaim_setup(state);
}

/*
 * At priority 0 get_scan_count() scans anon and file alike (SCAN_EQUAL)
 * "unless the swappiness setting disagrees": with vm.swappiness 0 global
 * reclaim goes on to the cache trim mode there too, and scans no anon.
 * 64 anon pages and 64 pages of page cache held by someone else (never
 * freed), both inactive; a direct reclaim on a machine with most of its
 * memory free (nothing is tiny) goes down to priority 0 twice (the full
 * memcg walk's retry), takes the 64 file pages there each time, and
 * never takes an anon page.
 */
static void global_reclaim_at_swappiness_0_scans_no_anon_even_at_priority_0(void **state)
{
	struct tb_file *f = tb_file_create(64);
	struct tb_vma *vma;
	unsigned long i;
	int p;

	tb_skip_before_6_4("get_scan_count()'s balance at priority 0");
	TB_CLASSIC_LRU_ONLY("get_scan_count()'s balance at priority 0");
	tb_run_in("");
	tb_read_range(f, 64);
	for (i = 0; i < 64; i++)
		tb_folio_get(tb_file_folio(f, i));
	vma = tb_map_anon(64);
	tb_touch_range(vma, 64, true);
	lru_add_drain();
	kshim_trace_reset();
	assert_int_equal(try_to_free_pages(node_zonelist(0, GFP_KERNEL), 0, GFP_KERNEL, NULL), 0);
	for (p = PRIO_MAX; p >= 0; p--)
		assert_int_equal(kshim_trace.inactive_scanned[ANON][p], 0);
	assert_int_equal(kshim_trace.inactive_scanned[FILE][0], 2 * 64);
	assert_int_equal(tb_vma_swapped(vma), 0);
	for (i = 0; i < 64; i++)
		tb_folio_put(tb_file_folio(f, i));
}

/*
 * A deleted memcg's pages are scraped out: where size >> priority is 0,
 * get_scan_count() takes min(size, SWAP_CLUSTER_MAX) of each list, and
 * splits it by swappiness and cost rounding up ("the last page on the
 * offlined memory cgroups"). "p/z" holds 64 anon pages (young) and 64
 * of page cache read once; its task moves to p, z is removed; memory.reclaim
 * "32K" of p, vm.swappiness 60. Priority 12, no cost yet: ap = 60, fp =
 * 140, 32 * 60 / 201 rounds up to 10 anon pages (kept: young), 32 * 140
 * / 201 to 23 file pages (freed). Priority 11, the 10 kept counted as
 * anon cost at p: ap = 60 * 31 / 21 = 88, fp = 140 * 31 / 11 = 394, 6
 * anon and 27 file pages: 50 freed.
 */
/*
 * "p/z" holding n anon pages (young) and n of page cache read once, its
 * task moved to p and z removed; memory.reclaim "32K" of p. *f and *vma
 * are z's file and anon mapping.
 */
static void reclaim_a_deleted_memcg(unsigned long n, struct tb_file **f, struct tb_vma **vma)
{
	struct tb_task *t;

	*f = tb_file_create(n);
	assert_int_equal(tb_cgroup_mkdir("p"), 0);
	assert_int_equal(tb_cgroup_mkdir("p/z"), 0);
	t = tb_run_in("p/z");
	*vma = tb_map_anon(n);
	tb_touch_range(*vma, n, true);
	tb_read_range(*f, n);
	lru_add_drain();
	assert_int_equal(tb_task_move(t, "p"), 0);
	assert_int_equal(tb_cgroup_rmdir("p/z"), 0);
	tb_task_switch(NULL);
	kshim_trace_reset();
	assert_write_ok("p", "memory.reclaim", "32K");
}

#if TB_HAVE_lru_folio_reparent
/*
 * With lru_folio_reparent, removing z moved its folios to p's lists
 * (memcg_reparent_objcgs(): lru_reparent_memcg()): z's lists are empty
 * and nothing is scraped; p is online, each of its lists of n pages
 * scanned by at most size >> priority, nothing before priority ilog2(n)
 * and something from there on (how the pages split between the lists
 * is the anon/file costs': lru_note_cost on 7.2, struct lru_cost on 7.3).
 */
static void assert_scanned_as_online(unsigned long n)
{
	unsigned long any = 0;
	int first = ilog2(n), p;

	for (p = PRIO_MAX; p >= 0; p--) {
		assert_in_range(kshim_trace.inactive_scanned[ANON][p], 0,
				p > first ? 0 : n >> p);
		assert_in_range(kshim_trace.inactive_scanned[FILE][p], 0,
				p > first ? 0 : n >> p);
		any += kshim_trace.inactive_scanned[ANON][p] + kshim_trace.inactive_scanned[FILE][p];
		if (p == first - 1)
			assert_true(any > 0);
	}
}
#endif

static void offline_memcg_s_lists_are_scraped_by_shares_rounded_up(void **state)
{
	struct tb_file *f;
	struct tb_vma *vma;

	tb_skip_before_6_4("get_scan_count() for an offline memcg");
	TB_CLASSIC_LRU_ONLY("get_scan_count() of an offline memcg");
	reclaim_a_deleted_memcg(64, &f, &vma);
#if TB_HAVE_lru_folio_reparent
	assert_scanned_as_online(64);
	return;
#endif
	assert_int_equal(kshim_trace.inactive_scanned[ANON][PRIO_MAX], 10);
	assert_int_equal(kshim_trace.inactive_scanned[FILE][PRIO_MAX], 23);
	assert_int_equal(kshim_trace.inactive_scanned[ANON][PRIO_MAX - 1], 6);
	assert_int_equal(kshim_trace.inactive_scanned[FILE][PRIO_MAX - 1], 27);
	assert_int_equal(tb_file_cached(f), 64 - 23 - 27);
	assert_int_equal(tb_vma_swapped(vma), 0);
}

/*
 * Lists shorter than SWAP_CLUSTER_MAX are scraped at their size: 20 anon
 * and 20 file pages, priority 12 takes 20 * 60 / 201 rounded up, 6 anon,
 * and 20 * 140 / 201, 14 file pages.
 */
static void offline_memcg_s_short_lists_are_scraped_at_their_size(void **state)
{
	struct tb_file *f;
	struct tb_vma *vma;

	TB_CLASSIC_LRU_ONLY("get_scan_count() of an offline memcg");
	reclaim_a_deleted_memcg(20, &f, &vma);
#if TB_HAVE_lru_folio_reparent
	assert_scanned_as_online(20);
	return;
#endif
	assert_int_equal(kshim_trace.inactive_scanned[ANON][PRIO_MAX], 6);
	assert_int_equal(kshim_trace.inactive_scanned[FILE][PRIO_MAX], 14);
	assert_int_equal(kshim_trace.inactive_reclaimed[FILE][PRIO_MAX], 14);
}

/* the active page cache counts as well: 64 inactive and 136 active pages are not tiny */
static void active_page_cache_counts_against_tiny(void **state)
{
	TB_CLASSIC_LRU_ONLY("prepare_scan_control()'s file_is_tiny");
	assert_true(file_scanned_above_priority_0(64, 136) > 0);
}

/* ---- 4. executable file mappings ---- */

static int setup_no_kswapd(void **state)
{
	tb_mem = (struct tb_mem_config){ .no_kswapd = true };
	return tb_reclaim_setup(state);
}

/* folios of pages [0, n) of f cached and on (or bound for) the active list */
static unsigned long nr_active(struct tb_file *f, unsigned long n)
{
	unsigned long i, active = 0;

	for (i = 0; i < n; i++) {
		struct folio *folio = tb_file_folio(f, i);

		active += folio && folio_test_active(folio);
	}
	return active;
}

#define TEXT_PAGES 8192UL	/* half the RAM: the active list outgrows the inactive */
#define STREAM_PAGES PAGES(128 * MB)

/*
 * A task with a file of TEXT_PAGES mapped (exec or not) and touched, then
 * reading STREAM_PAGES of another file once, touching the whole mapping
 * again after every 1024 pages read (a program running its code while it
 * streams). No kswapd: the direct reclaim is global and on this thread.
 * Returns the mapping; *first is PGACTIVATE after the first direct reclaim.
 */
static struct tb_vma *run_program_streaming(struct tb_file *text, bool exec,
					    unsigned long *first)
{
	struct tb_file *stream = tb_file_create(STREAM_PAGES);
	struct tb_vma *vma;
	unsigned long i;

	tb_run_in("");
	vma = exec ? tb_map_file_exec(text) : tb_map_file(text);
	tb_touch_range(vma, TEXT_PAGES, false);
	*first = ~0UL;
	for (i = 0; i < STREAM_PAGES; i++) {
		assert_int_equal(tb_file_read(stream, i), 0);
		if (*first == ~0UL && kshim_trace.direct_reclaim_count)
			*first = kshim_vm_event_read(PGACTIVATE);
		if (i % 1024 == 1023)
			tb_touch_range(vma, TEXT_PAGES, false);
	}
	return vma;
}

/*
 * folio_check_references(): a file folio mapped VM_EXEC and referenced
 * through its pte is activated on its first scan, where any other mapped
 * folio is only marked and kept for a second look. The text was mapped
 * first, so it is at the tail of the inactive list: the first direct
 * reclaim scans all of it (the priority drops until the scan reaches the
 * stream behind it) and activates every page.
 *
 * Then the active list (the text, half the RAM) outgrows the inactive one
 * (the stream): prepare_scan_control() sets DEACTIVATE_FILE and
 * shrink_active_list() runs on the file list, counting PGREFILL (global
 * reclaim). Every text folio it takes was touched since: folio_referenced()
 * reports VM_EXEC from the mapping, and the folio goes back to the active
 * list (nr_rotated, fed to lru_note_cost()) instead of being deactivated.
 * The text stays resident and active all along.
 */
static void exec_file_pages_are_activated_at_first_use_and_kept_active(void **state)
{
	struct tb_file *text = tb_file_create(TEXT_PAGES);
	unsigned long first, refill;
	struct tb_vma *vma = run_program_streaming(text, true, &first);
	unsigned long deactivated;

	TB_CLASSIC_LRU_ONLY("shrink_active_list()'s VM_EXEC rule");
	assert_int_equal(first, TEXT_PAGES);
	refill = kshim_reclaim_event_read(PGREFILL);
	assert_true(refill > TEXT_PAGES);
	assert_int_equal(sum(kshim_trace.active_taken[FILE]), refill);
	deactivated = refill - sum(kshim_trace.active_rotated[FILE]);
	assert_int_equal(kshim_vm_event_read(PGDEACTIVATE), deactivated);
#if TB_HAVE_mem_cgroup_flush_stats_ratelimited
	/*
	 * prepare_scan_control()'s ratelimited flush leaves the root's LRU
	 * sizes as they were before the text was activated (active 0) until
	 * the periodic flush, 2 s later: by then the text was touched again.
	 */
	assert_int_equal(deactivated, 0);
#else
	/*
	 * shrink_node() flushes the memcg stats once enough updates piled
	 * up: the reclaims right after the first one see the activated text
	 * (active > inactive) and set DEACTIVATE_FILE at once, and
	 * shrink_active_list() takes text folios whose young bits the
	 * activating folio_check_references() has just cleared, before the
	 * program touched them again: those are deactivated, then activated
	 * again by the VM_EXEC rule from the inactive list.
	 */
	assert_true(deactivated > 0 && deactivated < TEXT_PAGES / 32);
	assert_int_equal(kshim_vm_event_read(PGACTIVATE), TEXT_PAGES + deactivated);
#endif
	assert_int_equal(tb_vma_resident(vma), TEXT_PAGES);
	assert_int_equal(nr_active(text, TEXT_PAGES), TEXT_PAGES);
}

/*
 * What a reclaim adds to a memcg's file cost (lru_note_cost()): each page
 * of the inactive list it scanned and did not free (nothing here is
 * written), and each executable page shrink_active_list() rotated back
 * to the active list. "a": 256 pages of text mapped VM_EXEC and touched,
 * 12000 anon pages (no swap: never scanned; they keep the costs under a
 * quarter of the LRU, where lru_note_cost() would halve them). A first
 * memory.reclaim activates text at first use; touched again, text is
 * rotated by the next one's shrink_active_list().
 */
static void file_cost_counts_the_text_rotated_and_the_pages_kept(void **state)
{
	struct tb_file *text = tb_file_create(256);
	unsigned long cost;
	struct tb_vma *vma;

	tb_skip_before_6_4("lru_note_cost() of the rotated text");
	TB_CLASSIC_LRU_ONLY("shrink_active_list()'s VM_EXEC rule");
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	tb_touch_range(tb_map_anon(12000), 12000, true);
	vma = tb_map_file_exec(text);
	tb_touch_range(vma, 256, false);
	lru_add_drain();
	tb_cgroup_write_str("a", "memory.reclaim", "4K");
	tb_touch_range(vma, 256, false);
#if !TB_HAVE_lru_note_cost
	/*
	 * 7.3: the reclaim counts them in the lruvec's PGROTATE_FILE;
	 * prepare_scan_control() folds that counter, as last flushed, into the
	 * cost, with SWAP_CLUSTER_MAX per restored refault (the text the first
	 * reclaim freed, touched again): the cost is the counters at the last
	 * fold, which may lag the reclaim's own rotations (see
	 * swappiness_60_...).
	 */
	tb_memcg_flush_stats(tb_memcg("a"));
	cost = lruvec_page_state(lruvec_of("a"), PGROTATE_FILE);
#else
	cost = tb_file_cost(lruvec_of("a"));
#endif
	kshim_trace_reset();
	tb_cgroup_write_str("a", "memory.reclaim", "4K");
	assert_true(sum(kshim_trace.active_rotated[FILE]) > 0);
#if !TB_HAVE_lru_note_cost
	tb_memcg_flush_stats(tb_memcg("a"));
	assert_int_equal(lruvec_page_state(lruvec_of("a"), PGROTATE_FILE) - cost,
			 sum(kshim_trace.active_rotated[FILE]) +
			 sum(kshim_trace.inactive_scanned[FILE]) -
			 sum(kshim_trace.inactive_reclaimed[FILE]));
	assert_int_equal(tb_file_cost(lruvec_of("a")),
			 lruvec_of("a")->cost[WORKINGSET_FILE].last_rotated +
			 SWAP_CLUSTER_MAX * lruvec_of("a")->cost[WORKINGSET_FILE].last_io);
#else
	assert_int_equal(tb_file_cost(lruvec_of("a")) - cost,
			 sum(kshim_trace.active_rotated[FILE]) +
			 sum(kshim_trace.inactive_scanned[FILE]) -
			 sum(kshim_trace.inactive_reclaimed[FILE]));
#endif
	assert_int_equal(tb_anon_cost(lruvec_of("a")), 0);
}

/*
 * The reclaim cost decays: each type's cost is the rotations and refaults
 * reclaim noted, both halved whenever their sum passes a quarter of the
 * LRU pages of the lruvec. 7.3 (!lru_note_cost): prepare_scan_control()
 * folds the PGROTATE and WORKINGSET_RESTORE counts since its last call
 * into the costs and halves both until they are within the quarter, as
 * of the LRU size it reads. A memcg whose LRU is 256 pages of text mapped
 * VM_EXEC (rotated at each reclaim: 256 more of cost each time, from a
 * total kept under 64) and one of 3 such pages (a quarter of 3 is 0: each
 * reclaim halves its cost back to none). Before 7.3, lru_note_cost()
 * halves once per note, so only the rotations are sure to show.
 */
static unsigned long lru_pages_of(const char *path)
{
	struct lruvec *l = lruvec_of(path);

	tb_memcg_flush_stats(tb_memcg(path));
	return lruvec_page_state(l, NR_INACTIVE_ANON) + lruvec_page_state(l, NR_ACTIVE_ANON) +
	       lruvec_page_state(l, NR_INACTIVE_FILE) + lruvec_page_state(l, NR_ACTIVE_FILE);
}

/* memory.reclaim of a page in a task's memcg, its text touched again after */
static unsigned long reclaim_and_touch(const char *path, struct tb_vma *vma, unsigned long n)
{
	unsigned long lru = lru_pages_of(path);

	tb_cgroup_write_str(path, "memory.reclaim", "4K");
	tb_touch_range(vma, n, false);
	return lru;
}

static void reclaim_cost_decays_to_a_quarter_of_the_lru(void **state)
{
	struct tb_file *text = tb_file_create(256), *small = tb_file_create(3);
	struct tb_vma *vma, *small_vma;
	unsigned long lru, cost;
	int i;

	TB_CLASSIC_LRU_ONLY("the classic LRU's reclaim cost");
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	assert_int_equal(tb_cgroup_mkdir("b"), 0);
	tb_run_in("b");
	small_vma = tb_map_file_exec(small);
	tb_touch_range(small_vma, 3, false);
	tb_run_in("a");
	vma = tb_map_file_exec(text);
	tb_touch_range(vma, 256, false);
	lru_add_drain();

	for (i = 0; i < 3; i++) {
		lru = reclaim_and_touch("a", vma, 256);
		cost = tb_file_cost(lruvec_of("a")) + tb_anon_cost(lruvec_of("a"));
		assert_true(cost > 0);
#if !TB_HAVE_lru_note_cost
		assert_true(lru > 200);
		assert_true(cost <= lru / 4);
#endif
	}

	tb_run_in("b");
	for (i = 0; i < 3; i++) {
		lru = reclaim_and_touch("b", small_vma, 3);
		assert_true(lru < 4);
#if !TB_HAVE_lru_note_cost
		tb_memcg_flush_stats(tb_memcg("b"));
		assert_true(lruvec_page_state(lruvec_of("b"), PGROTATE_FILE) > 0);
		assert_int_equal(tb_file_cost(lruvec_of("b")) + tb_anon_cost(lruvec_of("b")), 0);
#endif
	}
}

/*
 * The same program with its text mapped without VM_EXEC: the first direct
 * reclaim keeps the pages on the inactive list (marked referenced), the
 * second look activates them; shrink_active_list() then deactivates what
 * it takes, referenced or not, and rotates nothing.
 */
static void mapped_file_pages_without_exec_are_deactivated(void **state)
{
	struct tb_file *text = tb_file_create(TEXT_PAGES);
	unsigned long first, refill;

	TB_CLASSIC_LRU_ONLY("shrink_active_list()'s deactivation");
	run_program_streaming(text, false, &first);
	assert_int_equal(first, 0);
	refill = kshim_reclaim_event_read(PGREFILL);
	assert_true(refill > 0);
	assert_int_equal(sum(kshim_trace.active_rotated[FILE]), 0);
	assert_int_equal(kshim_vm_event_read(PGDEACTIVATE), refill);
	assert_true(nr_active(text, TEXT_PAGES) < TEXT_PAGES);
}

/* active file pages shrink_active_list() took in one memory.reclaim of path */
static unsigned long active_file_taken(const char *path, const char *amount)
{
	tb_memcg_flush_stats(tb_memcg(path));
	kshim_trace_reset();
	assert_write_ok(path, "memory.reclaim", amount);
	return sum(kshim_trace.active_taken[FILE]);
}

/*
 * The same for the file lists (no swap): 512 pages read twice (active),
 * 64 read once, evicted and read again (refault activations); then 2048
 * pages read once keep the inactive list above the active one. The
 * first memory.reclaim deactivates page cache (new file refaults), the
 * second does not.
 */
static void file_is_deactivated_after_file_refaults(void **state)
{
	struct tb_file *hot = tb_file_create(512), *cold = tb_file_create(64);
	struct tb_file *once = tb_file_create(2048);

	TB_CLASSIC_LRU_ONLY("prepare_scan_control()'s may_deactivate");
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	tb_read_range(hot, 512);
	tb_read_range(hot, 512);
	tb_read_range(cold, 64);
	lru_add_drain();
	assert_write_ok("a", "memory.reclaim", "256K");
	assert_int_equal(tb_file_cached(cold), 0);
	tb_read_range(cold, 64);
	tb_read_range(once, 2048);
	lru_add_drain();
	tb_memcg_flush_stats(tb_memcg("a"));
	assert_int_equal(tb_stat("a", "workingset_activate_file"), 64);
	assert_true(tb_stat("a", "inactive_file") > tb_stat("a", "active_file"));

	assert_true(active_file_taken("a", "4K") > 0);
	assert_int_equal(active_file_taken("a", "4K"), 0);
}

static int setup_2g(void **state)
{
	tb_mem.ram_pages = PAGES(2048 * MB);
	return tb_reclaim_setup(state);
}

/*
 * Above 1 GiB of LRU the inactive list may be smaller: inactive_is_low()
 * compares inactive * int_sqrt(10 * gb) with active, gb the LRU's whole
 * GiB (3 at 1 GiB: "1GB ... 250MB" max inactive). A memcg with 900M of
 * page cache read twice (active) and inact read once: the active file
 * pages one memory.reclaim takes (no refaults: only a low inactive list
 * lets it deactivate).
 */
static unsigned long active_file_taken_with(unsigned long inact)
{
	struct tb_file *hot = tb_file_create(PAGES(900 * MB)), *once = tb_file_create(inact);

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	tb_read_range(hot, PAGES(900 * MB));
	tb_read_range(hot, PAGES(900 * MB));
	tb_read_range(once, inact);
	lru_add_drain();
	tb_memcg_flush_stats(tb_memcg("a"));
	assert_int_equal(tb_stat("a", "active_file"), 900 * MB);
	return active_file_taken("a", "4K");
}

static int setup_6g(void **state)
{
	tb_mem.ram_pages = PAGES(6144 * MB);
	return tb_reclaim_setup(state);
}

/*
 * At 5 GiB of LRU the ratio is int_sqrt(50) = 7, where 4 GiB's is
 * int_sqrt(40) = 6: 4660M of page cache read twice and 717M read once
 * (5377M, 5 whole GiB): 717M * 7 = 5019M >= 4660M, not low, though 717M *
 * 6 = 4302M < 4660M would be.
 */
static void inactive_file_above_a_seventh_of_active_at_5g_is_not_low(void **state)
{
	struct tb_file *hot = tb_file_create(PAGES(4660 * MB));
	struct tb_file *once = tb_file_create(PAGES(717 * MB));

	TB_CLASSIC_LRU_ONLY("inactive_is_low()");
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	tb_read_range(hot, PAGES(4660 * MB));
	tb_read_range(hot, PAGES(4660 * MB));
	tb_read_range(once, PAGES(717 * MB));
	lru_add_drain();
	tb_memcg_flush_stats(tb_memcg("a"));
	assert_int_equal(tb_stat("a", "active_file"), 4660 * MB);
	assert_int_equal(tb_stat("a", "inactive_file"), 717 * MB);
	assert_int_equal(active_file_taken("a", "4K"), 0);
}

/* 250M inactive: 250M * 3 < 900M, low (at 2 GiB's ratio, 4, it would not be) */
static void inactive_file_below_a_third_of_active_above_1g_is_low(void **state)
{
	TB_CLASSIC_LRU_ONLY("inactive_is_low()");
	assert_true(active_file_taken_with(PAGES(250 * MB)) > 0);
}

/* 400M inactive: 400M * 3 >= 900M, not low (below 1 GiB's ratio, 1, it would be) */
static void inactive_file_above_a_third_of_active_above_1g_is_not_low(void **state)
{
	TB_CLASSIC_LRU_ONLY("inactive_is_low()");
	assert_int_equal(active_file_taken_with(PAGES(400 * MB)), 0);
}

/*
 * A file folio referenced through more than one pte is activated on its
 * first scan (folio_check_references(): referenced_ptes > 1), as a folio
 * the page cache marked referenced before is; referenced through one pte
 * only, it is marked and kept for a second look. A memcg's file of 96
 * pages mapped twice: pages [0, 32) touched through both mappings, [32,
 * 64) through one, [64, 96) through one after a read() marked them
 * referenced; then 4096 pages of another file read once. memory.reclaim
 * of 64 pages scans the mapped file first (the inactive tail).
 * move_folios_to_lru() ages the lruvec's nonresident clock by each
 * folio it puts back active, as workingset_eviction() does by each one
 * evicted.
 */
static void file_folio_mapped_by_two_young_ptes_is_activated_at_first_scan(void **state)
{
	struct tb_file *text = tb_file_create(96), *stream = tb_file_create(4096);
	struct tb_vma *one, *two;
	unsigned long i;
	long age;

	TB_CLASSIC_LRU_ONLY("folio_check_references() of the classic LRU");
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	one = tb_map_file(text);
	two = tb_map_file(text);
	tb_touch_range(one, 96, false);
	for (i = 0; i < 32; i++)
		assert_int_equal(tb_touch(two, i, false), 0);
	for (i = 64; i < 96; i++)
		assert_int_equal(tb_file_read(text, i), 0);
	tb_read_range(stream, 4096);
	lru_add_drain();
	assert_int_equal(nr_active(text, 96), 0);
	kshim_trace_reset();
	age = atomic_long_read(&lruvec_of("a")->nonresident_age);
	assert_write_ok("a", "memory.reclaim", "256K");
	for (i = 0; i < 96; i++) {
		struct folio *folio = tb_file_folio(text, i);

		assert_non_null(folio);
		assert_int_equal(folio_test_active(folio), i < 32 || i >= 64);
		/* set by the check, activated or kept */
		assert_true(folio_test_referenced(folio));
	}
	assert_int_equal(tb_stat("a", "pgactivate"), 64);
	assert_int_equal(tb_vma_resident(one), 96);
	/* the clock of refault distances ages by each eviction and each activation */
	assert_int_equal(atomic_long_read(&lruvec_of("a")->nonresident_age) - age,
			 tb_stat("a", "pgsteal") + 64);
	tb_unmap(two);
	tb_unmap(one);
}

/*
 * The first-use activation of executable pages is for page cache only:
 * anon in a VM_EXEC mapping (a JIT's code, mprotect(PROT_EXEC)) touched
 * once is marked and kept at its first scan, as any mapped folio is.
 * 64 such pages, then 1024 anon pages touched and made cold behind them:
 * memory.reclaim scans the 64 first (the inactive tail), activates none
 * and swaps the cold pages out instead.
 */
static void anon_of_an_exec_mapping_is_not_activated_at_first_use(void **state)
{
	struct tb_vma *jit, *cold;
	unsigned long i;

	TB_CLASSIC_LRU_ONLY("folio_check_references() of the classic LRU");
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	jit = tb_map_anon(64);
	assert_int_equal(tb_mprotect(jit, PROT_READ | PROT_WRITE | PROT_EXEC), 0);
	tb_touch_range(jit, 64, true);
	cold = tb_map_anon(1024);
	tb_touch_range(cold, 1024, true);
	assert_int_equal(tb_madvise(cold, MADV_COLD), 0);
	lru_add_drain();

	tb_reclaim_swappiness("a", "128K", 200);
	assert_int_equal(tb_stat("a", "pgactivate"), 0);
	for (i = 0; i < 64; i++) {
		struct folio *folio = tb_vma_folio(jit, i);

		assert_non_null(folio);
		assert_false(folio_test_active(folio));
		assert_true(folio_test_referenced(folio));
	}
	assert_true(tb_vma_swapped(cold) >= 32);
	tb_unmap(cold);
	tb_unmap(jit);
}

/*
 * shrink_active_list() asks folio_referenced() without the folio lock,
 * which the rmap walk of a file folio needs: a folio someone else has
 * locked (a read or a truncation in progress) counts as referenced but
 * unwalked, with no VM_EXEC reported, so even executable text is
 * deactivated, its young pte left as it was. A memcg's 64 pages of text
 * activated at first use and touched again; fewer pages of page cache
 * read once left on the inactive list (low: the next reclaim deactivates
 * file pages). memory.reclaim rotates every text folio it takes, young
 * bits cleared, but the locked one.
 */
static void locked_exec_folio_is_deactivated_unwalked(void **state)
{
	struct tb_file *text = tb_file_create(64), *stream = tb_file_create(256);
	struct folio *locked;
	struct tb_vma *vma;

	tb_skip_before_6_4("mm/vmscan.c's rmap walk of a locked folio");

	TB_CLASSIC_LRU_ONLY("shrink_active_list()'s VM_EXEC rule");
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	vma = tb_map_file_exec(text);
	tb_touch_range(vma, 64, false);
	tb_read_range(stream, 256);
	lru_add_drain();
	assert_write_ok("a", "memory.reclaim", "800K");
	assert_int_equal(nr_active(text, 64), 64);
	assert_true(tb_file_cached(stream) < 64);
	tb_touch_range(vma, 64, false);
	locked = tb_file_folio(text, 0);
	assert_true(folio_trylock(locked));
	tb_memcg_flush_stats(tb_memcg("a"));
	kshim_trace_reset();

	assert_write_ok("a", "memory.reclaim", "4K");
	folio_unlock(locked);
	assert_true(sum(kshim_trace.active_taken[FILE]) > 1);
	assert_int_equal(sum(kshim_trace.active_rotated[FILE]),
			 sum(kshim_trace.active_taken[FILE]) - 1);
	assert_false(folio_test_active(locked));
	assert_true(tb_vma_pte_young(vma, 0));
	assert_int_equal(nr_active(text, 64), 63);
	tb_unmap(vma);
}

/* ---- 5. kswapd ages anon ---- */

/*
 * balance_pgdat() calls kswapd_age_node() at every priority: when the
 * root lruvec's inactive anon is low (inactive * 1 < active under 1 GiB),
 * it runs shrink_active_list(SWAP_CLUSTER_MAX) on the active anon list of
 * every memcg, protected or not.
 *
 * "a" gets 4096 active anon pages: they are swapped out by memory.reclaim
 * and faulted back in, and workingset_refault() activates them (the
 * refault distance is within the workingset, which for an anon refault
 * counts the memcg's page cache, here 6144 active pages). The page cache
 * then goes, and "a" gets memory.min above its usage: shrink_node_memcgs()
 * skips it, so shrink_lruvec() (its scan, its own inactive_is_low() aging)
 * never runs on it. "b" streams page cache until kswapd has aged "a": all
 * of a's deactivations are kswapd_age_node()'s, SWAP_CLUSTER_MAX at a time,
 * every taken folio deactivated (only exec file folios are rotated); no
 * page of "a" is scanned on an inactive list or swapped, and kswapd's
 * reclaim is page cache only.
 */
static void kswapd_ages_anon_of_a_memcg_that_reclaim_skips(void **state)
{
	struct tb_file *f = tb_file_create(6144), *stream = tb_file_create(PAGES(64 * MB));
	long long refill, deactivate, scan;
	unsigned long steal_anon, i, n;
	struct tb_vma *vma;

	TB_CLASSIC_LRU_ONLY("kswapd_age_node()'s inactive_is_low aging (MGLRU's lru_gen_age_node() ages nothing: test_reclaim_mglru_classic)");
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	assert_int_equal(tb_cgroup_mkdir("b"), 0);
	tb_run_in("a");
	vma = tb_map_anon(4096);
	tb_touch_range(vma, 4096, true);
	tb_read_range(f, 6144);
	tb_read_range(f, 6144);
	tb_task_switch(NULL);
	lru_add_drain();
	tb_memcg_flush_stats(tb_memcg("a"));
	/*
	 * the page cache is active (DEACTIVATE_FILE, no cache_trim_mode): at
	 * swappiness 200 get_scan_count() gives file no share above priority 0
	 */
	tb_reclaim_swappiness("a", "16M", 200);
#if TB_HAVE_reclaim_quarter_batches
	n = 4096;
#else
	/*
	 * One call for all 4096 pages: priorities 12..1 give 1 + 2 + ... +
	 * 2048 = 4095 anon pages their first look (young: kept, marked
	 * referenced), priority 0 scans all 4096 and swaps those 4095; its
	 * shrink_active_list() deactivated the page cache, so the second
	 * call, for what is left, is in cache_trim_mode and takes 42 file
	 * pages. The page looked at once stays, inactive.
	 */
	n = 4095;
#endif
	assert_int_equal(tb_vma_swapped(vma), n);
	tb_memcg_flush_stats(tb_memcg("a"));
	tb_run_in("a");
	tb_touch_range(vma, 4096, true);
	tb_task_switch(NULL);
	tb_file_destroy(f);
	lru_add_drain();
	assert_int_equal(tb_stat("a", "workingset_activate_anon"), n);
	assert_int_equal(tb_stat("a", "active_anon"), n * 4096);
	assert_write_ok("a", "memory.min", "32M");
	refill = tb_stat("a", "pgrefill");
	deactivate = tb_stat("a", "pgdeactivate");
	scan = tb_stat("a", "pgscan");
	steal_anon = kshim_reclaim_event_read(PGSTEAL_ANON);
	tb_memcg_flush_stats(tb_memcg(""));

	tb_run_in("b");
	for (i = 0; tb_stat("a", "active_anon") == n * 4096; i += 256) {
		assert_true(i < PAGES(64 * MB));
		tb_read_range(stream, i + 256);
	}
	assert_true(kshim_vm_event_read(PAGEOUTRUN) > 0);
	assert_int_equal(kshim_reclaim_event_read(PGSTEAL_DIRECT), 0);
	refill = tb_stat("a", "pgrefill") - refill;
	assert_true(refill > 0);
	assert_int_equal(refill % SWAP_CLUSTER_MAX, 0);
	assert_int_equal(tb_stat("a", "pgdeactivate") - deactivate, refill);
	assert_int_equal(tb_stat("a", "active_anon"), (n - refill) * 4096);
	assert_int_equal(tb_stat("a", "pgscan"), scan);
	assert_int_equal(tb_vma_resident(vma), 4096);
	assert_true(kshim_reclaim_event_read(PGSTEAL_KSWAPD) > 0);
	assert_int_equal(kshim_reclaim_event_read(PGSTEAL_ANON), steal_anon);
}

/* ---- 6. memory.high ---- */

/*
 * try_charge_memcg() charges in batches of MEMCG_CHARGE_BATCH (64 pages);
 * a charge that leaves the memcg over memory.high adds the batch to
 * current->memcg_nr_pages_over_high and asks for a notification on the
 * way back to user mode, where mem_cgroup_handle_over_high() has
 * reclaim_high() count a "high" event and call the real
 * try_to_free_mem_cgroup_pages() for that many pages, with swap allowed.
 *
 * A task in "a" (memory.high 8M = 2048 pages, swap) reads 1024 pages of a
 * file once, then touches 3072 anon pages, returning to user mode after
 * each. A charge crosses memory.high by at most its batch, and the
 * reclaim on the way back to user mode asks for that batch (at least
 * SWAP_CLUSTER_MAX) and gets it: at every return to user mode
 * memory.current is at or below memory.high. The page cache goes first:
 * read once, it is reclaimed on its first scan, while anon touched once
 * is young and kept on its first, so the first anon page is swapped out
 * when under 64 of the 1024 pages of page cache are left. Every high
 * event is one reclaim call (reclaim_high()
 * counts the event, then reclaims; the root is never reclaimed for
 * memory.high).
 */
static void memory_high_reclaims_page_cache_then_swaps_anon(void **state)
{
	struct tb_file *f = tb_file_create(1024);
	unsigned long i, cached_at_first_swap = ~0UL;
	long long usage, most = 0;
	struct tb_vma *vma;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	assert_write_ok("a", "memory.high", "8M");
	tb_run_in("a");
	for (i = 0; i < 1024; i++) {
		assert_int_equal(tb_file_read(f, i), 0);
		tb_task_return_to_user();
	}
	assert_int_equal(event("a", "high"), 0);
	kshim_trace_reset();
	vma = tb_map_anon(3072);
	for (i = 0; i < 3072; i++) {
		assert_int_equal(tb_touch(vma, i, true), 0);
		tb_task_return_to_user();
		usage = tb_cgroup_read_u64("a", "memory.current");
		most = max(most, usage);
		if (cached_at_first_swap == ~0UL && tb_vma_swapped(vma))
			cached_at_first_swap = tb_file_cached(f);
	}
	assert_true(most <= (long long)(8 * MB));
	assert_true(cached_at_first_swap <= 64);
	assert_true(tb_file_cached(f) <= 64);
	assert_true(tb_vma_swapped(vma) > 0);
	assert_int_equal(tb_cgroup_read_u64("a", "memory.swap.current"), tb_vma_swapped(vma) * 4096);
	assert_true(event("a", "high") > 0);
	assert_int_equal(event("a", "high"), kshim_trace.memcg_reclaim_count);
	assert_int_equal(event("a", "max"), 0);
}

/* ---- 7. memory.low and memory.min ---- */

/*
 * Global pressure, no swap. "p" (memory.low 8M) reads 4M of page cache;
 * "u" streams 96M of page cache through the 64M machine: kswapd reclaims
 * u's cache and never p's (shrink_node_memcgs() skips a memcg below its
 * low, setting memcg_low_skipped, while others give reclaim its pages).
 *
 * Then u touches anon until it is OOM-killed. Once u's page cache is all
 * gone, a reclaim pass over every priority finds nothing outside p and
 * do_try_to_free_pages() retries with sc->memcg_low_reclaim: p is
 * reclaimed after all, a "low" event counted each time. Only direct
 * reclaim retries so: balance_pgdat() never sets memcg_low_reclaim, and
 * kswapd takes none of p's pages. The OOM killer comes only when p has
 * nothing left either.
 */
static void global_reclaim_spares_memory_low_until_nothing_else_is_left(void **state)
{
	struct tb_file *f = tb_file_create(1024), *stream = tb_file_create(PAGES(96 * MB));
	unsigned long i, stream_left = ~0UL;
	struct tb_vma *vma;
	int err = 0;

	TB_CLASSIC_LRU_ONLY("shrink_node_memcgs()'s low skip; MGLRU's shrink_one() reclaims a below-low memcg on its second visit (test_reclaim_mglru)");
	assert_int_equal(tb_cgroup_mkdir("p"), 0);
	assert_int_equal(tb_cgroup_mkdir("u"), 0);
	assert_write_ok("p", "memory.low", "8M");
	tb_run_in("p");
	tb_read_range(f, 1024);
	tb_run_in("u");
	tb_read_range(stream, PAGES(96 * MB));
	assert_true(kshim_reclaim_event_read(PGSTEAL_KSWAPD) >= PAGES(32 * MB));
	assert_int_equal(tb_file_cached(f), 1024);
	assert_int_equal(tb_stat("p", "pgscan"), 0);
	assert_int_equal(event("p", "low"), 0);

	vma = tb_map_anon(PAGES(64 * MB));
	for (i = 0; i < PAGES(64 * MB) && !err; i++) {
		err = tb_touch(vma, i, true);
		if (stream_left == ~0UL && tb_file_cached(f) < 1024)
			stream_left = tb_file_cached(stream);
	}
	assert_int_equal(err, -ENOMEM);
	assert_int_equal(kshim_vm_event_read(OOM_KILL), 1);
	assert_int_equal(stream_left, 0);
	assert_int_equal(tb_file_cached(f), 0);
	assert_true(event("p", "low") > 0);
	assert_int_equal(tb_stat("p", "pgsteal_direct"), 1024);
	assert_int_equal(tb_stat("p", "pgsteal_kswapd"), 0);
	assert_int_equal(tb_stat("p", "pgscan_kswapd"), 0);
}

/*
 * Ancestor pressure: "A" has memory.max 16M (4096 pages); "A/p" is
 * protected (memory.low or memory.min 8M) and reads 4M of page cache,
 * "A/u" streams 32M of page cache, then touches U_ANON anon pages (no
 * swap). The limit reclaim targets A; mem_cgroup_calculate_protection()
 * gives A's children their own low and min. While u has page cache, p
 * loses nothing.
 */
/* u's anon: with its 10 page tables, A's max */
#define U_ANON (4096 - 16)

struct protected_child {
	struct tb_file *cache;		/* p's page cache */
	struct tb_vma *anon;		/* u's anon */
	unsigned long stream_left;	/* u's page cache when p lost its first page */
	int err;			/* u's last anon touch: -ENOMEM when OOM-killed */
};

static void child_protection_under_parent_max(const char *knob, struct protected_child *pc)
{
	struct tb_file *stream = tb_file_create(8192);
	unsigned long i;

	pc->cache = tb_file_create(1024);
	assert_int_equal(tb_cgroup_mkdir("A"), 0);
	assert_int_equal(tb_cgroup_mkdir("A/p"), 0);
	assert_int_equal(tb_cgroup_mkdir("A/u"), 0);
	assert_write_ok("A", "memory.max", "16M");
	assert_write_ok("A/p", knob, "8M");
	tb_run_in("A/p");
	tb_read_range(pc->cache, 1024);
	tb_run_in("A/u");
	tb_read_range(stream, 8192);
	assert_true(event("A", "max") > 0);
	assert_int_equal(tb_file_cached(pc->cache), 1024);
	assert_int_equal(tb_stat("A/p", "pgscan"), 0);
	assert_int_equal(event("A/p", "low"), 0);

	pc->stream_left = ~0UL;
	pc->err = 0;
	pc->anon = tb_map_anon(U_ANON);
	for (i = 0; i < U_ANON && !pc->err; i++) {
		pc->err = tb_touch(pc->anon, i, true);
		if (pc->stream_left == ~0UL && tb_file_cached(pc->cache) < 1024)
			pc->stream_left = tb_file_cached(stream);
	}
}

/*
 * memory.low: once u's page cache is gone, the limit reclaim's passes
 * over every priority (and their retry with a full memcg walk) reclaim
 * nothing, p being skipped (memcg_low_skipped), and
 * do_try_to_free_pages() retries with memcg_low_reclaim: p's cache
 * goes, with "low" events, and u's anon pages fit under A's max
 * without an OOM kill.
 */
static void parent_max_reclaims_low_child_only_when_nothing_else_is_left(void **state)
{
	struct protected_child pc;

	child_protection_under_parent_max("memory.low", &pc);
	assert_int_equal(pc.err, 0);
	assert_int_equal(pc.stream_left, 0);
	assert_int_equal(tb_file_cached(pc.cache), 0);
	assert_true(event("A/p", "low") > 0);
	assert_int_equal(tb_vma_resident(pc.anon), U_ANON);
	assert_int_equal(event("A", "oom_kill"), 0);
}

/*
 * memory.min: mem_cgroup_below_min() skips p in every pass, the retry
 * included (memcg_low_reclaim lifts low only); with u's page cache gone
 * the charge fails to reclaim and the memcg OOM killer takes u. p keeps
 * all of its page cache and has no "low" event.
 */
static void parent_max_never_reclaims_min_child_and_oom_kills_the_other(void **state)
{
	struct protected_child pc;

	child_protection_under_parent_max("memory.min", &pc);
	assert_int_equal(pc.err, -ENOMEM);
	assert_int_equal(pc.stream_left, ~0UL);
	assert_int_equal(tb_file_cached(pc.cache), 1024);
	assert_int_equal(event("A/p", "low"), 0);
	assert_int_equal(event("A", "oom_kill"), 1);
	assert_int_equal(event("A/u", "oom_kill"), 1);
}

/*
 * Between the protection and twice it, a memcg is reclaimed with its
 * pressure scaled: get_scan_count() takes, of each list, lruvec_size -
 * lruvec_size * protection / (cgroup_size + 1), at least
 * SWAP_CLUSTER_MAX, then >> priority. "A/c" holds 1024 pages of page
 * cache read once and A is reclaimed (memory.reclaim, no swap): the
 * protection is c's own memory.low or memory.min (A is the target).
 * Returns the first (highest) priority at which c's inactive file list
 * was scanned, *nr the pages scanned at it.
 */
static int first_scanned_priority(const char *knob, const char *value, unsigned long *nr)
{
	struct tb_file *f = tb_file_create(1024);
	int p;

	assert_int_equal(tb_cgroup_mkdir("A"), 0);
	assert_int_equal(tb_cgroup_mkdir("A/c"), 0);
	assert_write_ok("A/c", knob, value);
	tb_run_in("A/c");
	tb_read_range(f, 1024);
	tb_task_switch(NULL);
	lru_add_drain();
	assert_int_equal(tb_cgroup_read_u64("A/c", "memory.current"), 1024 * 4096);
	kshim_trace_reset();
	assert_write_ok("A", "memory.reclaim", "128K");
	for (p = PRIO_MAX; p >= 0; p--)
		if (kshim_trace.inactive_scanned[FILE][p])
			break;
	assert_true(p >= 0);
	*nr = kshim_trace.inactive_scanned[FILE][p];
	return p;
}

/*
 * memory.low 513 pages: 1024 - 1024 * 513 / 1025 = 512, first scanned at
 * priority 9 (512 >> 9 = 1); 514 pages: 1024 - 513 = 511, at priority 8
 * (511 >> 8 = 1). Unprotected, 1024 >> 10 = 1 would come first.
 */
static void memory_low_scales_the_scan_by_the_usage_above_it(void **state)
{
	unsigned long nr;

	TB_CLASSIC_LRU_ONLY("get_scan_count()'s protection scaling");
	assert_int_equal(first_scanned_priority("memory.low", "2052K", &nr), 9);
	assert_int_equal(nr, 1);
}

static void memory_low_one_page_more_scales_the_scan_below_a_power_of_two(void **state)
{
	unsigned long nr;

	TB_CLASSIC_LRU_ONLY("get_scan_count()'s protection scaling");
	assert_int_equal(first_scanned_priority("memory.low", "2056K", &nr), 8);
	assert_int_equal(nr, 1);
	/* the low protection was used: a pass that skipped it, not a low event */
	assert_int_equal(event("A/c", "low"), 0);
}

/* memory.min alone scales the same way: 513 pages, first at priority 9 */
static void memory_min_scales_the_scan_by_the_usage_above_it(void **state)
{
	unsigned long nr;

	TB_CLASSIC_LRU_ONLY("get_scan_count()'s protection scaling");
	assert_int_equal(first_scanned_priority("memory.min", "2052K", &nr), 9);
	assert_int_equal(nr, 1);
}

/*
 * "A/c" holds 256 pages of page cache read once and held by someone else
 * (nothing can be freed), with memory.low low and memory.min min (in
 * pages); memory.reclaim of A fails. Returns the pages of c's inactive
 * file list scanned at priority 0, over the write's 17 calls.
 */
static unsigned long scanned_at_0_of_a_held_protected_cache(unsigned long low, unsigned long min)
{
	struct tb_file *f = tb_file_create(256);
	char buf[32];
	unsigned long i;

	assert_int_equal(tb_cgroup_mkdir("A"), 0);
	assert_int_equal(tb_cgroup_mkdir("A/c"), 0);
	snprintf(buf, sizeof(buf), "%lu", low * 4096);
	assert_write_ok("A/c", "memory.low", buf);
	snprintf(buf, sizeof(buf), "%lu", min * 4096);
	assert_write_ok("A/c", "memory.min", buf);
	tb_run_in("A/c");
	tb_read_range(f, 256);
	for (i = 0; i < 256; i++)
		tb_folio_get(tb_file_folio(f, i));
	tb_task_switch(NULL);
	lru_add_drain();
	kshim_trace_reset();
	assert_write("A", "memory.reclaim", "4K", -EAGAIN);
	for (i = 0; i < 256; i++)
		tb_folio_put(tb_file_folio(f, i));
	return kshim_trace.inactive_scanned[FILE][0];
}

/*
 * A reclaim that fails having scaled a memcg's scan by its memory.low
 * (above min) is retried with the low protection lifted
 * (get_scan_count() sets memcg_low_skipped): memory.low 128 pages, each
 * of memory.reclaim's 17 calls scans c at priority 0 in three passes at
 * the scaled size, 256 - 256 * 128 / 257 = 129 pages (the first walk
 * and do_try_to_free_pages()' retries), then in two more at its full
 * size once it retries with memcg_low_reclaim. (Unprotected, a call
 * scans it twice, 256 each.)
 */
static void reclaim_scaled_by_memory_low_is_retried_without_it(void **state)
{
	tb_skip_before_6_4("memory.low retry");
	TB_CLASSIC_LRU_ONLY("get_scan_count()'s protection scaling");
	assert_int_equal(scanned_at_0_of_a_held_protected_cache(128, 0), 17 * (3 * 129 + 2 * 256));
	/* 256 >> 8: only a pass without the low protection scans at priority 8 */
	assert_int_equal(kshim_trace.inactive_scanned[FILE][8], 17 * 2);
}

/* memory.low no higher than memory.min: min scales every pass, no retry without low */
static void reclaim_scaled_by_memory_min_equal_to_low_is_not_retried(void **state)
{
	tb_skip_before_6_4("memory.low retry");
	TB_CLASSIC_LRU_ONLY("get_scan_count()'s protection scaling");
	assert_int_equal(scanned_at_0_of_a_held_protected_cache(128, 128), 17 * 3 * 129);
	assert_int_equal(kshim_trace.inactive_scanned[FILE][8], 0);
}

/*
 * Just above the protection the scaled scan is raised to
 * SWAP_CLUSTER_MAX: memory.low 1010 pages gives 1024 - 1009 = 15, taken
 * as 32 (at each priority, as the usage falls), so the first pass scans
 * from priority 5 (32 >> 5 = 1), not 3 (15 >> 3), until c is below its
 * low and is skipped; do_try_to_free_pages() then retries with
 * memcg_low_reclaim (a "low" event) from priority 12.
 */
static void scaled_scan_is_at_least_swap_cluster_max(void **state)
{
	unsigned long nr;
	const unsigned long *scanned = kshim_trace.inactive_scanned[FILE];

	TB_CLASSIC_LRU_ONLY("get_scan_count()'s protection scaling");
	first_scanned_priority("memory.low", "4040K", &nr);
	/* the first pass: 32 >> 5, 4, 3, 2 (a page from each goes) */
	assert_int_equal(scanned[4], 2);
	assert_int_equal(scanned[3], 4);
	assert_int_equal(scanned[2], 8);
	/* 15 pages later c is below its low; the retry that ignores it reclaims the rest */
	assert_int_equal(scanned[1] + scanned[0], 0);
	assert_true(event("A/c", "low") > 0);
}

/*
 * A deleted memcg's page cache is scraped out: where its scan rounds to
 * 0 (lruvec_size >> priority), get_scan_count() takes min(lruvec_size,
 * SWAP_CLUSTER_MAX) of each list instead; where it does not, the scan
 * is the usual one. "A/c" reads n pages of page cache once, its task
 * moves to A and c is removed (offline, its pages still charged to it);
 * then A is reclaimed, no swap. Returns c's inactive file pages scanned
 * at priority 12 and 11.
 */
static void deleted_memcg_scanned(unsigned long n, const char *amount, unsigned long *at12,
				  unsigned long *at11)
{
	struct tb_file *f = tb_file_create(n);
	struct tb_task *t;

	assert_int_equal(tb_cgroup_mkdir("A"), 0);
	assert_int_equal(tb_cgroup_mkdir("A/c"), 0);
	t = tb_run_in("A/c");
	tb_read_range(f, n);
	lru_add_drain();
	assert_int_equal(tb_task_move(t, "A"), 0);
	assert_int_equal(tb_cgroup_rmdir("A/c"), 0);
	kshim_trace_reset();
	assert_write_ok("A", "memory.reclaim", amount);
	*at12 = kshim_trace.inactive_scanned[FILE][12];
	*at11 = kshim_trace.inactive_scanned[FILE][11];
}

/*
 * 2048 pages (2048 >> 12 = 0): memory.reclaim of 1M (256 pages) asks
 * each call for a quarter of what is left, at least 32: 64, 48, 32, 32,
 * 32, 32. Each call scans 32 pages at priority 12, the ones that need
 * more 32 at priority 11 too (2016 >> 11 = 0): 6 * 32 and 2 * 32.
 */
static void deleted_memcg_page_cache_is_scraped_a_cluster_at_a_time(void **state)
{
	unsigned long at12, at11;

	tb_skip_before_6_4("mm/vmscan.c's scan of a deleted memcg");

	TB_CLASSIC_LRU_ONLY("get_scan_count()'s offline memcg scan");
	deleted_memcg_scanned(2048, "1M", &at12, &at11);
#if TB_HAVE_lru_folio_reparent
	/* c's folios went to A on removal: A's list scanned as usual, 2048 >> 11 = 1 */
	assert_int_equal(at12, 0);
	assert_int_equal(at11, 1);
#else
	assert_int_equal(at12, 6 * 32);
	assert_int_equal(at11, 2 * 32);
#endif
}

/* 8192 pages: the usual scan, 8192 >> 12 = 2, 8190 >> 11 = 3, not a cluster */
static void deleted_memcg_with_a_nonzero_scan_is_scanned_as_usual(void **state)
{
	unsigned long at12, at11;

	TB_CLASSIC_LRU_ONLY("get_scan_count()'s offline memcg scan");
	deleted_memcg_scanned(8192, "128K", &at12, &at11);
	assert_int_equal(at12, 2);
	assert_int_equal(at11, 3);
}

/*
 * vmpressure() judges a memcg by the pages reclaim scanned in it (each
 * folio shrink_folio_list() took counts in sc->nr_scanned) against those
 * it reclaimed, once a window of 512 scanned pages is full (not for
 * proactive reclaim: memory.reclaim leaves it out). A task touching 4096
 * anon pages under memory.max 8M (swap free) scans far more than it
 * frees (each page young at its first scan, kept): the memcg is under
 * socket pressure for a second (mem_cgroup_set_socket_pressure()).
 */
static void memcg_limit_reclaim_of_young_anon_sets_socket_pressure(void **state)
{
	struct mem_cgroup *memcg;
	struct tb_vma *vma;

	TB_CLASSIC_LRU_ONLY("shrink_folio_list()'s scan count");
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	assert_write_ok("a", "memory.max", "8M");
	tb_run_in("a");
	memcg = tb_memcg("a");
	vma = tb_map_anon(4096);
	tb_touch_range(vma, 4096, true);
	assert_true(time_before(jiffies, (unsigned long)READ_ONCE(memcg->socket_pressure)));
	tb_unmap(vma);
}

/*
 * A folio shrink_folio_list() activates gives up its swap space only if
 * swap is full for its memcg (mem_cgroup_swap_full(): half used) or it is
 * mlocked: "not a candidate for swapping". 64 anon pages swapped out to
 * a disk, read back (a read fault from a disk leaves them in the swap
 * cache; from zram every tree frees the slot, so zram would give no swap
 * cache folio to activate), then 32 made
 * cold behind them: a first memory.reclaim keeps the 64 (young, first
 * look) and swaps the 32 out; touched again, the 64 are activated by the
 * next one, which frees a few others unwritten (clean in the swap cache).
 * Every slot stays in use, nothing is written twice.
 */
static void activated_swap_cache_folio_keeps_its_swap_slot_while_swap_is_not_full(void **state)
{
	struct tb_vma *hot, *cold;

	TB_CLASSIC_LRU_ONLY("shrink_folio_list()'s activate_locked");
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	hot = tb_map_anon(64);
	tb_touch_range(hot, 64, true);
	lru_add_drain();
	tb_reclaim_swappiness("a", "256K", 200);
	assert_int_equal(tb_vma_swapped(hot), 64);
	/* the disk completes the writes: clean swap cache folios */
	msleep(1);
	tb_touch_range(hot, 64, false);
	cold = tb_map_anon(32);
	tb_touch_range(cold, 32, true);
	assert_int_equal(tb_madvise(cold, MADV_COLD), 0);
	lru_add_drain();
	assert_int_equal(tb_swap_used(), 64);
	tb_reclaim_swappiness("a", "128K", 200);
	assert_int_equal(tb_vma_swapped(cold), 32);
	assert_int_equal(tb_stat("a", "pgactivate"), 0);
	assert_int_equal(tb_swap_used(), 96);

	tb_touch_range(hot, 64, false);
	tb_reclaim_swappiness("a", "4K", 200);
	assert_true(tb_stat("a", "pgactivate") > 0);
	assert_int_equal(tb_swap_used(), 96);
	assert_int_equal(kshim_vm_event_read(PSWPOUT), 96);
	tb_unmap(cold);
	tb_unmap(hot);
}

/* ---- 8. page cache that became unevictable on the LRU lists ---- */

/*
 * SHM_LOCK on page cache already on the LRU lists: shmem_lock() only sets
 * the mapping's unevictable flag, and reclaim culls the folios as it meets
 * them. shrink_folio_list() sends a folio that is no longer evictable to
 * activate_locked, and move_folios_to_lru() hands it to
 * folio_putback_lru(); shrink_active_list() does so at once. Through the
 * lru_add batch, lru_add() finds it unevictable: the unevictable list,
 * UNEVICTABLE_PGCULLED. Nothing is reclaimed and memory.reclaim ends in
 * -EAGAIN. ("a" has 256 pages read once and 512 read twice: its inactive
 * file list is low, so shrink_active_list() runs.)
 *
 * SHM_UNLOCK runs the cached folios through check_move_unevictable_folios()
 * (UNEVICTABLE_PGSCANNED each): those on the unevictable list are rescued;
 * one still in this CPU's lru_add batch has no LRU flag to take and is
 * skipped (scanned, not rescued), and lru_add() later puts it on the
 * inactive list as it is evictable again.
 */
static void reclaim_culls_page_cache_locked_on_the_lru_to_the_unevictable_list(void **state)
{
	struct tb_file *once = tb_file_create(256), *twice = tb_file_create(512);
	struct tb_file *late = tb_file_create(1);

	TB_CLASSIC_LRU_ONLY("culling through shrink_active_list()");
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	tb_read_range(once, 256);
	tb_read_range(twice, 512);
	tb_read_range(twice, 512);
	lru_add_drain();
	tb_file_set_unevictable(once, true);
	tb_file_set_unevictable(twice, true);
	tb_memcg_flush_stats(tb_memcg("a"));
	kshim_trace_reset();

	assert_write("a", "memory.reclaim", "1M", -EAGAIN);
	lru_add_drain();
	assert_true(sum(kshim_trace.inactive_scanned[FILE]) >= 256);
	assert_int_equal(sum(kshim_trace.inactive_reclaimed[FILE]), 0);
	assert_true(sum(kshim_trace.active_taken[FILE]) >= 512);
	assert_int_equal(kshim_vm_event_read(UNEVICTABLE_PGCULLED), 768);
	assert_int_equal(tb_stat("a", "unevictable"), 768 * 4096);
	assert_int_equal(tb_stat("a", "inactive_file") + tb_stat("a", "active_file"), 0);
	assert_int_equal(tb_file_cached(once) + tb_file_cached(twice), 768);

	tb_assert_shm_unlock_rescues("a", once, twice, 768, late);
	assert_int_equal(tb_stat("a", "inactive_file") + tb_stat("a", "active_file"), 769 * 4096);
	tb_assert_lrus_consistent();
}

/* ---- 9. deactivation of the anon list ---- */

/* active anon pages shrink_active_list() took in one memory.reclaim of path */
static unsigned long active_anon_taken(const char *path, const char *amount)
{
	tb_memcg_flush_stats(tb_memcg(path));
	kshim_trace_reset();
	tb_reclaim_swappiness(path, amount, 200);
	return sum(kshim_trace.active_taken[ANON]);
}

/*
 * prepare_scan_control() lets shrink_list() deactivate active anon when
 * anon refaults were activated since the memcg's last reclaim
 * (WORKINGSET_ACTIVATE_ANON against the lruvec's snapshot, taken when a
 * reclaim ends: "a new workingset is being established") or when the
 * inactive anon list is low (inactive_is_low(): below the active one
 * under 1 GiB); else it leaves the active list alone (may_deactivate
 * without DEACTIVATE_ANON). 256 anon pages swapped out and touched again
 * come back active (refault activations); 512 more touched once and made
 * cold (MADV_COLD: old, inactive) keep the inactive list above them.
 * The first memory.reclaim deactivates (new refaults), the second does
 * not (none since, inactive not low); with the 512 unmapped the
 * inactive list is low, and the third does (shrink_lruvec()'s aging of a
 * low inactive anon list would too, whatever may_deactivate says).
 */
static void anon_is_deactivated_after_anon_refaults_or_when_inactive_anon_is_low(void **state)
{
	struct tb_file *f = tb_file_create(1024);
	struct tb_vma *hot, *cold;
	unsigned long i;

	tb_skip_before_6_4("mm/vmscan.c's deactivation rules");

	TB_CLASSIC_LRU_ONLY("prepare_scan_control()'s may_deactivate");
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	hot = tb_map_anon(256);
	tb_touch_range(hot, 256, true);
	lru_add_drain();
	tb_reclaim_swappiness("a", "1M", 200);
	assert_int_equal(tb_vma_swapped(hot), 256);
	/* inactive page cache makes each refault's distance part of the workingset */
	tb_read_range(f, 1024);
	lru_add_drain();
	for (i = 0; i < 256; i++)
		assert_int_equal(tb_touch(hot, i, false), 0);
	tb_file_destroy(f);
	cold = tb_map_anon(512);
	tb_touch_range(cold, 512, true);
	assert_int_equal(tb_madvise(cold, MADV_COLD), 0);
	lru_add_drain();
	tb_memcg_flush_stats(tb_memcg("a"));
	assert_int_equal(tb_stat("a", "workingset_activate_anon"), 256);
	assert_int_equal(tb_stat("a", "active_anon"), 256 * 4096);
	assert_int_equal(tb_stat("a", "inactive_anon"), 512 * 4096);

	assert_true(active_anon_taken("a", "4K") > 0);
	assert_int_equal(active_anon_taken("a", "4K"), 0);
	tb_unmap(cold);
	tb_memcg_flush_stats(tb_memcg("a"));
	assert_true(tb_stat("a", "inactive_anon") < tb_stat("a", "active_anon"));
	assert_true(active_anon_taken("a", "4K") > 0);
	tb_unmap(hot);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		TB_RECLAIM_SWAP_TEST(offline_memcg_s_lists_are_scraped_by_shares_rounded_up),
		TB_RECLAIM_SWAP_TEST(offline_memcg_s_short_lists_are_scraped_at_their_size),
		TB_RECLAIM_TEST(reclaim_scaled_by_memory_low_is_retried_without_it),
		TB_RECLAIM_TEST(reclaim_scaled_by_memory_min_equal_to_low_is_not_retried),
				TB_RECLAIM_TEST(memory_reclaim_scans_lru_size_shifted_by_priority),
		TB_RECLAIM_SWAP_TEST(swappiness_60_scans_both_types_and_anon_rotations_shift_it_to_file),
		TB_RECLAIM_SWAP_TEST(file_rotations_shift_the_fraction_to_anon),
		TB_RECLAIM_TEST_ON(global_reclaim_with_tiny_page_cache_scans_anon_only,
				   setup_swap_no_kswapd),
		TB_RECLAIM_TEST_ON(exec_file_pages_are_activated_at_first_use_and_kept_active,
				   setup_no_kswapd),
		TB_RECLAIM_TEST_ON(mapped_file_pages_without_exec_are_deactivated, setup_no_kswapd),
		TB_RECLAIM_SWAP_TEST(kswapd_ages_anon_of_a_memcg_that_reclaim_skips),
		TB_RECLAIM_SWAP_TEST(memory_high_reclaims_page_cache_then_swaps_anon),
		TB_RECLAIM_TEST(global_reclaim_spares_memory_low_until_nothing_else_is_left),
		TB_RECLAIM_TEST(parent_max_reclaims_low_child_only_when_nothing_else_is_left),
		TB_RECLAIM_TEST(parent_max_never_reclaims_min_child_and_oom_kills_the_other),
		TB_RECLAIM_TEST(reclaim_culls_page_cache_locked_on_the_lru_to_the_unevictable_list),
		TB_RECLAIM_SWAP_TEST(anon_is_deactivated_after_anon_refaults_or_when_inactive_anon_is_low),
		TB_RECLAIM_TEST(file_folio_mapped_by_two_young_ptes_is_activated_at_first_scan),
		TB_RECLAIM_SWAP_TEST(anon_of_an_exec_mapping_is_not_activated_at_first_use),
		TB_RECLAIM_TEST(locked_exec_folio_is_deactivated_unwalked),
		TB_RECLAIM_TEST(file_cost_counts_the_text_rotated_and_the_pages_kept),
		TB_RECLAIM_TEST(reclaim_cost_decays_to_a_quarter_of_the_lru),
		TB_RECLAIM_TEST(memory_low_scales_the_scan_by_the_usage_above_it),
		TB_RECLAIM_TEST(memory_low_one_page_more_scales_the_scan_below_a_power_of_two),
		TB_RECLAIM_TEST(memory_min_scales_the_scan_by_the_usage_above_it),
		TB_RECLAIM_TEST(scaled_scan_is_at_least_swap_cluster_max),
		TB_RECLAIM_TEST(deleted_memcg_page_cache_is_scraped_a_cluster_at_a_time),
		TB_RECLAIM_TEST(deleted_memcg_with_a_nonzero_scan_is_scanned_as_usual),
		TB_RECLAIM_TEST(file_is_deactivated_after_file_refaults),
		TB_RECLAIM_SWAP_TEST(memcg_limit_reclaim_of_young_anon_sets_socket_pressure),
		TB_RECLAIM_TEST_ON(page_cache_of_high_minus_free_pages_is_tiny, setup_swap_no_kswapd),
		TB_RECLAIM_TEST_ON(global_reclaim_at_swappiness_0_scans_no_anon_even_at_priority_0,
				   setup_swappiness_0_no_kswapd),
		TB_RECLAIM_TEST_ON(page_cache_one_page_above_high_minus_free_is_not_tiny,
				   setup_swap_no_kswapd),
		TB_RECLAIM_TEST_ON(active_page_cache_counts_against_tiny, setup_swap_no_kswapd),
		TB_RECLAIM_TEST_ON(activated_swap_cache_folio_keeps_its_swap_slot_while_swap_is_not_full,
				   setup_swap_disk),
		TB_RECLAIM_TEST_ON(inactive_file_below_a_third_of_active_above_1g_is_low, setup_2g),
		TB_RECLAIM_TEST_ON(inactive_file_above_a_third_of_active_above_1g_is_not_low, setup_2g),
		TB_RECLAIM_TEST_ON(inactive_file_above_a_seventh_of_active_at_5g_is_not_low, setup_6g),
	};

	return TB_RUN(tests);
}
