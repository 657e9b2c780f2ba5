// SPDX-License-Identifier: GPL-2.0-only
/*
 * Direct reclaim and kswapd through the real mm/vmscan.c, classic LRU:
 * where shrink_lruvec() stops once its target is met (and how it trims
 * the larger side then), the reclaim loop of do_try_to_free_pages() and
 * what it leaves behind, the pfmemalloc throttle, kswapd's balancing
 * loop (balance_pgdat()) and its sleep.
 *
 * The per-priority figures are the vmscan tracepoints' (kshim_trace:
 * pages shrink_inactive_list() scanned and reclaimed, summed per
 * sc->priority) of the reclaiming thread: the test's own for memcg
 * reclaim and for direct reclaim in a world without kswapd.
 */
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/mm_inline.h>
#include <linux/swap.h>
#include <linux/vmstat.h>
#include <linux/memcontrol.h>
#include <linux/mman.h>
#include <linux/writeback.h>
#include <signal.h>
#include <kshim/trace.h>
#include "tb_reclaim.h"

#define ANON 0
#define FILE 1
#define DEF_PRIO 12
#define MAX_RECLAIM_RETRIES 16	/* mm/internal.h */

static int setup_no_kswapd(void **state)
{
	tb_mem = (struct tb_mem_config){ .no_kswapd = true };
	return tb_reclaim_setup(state);
}

/* 640 MiB: 163840 pages, enough for a list >> DEF_PRIORITY above SWAP_CLUSTER_MAX */
#define BIG_RAM PAGES(640 * MB)

static int setup_big(void **state)
{
	tb_mem = (struct tb_mem_config){ .ram_pages = BIG_RAM };
	return tb_reclaim_setup(state);
}

static int setup_big_no_kswapd(void **state)
{
	tb_mem = (struct tb_mem_config){ .ram_pages = BIG_RAM, .no_kswapd = true };
	return tb_reclaim_setup(state);
}

/* pages shrink_inactive_list() scanned of one LRU type at priorities 12 to 1 */
static unsigned long scanned_above_zero(int type)
{
	unsigned long n = 0;
	int p;

	for (p = 1; p <= DEF_PRIO; p++)
		n += kshim_trace.inactive_scanned[type][p];
	return n;
}

/* ---- shrink_lruvec(): stopping at the target ---- */

/*
 * A memcg holding nr_anon anonymous pages and nr_file pages of a mapped
 * file, every one touched once (young ptes, no PG_referenced), swap on;
 * memory.reclaim "128K" (one call, nr_to_reclaim 32).
 *
 * Priorities 12 to 1: the inactive file list is large enough for
 * prepare_scan_control()'s cache trim mode (file >> priority > 0), so
 * get_scan_count() scans file only, 99 >> priority pages: 1 + 3 + 6 + 12 +
 * 24 + 49 = 95 at priorities 6 to 1, each kept on its first scan
 * (folio_check_references(): one young pte, FOLIOREF_KEEP, PG_referenced
 * set, pte now old) and put back at the head of the list. Nothing is
 * reclaimed, so priority 0, where get_scan_count() takes SCAN_EQUAL: every
 * list at its full size. Chunks of 32: the anon chunks are young (kept),
 * the first file chunk is the 4 pages never scanned (kept) and 28 marked
 * ones (reclaimed), the second 32 marked ones: 60 >= 32 after two chunks
 * of each, 35 file pages and nr_anon - 64 anon ones still to scan.
 * shrink_lruvec() is not proportional in memcg reclaim: it stops the
 * smaller side and scales the larger one's target down by the share of
 * the smaller side's target left unscanned, less what it scanned already.
 */
static void young_anon_mapped_and_active_file(unsigned long nr_anon, unsigned long nr_file,
					      unsigned long nr_active)
{
	struct tb_file *f = tb_file_create(nr_file), *hot = tb_file_create(nr_active);
	struct tb_vma *anon, *file;

	TB_CLASSIC_LRU_ONLY("shrink_lruvec()'s scan targets");
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	/* read twice: active (the list's counts only: file is not deactivated here) */
	tb_read_range(hot, nr_active);
	tb_read_range(hot, nr_active);
	anon = tb_map_anon(nr_anon);
	tb_touch_range(anon, nr_anon, true);
	file = tb_map_file(f);
	tb_touch_range(file, nr_file, false);
	lru_add_drain();
	kshim_trace_reset();
	assert_write_ok("a", "memory.reclaim", "128K");
	assert_int_equal(scanned_above_zero(ANON), 0);
	assert_int_equal(scanned_above_zero(FILE), 95);
	assert_int_equal(kshim_trace.inactive_reclaimed[ANON][0], 0);
	/* one zone: isolate_lru_folios() skips no folio (the isolate event's count) */
	assert_true(kshim_trace.isolate_count > 0);
	assert_int_equal(kshim_trace.isolate_sum.skipped, 0);
}

static void young_anon_and_mapped_file(unsigned long nr_anon, unsigned long nr_file)
{
	young_anon_mapped_and_active_file(nr_anon, nr_file, 0);
}

/*
 * 100 anon, 99 file: at the stop 35 file pages are left, 36 anon. File is
 * the smaller side: 35 * 100 / (99 + 0 + 1) = 35% of its target was left,
 * so anon's becomes 100 * 65 / 100 = 65, of which 64 are scanned: one more
 * anon page, and no more file pages.
 */
static void memcg_reclaim_stops_the_smaller_side_and_trims_the_larger(void **state)
{
	young_anon_and_mapped_file(100, 99);
	assert_int_equal(kshim_trace.inactive_scanned[ANON][0], 65);
	assert_int_equal(kshim_trace.inactive_scanned[FILE][0], 64);
	assert_int_equal(kshim_trace.inactive_reclaimed[FILE][0], 60);
}

/*
 * 80 anon, 99 file: 16 anon pages left, 35 file. Anon is the smaller side:
 * 16 * 100 / (80 + 0 + 1) = 19% left, file's target becomes 99 * 81 / 100
 * = 80, of which 64 are scanned: 16 more file pages (marked: reclaimed).
 */
static void memcg_reclaim_trims_the_file_side_when_anon_is_smaller(void **state)
{
	young_anon_and_mapped_file(80, 99);
	assert_int_equal(kshim_trace.inactive_scanned[ANON][0], 64);
	assert_int_equal(kshim_trace.inactive_scanned[FILE][0], 80);
	assert_int_equal(kshim_trace.inactive_reclaimed[FILE][0], 76);
}

/*
 * 120 anon, 99 inactive file and 80 active file pages (read twice): the
 * active file list's target counts down 32 + 32 with the others (it is
 * not deactivated: the inactive list is not low), so at the stop 35 + 16
 * = 51 file pages are left, 56 anon. File is the smaller side: 51 * 100 /
 * (99 + 80 + 1) = 28% of its targets left, anon's becomes 120 * 72 / 100
 * = 86, of which 64 are scanned: 22 more anon pages.
 */
static void memcg_reclaim_counts_the_active_list_in_the_smaller_side(void **state)
{
	young_anon_mapped_and_active_file(120, 99, 80);
	assert_int_equal(kshim_trace.inactive_scanned[ANON][0], 86);
	assert_int_equal(kshim_trace.inactive_scanned[FILE][0], 64);
	assert_int_equal(kshim_trace.inactive_reclaimed[FILE][0], 60);
}

/*
 * The same stop at priority 0 with 99 inactive file pages, nr_anon anon
 * and nr_active active file pages: anon and file pages scanned then.
 */
static void trim_at_priority_0(unsigned long nr_anon, unsigned long nr_active,
			       unsigned long anon, unsigned long file)
{
	young_anon_mapped_and_active_file(nr_anon, 99, nr_active);
	assert_int_equal(kshim_trace.inactive_scanned[ANON][0], anon);
	assert_int_equal(kshim_trace.inactive_scanned[FILE][0], file);
}

/*
 * 99 anon, 1 active file page: at the stop 35 anon pages are left and 35
 * file (the active target, 1, counted down in the first chunk). Equal
 * sides: file counts as the smaller (nr_file > nr_anon is false), 35 *
 * 100 / (99 + 1 + 1) = 34% left, so anon's target is 99 * 66 / 100 = 65:
 * one more anon page.
 */
static void memcg_reclaim_trims_anon_when_both_sides_are_equal(void **state)
{
	trim_at_priority_0(99, 1, 65, 64);
}

/*
 * The share left is rounded down: 72 anon (8 left): 8 * 100 / 73 = 10%,
 * file's target 99 * 90 / 100 = 89; 87 anon (23 left): 2300 / 88 = 26%,
 * file's target 99 * 74 / 100 = 73.
 */
static void memcg_reclaim_rounds_the_smaller_side_s_share_down(void **state)
{
	trim_at_priority_0(72, 0, 64, 89);
}

static void memcg_reclaim_rounds_the_smaller_side_s_share_down_again(void **state)
{
	trim_at_priority_0(87, 0, 64, 73);
}

/*
 * A larger side already scanned past its trimmed target scans no more:
 * 101 anon (37 left), 67 active file (35 + 3 left, the larger side):
 * 3700 / 102 = 36% left, file's targets 99 * 64 / 100 = 63 (64 scanned)
 * and 67 * 64 / 100 = 42 (64 counted down): nothing more of either.
 */
static void memcg_reclaim_trims_no_further_than_what_was_scanned(void **state)
{
	trim_at_priority_0(101, 67, 64, 64);
}

/*
 * The smaller side's active list stops with it: 147 anon (83 left), 97
 * active file (35 + 33 left): 68 * 100 / 197 = 34% left, anon's target
 * 147 * 66 / 100 = 97, 33 more, one chunk of 32 and then the loop ends
 * (nothing left of file, the active list included).
 */
static void memcg_reclaim_stops_the_smaller_side_s_active_list_too(void **state)
{
	trim_at_priority_0(147, 97, 96, 64);
}

/*
 * 140000 pages of page cache read once in a memcg: at DEF_PRIORITY
 * get_scan_count() targets 140000 >> 12 = 34 pages of the inactive file
 * list. memory.reclaim "128K" wants 32: the first chunk of 32 reclaims
 * them all and memcg reclaim stops there (proportional_reclaim is for
 * global direct reclaim only), 2 pages short of the target.
 */
static void memcg_reclaim_at_def_priority_stops_at_its_target(void **state)
{
	unsigned long n = 140000;
	struct tb_file *f = tb_file_create(n);

	TB_CLASSIC_LRU_ONLY("shrink_lruvec()'s scan targets");
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	tb_read_range(f, n);
	lru_add_drain();
	kshim_trace_reset();
	assert_write_ok("a", "memory.reclaim", "128K");
	assert_int_equal(kshim_trace.inactive_scanned[FILE][DEF_PRIO], 32);
	assert_int_equal(kshim_trace.inactive_reclaimed[FILE][DEF_PRIO], 32);
	assert_int_equal(scanned_above_zero(FILE), 32);
	assert_int_equal(tb_file_cached(f), n - 32);
}

/*
 * Global direct reclaim at DEF_PRIORITY is proportional: it scans its
 * whole target even past nr_to_reclaim (the comment calls it a batch of
 * work at once). A task reading a file larger than 640 MiB of RAM, no
 * kswapd: its first direct reclaim targets the inactive file list's
 * 162000-odd pages >> 12 = 39 and reclaims all 39, not just the 32 it
 * wants.
 */
static void direct_reclaim_at_def_priority_scans_its_whole_target(void **state)
{
	unsigned long n = BIG_RAM + 1000, i;
	struct tb_file *f = tb_file_create(n);

	TB_CLASSIC_LRU_ONLY("shrink_lruvec()'s scan targets");
	tb_run_in("");
	for (i = 0; !kshim_trace.direct_reclaim_count; i++)
		assert_int_equal(tb_file_read(f, i), 0);
	assert_int_equal(kshim_vm_event_read(ALLOCSTALL_MOVABLE), 1);
	assert_int_equal(kshim_trace.inactive_scanned[FILE][DEF_PRIO], 39);
	assert_int_equal(kshim_reclaim_event_read(PGSTEAL_DIRECT), 39);
	assert_int_equal(scanned_above_zero(FILE), 39);
}

/* ---- do_try_to_free_pages(): one shrink of each node per priority ---- */

/*
 * An order-0 reclaim does not go on shrinking a node for compaction
 * (in_reclaim_compaction() needs an order, and compaction, which the test
 * bed does not build): each priority shrinks the node once, though free
 * memory is still under min. 64 MiB of page cache, no kswapd, free
 * memory taken down to 150 pages (min 256, above the pfmemalloc reserve
 * of 128: no throttle); then a GFP_KERNEL page. Each try_to_free_pages()
 * scans the inactive file list's 16000-odd pages >> priority: 3 + 7 + 15
 * + 31 = 56 >= 32 at priority 9. 206 free pages are still under min, so
 * the allocator reclaims once more (another 56): 262, and it gets its page.
 */
static void order0_direct_reclaim_shrinks_a_node_once_per_priority(void **state)
{
	unsigned long ram = PAGES(64 * MB), i;
	struct tb_file *f = tb_file_create(ram);
	struct folio *folio;
	LIST_HEAD(held);

	TB_CLASSIC_LRU_ONLY("shrink_lruvec()'s scan targets");
	tb_run_in("");
	for (i = 0; tb_free_pages(0) > tb_wmark(0, WMARK_MIN) + 1; i++)
		assert_int_equal(tb_file_read(f, i), 0);
	assert_int_equal(kshim_vm_event_read(ALLOCSTALL_NORMAL), 0);
	tb_take_free_pages_down_to(150, &held);
	kshim_trace_reset();
	folio = tb_alloc_folio(GFP_KERNEL, 0);
	assert_non_null(folio);
	list_add(&folio->lru, &held);
	assert_int_equal(kshim_vm_event_read(ALLOCSTALL_NORMAL), 2);
	assert_int_equal(kshim_trace.direct_reclaim_count, 2);
	assert_int_equal(kshim_trace.inactive_scanned[FILE][12], 6);
	assert_int_equal(kshim_trace.inactive_scanned[FILE][11], 14);
	assert_int_equal(kshim_trace.inactive_scanned[FILE][10], 30);
	assert_int_equal(kshim_trace.inactive_scanned[FILE][9], 62);
	assert_int_equal(scanned_above_zero(FILE), 112);
	assert_int_equal(kshim_reclaim_event_read(PGSTEAL_DIRECT), 112);
	assert_int_equal(tb_free_pages(0), 150 + 112 - 1);
	tb_put_folios(&held);
}

/* ---- what reclaim leaves behind: the refaults it has seen ---- */

static struct lruvec *lruvec_of(const char *path)
{
	return mem_cgroup_lruvec(tb_memcg(path), NODE_DATA(0));
}

/*
 * path's activations: 64 anon pages swapped out, 1024 pages of page cache
 * read once, the anon touched again (each swap-in activated: the inactive
 * page cache counts in an anon refault's workingset); then 512 pages read
 * twice (active) and the 64 oldest of the 1024 evicted, 32 of them read
 * again (activated: within the active list's size)
 */
static void activate_refaults(const char *path)
{
	struct tb_file *f = tb_file_create(1024), *hot = tb_file_create(512);
	struct tb_vma *vma;
	unsigned long i, n = 0;

	vma = tb_map_anon(64);
	tb_touch_range(vma, 64, true);
	tb_reclaim_swappiness(path, "256K", 200);
	assert_int_equal(tb_vma_swapped(vma), 64);
	tb_read_range(f, 1024);
	lru_add_drain();
	for (i = 0; i < 64; i++)
		assert_int_equal(tb_touch(vma, i, false), 0);
	tb_read_range(hot, 512);
	tb_read_range(hot, 512);
	lru_add_drain();
	tb_reclaim_swappiness(path, "256K", 0);
	for (i = 0; i < 1024 && n < 32; i++) {
		if (tb_file_folio(f, i))
			continue;
		assert_int_equal(tb_file_read(f, i), 0);
		n++;
	}
	lru_add_drain();
	assert_int_equal(n, 32);
	assert_int_equal(tb_stat(path, "workingset_activate_anon"), 64);
	assert_int_equal(tb_stat(path, "workingset_activate_file"), 32);
}

/*
 * At its end, memcg reclaim stores the target lruvec's activation counts
 * (snapshot_refaults()): the next reclaim's prepare_scan_control() takes
 * a change since as a new workingset being established and deactivates.
 */
static void memcg_reclaim_snapshots_the_refaults_it_has_seen(void **state)
{
	struct lruvec *lruvec;

	TB_CLASSIC_LRU_ONLY("the classic LRU's refault snapshot");
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	activate_refaults("a");
	lruvec = lruvec_of("a");
	/* the last reclaim came after the anon activations, before the file ones */
	assert_int_equal(lruvec->refaults[WORKINGSET_ANON], 64);
	assert_int_equal(lruvec->refaults[WORKINGSET_FILE], 0);
	assert_write_ok("a", "memory.reclaim", "4K");
	assert_int_equal(lruvec->refaults[WORKINGSET_ANON], 64);
	assert_int_equal(lruvec->refaults[WORKINGSET_FILE], 32);
}

/* ---- kswapd: balancing a node, then sleeping ---- */

static unsigned long pageoutruns(void)
{
	return kshim_vm_event_read(PAGEOUTRUN);
}

static unsigned long hit_quickly(enum vm_event_item which)
{
	return kshim_vm_event_read(which);
}

/* read pages of f from *i on until free memory is at the low watermark */
static void read_down_to_low(struct tb_file *f, unsigned long *i)
{
	while (tb_free_pages(0) > tb_wmark(0, WMARK_LOW))
		assert_int_equal(tb_file_read(f, (*i)++), 0);
}

/*
 * 64 MiB of page cache read once, one page past the low watermark (320
 * free): wakeup_kswapd() wakes kswapd, and balance_pgdat() reclaims
 * until the node is balanced (free above high, 384). Its target is the
 * high watermark, which no priority's scan reaches (the inactive file
 * list's 16000-odd pages >> priority), so it lowers the priority after
 * each pass and checks the watermark before the next: 3 + 7 + 15 + 31 + 62
 * = 118 pages at priorities 12 to 8, 437 free. The allocation that woke
 * it took one page: kswapd runs on its own CPU, here right after it.
 */
static void kswapd_wake(struct tb_file *f, unsigned long *i)
{
	unsigned long runs = pageoutruns(), steal = kshim_reclaim_event_read(PGSTEAL_KSWAPD);

	read_down_to_low(f, i);
	assert_int_equal(tb_free_pages(0), tb_wmark(0, WMARK_LOW));
	assert_int_equal(pageoutruns(), runs);
	assert_int_equal(tb_file_read(f, (*i)++), 0);
	assert_int_equal(pageoutruns(), runs + 1);
	assert_int_equal(kshim_reclaim_event_read(PGSTEAL_KSWAPD), steal + 118);
	assert_int_equal(tb_free_pages(0), 437);
}

/*
 * A mapped file, every page touched once through the mapping but one in
 * 16 read with read() only, until kswapd wakes at low (319 free);
 * returns the inactive file list's size then
 */
static unsigned long wake_kswapd_over_a_mapped_file(void)
{
	unsigned long n = PAGES(64 * MB), i, inactive;
	struct tb_file *f = tb_file_create(n);
	struct tb_vma *vma;

	tb_run_in("");
	vma = tb_map_file(f);
	for (i = 0; tb_free_pages(0) > tb_wmark(0, WMARK_LOW); i++) {
		if (i % 16)
			assert_int_equal(tb_touch(vma, i, false), 0);
		else
			assert_int_equal(tb_file_read(f, i), 0);
	}
	lru_add_drain();
	inactive = node_page_state(NODE_DATA(0), NR_INACTIVE_FILE);
	assert_int_equal(pageoutruns(), 0);
	assert_int_equal(tb_touch(vma, i, false), 0);
	assert_int_equal(pageoutruns(), 1);
	return inactive;
}

/* kswapd's scans and frees above min_prio, one pass each, and at min_prio */
static void assert_passes(const unsigned long *scanned, const unsigned long *reclaimed,
			  int min_prio, unsigned long scanned_min, unsigned long reclaimed_min)
{
	const struct kshim_trace *k = tb_kswapd_trace(0);
	int p;

	for (p = DEF_PRIO; p > min_prio; p--) {
		assert_int_equal(k->inactive_scanned[FILE][p], scanned[DEF_PRIO - p]);
		assert_int_equal(k->inactive_reclaimed[FILE][p], reclaimed[DEF_PRIO - p]);
	}
	assert_int_equal(k->inactive_scanned[FILE][min_prio], scanned_min);
	assert_int_equal(k->inactive_reclaimed[FILE][min_prio], reclaimed_min);
	assert_int_equal(k->min_priority, min_prio);
}

/*
 * kswapd_shrink_node()'s verdict on a pass: kswapd keeps its priority
 * for the next pass when this one scanned at least its target (the high
 * watermark, 384 pages) and reclaimed something, and lowers it
 * otherwise. A mapped file, every page touched once through the mapping
 * (young: kept on its first scan) but one in 16 read with read() only
 * (reclaimed), until kswapd wakes at low (319 free, 16030 pages on the
 * inactive list, 34 pages being its page tables): each pass takes the inactive list >> priority from its
 * tail, lowest index first, and frees the pages read, one in 16. Passes
 * at priorities 12 to 6 scan 3, 7, 15, 31, 62, 125 and 250 pages, all
 * below the target: the priority goes down after each. At priority 5 the
 * pass scans 16030 >> 5 = 500 and frees 31 (350 + 31 free, still under
 * 384): kswapd stays at 5, and its second pass there (498 scanned, 32
 * freed) balances the node.
 */
static void kswapd_keeps_its_priority_after_a_pass_that_scans_its_target(void **state)
{
	static const unsigned long scanned[] = { 3, 7, 15, 31, 62, 125, 250 };
	static const unsigned long reclaimed[] = { 1, 0, 1, 2, 4, 8, 15 };

	TB_CLASSIC_LRU_ONLY("the classic LRU's scan per priority");
	assert_int_equal(wake_kswapd_over_a_mapped_file(), 16030);
	assert_int_equal(tb_free_pages(0), 319 + 94);
	assert_int_equal(kshim_reclaim_event_read(PGSTEAL_KSWAPD), 94);
	assert_passes(scanned, reclaimed, 5, 500 + 498, 31 + 32);
}

/*
 * n pages held by the rest of the system; the callers' n leave out the
 * page tables that map the file (a pte table per 512 pages, a pmd and a
 * pud table), so the inactive list is the size each case names
 */
static int setup_reserved(void **state, unsigned long n)
{
	tb_mem = (struct tb_mem_config){ .reserved_pages = n };
	return tb_reclaim_setup(state);
}

static int setup_reserved_3000(void **state)
{
	return setup_reserved(state, 3000 - 28);
}

/*
 * The target is the managed zones' high watermarks, ZONE_NORMAL's 384
 * (ZONE_MOVABLE, up to which a user page's allocation woke kswapd, has
 * no memory and adds nothing): with 3000 pages held elsewhere (and the
 * file's page tables), the
 * inactive list is 13064 pages and the first pass at priority 5 scans
 * 408, more than 384 (though less than 384 + SWAP_CLUSTER_MAX), and
 * leaves the node short of its high watermark: kswapd stays at 5 for a
 * second pass (405 scanned, 50 freed by both), which balances the node
 * (395 free).
 */
static void kswapd_keeps_its_priority_after_a_pass_of_its_target_and_more(void **state)
{
	static const unsigned long scanned[] = { 3, 6, 12, 25, 51, 102, 203 };
	static const unsigned long reclaimed[] = { 1, 0, 1, 1, 4, 6, 13 };

	TB_CLASSIC_LRU_ONLY("the classic LRU's scan per priority");
	assert_int_equal(wake_kswapd_over_a_mapped_file(), 13064);
	assert_int_equal(tb_free_pages(0), 319 + 76);
	assert_passes(scanned, reclaimed, 5, 408 + 405, 50);
}

static int setup_16m_tiny_watermarks(void **state)
{
	tb_mem = (struct tb_mem_config){ .ram_pages = PAGES(16 * MB), .min_free_kbytes = 16 };
	return tb_reclaim_setup(state);
}

/*
 * kswapd's target is at least SWAP_CLUSTER_MAX: vm.min_free_kbytes 16 on
 * 16 MiB gives watermarks of 4, 8 and 12 pages, and a pass must scan 32,
 * not 12, to keep the priority. The mapped file as above (4078 pages on
 * the inactive list at the wake, 7 free): the passes at priorities 12 to
 * 7 scan 0, 1, 3, 7, 15 and 31 pages, each lowering the priority though
 * those of 15 and 31 reclaimed something; priority 6's 63 pages bring
 * free memory to 15, balanced.
 */
static void kswapd_target_is_at_least_swap_cluster_max(void **state)
{
	static const unsigned long scanned[] = { 0, 1, 3, 7, 15, 31 };
	static const unsigned long reclaimed[] = { 0, 1, 0, 0, 1, 2 };

	TB_CLASSIC_LRU_ONLY("the classic LRU's scan per priority");
	assert_int_equal(tb_wmark(0, WMARK_MIN), 4);
	assert_int_equal(tb_wmark(0, WMARK_LOW), 8);
	assert_int_equal(tb_wmark(0, WMARK_HIGH), 12);
	assert_int_equal(wake_kswapd_over_a_mapped_file(), 4078);
	assert_int_equal(tb_free_pages(0), 7 + 8);
	assert_passes(scanned, reclaimed, 6, 63, 4);
}

static int setup_reserved_3780(void **state)
{
	return setup_reserved(state, 3780 - 26);
}

static int setup_reserved_3750(void **state)
{
	return setup_reserved(state, 3750 - 27);
}

/*
 * The verdict's edge: with 3780 pages held elsewhere the pass at
 * priority 5 scans 383 pages, one short of the target: kswapd lowers the
 * priority, and priority 4's pass (764 pages) balances the node.
 */
static void kswapd_lowers_its_priority_after_a_pass_one_page_short(void **state)
{
	static const unsigned long scanned[] = { 2, 5, 11, 23, 47, 95, 191, 383 };
	static const unsigned long reclaimed[] = { 1, 0, 1, 1, 3, 6, 12, 24 };

	TB_CLASSIC_LRU_ONLY("the classic LRU's scan per priority");
	assert_int_equal(wake_kswapd_over_a_mapped_file(), 12284);
	assert_int_equal(tb_free_pages(0), 319 + 96);
	assert_passes(scanned, reclaimed, 4, 764, 48);
}

/*
 * With 3750 the pass at priority 5 scans exactly 384 pages, the target:
 * kswapd keeps the priority, and a second pass there (383) balances it.
 */
static void kswapd_keeps_its_priority_after_a_pass_of_exactly_its_target(void **state)
{
	static const unsigned long scanned[] = { 3, 6, 12, 24, 48, 96, 192 };
	static const unsigned long reclaimed[] = { 1, 0, 1, 1, 3, 6, 12 };

	TB_CLASSIC_LRU_ONLY("the classic LRU's scan per priority");
	assert_int_equal(wake_kswapd_over_a_mapped_file(), 12314);
	assert_int_equal(tb_free_pages(0), 319 + 72);
	assert_passes(scanned, reclaimed, 5, 384 + 383, 48);
}

static int setup_big_tiny_watermarks(void **state)
{
	tb_mem = (struct tb_mem_config){ .ram_pages = PAGES(1100 * MB), .min_free_kbytes = 16,
					 .watermark_scale_factor = 1 };
	return tb_reclaim_setup(state);
}

/*
 * Only direct reclaim is proportional at DEF_PRIORITY: kswapd stops at
 * its target there too. 1100 MiB of RAM with vm.min_free_kbytes 16 and
 * vm.watermark_scale_factor 1: watermarks 4, 32 and 60 pages. Page cache
 * read once until kswapd wakes at low (31 free, 281568 pages on the
 * inactive list): its first pass targets 281568 >> 12 = 68 pages and
 * stops after two chunks, 64 >= 60 reclaimed, the node balanced.
 */
static void kswapd_at_def_priority_stops_at_its_target(void **state)
{
	const struct kshim_trace *k = tb_kswapd_trace(0);
	struct tb_file *f = tb_file_create(PAGES(1100 * MB));
	unsigned long i = 0;

	TB_CLASSIC_LRU_ONLY("the classic LRU's scan per priority");
	assert_int_equal(tb_wmark(0, WMARK_MIN), 4);
	assert_int_equal(tb_wmark(0, WMARK_LOW), 32);
	assert_int_equal(tb_wmark(0, WMARK_HIGH), 60);
	tb_run_in("");
	read_down_to_low(f, &i);
	lru_add_drain();
	assert_int_equal(node_page_state(NODE_DATA(0), NR_INACTIVE_FILE), 281568);
	assert_int_equal(tb_file_read(f, i), 0);
	assert_int_equal(pageoutruns(), 1);
	assert_int_equal(k->inactive_scanned[FILE][DEF_PRIO], 64);
	assert_int_equal(k->inactive_reclaimed[FILE][DEF_PRIO], 64);
	assert_int_equal(k->min_priority, DEF_PRIO);
	assert_int_equal(tb_free_pages(0), 31 + 64);
}

/*
 * Balanced, kswapd sleeps HZ/10 first (kswapd_try_to_sleep()); woken by
 * nobody, it checks the node again and, still balanced, sleeps until
 * woken, counting neither of the "hit quickly" events. Throughout, the
 * zones are marked as being reclaimed (ZONE_RECLAIM_ACTIVE) only while
 * balance_pgdat() runs.
 */
static void kswapd_left_balanced_sleeps_until_woken(void **state)
{
	struct tb_file *f = tb_file_create(PAGES(128 * MB));
	struct zone *zone = &NODE_DATA(0)->node_zones[ZONE_NORMAL];
	unsigned long i = 0;

	TB_CLASSIC_LRU_ONLY("the classic LRU's scan per priority");
	tb_run_in("");
	kswapd_wake(f, &i);
	assert_false(test_bit(ZONE_RECLAIM_ACTIVE, &zone->flags));
	msleep(200);
	assert_int_equal(pageoutruns(), 1);
	assert_int_equal(hit_quickly(KSWAPD_LOW_WMARK_HIT_QUICKLY), 0);
	assert_int_equal(hit_quickly(KSWAPD_HIGH_WMARK_HIT_QUICKLY), 0);
	assert_true(waitqueue_active(&NODE_DATA(0)->kswapd_wait));
	assert_int_equal(tb_kswapd_failures(NODE_DATA(0)), 0);
	/* asleep for good: woken again at low, as the first time */
	kswapd_wake(f, &i);
	assert_int_equal(hit_quickly(KSWAPD_LOW_WMARK_HIT_QUICKLY), 0);
	assert_int_equal(hit_quickly(KSWAPD_HIGH_WMARK_HIT_QUICKLY), 0);
}

/*
 * Woken again during its first short sleep (free memory back at low
 * within HZ/10): schedule_timeout() returns early, and kswapd counts
 * KSWAPD_LOW_WMARK_HIT_QUICKLY and balances the node again.
 */
static void kswapd_woken_within_its_short_sleep_counts_low_wmark_hit_quickly(void **state)
{
	struct tb_file *f = tb_file_create(PAGES(128 * MB));
	unsigned long i = 0;

	TB_CLASSIC_LRU_ONLY("the classic LRU's scan per priority");
	tb_run_in("");
	kswapd_wake(f, &i);
	kswapd_wake(f, &i);
	assert_int_equal(hit_quickly(KSWAPD_LOW_WMARK_HIT_QUICKLY), 1);
	assert_int_equal(hit_quickly(KSWAPD_HIGH_WMARK_HIT_QUICKLY), 0);
	assert_int_equal(tb_kswapd_trace(0)->kswapd_wake_count, 2);
}

/*
 * Free memory taken down below high but not to low during the short
 * sleep: nothing wakes kswapd (wakeup_kswapd() is called below low only),
 * but after HZ/10 it finds the node unbalanced, counts
 * KSWAPD_HIGH_WMARK_HIT_QUICKLY and balances it at once: from 352 free,
 * 3 + 7 + 15 + 31 = 56 pages at priorities 12 to 9, 408 free.
 */
static void kswapd_finding_free_below_high_after_its_short_sleep_balances_again(void **state)
{
	struct tb_file *f = tb_file_create(PAGES(128 * MB));
	unsigned long i = 0, steal;

	TB_CLASSIC_LRU_ONLY("the classic LRU's scan per priority");
	tb_run_in("");
	kswapd_wake(f, &i);
	while (tb_free_pages(0) > 352)
		assert_int_equal(tb_file_read(f, i++), 0);
	steal = kshim_reclaim_event_read(PGSTEAL_KSWAPD);
	assert_int_equal(pageoutruns(), 1);
	msleep(200);
	assert_int_equal(hit_quickly(KSWAPD_LOW_WMARK_HIT_QUICKLY), 0);
	assert_int_equal(hit_quickly(KSWAPD_HIGH_WMARK_HIT_QUICKLY), 1);
	assert_int_equal(pageoutruns(), 2);
	assert_int_equal(kshim_reclaim_event_read(PGSTEAL_KSWAPD), steal + 56);
	assert_int_equal(tb_free_pages(0), 408);
	assert_int_equal(tb_kswapd_trace(0)->kswapd_wake_count, 2);
}

/*
 * Anonymous memory without swap, nothing else: kswapd, woken at low,
 * reclaims nothing, and balance_pgdat() counts a failure on the node.
 * Unbalanced, kswapd does not sleep but runs again at once, until
 * MAX_RECLAIM_RETRIES (16) runs have failed: the node is hopeless
 * (prepare_kswapd_sleep()), kswapd sleeps, and wakeup_kswapd() leaves the
 * node to direct reclaim: allocations further below low do not wake it.
 * A hopeless node does not throttle direct reclaim either
 * (allow_direct_reclaim()): page cache read, free memory taken under the
 * pfmemalloc reserve (half of min: 128), a GFP_KERNEL allocation reclaims
 * at once. Its progress revives kswapd (shrink_node(): a node that
 * reclaimed anything has its failures reset; 7.2, kswapd_try_clear_hopeless:
 * only once the node is balanced, which it is not here).
 */
static void kswapd_gives_up_a_hopeless_node_until_direct_reclaim_progresses(void **state)
{
	unsigned long ram = PAGES(64 * MB), i = 0, k;
	struct tb_file *f = tb_file_create(1024);
	struct pglist_data *pgdat = NODE_DATA(0);
	struct folio *folio;
	struct tb_vma *vma;
	LIST_HEAD(held);

	tb_run_in("");
	vma = tb_map_anon(ram);
	while (tb_free_pages(0) > tb_wmark(0, WMARK_LOW))
		assert_int_equal(tb_touch(vma, i++, true), 0);
	assert_int_equal(tb_touch(vma, i++, true), 0);
	assert_int_equal(kshim_trace.wakeup_kswapd_count, 1);
	assert_int_equal(pageoutruns(), MAX_RECLAIM_RETRIES);
	assert_int_equal(tb_kswapd_failures(pgdat), MAX_RECLAIM_RETRIES);
	assert_int_equal(kshim_reclaim_event_read(PGSTEAL_KSWAPD), 0);
	/* after each of the first 15 runs: unbalanced and not yet hopeless */
	assert_int_equal(hit_quickly(KSWAPD_HIGH_WMARK_HIT_QUICKLY), MAX_RECLAIM_RETRIES - 1);
	assert_true(waitqueue_active(&pgdat->kswapd_wait));
	for (k = 0; k < 10; k++)
		assert_int_equal(tb_touch(vma, i++, true), 0);
	msleep(200);
	assert_int_equal(kshim_trace.wakeup_kswapd_count, 1);
	assert_int_equal(pageoutruns(), MAX_RECLAIM_RETRIES);

	tb_unmap(vma);
	tb_read_range(f, 1024);
	tb_take_free_pages_down_to(100, &held);
	folio = tb_alloc_folio(GFP_KERNEL, 0);
	assert_non_null(folio);
	list_add(&folio->lru, &held);
	assert_int_equal(kshim_vm_event_read(PGSCAN_DIRECT_THROTTLE), 0);
	assert_int_equal(pageoutruns(), MAX_RECLAIM_RETRIES);
	assert_true(kshim_reclaim_event_read(PGSTEAL_DIRECT) > 0);
	/*
	 * 7.2 (kswapd_try_clear_hopeless): only a balanced node is revived,
	 * and this one, its free pages held, is not
	 */
	assert_int_equal(tb_kswapd_failures(pgdat),
			 TB_HAVE_kswapd_try_clear_hopeless ? MAX_RECLAIM_RETRIES : 0);
	tb_put_folios(&held);
}

/*
 * kswapd too leaves the refaults it has seen behind, the node's (the root
 * memcg's lruvec, whose counts are the hierarchy's): activations in memcg
 * "a" (whose own memory.reclaim leaves the root's snapshot alone), then
 * page cache read in the root until kswapd balances the node.
 */
static void kswapd_snapshots_the_refaults_of_the_node(void **state)
{
	struct tb_file *f = tb_file_create(PAGES(64 * MB));
	struct lruvec *root = mem_cgroup_lruvec(NULL, NODE_DATA(0));
	unsigned long i = 0;

	TB_CLASSIC_LRU_ONLY("the classic LRU's refault snapshot");
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	activate_refaults("a");
	assert_int_equal(root->refaults[WORKINGSET_ANON], 0);
	assert_int_equal(root->refaults[WORKINGSET_FILE], 0);
	tb_run_in("");
	assert_int_equal(pageoutruns(), 0);
	read_down_to_low(f, &i);
	assert_int_equal(tb_file_read(f, i), 0);
	assert_int_equal(pageoutruns(), 1);
	assert_int_equal(root->refaults[WORKINGSET_ANON], 64);
	assert_int_equal(root->refaults[WORKINGSET_FILE], 32);
}

/*
 * Reclaim that scans no anon still rebalances the anon lists
 * (shrink_lruvec(): "even if we did not try to evict anon pages"): 64
 * anon pages swapped out and faulted back in, activated as refaults, none
 * inactive, swap still free; memory.reclaim at swappiness 0 scans page
 * cache only (get_scan_count(): SCAN_FILE), and each shrink_lruvec()
 * ends by deactivating up to SWAP_CLUSTER_MAX active anon pages while
 * the inactive anon list is low: 32 at priority 12, where 1024 pages of
 * page cache give no file to scan, and 32 at priority 11.
 */
/*
 * n active anon pages in "a" (swapped out and faulted back in: refaults),
 * none inactive; the last of them still in this CPU's LRU batch unless
 * drained
 */
static struct tb_vma *n_active_anon_faulted_in(unsigned long n, bool drain)
{
	struct tb_file *f = tb_file_create(1024);
	struct tb_vma *vma;
	unsigned long i;
	char amount[32];

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	vma = tb_map_anon(n);
	tb_touch_range(vma, n, true);
	snprintf(amount, sizeof(amount), "%luK", n * 4);
	tb_reclaim_swappiness("a", amount, 200);
	assert_int_equal(tb_vma_swapped(vma), n);
	tb_read_range(f, 1024);
	lru_add_drain();
	for (i = 0; i < n; i++)
		assert_int_equal(tb_touch(vma, i, false), 0);
	if (drain)
		lru_add_drain();
	assert_int_equal(tb_stat("a", "active_anon"), (drain ? n : n - n % 31) * 4096);
	assert_int_equal(tb_stat("a", "inactive_anon"), 0);
	return vma;
}

static void active_anon_faulted_in(bool drain)
{
	n_active_anon_faulted_in(64, drain);
}

static void active_anon_only(void)
{
	active_anon_faulted_in(true);
}

static void file_only_reclaim_ages_active_anon_when_inactive_anon_is_low(void **state)
{
	TB_CLASSIC_LRU_ONLY("the classic LRU's active/inactive balance");
	active_anon_only();
	kshim_trace_reset();
	tb_reclaim_swappiness("a", "128K", 0);
	assert_int_equal(scanned_above_zero(ANON) + kshim_trace.inactive_scanned[ANON][0], 0);
	/* 1024 pages of page cache: nothing to scan before priority 10 */
	assert_int_equal(kshim_trace.inactive_scanned[FILE][DEF_PRIO], 0);
	assert_int_equal(kshim_trace.active_taken[ANON][DEF_PRIO], 32);
	assert_int_equal(kshim_trace.active_taken[ANON][DEF_PRIO - 1], 32);
	assert_int_equal(tb_stat("a", "active_anon"), 0);
	assert_int_equal(tb_stat("a", "inactive_anon"), 64 * 4096);
}

/*
 * The same with 2 of the 64 still in this CPU's batch of folios to add
 * (a batch holds 31): shrink_active_list() drains it first, so the
 * aging at priority 11 finds 32 pages on the active list, not 30.
 */
static void anon_aging_drains_this_cpus_lru_batch_first(void **state)
{
	TB_CLASSIC_LRU_ONLY("the classic LRU's active/inactive balance");
	active_anon_faulted_in(false);
	kshim_trace_reset();
	tb_reclaim_swappiness("a", "128K", 0);
	assert_int_equal(kshim_trace.active_taken[ANON][DEF_PRIO], 32);
	assert_int_equal(kshim_trace.active_taken[ANON][DEF_PRIO - 1], 32);
	assert_int_equal(tb_stat("a", "active_anon"), 0);
	assert_int_equal(tb_stat("a", "inactive_anon"), 64 * 4096);
}

static int setup_one_swap_slot(void **state)
{
	tb_mem = (struct tb_mem_config){ .swap_pages = 1 };
	return tb_reclaim_setup(state);
}

/*
 * shrink_active_list() gives referenced executable folios another trip
 * on the active list for page cache only: the 64 active anon pages in an
 * exec mapping (mprotect(PROT_EXEC)), touched again, are deactivated by
 * the aging all the same, 32 at priority 12 and 32 at 11, none rotated.
 */
static void anon_aging_deactivates_referenced_anon_of_an_exec_mapping(void **state)
{
	struct tb_vma *vma;

	TB_CLASSIC_LRU_ONLY("the classic LRU's active/inactive balance");
	vma = n_active_anon_faulted_in(64, true);
	assert_int_equal(tb_mprotect(vma, PROT_READ | PROT_WRITE | PROT_EXEC), 0);
	tb_touch_range(vma, 64, false);
	kshim_trace_reset();
	tb_reclaim_swappiness("a", "128K", 0);
	assert_int_equal(kshim_trace.active_taken[ANON][DEF_PRIO], 32);
	assert_int_equal(kshim_trace.active_taken[ANON][DEF_PRIO - 1], 32);
	assert_int_equal(kshim_trace.active_rotated[ANON][DEF_PRIO], 0);
	assert_int_equal(kshim_trace.active_rotated[ANON][DEF_PRIO - 1], 0);
	assert_int_equal(tb_stat("a", "active_anon"), 0);
}

/* a swap device of one page is swap all the same: the anon lists are aged */
static void file_only_reclaim_ages_active_anon_with_one_page_of_swap(void **state)
{
	TB_CLASSIC_LRU_ONLY("the classic LRU's active/inactive balance");
	n_active_anon_faulted_in(1, true);
	kshim_trace_reset();
	tb_reclaim_swappiness("a", "128K", 0);
	assert_int_equal(kshim_trace.active_taken[ANON][DEF_PRIO], 1);
	assert_int_equal(tb_stat("a", "active_anon"), 0);
}

/*
 * ... even when the memcg may not swap: can_age_anon_pages() asks whether
 * the machine has swap (total_swap_pages), not the memcg; with
 * memory.swap.max 0 the reclaim is file only (SCAN_FILE: no swap for the
 * memcg) and still deactivates the active anon pages, 32 per call.
 */
static void file_only_reclaim_ages_active_anon_of_a_memcg_without_swap(void **state)
{
	TB_CLASSIC_LRU_ONLY("the classic LRU's active/inactive balance");
	active_anon_only();
	assert_write_ok("a", "memory.swap.max", "0");
	kshim_trace_reset();
	assert_write_ok("a", "memory.reclaim", "128K");
	assert_int_equal(scanned_above_zero(ANON) + kshim_trace.inactive_scanned[ANON][0], 0);
	assert_int_equal(kshim_trace.active_taken[ANON][DEF_PRIO], 32);
	assert_int_equal(kshim_trace.active_taken[ANON][DEF_PRIO - 1], 32);
	assert_int_equal(tb_stat("a", "active_anon"), 0);
}

/* ---- the pfmemalloc reserve: when direct reclaim waits for kswapd ---- */

/*
 * RAM full of page cache read once and kswapd asleep; then free memory
 * taken down to free by allocations that neither reclaim nor wake
 * kswapd, and a GFP_KERNEL allocation that does not wake kswapd either:
 * under min, it enters try_to_free_pages(), whose throttle_direct_reclaim()
 * asks allow_direct_reclaim(): free pages above half the node's min
 * watermarks (the pfmemalloc reserve), or wait for kswapd (woken for it)
 * to restore them. Returns PGSCAN_DIRECT_THROTTLE.
 */
/* who allocates in throttled_at_as() */
enum reclaimer { USER_TASK, KILLED_TASK, KERNEL_THREAD };

static unsigned long throttled_at_as(unsigned long free, enum reclaimer who)
{
	unsigned long ram = PAGES(64 * MB);
	struct tb_file *f = tb_file_create(ram);
	struct pglist_data *pgdat = NODE_DATA(0);
	struct folio *folio;
	unsigned long runs;
	struct tb_task *t;
	LIST_HEAD(held);

	t = tb_run_in("");
	tb_read_range(f, ram);
	tb_touch_range(tb_map_anon(1), 1, true);	/* the world runs kswapd to its sleep */
	assert_true(waitqueue_active(&pgdat->kswapd_wait));
	tb_take_free_pages_down_to(free, &held);
	assert_int_equal(tb_free_pages(0), free);
	if (who == KILLED_TASK)
		tb_task_signal(t, SIGKILL);
	/* a kernel thread's allocation (kjournald committing a transaction) */
	if (who == KERNEL_THREAD)
		current->flags |= PF_KTHREAD;
	runs = pageoutruns();
	folio = tb_alloc_folio(GFP_KERNEL & ~__GFP_KSWAPD_RECLAIM, 0);
	current->flags &= ~PF_KTHREAD;
	assert_non_null(folio);
	list_add(&folio->lru, &held);
	assert_true(kshim_vm_event_read(ALLOCSTALL_NORMAL) > 0);
	/* kswapd is woken for a throttled reclaimer only: let it run if it was */
	tb_kthreads_settle();
	assert_int_equal(pageoutruns(), runs + kshim_vm_event_read(PGSCAN_DIRECT_THROTTLE));
	tb_put_folios(&held);
	return kshim_vm_event_read(PGSCAN_DIRECT_THROTTLE);
}

static unsigned long throttled_at(unsigned long free)
{
	return throttled_at_as(free, USER_TASK);
}

static struct tb_task *to_kill;

/* kill() from another task's CPU */
static void kill_to_kill(struct work_struct *work)
{
	tb_task_signal(to_kill, SIGKILL);
}

static DECLARE_DELAYED_WORK(kill_work, kill_to_kill);

/*
 * A direct reclaimer killed while it waits on pfmemalloc_wait (by
 * another task, a jiffy after it began to wait) does not reclaim:
 * throttle_direct_reclaim() finds the fatal signal after the wait and
 * try_to_free_pages() returns 1 at once, so that its allocator neither
 * reclaims nor OOM-kills for a task about to exit.
 */
static void direct_reclaim_killed_while_throttled_returns_without_reclaiming(void **state)
{
	unsigned long ram = PAGES(64 * MB);
	struct tb_file *f = tb_file_create(ram);
	LIST_HEAD(held);

	to_kill = tb_run_in("");
	tb_read_range(f, ram);
	tb_touch_range(tb_map_anon(1), 1, true);	/* the world runs kswapd to its sleep */
	tb_take_free_pages_down_to(128, &held);
	kshim_trace_reset();
	schedule_delayed_work(&kill_work, 1);
	assert_int_equal(try_to_free_pages(node_zonelist(0, GFP_KERNEL), 0, GFP_KERNEL, NULL), 1);
	assert_int_equal(kshim_vm_event_read(PGSCAN_DIRECT_THROTTLE), 1);
	assert_int_equal(kshim_trace.direct_reclaim_count, 0);
	assert_int_equal(kshim_vm_event_read(ALLOCSTALL_NORMAL), 0);
	assert_int_equal(kshim_reclaim_event_read(PGSTEAL_DIRECT), 0);
	tb_kthreads_settle();
	tb_put_folios(&held);
}

/* min 256: the reserve is 128 pages, and 128 free pages are not above it */
static void direct_reclaim_waits_at_half_of_min_free(void **state)
{
	assert_int_equal(tb_wmark(0, WMARK_MIN), 256);
	assert_int_equal(throttled_at(128), 1);
}

static void direct_reclaim_goes_on_above_half_of_min_free(void **state)
{
	assert_int_equal(throttled_at(129), 0);
}

/*
 * A task with a fatal signal pending is not throttled, whatever the
 * reserve (throttle_direct_reclaim(): it should exit and free its
 * memory): at 128 free pages it reclaims at once, as many rounds as
 * its allocation needs, kswapd left asleep.
 */
static void direct_reclaim_of_a_task_being_killed_does_not_wait(void **state)
{
	assert_int_equal(throttled_at_as(128, KILLED_TASK), 0);
	assert_true(kshim_reclaim_event_read(PGSTEAL_DIRECT) > 0);
}

/*
 * Nor is a kernel thread: it may be what reclaim waits for (a journal
 * commit that kswapd's writeback needs), so it reclaims at once.
 */
static void direct_reclaim_of_a_kernel_thread_does_not_wait(void **state)
{
	assert_int_equal(throttled_at_as(128, KERNEL_THREAD), 0);
	assert_true(kshim_reclaim_event_read(PGSTEAL_DIRECT) > 0);
}

/*
 * A node with no page on its LRU lists, its memory held by allocations
 * that neither reclaim nor wake kswapd, down to half of min: its free
 * pages are what it has to reclaim (zone_reclaimable_pages()), so it
 * has a pfmemalloc reserve, and a direct reclaimer waits for kswapd.
 * kswapd, woken, can reclaim nothing; it fails MAX_RECLAIM_RETRIES
 * runs in a row, the node is then hopeless and the reclaimer is let
 * through (allow_direct_reclaim()), to reclaim nothing either. 7.2
 * (zone_reclaimable_no_free): free pages are not reclaimable pages, the
 * zone gives no reserve, and the reclaimer neither waits nor wakes kswapd.
 */
static void direct_reclaim_waits_on_a_node_with_free_pages_only(void **state)
{
	LIST_HEAD(held);

	tb_run_in("");
	tb_take_free_pages_down_to(128, &held);
	assert_int_equal(node_page_state(NODE_DATA(0), NR_INACTIVE_FILE) +
			 node_page_state(NODE_DATA(0), NR_ACTIVE_FILE) +
			 node_page_state(NODE_DATA(0), NR_INACTIVE_ANON) +
			 node_page_state(NODE_DATA(0), NR_ACTIVE_ANON), 0);
	assert_int_equal(try_to_free_pages(node_zonelist(0, GFP_KERNEL), 0, GFP_KERNEL, NULL), 0);
#if TB_HAVE_zone_reclaimable_no_free
	/* no reserve: not throttled, kswapd never woken */
	assert_int_equal(kshim_vm_event_read(PGSCAN_DIRECT_THROTTLE), 0);
	assert_int_equal(tb_kswapd_failures(NODE_DATA(0)), 0);
	assert_int_equal(pageoutruns(), 0);
#else
	assert_int_equal(kshim_vm_event_read(PGSCAN_DIRECT_THROTTLE), 1);
	assert_int_equal(tb_kswapd_failures(NODE_DATA(0)), MAX_RECLAIM_RETRIES);
	assert_int_equal(pageoutruns(), MAX_RECLAIM_RETRIES);
#endif
	tb_put_folios(&held);
}

/* vm.min_free_kbytes=1028: min 257, the reserve 257 / 2 = 128 pages */
static int setup_odd_min(void **state)
{
	tb_mem = (struct tb_mem_config){ .min_free_kbytes = 1028 };
	return tb_reclaim_setup(state);
}

static void direct_reclaim_goes_on_above_half_of_an_odd_min(void **state)
{
	assert_int_equal(tb_wmark(0, WMARK_MIN), 257);
	assert_int_equal(throttled_at(129), 0);
}

/*
 * A watermark boost (two 512-page pageblocks stolen, the boost capped at
 * 150% of the high watermark: 576 pages, high boosted to 960) wakes
 * kswapd with 4096 pages free, above the unboosted high watermark.
 * balance_pgdat() reclaims the boost in boost mode (no writeback, no
 * swap) and does not lower its priority below DEF_PRIORITY - 2: 12288
 * pages of page cache read once, 2 pages at priority 12, 5 at 11, then
 * pass after pass at 10 until the boost is reclaimed (572 more: 579 in
 * all), and the node balanced at the unboosted watermarks ends the run.
 * The boost is then taken off the zone.
 */
static void kswapd_reclaims_a_boost_without_going_below_def_priority_minus_2(void **state)
{
	unsigned long ram = PAGES(64 * MB);
	struct zone *zone = &NODE_DATA(0)->node_zones[ZONE_NORMAL];
	struct tb_file *f = tb_file_create(ram * 3 / 4);
	const struct kshim_trace *k = tb_kswapd_trace(0);

	TB_CLASSIC_LRU_ONLY("the classic LRU's scan per priority");
	tb_run_in("");
	tb_read_range(f, ram * 3 / 4);
	tb_kthreads_settle();
	assert_int_equal(pageoutruns(), 0);
	tb_mem_steal_pageblock(0);
	tb_mem_steal_pageblock(0);
	assert_int_equal(zone->watermark_boost, 576);
	assert_int_equal(tb_free_pages(0), 4096);
	assert_int_equal(tb_wmark(0, WMARK_HIGH), 384 + 576);
	tb_kthreads_settle();
	assert_int_equal(pageoutruns(), 1);
	assert_int_equal(k->inactive_scanned[FILE][12], 2);
	assert_int_equal(k->inactive_scanned[FILE][11], 5);
	assert_int_equal(k->inactive_scanned[FILE][10], 572);
	assert_int_equal(k->min_priority, 10);
	assert_int_equal(kshim_reclaim_event_read(PGSTEAL_KSWAPD), 579);
	assert_int_equal(zone->watermark_boost, 0);
	assert_int_equal(tb_free_pages(0), 4096 + 579);
}

/* vm.watermark_scale_factor=1000: low 1894, high 3532 (min 256) */
static int setup_wide_watermarks(void **state)
{
	tb_mem = (struct tb_mem_config){ .watermark_scale_factor = 1000 };
	return tb_reclaim_setup(state);
}

/*
 * A reclaimer throttled on pfmemalloc_wait goes on once the reserve is
 * back, before kswapd is done: with the high watermark far above min,
 * kswapd has thousands of pages to reclaim and runs on (on its own CPU,
 * its own clock) after the pass that restored the reserve, where
 * balance_pgdat() wakes the waiter. The task slept one jiffy; when its
 * allocation returns, free memory is still under high, which kswapd
 * reaches later. (The shim's wait_event() re-checks its condition every
 * jiffy, so this case cannot tell that wake-up from a lost one.)
 */
static void kswapd_wakes_a_throttled_reclaimer_before_the_node_is_balanced(void **state)
{
	unsigned long ram = PAGES(64 * MB);
	struct tb_file *f = tb_file_create(ram);
	struct pglist_data *pgdat = NODE_DATA(0);
	struct folio *folio;
	struct tb_task *t;
	LIST_HEAD(held);
	u64 t0;

	t = tb_run_in("");
	tb_read_range(f, ram);
	tb_touch_range(tb_map_anon(1), 1, true);	/* the world runs kswapd to its sleep */
	assert_true(waitqueue_active(&pgdat->kswapd_wait));
	assert_int_equal(tb_wmark(0, WMARK_HIGH), 3532);
	tb_take_free_pages_down_to(100, &held);
	t0 = tb_task_vclock_ns(t);
	folio = tb_alloc_folio(GFP_KERNEL & ~__GFP_KSWAPD_RECLAIM, 0);
	assert_non_null(folio);
	list_add(&folio->lru, &held);
	assert_int_equal(kshim_vm_event_read(PGSCAN_DIRECT_THROTTLE), 1);
	assert_true(tb_task_vclock_ns(t) - t0 < 2 * (1000000000ULL / HZ));
	assert_true(tb_free_pages(0) < tb_wmark(0, WMARK_HIGH));
	tb_kthreads_settle();
	assert_true(tb_free_pages(0) > tb_wmark(0, WMARK_HIGH));
	tb_put_folios(&held);
}

/*
 * 16 MiB of RAM full of page cache read once, every folio of it held
 * by someone else (a reference: __remove_mapping() cannot freeze the
 * refcount, the folio is kept): kswapd, woken at low, frees nothing. Each run goes
 * through the priority loop in cache trim mode (plenty of inactive file,
 * no refaults: file only), which fails (shrink_node() marks
 * cache_trim_mode_failed), so balance_pgdat() goes through it once more
 * without cache trim mode before it counts a failure: every priority
 * scans the n pages of the inactive list >> priority twice per run, and
 * kswapd runs MAX_RECLAIM_RETRIES times before it leaves the node alone.
 */
static int setup_16m(void **state)
{
	tb_mem = (struct tb_mem_config){ .ram_pages = PAGES(16 * MB) };
	return tb_reclaim_setup(state);
}

static int setup_16m_swap(void **state)
{
	tb_mem = (struct tb_mem_config){ .ram_pages = PAGES(16 * MB), .swap_pages = PAGES(16 * MB) };
	return tb_reclaim_setup(state);
}

/*
 * page cache read down to low, pages [first_held, n) of it held by
 * someone else, then one page more (kswapd woken); returns n
 */
static unsigned long held_page_cache_wakes_kswapd(struct tb_file *f, unsigned long first_held)
{
	unsigned long i = 0, n;

	tb_run_in("");
	read_down_to_low(f, &i);
	n = i;
	lru_add_drain();
	for (i = first_held; i < n; i++)
		tb_folio_get(tb_file_folio(f, i));
	assert_int_equal(tb_file_read(f, n), 0);
	return n;
}

static void kswapd_retries_without_cache_trim_mode_before_it_fails(void **state)
{
	struct tb_file *f = tb_file_create(PAGES(16 * MB));
	const struct kshim_trace *k = tb_kswapd_trace(0);
	unsigned long i, n;
	int p;

	TB_CLASSIC_LRU_ONLY("the classic LRU's cache trim mode");
	n = held_page_cache_wakes_kswapd(f, 0);
	assert_int_equal(pageoutruns(), MAX_RECLAIM_RETRIES);
	assert_int_equal(tb_kswapd_failures(NODE_DATA(0)), MAX_RECLAIM_RETRIES);
	assert_int_equal(kshim_reclaim_event_read(PGSTEAL_KSWAPD), 0);
	for (p = DEF_PRIO; p >= 1; p--)
		assert_int_equal(k->inactive_scanned[FILE][p], 2 * MAX_RECLAIM_RETRIES * (n >> p));
	assert_int_equal(k->inactive_scanned[FILE][0], 0);
	for (i = 0; i < n; i++)
		tb_folio_put(tb_file_folio(f, i));
}

/*
 * The same with the oldest page not held: the first run frees it at
 * priority 11 and, having reclaimed something, neither retries without
 * cache trim mode (that retry is for a loop that went all the way down
 * for nothing) nor counts a failure. MAX_RECLAIM_RETRIES failing runs
 * follow, each twice through the loop: 1 + 2 * 16 = 33 passes, each
 * scanning the n - 1 pages left >> priority.
 */
static void kswapd_that_reclaimed_does_not_retry_without_cache_trim_mode(void **state)
{
	struct tb_file *f = tb_file_create(PAGES(16 * MB));
	const struct kshim_trace *k = tb_kswapd_trace(0);
	unsigned long i, n;
	int p;

	TB_CLASSIC_LRU_ONLY("the classic LRU's cache trim mode");
	n = held_page_cache_wakes_kswapd(f, 1);
	assert_int_equal(pageoutruns(), 1 + MAX_RECLAIM_RETRIES);
	assert_int_equal(tb_kswapd_failures(NODE_DATA(0)), MAX_RECLAIM_RETRIES);
	assert_int_equal(kshim_reclaim_event_read(PGSTEAL_KSWAPD), 1);
	assert_int_equal(k->inactive_reclaimed[FILE][DEF_PRIO - 1], 1);
	for (p = DEF_PRIO - 1; p >= 1; p--)
		assert_int_equal(k->inactive_scanned[FILE][p], (1 + 2 * MAX_RECLAIM_RETRIES) * ((n - 1) >> p));
	assert_false(tb_file_folio(f, 0));
	for (i = 1; i < n; i++)
		tb_folio_put(tb_file_folio(f, i));
}

/*
 * kswapd's first sleep lasts HZ/10 (100 jiffies, 100 ms). Balanced, then
 * left alone for ms, after which free memory is taken back to low by page
 * cache reads (117 of them, 100 us each: 11.7 ms): woken within its short
 * sleep it counts KSWAPD_LOW_WMARK_HIT_QUICKLY; past it, it has gone to
 * sleep for good and is woken as the first time, counting nothing.
 */
static void kswapd_woken_after(unsigned int ms, unsigned long low_hits)
{
	struct tb_file *f = tb_file_create(PAGES(128 * MB));
	unsigned long i = 0;

	TB_CLASSIC_LRU_ONLY("the classic LRU's scan per priority");
	tb_run_in("");
	kswapd_wake(f, &i);
	msleep(ms);
	kswapd_wake(f, &i);
	assert_int_equal(hit_quickly(KSWAPD_LOW_WMARK_HIT_QUICKLY), low_hits);
	assert_int_equal(hit_quickly(KSWAPD_HIGH_WMARK_HIT_QUICKLY), 0);
}

/* 80 + 11.7 ms: within the short sleep */
static void kswapd_short_sleep_lasts_past_91_ms(void **state)
{
	kswapd_woken_after(80, 1);
}

/* 105 ms: past the short sleep before the first read */
static void kswapd_short_sleep_ends_before_105_ms(void **state)
{
	kswapd_woken_after(105, 0);
}

/*
 * A boost on a node whose free memory is already under the boosted low
 * watermark: the boost wakes kswapd for ZONE_NORMAL, then a user page
 * allocation (GFP_HIGHUSER_MOVABLE) that fails at the boosted low
 * watermark wakes it for ZONE_MOVABLE before it runs (wakeup_kswapd()
 * keeps the highest zone asked for). balance_pgdat() walks zones up to
 * ZONE_MOVABLE, which has no memory here; unbalanced, it gives the boost
 * up and reclaims to the (boosted) high watermark, and at its end takes
 * the boost off the zone that had it, ZONE_NORMAL, not off the last zone
 * it looked at.
 */
static void kswapd_woken_up_to_zone_movable_drops_the_boost_of_zone_normal(void **state)
{
	unsigned long ram = PAGES(64 * MB), i = 0;
	struct zone *zone = &NODE_DATA(0)->node_zones[ZONE_NORMAL];
	struct tb_file *f = tb_file_create(ram);
	struct folio *folio;

	tb_run_in("");
	/* under the boosted low watermark to come: 320 + 576 */
	while (tb_free_pages(0) > 800)
		assert_int_equal(tb_file_read(f, i++), 0);
	assert_int_equal(pageoutruns(), 0);
	tb_mem_steal_pageblock(0);
	tb_mem_steal_pageblock(0);
	assert_int_equal(zone->watermark_boost, 576);
	assert_int_equal(READ_ONCE(NODE_DATA(0)->kswapd_highest_zoneidx), ZONE_NORMAL);
	folio = tb_alloc_folio(GFP_HIGHUSER_MOVABLE, 0);
	assert_non_null(folio);
	assert_int_equal(pageoutruns(), 1);
	assert_int_equal(zone->watermark_boost, 0);
	assert_true(tb_free_pages(0) > 384 + 576);
	folio_put(folio);
}

/*
 * kswapd may write from its first pass on (balance_pgdat(): may_writepage
 * unless boosting, vm.laptop_mode being 0): anonymous memory made cold
 * (MADV_COLD: ptes old, not referenced) and nothing else, swap on;
 * touched on until kswapd wakes, it swaps out at DEF_PRIORITY every page
 * it scans there.
 */
static void kswapd_swaps_out_cold_anon_at_def_priority(void **state)
{
	unsigned long ram = PAGES(64 * MB), i;
	const struct kshim_trace *k = tb_kswapd_trace(0);
	struct tb_vma *cold, *vma;

	TB_CLASSIC_LRU_ONLY("the classic LRU's scan per priority");
	tb_run_in("");
	cold = tb_map_anon(ram / 2);
	tb_touch_range(cold, ram / 2, true);
	assert_int_equal(tb_madvise(cold, MADV_COLD), 0);
	vma = tb_map_anon(ram);
	for (i = 0; !pageoutruns(); i++)
		assert_int_equal(tb_touch(vma, i, true), 0);
	assert_true(k->inactive_scanned[ANON][DEF_PRIO] > 0);
	assert_int_equal(k->inactive_reclaimed[ANON][DEF_PRIO], k->inactive_scanned[ANON][DEF_PRIO]);
}

/*
 * vm.laptop_mode: kswapd may not write (balance_pgdat(): may_writepage =
 * !laptop_mode) until its priority is below DEF_PRIORITY - 2, where it
 * raises may_writepage for the rest of the run. The same cold anonymous
 * memory as above, nothing else to reclaim: priorities 12 to 10 scan it
 * and swap none out, 9 is the first that does.
 * Without reclaim_laptop_mode the sysctl is ignored (page-writeback.c
 * warns and keeps its own copy; vmscan.c reads none): kswapd swaps out at
 * DEF_PRIORITY every page it scans there, as with vm.laptop_mode 0.
 */
static void kswapd_in_laptop_mode_swaps_out_from_def_priority_minus_3(void **state)
{
	unsigned long ram = PAGES(64 * MB), i;
	const struct kshim_trace *k = tb_kswapd_trace(0);
	struct tb_vma *cold, *vma;
	int p;

	TB_CLASSIC_LRU_ONLY("the classic LRU's scan per priority");
	tb_run_in("");
	cold = tb_map_anon(ram / 2);
	tb_touch_range(cold, ram / 2, true);
	assert_int_equal(tb_madvise(cold, MADV_COLD), 0);
	laptop_mode = 1;
	vma = tb_map_anon(ram);
	for (i = 0; !pageoutruns(); i++)
		assert_int_equal(tb_touch(vma, i, true), 0);
#if TB_HAVE_reclaim_laptop_mode
	for (p = DEF_PRIO; p > DEF_PRIO - 3; p--) {
		assert_true(k->inactive_scanned[ANON][p] > 0);
		assert_int_equal(k->inactive_reclaimed[ANON][p], 0);
	}
	assert_true(k->inactive_reclaimed[ANON][DEF_PRIO - 3] > 0);
#else
	(void)p;
	assert_true(k->inactive_scanned[ANON][DEF_PRIO] > 0);
	assert_int_equal(k->inactive_reclaimed[ANON][DEF_PRIO], k->inactive_scanned[ANON][DEF_PRIO]);
#endif
}

/* vm.laptop_mode back to 0 whatever the case did */
static int laptop_mode_teardown(void **state)
{
	laptop_mode = 0;
	return tb_reclaim_teardown(state);
}

/*
 * The same without page cache: 16 MiB of anonymous memory, every page
 * DMA-pinned (shrink_folio_list() does not add a pinned folio to swap),
 * swap on. kswapd, woken at low, scans the inactive anon list >> priority
 * at priorities 12 to 1 and frees nothing; no cache trim mode failed
 * (there is no page cache), so one pass of the priority loop per run,
 * MAX_RECLAIM_RETRIES runs. The node is left as the passes flagged it,
 * never balanced (only a balanced node's flags are cleared): no dirty
 * page met, so not congested, none under writeback, so no
 * PGDAT_WRITEBACK; but PGDAT_DIRTY, since no pass took a file page and
 * shrink_node() finds "all" of none unqueued dirty (0 == 0).
 */
static void kswapd_fails_a_node_of_pinned_anon_in_one_pass_per_run(void **state)
{
	unsigned long i = 0, n;
	const struct kshim_trace *k = tb_kswapd_trace(0);
	struct tb_vma *vma;
	int p;

	TB_CLASSIC_LRU_ONLY("the classic LRU's scan per priority");
	tb_run_in("");
	vma = tb_map_anon(PAGES(16 * MB));
	while (tb_free_pages(0) > tb_wmark(0, WMARK_LOW))
		assert_int_equal(tb_touch(vma, i++, true), 0);
	n = i;
	lru_add_drain();
	for (i = 0; i < n; i++)
		tb_folio_pin(tb_vma_folio(vma, i));
	assert_int_equal(tb_touch(vma, n, true), 0);
	assert_int_equal(pageoutruns(), MAX_RECLAIM_RETRIES);
	assert_int_equal(tb_kswapd_failures(NODE_DATA(0)), MAX_RECLAIM_RETRIES);
	assert_int_equal(kshim_reclaim_event_read(PGSTEAL_KSWAPD), 0);
	for (p = DEF_PRIO; p >= 1; p--)
		assert_int_equal(k->inactive_scanned[ANON][p], MAX_RECLAIM_RETRIES * (n >> p));
	assert_false(test_bit(LRUVEC_NODE_CONGESTED, &mem_cgroup_lruvec(NULL, NODE_DATA(0))->flags));
	assert_false(test_bit(PGDAT_WRITEBACK, &NODE_DATA(0)->flags));
#if TB_HAVE_pgdat_dirty
	assert_true(test_bit(PGDAT_DIRTY, &NODE_DATA(0)->flags));
#endif
	for (i = 0; i < n; i++)
		tb_folio_unpin(tb_vma_folio(vma, i));
}

/*
 * The same node with 64 pages of page cache written, on a file whose
 * writes fail: the passes at low priorities meet them dirty, not under
 * writeback, so not congested (marked and activated; the flushers' writes
 * fail), and do not flag the node congested. kswapd fails its runs as
 * above and leaves the node, whose congestion flag stays clear.
 */
static void kswapd_does_not_flag_congested_a_pass_whose_dirty_pages_were_not(void **state)
{
	struct tb_file *f = tb_file_create(64);
	unsigned long i = 0, n;
	struct tb_vma *vma;

	TB_CLASSIC_LRU_ONLY("the classic LRU's scan per priority");
	tb_file_set_write_error(f, -EIO);
	tb_run_in("");
	for (i = 0; i < 64; i++)
		assert_int_equal(tb_file_write(f, i), 0);
	vma = tb_map_anon(PAGES(16 * MB));
	i = 0;
	while (tb_free_pages(0) > tb_wmark(0, WMARK_LOW))
		assert_int_equal(tb_touch(vma, i++, true), 0);
	n = i;
	lru_add_drain();
	for (i = 0; i < n; i++)
		tb_folio_pin(tb_vma_folio(vma, i));
	assert_int_equal(tb_touch(vma, n, true), 0);
	tb_kthreads_settle();
	assert_int_equal(kshim_reclaim_event_read(PGSTEAL_KSWAPD), 0);
	assert_true(tb_kswapd_trace(0)->inactive_stat.nr_dirty > 0);
	assert_int_equal(tb_kswapd_trace(0)->inactive_stat.nr_congested, 0);
	assert_int_equal(tb_kswapd_failures(NODE_DATA(0)), MAX_RECLAIM_RETRIES);
	assert_false(test_bit(LRUVEC_NODE_CONGESTED, &mem_cgroup_lruvec(NULL, NODE_DATA(0))->flags));
	for (i = 0; i < n; i++)
		tb_folio_unpin(tb_vma_folio(vma, i));
}

/*
 * A watermark boost on a node whose page cache is all held by someone
 * else: balance_pgdat()'s first boosted pass (priority 12, cache trim
 * mode: 12288 >> 12 = 3 pages) frees nothing, and boosted reclaim stops
 * at once rather than raise the priority; the run ends at priority 12,
 * so the retry without cache trim mode (for a loop that went all the way
 * down) is not taken. Nothing freed counts as a kswapd failure (7.2,
 * kswapd_boost_no_failure: not in a boosted run); the boost is dropped
 * all the same.
 */
static void kswapd_gives_a_boost_up_after_a_pass_that_frees_nothing(void **state)
{
	unsigned long ram = PAGES(64 * MB), i, n = ram * 3 / 4;
	struct zone *zone = &NODE_DATA(0)->node_zones[ZONE_NORMAL];
	struct tb_file *f = tb_file_create(n);
	const struct kshim_trace *k = tb_kswapd_trace(0);
	int p;

	TB_CLASSIC_LRU_ONLY("the classic LRU's cache trim mode");
	tb_run_in("");
	tb_read_range(f, n);
	lru_add_drain();
	tb_kthreads_settle();
	for (i = 0; i < n; i++)
		tb_folio_get(tb_file_folio(f, i));
	tb_mem_steal_pageblock(0);
	assert_int_equal(zone->watermark_boost, 512);
	tb_kthreads_settle();
	assert_int_equal(pageoutruns(), 1);
	assert_int_equal(k->inactive_scanned[FILE][DEF_PRIO], n >> DEF_PRIO);
	for (p = DEF_PRIO - 1; p >= 0; p--)
		assert_int_equal(k->inactive_scanned[FILE][p], 0);
	assert_int_equal(kshim_reclaim_event_read(PGSTEAL_KSWAPD), 0);
	/* 7.2 (kswapd_boost_no_failure): a boosted run is no failure */
	assert_int_equal(tb_kswapd_failures(NODE_DATA(0)), !TB_HAVE_kswapd_boost_no_failure);
	assert_int_equal(zone->watermark_boost, 0);
	for (i = 0; i < n; i++)
		tb_folio_put(tb_file_folio(f, i));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		TB_RECLAIM_TEST(kswapd_gives_a_boost_up_after_a_pass_that_frees_nothing),
		TB_RECLAIM_TEST_ON(kswapd_fails_a_node_of_pinned_anon_in_one_pass_per_run, setup_16m_swap),
		TB_RECLAIM_TEST_ON(kswapd_does_not_flag_congested_a_pass_whose_dirty_pages_were_not,
				   setup_16m_swap),
		TB_RECLAIM_TEST(kswapd_short_sleep_lasts_past_91_ms),
		TB_RECLAIM_TEST(kswapd_short_sleep_ends_before_105_ms),
		TB_RECLAIM_TEST_ON(kswapd_retries_without_cache_trim_mode_before_it_fails, setup_16m),
		TB_RECLAIM_TEST_ON(kswapd_that_reclaimed_does_not_retry_without_cache_trim_mode,
				   setup_16m),
		TB_RECLAIM_TEST_ON(kswapd_wakes_a_throttled_reclaimer_before_the_node_is_balanced,
				   setup_wide_watermarks),
		TB_RECLAIM_TEST(kswapd_reclaims_a_boost_without_going_below_def_priority_minus_2),
		TB_RECLAIM_TEST(kswapd_gives_up_a_hopeless_node_until_direct_reclaim_progresses),
		TB_RECLAIM_TEST(kswapd_woken_up_to_zone_movable_drops_the_boost_of_zone_normal),
		TB_RECLAIM_SWAP_TEST(kswapd_swaps_out_cold_anon_at_def_priority),
		cmocka_unit_test_setup_teardown(kswapd_in_laptop_mode_swaps_out_from_def_priority_minus_3,
						tb_reclaim_setup_swap, laptop_mode_teardown),
		TB_RECLAIM_TEST(kswapd_left_balanced_sleeps_until_woken),
		TB_RECLAIM_TEST(kswapd_keeps_its_priority_after_a_pass_that_scans_its_target),
		TB_RECLAIM_TEST_ON(kswapd_keeps_its_priority_after_a_pass_of_its_target_and_more,
				   setup_reserved_3000),
		TB_RECLAIM_TEST_ON(kswapd_target_is_at_least_swap_cluster_max,
				   setup_16m_tiny_watermarks),
		TB_RECLAIM_TEST_ON(kswapd_lowers_its_priority_after_a_pass_one_page_short,
				   setup_reserved_3780),
		TB_RECLAIM_TEST_ON(kswapd_at_def_priority_stops_at_its_target, setup_big_tiny_watermarks),
		TB_RECLAIM_TEST_ON(kswapd_keeps_its_priority_after_a_pass_of_exactly_its_target,
				   setup_reserved_3750),
		TB_RECLAIM_TEST(kswapd_woken_within_its_short_sleep_counts_low_wmark_hit_quickly),
		TB_RECLAIM_TEST(kswapd_finding_free_below_high_after_its_short_sleep_balances_again),
		TB_RECLAIM_SWAP_TEST(memcg_reclaim_stops_the_smaller_side_and_trims_the_larger),
		TB_RECLAIM_SWAP_TEST(memcg_reclaim_trims_the_file_side_when_anon_is_smaller),
		TB_RECLAIM_SWAP_TEST(memcg_reclaim_counts_the_active_list_in_the_smaller_side),
		TB_RECLAIM_SWAP_TEST(memcg_reclaim_trims_anon_when_both_sides_are_equal),
		TB_RECLAIM_SWAP_TEST(memcg_reclaim_rounds_the_smaller_side_s_share_down),
		TB_RECLAIM_SWAP_TEST(memcg_reclaim_rounds_the_smaller_side_s_share_down_again),
		TB_RECLAIM_SWAP_TEST(memcg_reclaim_trims_no_further_than_what_was_scanned),
		TB_RECLAIM_SWAP_TEST(memcg_reclaim_stops_the_smaller_side_s_active_list_too),
		TB_RECLAIM_TEST_ON(memcg_reclaim_at_def_priority_stops_at_its_target, setup_big),
		TB_RECLAIM_TEST_ON(direct_reclaim_at_def_priority_scans_its_whole_target,
				   setup_big_no_kswapd),
		TB_RECLAIM_TEST_ON(order0_direct_reclaim_shrinks_a_node_once_per_priority,
				   setup_no_kswapd),
		TB_RECLAIM_SWAP_TEST(memcg_reclaim_snapshots_the_refaults_it_has_seen),
		TB_RECLAIM_SWAP_TEST(kswapd_snapshots_the_refaults_of_the_node),
		TB_RECLAIM_SWAP_TEST(file_only_reclaim_ages_active_anon_when_inactive_anon_is_low),
		TB_RECLAIM_SWAP_TEST(file_only_reclaim_ages_active_anon_of_a_memcg_without_swap),
		TB_RECLAIM_SWAP_TEST(anon_aging_drains_this_cpus_lru_batch_first),
		TB_RECLAIM_SWAP_TEST(anon_aging_deactivates_referenced_anon_of_an_exec_mapping),
		TB_RECLAIM_TEST_ON(file_only_reclaim_ages_active_anon_with_one_page_of_swap,
				   setup_one_swap_slot),
		TB_RECLAIM_TEST(direct_reclaim_waits_at_half_of_min_free),
		TB_RECLAIM_TEST(direct_reclaim_goes_on_above_half_of_min_free),
		TB_RECLAIM_TEST(direct_reclaim_of_a_task_being_killed_does_not_wait),
		TB_RECLAIM_TEST(direct_reclaim_of_a_kernel_thread_does_not_wait),
		TB_RECLAIM_TEST(direct_reclaim_killed_while_throttled_returns_without_reclaiming),
		TB_RECLAIM_TEST(direct_reclaim_waits_on_a_node_with_free_pages_only),
		TB_RECLAIM_TEST_ON(direct_reclaim_goes_on_above_half_of_an_odd_min, setup_odd_min),
	};

	return TB_RUN(tests);
}
