// SPDX-License-Identifier: GPL-2.0-only
/*
 * The multi-gen LRU's eviction and aging as mm/vmscan.c schedules them:
 * - scan_folios() sorts the oldest generation (a folio whose refs are
 *   saturated goes to the next one, counted as PGREFILL), isolates the
 *   rest a batch (MIN_LRU_BATCH) at a time, skips what it may not take
 *   (PGSCAN_SKIP), and counts PGSCAN, then evict_folios() PGSTEAL, per
 *   memcg and, in global reclaim only, per node;
 * - should_run_aging() asks for a new generation when there are
 *   MIN_NR_GENS + 1 and the youngest holds over 1/MIN_NR_GENS of the
 *   pages or the oldest under 1/(MIN_NR_GENS + 2); inc_min_seq() and
 *   try_to_inc_min_seq() retire generations and carry their counts over;
 * - global reclaim (lru_gen_shrink_node()) starts at a priority from the
 *   node's inactive size, kswapd's stops a batch above the high
 *   watermark (should_abort_scan()), and a node that reclaimed has its
 *   kswapd failures cleared.
 *
 * Most cases build their generations exactly through the lru_gen
 * debugfs file: page cache read through a file descriptor goes to the
 * second oldest generation (min_seq + 1 while there are MAX_NR_GENS),
 * page cache and anon faulted in go to the youngest, a forced aging
 * adds a generation, and an eviction of a generation whose folios are
 * all protected only moves them on. The priorities are the vmscan
 * tracepoints' (kshim_trace: what evict_folios() reclaimed, per
 * sc->priority, and what scan_folios() scanned, skipped and took).
 */
#include <linux/kernel.h>
#include <linux/delay.h>
#include <linux/mm.h>
#include <linux/mm_inline.h>
#include <linux/memcontrol.h>
#include <linux/swap.h>
#include <linux/vmstat.h>
#include <kshim/testbed.h>
#include <kshim/trace.h>
#include <kshim/report.h>
#include <linux/vmpressure.h>
#include <linux/writeback.h>
#include <linux/workqueue.h>
#include <stdio.h>
#include "tb_mglru.h"

#define F LRU_GEN_FILE
#define A LRU_GEN_ANON
/* a folio read this many times has saturated refs: sort_folio() always protects it */
#define READS_TO_SATURATE 5
#define MAX_RECLAIM_RETRIES 16	/* mm/internal.h */
/* lruvec->lrugen.seg after MEMCG_LRU_TAIL (mm/vmscan.c's enum) */
#define SEG_TAIL 2

/* reads pages [0, n) of f, each times times */
static void read_times(struct tb_file *f, unsigned long n, int times)
{
	unsigned long i;
	int k;

	for (i = 0; i < n; i++)
		for (k = 0; k < times; k++)
			assert_int_equal(tb_file_read(f, i), 0);
}

/*
 * read_times() with the CPU's lru_add batch drained after each page: each
 * page is marked accessed before lru_gen_add_folio() places it (7.2,
 * lru_gen_folio_seq: the page that fills a batch would go, unreferenced,
 * to the oldest generation)
 */
static void read_times_drained(struct tb_file *f, unsigned long n, int times)
{
	unsigned long i;
	int k;

	for (i = 0; i < n; i++) {
		for (k = 0; k < times; k++)
			assert_int_equal(tb_file_read(f, i), 0);
		lru_add_drain();
	}
}

/* a new mapping of f (or anon memory, f NULL) with pages [0, n) faulted in */
static void fault_in(struct tb_file *f, unsigned long n, bool anon)
{
	struct tb_vma *vma = anon ? tb_map_anon(n) : tb_map_file(f);

	tb_touch_range(vma, n, anon);
}

/* a new memcg "a" and a task of it switched in: its lruvec (and *id, its id) */
static struct lruvec *in_memcg_a(unsigned short *id)
{
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	if (id)
		*id = tb_memcg_id("a");
	return tb_lruvec_of("a");
}

/*
 * A task of "a" with page cache in three generations of a lruvec at
 * max_seq 4: old pages in min_seq 2 (read through a file descriptor,
 * protected once and so moved there), mid pages in 3 and young pages in
 * 4 (faulted in before and after the aging that made 4), anon pages
 * faulted in with the mid ones, in 3 (ignored by the aging's counts
 * without swap). 7.2 (lru_gen_fault_referenced): a folio faulted in is
 * PG_referenced, not active; the aging's walk still moves mid to 3, but
 * young goes to the second oldest generation, 2 beside old, and anon to
 * the second youngest before the aging, 2.
 */
#define YOUNG_SEQ (TB_HAVE_lru_gen_fault_referenced ? 2 : 4)
#define ANON_SEQ (TB_HAVE_lru_gen_fault_referenced ? 2 : 3)
static struct lruvec *three_generations(unsigned long old, unsigned long mid,
					unsigned long young, unsigned long anon)
{
	struct tb_file *o = tb_file_create(old), *m = tb_file_create(mid + 1);
	struct tb_file *y = tb_file_create(young + 1);
	struct lruvec *lruvec;
	unsigned short id;

	lruvec = in_memcg_a(&id);
	read_times_drained(o, old, READS_TO_SATURATE);
	fault_in(m, mid, false);
	if (anon)
		fault_in(NULL, anon, true);
	lru_add_drain();
	assert_int_equal(tb_lru_gen_cmd("+ %u 0 3 0 1", id), 11);
	/* every old folio protected: none evicted, min_seq moves past the empty generation */
	assert_int_equal(tb_lru_gen_cmd("- %u 0 1 0 1", id), 11);
	fault_in(y, young, false);
	lru_add_drain();
	assert_int_equal(lruvec->lrugen.min_seq[F], 2);
	assert_int_equal(lruvec->lrugen.max_seq, 4);
	assert_int_equal(tb_gen_seq_pages(lruvec, 2, F), old + (YOUNG_SEQ == 2 ? young : 0));
	assert_int_equal(tb_gen_seq_pages(lruvec, 3, F), mid);
	assert_int_equal(tb_gen_seq_pages(lruvec, 4, F), YOUNG_SEQ == 4 ? young : 0);
	assert_int_equal(tb_gen_seq_pages(lruvec, ANON_SEQ, A), anon);
	return lruvec;
}

/*
 * memory.reclaim of 32 pages: at DEF_PRIORITY get_nr_to_scan() scans
 * total >> DEF_PRIORITY, nothing for fewer than 4096 pages; at the next
 * priority a lruvec that should_run_aging() finds unbalanced is aged
 * (max_seq + 1) and left; then, or at once otherwise, one batch of 64 old
 * pages is evicted. 7.2: the generations' shares do not count
 * (lru_gen_age_at_three_gens): three generations are aged at the first
 * priority that scans any page, and the eviction goes on, total >>
 * priority at each priority until 32 pages are reclaimed
 * (mglru_evict_budget): budget pages.
 */
static void reclaim_a_batch(struct lruvec *lruvec, bool aged, long budget)
{
	long n = TB_HAVE_mglru_evict_budget ? budget : MIN_LRU_BATCH;
	long before = tb_gen_seq_pages(lruvec, 2, F);

	assert_write_ok("a", "memory.reclaim", "128K");
	assert_int_equal(lruvec->lrugen.max_seq,
			 aged || TB_HAVE_lru_gen_age_at_three_gens ? 5 : 4);
	assert_int_equal(tb_gen_seq_pages(lruvec, 2, F), before - n);
	assert_int_equal(tb_stat("a", "pgsteal"), n);
}

/*
 * The oldest generation holding exactly 1/(MIN_NR_GENS + 2) of the pages
 * is enough: old * 4 < total is false at 200 of 800 (the 50 anon pages
 * do not count without swap), and no generation is added. (7.2: aged at
 * priority 9, 800 >> 9, then 1 + 3 + 6 + 12 + 24 pages at 9 to 5.)
 */
static void three_generations_a_quarter_in_the_oldest(void **state)
{
	three_generations(200, 500, 100, 50);
	reclaim_a_batch(tb_lruvec_of("a"), false, 46);
}

/* one page more in the middle generation: 200 of 801 is under a quarter, it ages */
static void three_generations_under_a_quarter_in_the_oldest(void **state)
{
	three_generations(200, 501, 100, 50);
	reclaim_a_batch(tb_lruvec_of("a"), true, 46);
}

/*
 * The youngest generation holding exactly 1/MIN_NR_GENS of the pages is
 * still fine: young * 2 > total is false at 200 of 400 (the old quarter
 * rule holds too), no aging. (7.2: aged at priority 8, then 1 + 3 + 6 +
 * 12 + 23 pages at 8 to 4.)
 */
static void three_generations_half_in_the_youngest(void **state)
{
	three_generations(200, 0, 200, 0);
	reclaim_a_batch(tb_lruvec_of("a"), false, 45);
}

/* 201 young pages of 401: more than half, it ages */
static void three_generations_over_half_in_the_youngest(void **state)
{
	three_generations(200, 0, 201, 0);
	reclaim_a_batch(tb_lruvec_of("a"), true, 45);
}

/* what the lru_gen debugfs commands count as: proactive reclaim since 7.2 */
#if TB_HAVE_lru_gen_debugfs_proactive
#define CMD_PGSCAN TB_PGSCAN_PROACTIVE
#define CMD_PGSTEAL TB_PGSTEAL_PROACTIVE
#define CMD_KEY(item) TB_PROACTIVE_KEY(item)
#else
#define CMD_PGSCAN PGSCAN_DIRECT
#define CMD_PGSTEAL PGSTEAL_DIRECT
#define CMD_KEY(item) item "_direct"
#endif

/* the node's (the machine's) vm events scan_folios() and evict_folios() count */
struct scan_events {
	unsigned long refill, scan_direct, steal_direct, scan_file, steal_file, skip;
};

static void read_events(struct scan_events *e)
{
	e->refill = kshim_reclaim_event_read(PGREFILL);
	e->scan_direct = kshim_reclaim_event_read(CMD_PGSCAN);
	e->steal_direct = kshim_reclaim_event_read(CMD_PGSTEAL);
	e->scan_file = kshim_reclaim_event_read(PGSCAN_FILE);
	e->steal_file = kshim_reclaim_event_read(PGSTEAL_FILE);
	e->skip = kshim_vm_event_read(PGSCAN_SKIP_NORMAL) + kshim_vm_event_read(PGSCAN_SKIP_MOVABLE);
}

/* the events counted since *e was read equal these */
static void assert_events_since(const struct scan_events *e, unsigned long refill,
				unsigned long scan_direct, unsigned long steal_direct,
				unsigned long scan_file, unsigned long steal_file)
{
	struct scan_events now;

	read_events(&now);
	assert_int_equal(now.refill - e->refill, refill);
	assert_int_equal(now.scan_direct - e->scan_direct, scan_direct);
	assert_int_equal(now.steal_direct - e->steal_direct, steal_direct);
	assert_int_equal(now.scan_file - e->scan_file, scan_file);
	assert_int_equal(now.steal_file - e->steal_file, steal_file);
	/* one zone with pages, nothing refused: no folio skipped */
	assert_int_equal(now.skip - e->skip, 0);
}

/*
 * scan_folios() counts what it sorts (a protected folio moved to the next
 * generation) as PGREFILL and what it isolates as PGSCAN, for the memcg
 * always and for the node only in global reclaim: the debugfs eviction
 * is global (no target memcg, a direct reclaimer's counters; 7.2,
 * lru_gen_debugfs_proactive: proactive reclaim's), a memory.reclaim of
 * "a" is memcg reclaim. evict_folios() counts PGSTEAL likewise;
 * PGSCAN_FILE and PGSTEAL_FILE count both.
 */
static void eviction_counts_sorted_and_isolated_folios_per_memcg_and_node(void **state)
{
	struct tb_file *o = tb_file_create(200), *f = tb_file_create(300);
	long n = TB_HAVE_mglru_evict_budget ? 48 : MIN_LRU_BATCH;
	struct lruvec *lruvec;
	struct scan_events e;
	unsigned short id;
	unsigned long i;

	lruvec = in_memcg_a(&id);
	read_times_drained(o, 200, READS_TO_SATURATE);
	read_times_drained(f, 300, 1);
	assert_int_equal(tb_gen_seq_pages(lruvec, 1, F), 500);

	/* 500 scanned: the 200 protected sorted to generation 2, 64 of f evicted */
	read_events(&e);
	assert_int_equal(tb_lru_gen_cmd("- %u 0 1 0 %d", id, MIN_LRU_BATCH), 12);
	assert_int_equal(tb_stat("a", "pgrefill"), 200);
	assert_int_equal(tb_stat("a", "pgscan"), MIN_LRU_BATCH);
	assert_int_equal(tb_stat("a", CMD_KEY("pgscan")), MIN_LRU_BATCH);
	assert_int_equal(tb_stat("a", "pgsteal"), MIN_LRU_BATCH);
	assert_events_since(&e, 200, MIN_LRU_BATCH, MIN_LRU_BATCH, MIN_LRU_BATCH, MIN_LRU_BATCH);
	assert_int_equal(tb_gen_seq_pages(lruvec, 2, F), 200);
	assert_int_equal(tb_gen_seq_pages(lruvec, 1, F), 300 - MIN_LRU_BATCH);
	/* sorted, not reclaiming: no PG_reclaim for folio_end_writeback() */
	for (i = 0; i < 200; i++)
		assert_false(folio_test_reclaim(tb_file_folio(o, i)));

	/*
	 * memcg reclaim: the memcg's counters only, and the per-type ones
	 * (7.2, reclaim_stats_per_node: the node's too); a batch (7.2,
	 * mglru_evict_budget: 436 >> priority from priority 8 on until it
	 * has 32 pages: 1 + 3 + 6 + 13 + 25)
	 */
	read_events(&e);
	assert_write_ok("a", "memory.reclaim", "128K");
	assert_int_equal(tb_stat("a", "pgrefill"), 200);
	assert_int_equal(tb_stat("a", "pgscan"), MIN_LRU_BATCH + n);
	assert_int_equal(tb_stat("a", "pgsteal"), MIN_LRU_BATCH + n);
	assert_events_since(&e, 0, TB_HAVE_reclaim_stats_per_node ? n : 0,
			    TB_HAVE_reclaim_stats_per_node ? n : 0, n, n);
	assert_int_equal(tb_gen_seq_pages(lruvec, 1, F), 300 - MIN_LRU_BATCH - n);
	tb_assert_lrus_consistent();
}

/*
 * A generation of more folios than MAX_LRU_BATCH, all protected:
 * scan_folios() stops after 4096, isolating none, and reports them
 * scanned (the livelock guard: "remaining" ran out), so the eviction
 * goes on with the other 904; min_seq moves past the emptied generation.
 * (7.2, mglru_evict_budget: a batch is at most what is left to reclaim,
 * 5000 here.)
 */
static void eviction_sorts_a_generation_larger_than_a_batch_in_rounds(void **state)
{
	struct tb_file *o = tb_file_create(5000);
	struct lruvec *lruvec;
	struct scan_events e;

	lruvec = in_memcg_a(NULL);
	read_times_drained(o, 5000, READS_TO_SATURATE);
	read_events(&e);
	kshim_trace_reset();
	assert_int_equal(tb_lru_gen_cmd("- %u 0 1 0 5000", tb_memcg_id("a")), 14);
	assert_int_equal(kshim_trace.isolate_max.scanned, MAX_LRU_BATCH);
	assert_int_equal(kshim_trace.isolate_sum.scanned, 5000);
	assert_int_equal(lruvec->lrugen.min_seq[F], 2);
	assert_int_equal(tb_gen_seq_pages(lruvec, 2, F), 5000);
	assert_int_equal(tb_stat("a", "pgrefill"), 5000);
	assert_events_since(&e, 5000, 0, 0, 0, 0);
	assert_int_equal(tb_file_cached(o), 5000);
}

/* 256 MiB of RAM (room for 64 MiB of page cache and more) and 64 MiB of swap */
static int setup_big(void **state)
{
	tb_mem.ram_pages = PAGES(256 * MB);
	tb_mem.swap_pages = PAGES(64 * MB);
	return tb_mglru_setup(state);
}

/*
 * "b" with inactive anon (faulted in, two agings old) and inactive page
 * cache (read once): the node's NR_INACTIVE_ANON and NR_INACTIVE_FILE
 */
static void inactive_anon_and_file(unsigned long anon, unsigned long file)
{
	struct tb_file *f = tb_file_create(file);
	struct lruvec *lruvec;
	unsigned short id;

	assert_int_equal(tb_cgroup_mkdir("b"), 0);
	tb_run_in("b");
	lruvec = tb_lruvec_of("b");
	id = tb_memcg_id("b");
	fault_in(NULL, anon, true);
	tb_read_range(f, file);
	lru_add_drain();
	assert_int_equal(tb_lru_gen_cmd("+ %u 0 3 1 1", id), 11);
	assert_int_equal(tb_lru_gen_cmd("+ %u 0 4 1 1", id), 11);
	assert_int_equal(lruvec->lrugen.max_seq, 5);
	assert_int_equal(node_page_state(NODE_DATA(0), NR_INACTIVE_ANON), anon);
	assert_int_equal(node_page_state(NODE_DATA(0), NR_INACTIVE_FILE), file);
}

/* the one priority below DEF_PRIORITY at which the eviction reclaimed page cache (-1: none, -2: several) */
static int eviction_priority(void)
{
	int prio, found = -1;

	for (prio = 0; prio < DEF_PRIORITY; prio++) {
		if (!kshim_trace.inactive_reclaimed[1][prio])
			continue;
		found = found == -1 ? prio : -2;
	}
	return found;
}

/*
 * Global reclaim of at least MIN_LRU_BATCH pages starts below
 * DEF_PRIORITY (set_initial_priority()): at fls(reclaimable) - 1 -
 * fls(nr_to_reclaim - 1), reclaimable counting the node's inactive anon
 * too when there is swap space, whatever swappiness says. 16384 inactive
 * pages (fls 15) and the first batch of memory.reclaim "1040K" of the
 * root, 260 / 4 = 65 pages (fls(64) 7): priority 7, where 16384 >> 7 =
 * 128 pages are to be scanned: two batches, the first (64 pages) short
 * of 65 (should_abort_scan()); the later, smaller batches run at
 * DEF_PRIORITY. Then "1M": 64 pages (fls(63) 6), not fewer than
 * MIN_LRU_BATCH, of 16124 left (fls 14): priority 7 again, and the first
 * batch, exactly nr_to_reclaim, ends it.
 * 7.2 (mglru_evict_budget): priority 7 evicts the page cache's 12288 >> 7
 * = 96 pages (64 and 32; anon is not evictable at swappiness 0), each
 * later batch from DEF_PRIORITY 2 + 5 + 11 + 23 pages at 12 to 9 (41, as
 * the 41 asked); "1M": 64 at priority 7, then 48 asked, 41 at 12 to 9 and
 * 46 at 8.
 */
static void global_reclaim_starts_at_a_priority_from_the_inactive_size(void **state)
{
	inactive_anon_and_file(4096, 12288);

	kshim_trace_reset();
	tb_reclaim_swappiness("", "1040K", 0);
#if TB_HAVE_mglru_evict_budget
	assert_int_equal(kshim_trace.inactive_reclaimed[F][7], 96);
	assert_int_equal(kshim_trace.inactive_reclaimed[F][9], 4 * 23);
	assert_int_equal(kshim_trace.inactive_reclaimed[F][DEF_PRIORITY], 4 * 2);
#else
	assert_int_equal(eviction_priority(), 7);
	assert_int_equal(kshim_trace.inactive_reclaimed[F][7], 2 * MIN_LRU_BATCH);
	assert_true(kshim_trace.inactive_reclaimed[1][DEF_PRIORITY] > 0);
#endif
	assert_int_equal(kshim_trace.inactive_reclaimed[0][7], 0);

	kshim_trace_reset();
	tb_reclaim_swappiness("", "1M", 0);
#if TB_HAVE_mglru_evict_budget
	assert_int_equal(kshim_trace.inactive_reclaimed[F][8], 46);
#else
	assert_int_equal(eviction_priority(), 7);
#endif
	assert_int_equal(kshim_trace.inactive_reclaimed[F][7], MIN_LRU_BATCH);
}

/*
 * kswapd woken by page cache read down to the low watermark (a task of
 * "b"): lru_gen_shrink_node() starts it at set_initial_priority()'s
 * fls(16063) - 1 - fls(384 - 1) = 4, raised to DEF_PRIORITY / 2 = 6,
 * and should_abort_scan() stops it once the zone is MIN_LRU_BATCH pages
 * above its high watermark (384 + 64), before its nr_to_reclaim (the
 * high watermark, 384 pages): three batches of 64 take free memory from
 * 319 to 511. shrink_one() reports b's scanned and reclaimed pages to
 * vmpressure (kswapd's reclaim is not proactive), which keeps them until
 * a window of 512 is scanned. A node that reclaimed has no failures.
 */
static void kswapd_stops_a_batch_above_the_high_watermark(void **state)
{
	struct tb_file *f = tb_file_create(PAGES(128 * MB));
	const struct kshim_trace *k = tb_kswapd_trace(0);
	struct vmpressure *vmpr;
	unsigned long i;

	TB_ONE_NODE_ONLY("one node's kswapd");
	assert_int_equal(tb_cgroup_mkdir("b"), 0);
	tb_run_in("b");
	for (i = 0; tb_free_pages(0) > tb_wmark(0, WMARK_LOW); i++)
		assert_int_equal(tb_file_read(f, i), 0);
	assert_int_equal(kshim_vm_event_read(PAGEOUTRUN), 0);
	assert_int_equal(tb_wmark(0, WMARK_HIGH), 384);
	assert_int_equal(tb_file_read(f, i), 0);
	tb_kthreads_settle();
	assert_int_equal(kshim_vm_event_read(PAGEOUTRUN), 1);
	assert_int_equal(kshim_reclaim_event_read(PGSTEAL_KSWAPD), 3 * MIN_LRU_BATCH);
	assert_int_equal(k->inactive_reclaimed[F][6], 3 * MIN_LRU_BATCH);
	assert_int_equal(tb_free_pages(0), 319 + 3 * MIN_LRU_BATCH);
	assert_int_equal(tb_kswapd_failures(NODE_DATA(0)), 0);
	vmpr = memcg_to_vmpressure(tb_memcg("b"));
	assert_int_equal(vmpr->scanned, 3 * MIN_LRU_BATCH);
	assert_int_equal(vmpr->reclaimed, 3 * MIN_LRU_BATCH);
}

/*
 * kswapd's background aging (kswapd_age_node()) is the multi-gen LRU's
 * own when it is on: lru_gen_age_node(), and nothing of the classic
 * LRU's, whose inactive_is_low() test of the node's anon lists would ask
 * for shrink_active_list() on each memcg (the node's anon counts say so
 * here: every anon page of the two youngest generations counts as
 * active, and with swap anon may be aged). The classic lists are empty,
 * but the pass would still run, and report itself to the tracepoint:
 * kswapd never calls it.
 */
static void kswapd_ages_only_the_generations_never_the_classic_anon_lists(void **state)
{
	const struct kshim_trace *k = tb_kswapd_trace(0);
	unsigned long n = PAGES(64 * MB), i;
	struct lruvec *root;
	struct tb_vma *vma;

	TB_ONE_NODE_ONLY("one node's kswapd");
	tb_run_in("");
	vma = tb_map_anon(n);
	for (i = 0; tb_free_pages(0) > tb_wmark(0, WMARK_LOW) + 64; i++)
		assert_int_equal(tb_touch(vma, i, true), 0);
	lru_add_drain();
	tb_memcg_flush_stats(tb_memcg(""));
	root = mem_cgroup_lruvec(NULL, NODE_DATA(0));
	assert_true(lruvec_page_state(root, NR_ACTIVE_ANON) >
		    lruvec_page_state(root, NR_INACTIVE_ANON));
	assert_int_equal(kshim_vm_event_read(PAGEOUTRUN), 0);
	for (; tb_free_pages(0) >= tb_wmark(0, WMARK_LOW); i++)
		assert_int_equal(tb_touch(vma, i, true), 0);
	tb_kthreads_settle();
	assert_true(kshim_vm_event_read(PAGEOUTRUN) > 0);
	assert_int_equal(k->shrink_active_count, 0);
}

/*
 * vm.laptop_mode: reclaim may not write pages back (may_writepage 0)
 * until do_try_to_free_pages() is below DEF_PRIORITY - 2. Global reclaim
 * with the multi-gen LRU skips the LRUs altogether until then
 * (lru_gen_shrink_node(): "Unmapped clean folios are already
 * prioritized"), though the page cache is clean, and starts at priority
 * 8, set_initial_priority() not applying: each batch of memory.reclaim
 * of the root evicts at priority 8. Memcg reclaim does not wait: it
 * evicts at once, and lru_gen_shrink_lruvec() WARNs that it was called
 * without may_writepage (CONFIG_DEBUG_VM). Without reclaim_laptop_mode
 * (7.2) the sysctl is ignored: global reclaim evicts above priority 8
 * and memcg reclaim may write, no WARN.
 */
static void laptop_mode_holds_global_reclaim_off_the_lrus_where_it_is_honoured(void **state)
{
	struct tb_file *f = tb_file_create(1024);
	int prio;

	assert_int_equal(tb_cgroup_mkdir("b"), 0);
	tb_run_in("b");
	tb_read_range(f, 1024);
	lru_add_drain();
	laptop_mode = 1;
	kshim_trace_reset();
	assert_write_ok("", "memory.reclaim", "1M");
#if TB_HAVE_reclaim_laptop_mode
	for (prio = DEF_PRIORITY; prio > 8; prio--)
		assert_int_equal(kshim_trace.inactive_reclaimed[F][prio], 0);
	assert_int_equal(eviction_priority(), 8);
	assert_int_equal(kshim_warn_count(), 0);

	kshim_expect_warns(1);
	assert_write_ok("b", "memory.reclaim", "256K");
	assert_int_equal(kshim_warn_count(), 1);
#else
	/* the batches under MIN_LRU_BATCH evict from DEF_PRIORITY on */
	for (prio = DEF_PRIORITY; prio > 8 && !kshim_trace.inactive_reclaimed[F][prio]; prio--)
		;
	assert_true(prio > 8);
	assert_write_ok("b", "memory.reclaim", "256K");
	assert_int_equal(kshim_warn_count(), 0);
#endif
}

/* vm.laptop_mode back to 0 whatever the case did */
static int laptop_mode_teardown(void **state)
{
	laptop_mode = 0;
	return tb_reclaim_teardown(state);
}

/*
 * The aging's walk promotes a page cache folio found through a young pte
 * to the youngest generation (folio_update_gen()) and clears what reads
 * through a file descriptor counted: its LRU_REFS, PG_referenced and
 * PG_workingset. Read four times (refs 2 and both flags), then mapped
 * and touched once, it ends in generation 3, the max_seq the walk ran
 * for, in tier 0. 7.2 (lru_tier_workingset): the refs count
 * PG_referenced (4), and the walk sets PG_workingset: the last tier.
 */
static void aging_walk_promotes_a_folio_and_clears_its_file_refs(void **state)
{
	struct tb_file *f = tb_file_create(2);
	struct lruvec *lruvec;
	struct folio *folio;

	lruvec = in_memcg_a(NULL);
	read_times(f, 1, 4);
	lru_add_drain();
	folio = tb_file_folio(f, 0);
	assert_int_equal(folio_lru_refs(folio), 3 + TB_HAVE_lru_tier_workingset);
	assert_true(folio_test_referenced(folio));
	assert_int_equal(lru_gen_from_seq(1), folio_lru_gen(folio));
	fault_in(f, 1, false);

	assert_int_equal(tb_lru_gen_cmd("+ %u 0 3 0 1", tb_memcg_id("a")), 11);
	assert_int_equal(lruvec->lrugen.max_seq, 4);
	assert_int_equal(folio_lru_gen(folio), lru_gen_from_seq(3));
	assert_int_equal(TB_FLAGS(folio) & LRU_REFS_MASK, 0);
	assert_false(folio_test_referenced(folio));
	assert_int_equal(folio_test_workingset(folio), TB_HAVE_lru_tier_workingset);
	assert_int_equal(tb_folio_tier(folio), TB_HAVE_lru_tier_workingset ? MAX_NR_TIERS - 1 : 0);
	assert_int_equal(tb_gen_seq_pages(lruvec, 3, F), 1);
}

/*
 * kswapd woken for order 3 on a node with plenty of free memory,
 * fragmented, and 350 pages of page cache: balanced at order 0, never at
 * order 3 (no free block of order 3), it reclaims until the run has
 * compact_gap(3) = 16 pages, then drops to order 0 and stops, and wakes
 * kcompactd for order 3. lru_gen_shrink_node() starts it at priority 6
 * (set_initial_priority(), clamped to DEF_PRIORITY / 2). 7.2
 * (mglru_evict_budget): a pass evicts the evictable size >> priority, 5
 * pages at 6, 10 at 5: 15, short of 16 (each pass adds what it reclaimed
 * to the run's count, nothing more), so a third pass takes 20 at 4: 35.
 * Before, a pass evicts a whole batch: 64 at 6.
 */
static void kswapd_woken_for_order_3_counts_each_pass_once_toward_the_compact_gap(void **state)
{
	struct tb_file *f = tb_file_create(350);
	const struct kshim_trace *k = tb_kswapd_trace(0);
	LIST_HEAD(held);

	TB_ONE_NODE_ONLY("one node's kswapd");
	tb_run_in("");
	tb_mem_fragment(0, ULONG_MAX, &held);
	tb_read_range(f, 350);
	lru_add_drain();
	tb_wake_kswapd(GFP_KERNEL, 3, 0);
	tb_kthreads_settle();
	assert_int_equal(kshim_vm_event_read(PAGEOUTRUN), 1);
	assert_int_equal(tb_kcompactd_wakeups(0).last_order, 3);
	if (TB_HAVE_mglru_evict_budget) {
		assert_int_equal(k->inactive_reclaimed[F][6], 5);
		assert_int_equal(k->inactive_reclaimed[F][5], 10);
		assert_int_equal(k->inactive_reclaimed[F][4], 20);
		assert_int_equal(kshim_reclaim_event_read(PGSTEAL_KSWAPD), 35);
	} else {
		assert_int_equal(kshim_reclaim_event_read(PGSTEAL_KSWAPD), MIN_LRU_BATCH);
	}
	assert_int_equal(tb_file_cached(f), 350 - kshim_reclaim_event_read(PGSTEAL_KSWAPD));
	tb_put_folios(&held);
}


/*
 * Anon memory and no swap: kswapd, woken at the low watermark, reclaims
 * nothing, run after run, until the node has MAX_RECLAIM_RETRIES
 * failures and kswapd leaves it to direct reclaim. With page cache to
 * take, a direct reclaim (a GFP_KERNEL page with free memory under min)
 * reclaims through lru_gen_shrink_node(), which clears the failures: it
 * reclaimed more than the reclaimer had when it came in. 7.2
 * (kswapd_try_clear_hopeless): only a balanced node has them cleared,
 * and this one, its free pages held under min, keeps them.
 */
static void hopeless_node_kswapd_failures_after_direct_reclaim_progress(void **state)
{
	unsigned long ram = PAGES(64 * MB), i = 0;
	struct tb_file *f = tb_file_create(1024);
	struct pglist_data *pgdat = NODE_DATA(0);
	struct folio *folio;
	struct tb_vma *vma;
	LIST_HEAD(held);

	TB_ONE_NODE_ONLY("one node's kswapd");
	tb_run_in("");
	vma = tb_map_anon(ram);
	while (tb_free_pages(0) > tb_wmark(0, WMARK_LOW))
		assert_int_equal(tb_touch(vma, i++, true), 0);
	assert_int_equal(tb_touch(vma, i++, true), 0);
	tb_kthreads_settle();
	assert_int_equal(tb_kswapd_failures(pgdat), MAX_RECLAIM_RETRIES);
	assert_int_equal(kshim_reclaim_event_read(PGSTEAL_KSWAPD), 0);

	tb_unmap(vma);
	tb_read_range(f, 1024);
	tb_take_free_pages_down_to(100, &held);
	folio = tb_alloc_folio(GFP_KERNEL, 0);
	assert_non_null(folio);
	list_add(&folio->lru, &held);
	assert_true(kshim_reclaim_event_read(PGSTEAL_DIRECT) > 0);
	assert_int_equal(tb_kswapd_failures(pgdat),
			 TB_HAVE_kswapd_try_clear_hopeless ? MAX_RECLAIM_RETRIES : 0);
	tb_put_folios(&held);
}

static int setup_swap_no_kswapd(void **state)
{
	tb_mem.swap_pages = PAGES(64 * MB);
	tb_mem.no_kswapd = true;
	return tb_mglru_setup(state);
}

/* and the swap device a disk, whose swap-in keeps a swap cache copy */
static int setup_swap_disk_no_kswapd(void **state)
{
	tb_mem.swap_disk = true;
	return setup_swap_no_kswapd(state);
}

/* the folio a scan of generation seq takes first (its list's tail) */
static struct folio *oldest_folio(struct lruvec *lruvec, unsigned long seq, int type)
{
	struct list_head *head = &lruvec->lrugen.folios[lru_gen_from_seq(seq)][type][ZONE_NORMAL];

	assert_false(list_empty(head));
	return lru_to_folio(head);
}

/*
 * A direct reclaim that may not start I/O (GFP_NOIO: a block driver's
 * page, free memory under min, no kswapd): the oldest generation is
 * anon's, so isolate_folios() scans anon first, and isolate_folio()
 * refuses every anon folio not yet in the swap cache ("swap
 * constrained"). scan_folios() stops after MIN_LRU_BATCH of them, moves
 * them to the head of the list (the next scan takes the next ones),
 * counts them in PGSCAN_SKIP and the trace, and with nothing isolated
 * turns to the page cache, which it isolates a batch at a time and
 * reclaims. Every call of scan_folios() scans exactly one batch, skipped
 * or taken; no anon page is swapped. Without mglru_isolate_swap_constrained
 * (7.2) nothing is refused: the anon the walks promoted (7.2,
 * lru_gen_fault_referenced: faulted in the second youngest generation,
 * still on its list) is sorted into its generation, the lruvec ages and
 * the page cache is taken; nothing is skipped.
 */
static void noio_direct_reclaim_takes_page_cache_and_swaps_no_anon(void **state)
{
	struct tb_file *once = tb_file_create(16), *f = tb_file_create(PAGES(64 * MB));
	unsigned long i, skip, steal;
	struct lruvec *lruvec;
	struct folio *folio, *oldest;
	struct tb_vma *vma;
	unsigned short id;
	LIST_HEAD(held);

	TB_ONE_NODE_ONLY("one node's free memory");
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	id = tb_memcg_id("a");
	lruvec = tb_lruvec_of("a");
	vma = tb_map_anon(2048);
	tb_touch_range(vma, 2048, true);
	tb_read_range(once, 16);
	lru_add_drain();
	/* two agings make the anon old; the page cache's generations are evicted after */
	assert_int_equal(tb_lru_gen_cmd("+ %u 0 3 1 1", id), 11);
	assert_int_equal(tb_lru_gen_cmd("+ %u 0 4 1 1", id), 11);
	assert_true(tb_lru_gen_cmd("- %u 0 3 0 1000", id) > 0);
	assert_int_equal(tb_file_cached(once), 0);
	for (i = 0; tb_free_pages(0) > tb_wmark(0, WMARK_MIN) + 8; i++)
		assert_int_equal(tb_file_read(f, i), 0);
	lru_add_drain();
	assert_true(lruvec->lrugen.min_seq[A] < lruvec->lrugen.min_seq[F]);
	tb_take_free_pages_down_to(100, &held);
	assert_int_equal(tb_gen_seq_pages(lruvec, 3, A), 2048);
	oldest = TB_HAVE_mglru_isolate_swap_constrained ? oldest_folio(lruvec, 3, A) : NULL;
	skip = kshim_vm_event_read(PGSCAN_SKIP_NORMAL) + kshim_vm_event_read(PGSCAN_SKIP_MOVABLE);
	steal = kshim_reclaim_event_read(PGSTEAL_DIRECT);
	kshim_trace_reset();

	folio = tb_alloc_folio(GFP_NOIO, 0);
	assert_non_null(folio);
	list_add(&folio->lru, &held);
	assert_true(kshim_trace.isolate_sum.taken > 0);
	assert_int_equal(kshim_reclaim_event_read(PGSTEAL_DIRECT) - steal, kshim_trace.isolate_sum.taken);
#if TB_HAVE_mglru_isolate_swap_constrained
	assert_true(kshim_trace.isolate_sum.skipped > 0);
	assert_int_equal(kshim_trace.isolate_max.scanned, MIN_LRU_BATCH);
	assert_int_equal(kshim_trace.isolate_max.skipped, MIN_LRU_BATCH);
	assert_int_equal(kshim_trace.isolate_max.taken, MIN_LRU_BATCH);
	assert_int_equal(kshim_trace.isolate_sum.scanned,
			 kshim_trace.isolate_sum.skipped + kshim_trace.isolate_sum.taken);
	assert_int_equal(kshim_vm_event_read(PGSCAN_SKIP_NORMAL) +
			 kshim_vm_event_read(PGSCAN_SKIP_MOVABLE) - skip, kshim_trace.isolate_sum.skipped);
	/* the skipped ones went to the head: the next scan starts elsewhere */
	assert_int_equal(lruvec->lrugen.min_seq[A], 3);
	assert_ptr_not_equal(oldest_folio(lruvec, 3, A), oldest);
#else
	/* nothing refused: the anon scanned was sorted, none isolated or skipped */
	assert_int_equal(kshim_trace.isolate_sum.skipped, 0);
	assert_int_equal(kshim_vm_event_read(PGSCAN_SKIP_NORMAL) +
			 kshim_vm_event_read(PGSCAN_SKIP_MOVABLE) - skip, 0);
	assert_true(kshim_trace.isolate_sum.scanned > kshim_trace.isolate_sum.taken);
#endif
	assert_int_equal(tb_vma_resident(vma), 2048);
	assert_int_equal(tb_swap_used(), 0);
	assert_int_equal(tb_gen_pages(lruvec, A), 2048);
	tb_put_folios(&held);
	tb_assert_lrus_consistent();
}

/*
 * inc_min_seq(): a forced aging with MAX_NR_GENS generations retires the
 * oldest one, moving its folios on, and carries its tier counts over
 * (reset_ctrl_pos()): the averages take half of avg + evicted +
 * protected, the counts start again. 64 of 200 pages read once evicted
 * from generation 1 (tier 0); the aging that makes generation 4 leaves
 * 4 generations, the next one retires generation 1: avg_total 32. 7.2
 * (lru_gen_inc_min_seq_protects): the 136 pages it moves on count as
 * protected: (64 + 136) / 2 = 100.
 */
static void forced_aging_carries_the_retired_generations_tier_counts_over(void **state)
{
	struct tb_file *f = tb_file_create(200);
	struct lruvec *lruvec;
	unsigned short id;

	lruvec = in_memcg_a(&id);
	read_times_drained(f, 200, 1);
	assert_int_equal(tb_lru_gen_cmd("- %u 0 1 0 %d", id, MIN_LRU_BATCH), 12);
	assert_int_equal(lruvec->lrugen.min_seq[F], 1);
	assert_int_equal(atomic_long_read(&lruvec->lrugen.evicted[0][F][0]), MIN_LRU_BATCH);
	assert_int_equal(tb_lru_gen_cmd("+ %u 0 3 0 1", id), 11);
	assert_int_equal(lruvec->lrugen.min_seq[F], 1);
	assert_int_equal(lruvec->lrugen.avg_total[F][0], 0);

	assert_int_equal(tb_lru_gen_cmd("+ %u 0 4 0 1", id), 11);
	assert_int_equal(lruvec->lrugen.min_seq[F], 2);
	assert_int_equal(tb_gen_seq_pages(lruvec, 2, F), 200 - MIN_LRU_BATCH);
	assert_int_equal(lruvec->lrugen.avg_total[F][0],
			 TB_HAVE_lru_gen_inc_min_seq_protects ? 200 / 2 : MIN_LRU_BATCH / 2);
	assert_int_equal(atomic_long_read(&lruvec->lrugen.evicted[0][F][0]), 0);
}

/*
 * Anon one generation ahead of the page cache, at the edge where
 * try_to_inc_min_seq() ties them. Anon faulted in at max_seq 3, then two
 * agings with swap (max_seq 5, both min_seqs 2), the anon touched again
 * between them: each walk finds it young and marks it for the youngest
 * generation, 3 then 4 (the aging adds its new one after the walk),
 * leaving it on the list of 2 until an eviction sorts it. Page cache read
 * once goes to min_seq + 1, generation 3, but for the pages left
 * unreferenced, in the oldest one, 2 (7.2, lru_gen_folio_seq): an
 * eviction without swap takes those, and the page cache's min_seq moves
 * to 3 alone. An eviction at swappiness 200 of one page then sorts the
 * anon to generation 4 and retires anon's emptied generations up to 4
 * (no further than max_seq - MIN_NR_GENS + 1) while the page cache stays
 * at 3. 7.2 (lru_gen_types_apart): anon stays at 4, one ahead of the page
 * cache at max_seq - MIN_NR_GENS, which try_to_inc_min_seq() allows (it
 * pulls anon back only past a page cache min_seq below that). Before,
 * anon's min_seq never passes the page cache's: both at 3.
 */
static void eviction_with_swap_lets_anon_min_seq_lead_the_page_cache_by_one(void **state)
{
	struct tb_file *f = tb_file_create(256);
	struct lruvec *lruvec;
	struct tb_vma *vma;
	unsigned short id;
	long n;

	lruvec = in_memcg_a(&id);
	vma = tb_map_anon(128);
	tb_touch_range(vma, 128, true);
	lru_add_drain();
	assert_true(tb_lru_gen_cmd("+ %u 0 3 1 1", id) > 0);
	assert_int_equal(tb_gen_seq_pages(lruvec, 3, A), 128);
	tb_touch_range(vma, 128, true);
	assert_true(tb_lru_gen_cmd("+ %u 0 4 1 1", id) > 0);
	assert_int_equal(lruvec->lrugen.max_seq, 5);
	assert_int_equal(lruvec->lrugen.min_seq[A], 2);
	assert_int_equal(lruvec->lrugen.min_seq[F], 2);
	assert_int_equal(tb_gen_seq_pages(lruvec, 4, A), 128);
	tb_read_range(f, 256);
	lru_add_drain();
	assert_true(tb_gen_seq_pages(lruvec, 3, F) > 128);
	/* what the reads left in the oldest generation, evicted: min_seq moves on */
	n = tb_gen_seq_pages(lruvec, 2, F);
	assert_true(tb_lru_gen_cmd("- %u 0 2 0 %ld", id, max(n, 1L)) > 0);
	assert_int_equal(tb_gen_seq_pages(lruvec, 2, F), 0);
	assert_true(tb_gen_seq_pages(lruvec, 3, F) > 128);
	assert_int_equal(lruvec->lrugen.min_seq[F], 3);
	assert_int_equal(lruvec->lrugen.min_seq[A], 2);

	assert_true(tb_lru_gen_cmd("- %u 0 3 200 1", id) > 0);
	assert_true(tb_gen_seq_pages(lruvec, 3, F) > 0);
	assert_int_equal(lruvec->lrugen.min_seq[F], 3);
	assert_int_equal(lruvec->lrugen.min_seq[A], TB_HAVE_lru_gen_types_apart ? 4 : 3);
	assert_int_equal(lruvec->lrugen.max_seq, 5);
}

/*
 * With swap (can_swap), try_to_inc_min_seq() keeps the page cache's
 * min_seq between anon's and its own: it may not move past anon's
 * oldest generation, nor go back. 128 anon pages in generation 3, 16 of
 * page cache in 2: evicted (swappiness 200: anon's empty generation 2
 * first, then the page cache), both min_seqs move to 3, though the page
 * cache has nothing before 4. An eviction without swap (swappiness 0)
 * moves the page cache's alone to 4; the next with swap takes 64 anon
 * pages and leaves anon at 3, the page cache at 4. 7.2
 * (lru_gen_types_apart, mglru_evict_budget): each min_seq moves on its
 * own (tied only around max_seq - MIN_NR_GENS), and a command evicts just
 * its nr_to_reclaim: at swappiness 200 one anon page, anon's empty
 * generation 2 retired while the page cache stays at 2; without swap one
 * page cache page, its min_seq still 2.
 */
static void eviction_with_swap_moves_the_page_cache_min_seq_by_its_types_rule(void **state)
{
	struct tb_file *f = tb_file_create(16);
	struct lruvec *lruvec;
	struct tb_vma *vma;
	unsigned short id;

	lruvec = in_memcg_a(&id);
	vma = tb_map_anon(128);
	tb_touch_range(vma, 128, true);
	tb_read_range(f, 16);
	lru_add_drain();
	assert_int_equal(tb_lru_gen_cmd("+ %u 0 3 1 1", id), 11);
	assert_int_equal(tb_lru_gen_cmd("+ %u 0 4 1 1", id), 11);
	assert_int_equal(lruvec->lrugen.min_seq[A], 2);
	assert_int_equal(lruvec->lrugen.min_seq[F], 2);
	assert_int_equal(tb_gen_seq_pages(lruvec, 2, F), 16);
	assert_int_equal(tb_gen_seq_pages(lruvec, 3, A), 128);

	assert_int_equal(tb_lru_gen_cmd("- %u 0 2 200 1", id), 13);
#if TB_HAVE_lru_gen_types_apart
	/* anon's empty generation 2 retired alone, one anon page swapped */
	assert_int_equal(tb_file_cached(f), 16);
	assert_int_equal(tb_vma_swapped(vma), 1);
	assert_int_equal(lruvec->lrugen.min_seq[A], 3);
	assert_int_equal(lruvec->lrugen.min_seq[F], 2);

	assert_int_equal(tb_lru_gen_cmd("- %u 0 3 0 1", id), 11);
	assert_int_equal(tb_file_cached(f), 15);
	assert_int_equal(lruvec->lrugen.min_seq[F], 2);
#else
	assert_int_equal(tb_file_cached(f), 0);
	assert_int_equal(lruvec->lrugen.min_seq[A], 3);
	assert_int_equal(lruvec->lrugen.min_seq[F], 3);

	assert_int_equal(tb_lru_gen_cmd("- %u 0 3 0 1", id), 11);
	assert_int_equal(lruvec->lrugen.min_seq[A], 3);
	assert_int_equal(lruvec->lrugen.min_seq[F], 4);

	assert_int_equal(tb_lru_gen_cmd("- %u 0 3 200 1", id), 13);
	assert_int_equal(tb_vma_swapped(vma), MIN_LRU_BATCH);
	assert_int_equal(lruvec->lrugen.min_seq[A], 3);
	assert_int_equal(lruvec->lrugen.min_seq[F], 4);
#endif
	tb_assert_lrus_consistent();
}

/*
 * A removed memcg is scraped: get_nr_to_scan() gives its whole size to
 * scan at any priority ("try to scrape all its memory if this memcg was
 * deleted"), unless should_run_aging() found it out of cold folios (its
 * pages all in the two youngest generations: nothing to scan), when it
 * is aged like any memcg below DEF_PRIORITY. x's page cache, faulted in
 * and aged once (the walk puts it in generation 3, where 7.2 does not
 * fault it in, lru_gen_fault_referenced), in the older of its two
 * youngest generations, min_seq moved up to leave two; x removed. The
 * root's memory.reclaim ages x, then takes its page cache. 7.2
 * (lru_folio_reparent): removing x moves its folios to the root's lists,
 * where the root's memory.reclaim takes them; x has nothing to scrape.
 */
static void removed_memcg_out_of_cold_folios_has_its_page_cache_reclaimed(void **state)
{
	struct tb_file *f = tb_file_create(MIN_LRU_BATCH);
	unsigned long max_seq;
	struct lruvec *x;
	unsigned short id;

	assert_int_equal(tb_cgroup_mkdir("x"), 0);
	tb_run_in("x");
	x = tb_lruvec_of("x");
	id = tb_memcg_id("x");
	fault_in(f, MIN_LRU_BATCH, false);
	lru_add_drain();
	assert_int_equal(tb_lru_gen_cmd("+ %u 0 3 0 1", id), 11);
	assert_int_equal(tb_lru_gen_cmd("- %u 0 2 0 1", id), 11);
	assert_int_equal(tb_gen_seq_pages(x, 3, F), MIN_LRU_BATCH);
	assert_int_equal(x->lrugen.min_seq[F] + MIN_NR_GENS, x->lrugen.max_seq + 1);
	tb_task_exit_all();
	assert_int_equal(tb_cgroup_rmdir("x"), 0);
	kshim_rcu_quiesce();
#if TB_HAVE_lru_folio_reparent
	(void)max_seq;
	assert_int_equal(tb_gen_pages(tb_lruvec_of(""), F), MIN_LRU_BATCH);
	assert_write_ok("", "memory.reclaim", "256K");
#else
	max_seq = x->lrugen.max_seq;
	assert_write_ok("", "memory.reclaim", "256K");
	assert_true(x->lrugen.max_seq > max_seq);
#endif
	assert_int_equal(tb_file_cached(f), 0);
}

/* 64 MiB of swap on a disk: a write completes later, the folio under writeback meanwhile */
static int setup_swap_disk(void **state)
{
	tb_mem.swap_pages = PAGES(64 * MB);
	tb_mem.swap_disk = true;
	return tb_mglru_setup(state);
}

/*
 * Anon pages swapped out to a disk: pageout() sets PG_reclaim and starts
 * the write, and shrink_folio_list() keeps each folio while it is under
 * writeback. evict_folios() passes such a folio over (no retry, no
 * PG_active); it gives PG_referenced back only to a PG_workingset folio,
 * which these are not. Back on the LRU it goes to the second youngest
 * generation (lru_gen_add_folio(): PG_reclaim and under writeback), to
 * be rotated when the write completes. 7.2: the eviction left anon
 * MIN_NR_GENS generations, so the second youngest is the oldest, and
 * evict_folios() activates a rejected folio that would go back there
 * (lru_gen_folio_seq); the walk made these PG_workingset
 * (lru_tier_workingset): active and workingset, the youngest.
 */
static void anon_under_swap_writeback_waits_out_of_the_oldest_generation(void **state)
{
	unsigned long seq = TB_HAVE_lru_gen_folio_seq ? 5 : 4;
	struct lruvec *lruvec;
	struct folio *folio;
	struct tb_vma *vma;
	unsigned short id;
	long n = 0;

	lruvec = in_memcg_a(&id);
	vma = tb_map_anon(MIN_LRU_BATCH);
	tb_touch_range(vma, MIN_LRU_BATCH, true);
	lru_add_drain();
	assert_int_equal(tb_lru_gen_cmd("+ %u 0 3 1 1", id), 11);
	assert_int_equal(tb_lru_gen_cmd("+ %u 0 4 1 1", id), 11);
	assert_int_equal(tb_gen_seq_pages(lruvec, 3, A), MIN_LRU_BATCH);

	assert_true(tb_lru_gen_cmd("- %u 0 3 200 %d", id, MIN_LRU_BATCH) > 0);
	assert_int_equal(tb_vma_swapped(vma), MIN_LRU_BATCH);
	/* the writes still going on keep their folios */
	assert_true(tb_writeback_inflight() > 0);
	assert_int_equal(lruvec->lrugen.max_seq, 5);
	assert_int_equal(tb_gen_pages(lruvec, A), tb_gen_seq_pages(lruvec, seq, A));
	assert_true(tb_gen_seq_pages(lruvec, seq, A) >= tb_writeback_inflight());
	list_for_each_entry(folio, &lruvec->lrugen.folios[lru_gen_from_seq(seq)][A][ZONE_NORMAL], lru) {
		assert_true(folio_test_swapcache(folio));
		assert_false(folio_test_active(folio));
		assert_false(folio_test_referenced(folio));
		assert_int_equal(folio_test_workingset(folio), TB_HAVE_lru_tier_workingset);
		n++;
	}
	assert_int_equal(n, tb_gen_seq_pages(lruvec, seq, A));
}

/*
 * An aging walks an mm only if it ran since the last walk on the node
 * (lru_gen_use_mm() sets every bit of its bitmap, get_next_mm() clears
 * the node's) unless the aging is forced. A task's page cache mapped and
 * touched, then two agings without force_scan (min_seq moved up first:
 * one needs fewer than MAX_NR_GENS generations; 7.2, with the faulted
 * pages in generation 1, lru_gen_fault_referenced, min_seq goes to 1 and
 * the second aging retires it, lru_gen_aging_eexist): the first walks the
 * task's ptes, the second skips the mm, which has not run since.
 */
static void unforced_aging_skips_an_mm_that_has_not_run_since_the_last_walk(void **state)
{
	struct tb_file *f = tb_file_create(MIN_LRU_BATCH);
	struct lruvec *lruvec;
	unsigned long leaf;
	unsigned short id;

	lruvec = in_memcg_a(&id);
	fault_in(f, MIN_LRU_BATCH, false);
	lru_add_drain();
	assert_int_equal(tb_lru_gen_cmd("- %u 0 0 0 1", id), 11);
	assert_int_equal(lruvec->lrugen.min_seq[F], 2 - TB_HAVE_lru_gen_fault_referenced);

	leaf = READ_ONCE(lruvec->mm_state.stats[0][MM_LEAF_TOTAL]);
	assert_int_equal(tb_lru_gen_cmd("+ %u 0 3 0 0", id), 11);
	assert_true(READ_ONCE(lruvec->mm_state.stats[0][MM_LEAF_TOTAL]) > leaf);
	leaf = READ_ONCE(lruvec->mm_state.stats[0][MM_LEAF_TOTAL]);
	assert_int_equal(tb_lru_gen_cmd("+ %u 0 4 0 0", id), 11);
	assert_int_equal(lruvec->lrugen.max_seq, 5);
	assert_int_equal(READ_ONCE(lruvec->mm_state.stats[0][MM_LEAF_TOTAL]), leaf);
}

/*
 * Memcg reclaim rotates its memcg on the memcg LRU only when it had to
 * age it (try_to_shrink_lruvec() true: get_nr_to_scan() below 0). 512
 * pages read once (generation 1 of 0 to 3): at priorities 12 to 10 there
 * is nothing to scan (512 >> priority is 0: get_nr_to_scan() gives 0, no
 * aging), at 9 one page, and the scan finds generation 0 empty and only
 * moves min_seq on (counted as the one page scanned), at 8 one batch is
 * evicted, enough for memory.reclaim "128K". The memcg stays in its
 * memcg generation, not aged. 7.2 (lru_gen_age_at_three_gens,
 * mglru_evict_budget): 512 >> priority pages from 9 on, 1 at 9 (min_seq
 * moved to 1), then at 8 three generations are aged and the eviction
 * goes on, 1 + 3 + 7 + 15 + 30 at 8 to 4: 57 pages, and the aging
 * rotates the memcg to the young memcg generation.
 */
static void memcg_reclaim_rotates_its_memcg_only_when_it_aged_it(void **state)
{
	struct tb_file *f = tb_file_create(512);
	struct lru_gen_memcg *lru = &NODE_DATA(0)->memcg_lru;
	struct lruvec *lruvec;
	unsigned long seq;
	int gen;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	read_times_drained(f, 512, 1);
	lruvec = tb_lruvec_of("a");
	seq = READ_ONCE(lru->seq);
	gen = lruvec->lrugen.gen;
	kshim_trace_reset();

	assert_write_ok("a", "memory.reclaim", "128K");
	assert_int_equal(READ_ONCE(lru->seq), seq);
	assert_int_equal(lruvec->lrugen.seg, 0);
#if TB_HAVE_lru_gen_age_at_three_gens
	assert_int_equal(kshim_trace.inactive_reclaimed[F][9], 1);
	assert_int_equal(kshim_trace.inactive_reclaimed[F][4], 30);
	assert_int_equal(tb_stat("a", "pgsteal"), 57);
	assert_int_equal(lruvec->lrugen.max_seq, MIN_NR_GENS + 2);
	assert_int_equal(lruvec->lrugen.gen, (seq + 1) % MEMCG_NR_GENS);
#else
	assert_int_equal(eviction_priority(), 8);
	assert_int_equal(tb_stat("a", "pgsteal"), MIN_LRU_BATCH);
	assert_int_equal(lruvec->lrugen.max_seq, MIN_NR_GENS + 1);
	assert_int_equal(lruvec->lrugen.gen, gen);
#endif
}

/*
 * GFP_NOIO reclaim does take anon already in the swap cache: clean, it
 * needs no write (isolate_folio() refuses only anon that is dirty or not
 * in the swap cache). 256 anon pages swapped out to a disk and read
 * back (each stays in the swap cache, its slot kept; from zram the kernel
 * keeps no copy), aged: a GFP_NOIO page with
 * free memory under min reclaims them a batch at a time, skipping none,
 * and frees them without a write (their swap slots hold the data).
 */
static void noio_direct_reclaim_takes_clean_anon_from_the_swap_cache(void **state)
{
	struct lruvec *lruvec;
	struct folio *folio;
	struct tb_vma *vma;
	unsigned short id;
	unsigned long seq;
	LIST_HEAD(held);

	TB_ONE_NODE_ONLY("one node's free memory");
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	id = tb_memcg_id("a");
	lruvec = tb_lruvec_of("a");
	vma = tb_map_anon(256);
	tb_touch_range(vma, 256, true);
	tb_reclaim_swappiness("a", "1M", 200);
	assert_int_equal(tb_vma_swapped(vma), 256);
	/* the disk completes the writes: clean folios in the swap cache */
	msleep(1);
	tb_touch_range(vma, 256, false);
	lru_add_drain();
	assert_int_equal(tb_swap_used(), 256);
	assert_true(folio_test_swapcache(tb_vma_folio(vma, 0)));
	seq = lruvec->lrugen.max_seq;
	assert_true(tb_lru_gen_cmd("+ %u 0 %lu 1 1", id, seq) > 0);
	assert_true(tb_lru_gen_cmd("+ %u 0 %lu 1 1", id, seq + 1) > 0);
	tb_take_free_pages_down_to(100, &held);
	kshim_trace_reset();

	folio = tb_alloc_folio(GFP_NOIO, 0);
	assert_non_null(folio);
	list_add(&folio->lru, &held);
	assert_int_equal(kshim_trace.isolate_sum.skipped, 0);
	assert_true(kshim_trace.isolate_sum.taken >= MIN_LRU_BATCH);
	assert_int_equal(tb_vma_resident(vma), 256 - kshim_trace.isolate_sum.taken);
	assert_int_equal(tb_writeback_inflight(), 0);
	assert_int_equal(tb_swap_used(), 256);
	tb_put_folios(&held);
}


/*
 * Global reclaim meets a memcg below its memory.low: shrink_one() passes
 * it over the first time, moving it to the tail of a bin
 * (MEMCG_LRU_TAIL), and reclaims it on the next visits, each counted as
 * a "low" event. Reclaimed without aging it is not rotated again: it
 * stays marked as the tail. A and A/p both have memory.low 64M, so p is
 * protected from the root down; p holds 8192 pages read once, nothing
 * else is reclaimable. Before 6.12.118 shrink_one() reads the elow the
 * last reclaim through p left: a memcg reclaim of A computes it here.
 */
static void below_low_setup(const char *a_low)
{
	struct tb_file *f = tb_file_create(8192);

	assert_int_equal(tb_cgroup_mkdir("A"), 0);
	assert_write_ok("A", "memory.low", a_low);
	assert_int_equal(tb_cgroup_mkdir("A/p"), 0);
	assert_write_ok("A/p", "memory.low", "64M");
	tb_run_in("A/p");
	tb_read_range(f, 8192);
	lru_add_drain();
	assert_write_ok("A", "memory.reclaim", "4K");
	assert_true(tb_memcg("A/p")->memory.elow > 0);
	assert_int_equal(tb_lruvec_of("A/p")->lrugen.seg, 0);
}

static void memcg_below_low_is_reclaimed_only_after_a_visit_to_the_tail(void **state)
{
	long long low, steal;

	below_low_setup("64M");
	low = tb_cgroup_read_key("A/p", "memory.events", "low");
	steal = tb_stat("A/p", "pgsteal");

	assert_write_ok("", "memory.reclaim", "256K");
	assert_int_equal(tb_lruvec_of("A/p")->lrugen.seg, SEG_TAIL);
	assert_true(tb_cgroup_read_key("A/p", "memory.events", "low") > low);
	assert_true(tb_stat("A/p", "pgsteal") > steal);
}

/*
 * The same with A unprotected: p's memory.low counts for nothing from
 * the root. Since 6.12.118 shrink_one() computes the protection along
 * the path (mem_cgroup_calculate_protection_path()) and reclaims p at
 * the first visit, no low event; before, it read the elow that the memcg
 * reclaim of A left, passed p over to the tail and raised low events.
 */
static void memcg_low_under_an_unprotected_parent_counts_only_before_the_path_walk(void **state)
{
	long long low, steal;

	below_low_setup("0");
	low = tb_cgroup_read_key("A/p", "memory.events", "low");
	steal = tb_stat("A/p", "pgsteal");

	assert_write_ok("", "memory.reclaim", "256K");
	assert_true(tb_stat("A/p", "pgsteal") > steal);
#if TB_HAVE_memcg_protection_path
	assert_int_equal(tb_memcg("A/p")->memory.elow, 0);
	assert_int_equal(tb_lruvec_of("A/p")->lrugen.seg, 0);
	assert_int_equal(tb_cgroup_read_key("A/p", "memory.events", "low"), low);
#else
	assert_true(tb_memcg("A/p")->memory.elow > 0);
	assert_int_equal(tb_lruvec_of("A/p")->lrugen.seg, SEG_TAIL);
	assert_true(tb_cgroup_read_key("A/p", "memory.events", "low") > low);
#endif
}

/*
 * kswapd woken for ZONE_NORMAL (a GFP_KERNEL page: kswapd's reclaim_idx
 * 0), page cache read down to the low watermark: should_abort_scan()
 * checks the zones up to reclaim_idx, ZONE_NORMAL here, and kswapd stops
 * as when woken for page cache: three batches, 319 free pages to 511.
 */
static void kswapd_woken_for_zone_normal_stops_a_batch_above_the_high_watermark(void **state)
{
	struct tb_file *f = tb_file_create(PAGES(128 * MB));
	unsigned long i, free;
	struct folio *folio;

	TB_ONE_NODE_ONLY("one node's kswapd");
	assert_int_equal(tb_cgroup_mkdir("b"), 0);
	tb_run_in("b");
	for (i = 0; tb_free_pages(0) > tb_wmark(0, WMARK_LOW); i++)
		assert_int_equal(tb_file_read(f, i), 0);
	assert_int_equal(kshim_vm_event_read(PAGEOUTRUN), 0);
	folio = tb_alloc_folio(GFP_KERNEL, 0);
	assert_non_null(folio);
	tb_kthreads_settle();
	free = tb_free_pages(0);
	folio_put(folio);
	assert_int_equal(kshim_vm_event_read(PAGEOUTRUN), 1);
	assert_int_equal(kshim_reclaim_event_read(PGSTEAL_KSWAPD), 3 * MIN_LRU_BATCH);
	assert_int_equal(free, 319 + 3 * MIN_LRU_BATCH);
}

/*
 * shrink_one() reports to vmpressure what it scanned and reclaimed in
 * its own memcg: the differences of sc->nr_scanned and nr_reclaimed
 * over its visit. Two small memcgs, each 100 pages read once (100 >> 6
 * is 1 page to scan: one batch each), anon in the root (no swap) taking
 * free memory to the low watermark: kswapd reclaims a batch of each,
 * whichever it visits first, and each memcg's vmpressure counts its own.
 * 7.2 (mglru_evict_budget): 100 >> priority of each at each priority
 * kswapd goes down to, 1, 3, 6, 11 and 19 at 6 to 2: 40 of each.
 */
static void kswapd_reports_each_memcgs_own_scan_to_vmpressure(void **state)
{
	struct tb_file *fb = tb_file_create(100), *fc = tb_file_create(100);
	long n = TB_HAVE_mglru_evict_budget ? 40 : MIN_LRU_BATCH;
	struct tb_vma *vma;
	struct vmpressure *vb, *vc;
	unsigned long i = 0;

	TB_ONE_NODE_ONLY("one node's kswapd");
	assert_int_equal(tb_cgroup_mkdir("b"), 0);
	assert_int_equal(tb_cgroup_mkdir("c"), 0);
	tb_run_in("b");
	tb_read_range(fb, 100);
	tb_run_in("c");
	tb_read_range(fc, 100);
	tb_run_in("");
	vma = tb_map_anon(PAGES(64 * MB));
	while (tb_free_pages(0) > tb_wmark(0, WMARK_LOW))
		assert_int_equal(tb_touch(vma, i++, true), 0);
	assert_int_equal(tb_touch(vma, i++, true), 0);
	tb_kthreads_settle();
	assert_int_equal(tb_stat("b", "pgsteal_kswapd"), n);
	assert_int_equal(tb_stat("c", "pgsteal_kswapd"), n);
	vb = memcg_to_vmpressure(tb_memcg("b"));
	vc = memcg_to_vmpressure(tb_memcg("c"));
	assert_int_equal(vb->scanned, n);
	assert_int_equal(vb->reclaimed, n);
	assert_int_equal(vc->scanned, n);
	assert_int_equal(vc->reclaimed, n);
}

/*
 * Global reclaim drains this CPU's LRU batches first
 * (lru_gen_shrink_node()): page cache just read, still in the batch of
 * folios waiting to be added to the LRU, is reclaimed by the first call
 * of memory.reclaim of the root; memory_reclaim() itself drains every
 * CPU only before its last retry.
 */
static void global_reclaim_drains_the_cpus_lru_batches_first(void **state)
{
	struct tb_file *f = tb_file_create(8);

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	tb_read_range(f, 8);
	assert_int_equal(tb_gen_pages(tb_lruvec_of("a"), F), 0);
	kshim_trace_reset();
	assert_write_ok("", "memory.reclaim", "32K");
	assert_int_equal(kshim_trace.memcg_reclaim_count, 1);
	assert_int_equal(tb_file_cached(f), 0);
}

/*
 * At DEF_PRIORITY get_nr_to_scan() does not age ("try to get away with
 * not aging at the default priority"), even for generations
 * should_run_aging() finds unbalanced: it scans total >> DEF_PRIORITY.
 * 1200 of 4801 pages in the oldest generation, under a quarter: a
 * memory.reclaim of 32 pages evicts one batch at DEF_PRIORITY (4801 >>
 * 12 = 1 page to scan) and leaves max_seq as it was. 7.2
 * (mglru_evict_budget): the 1 page only, then at priority 11 the lruvec
 * is aged (lru_gen_age_at_three_gens) and 2 + 4 + 9 + 18 pages are
 * evicted at 11 to 8.
 */
static void eviction_at_the_default_priority_does_not_age(void **state)
{
	struct lruvec *lruvec = three_generations(1200, 3004, 597, 0);
	long old = tb_gen_seq_pages(lruvec, 2, F);

	kshim_trace_reset();
	assert_write_ok("a", "memory.reclaim", "128K");
#if TB_HAVE_mglru_evict_budget
	assert_int_equal(kshim_trace.inactive_reclaimed[F][DEF_PRIORITY], 1);
	assert_int_equal(kshim_trace.inactive_reclaimed[F][DEF_PRIORITY - 1], 2);
	assert_int_equal(kshim_trace.inactive_reclaimed[F][DEF_PRIORITY - 4], 18);
	assert_int_equal(lruvec->lrugen.max_seq, 5);
	assert_int_equal(tb_gen_seq_pages(lruvec, 2, F), old - 34);
#else
	assert_int_equal(kshim_trace.inactive_reclaimed[F][DEF_PRIORITY], MIN_LRU_BATCH);
	assert_int_equal(eviction_priority(), -1);
	assert_int_equal(lruvec->lrugen.max_seq, 4);
	assert_int_equal(tb_gen_seq_pages(lruvec, 2, F), old - MIN_LRU_BATCH);
#endif
}

/*
 * try_to_shrink_lruvec() stops evicting once it scanned nr_to_scan
 * (total >> priority), each eviction counting what scan_folios()
 * scanned plus one when try_to_inc_min_seq() moved min_seq on. kswapd,
 * woken with 149 pages free (page cache read once: 12352 pages, then
 * GFP_ATOMIC pages taken), starts at priority 6 (fls(12352) - 1 -
 * fls(383), raised to 6) with 12352 >> 6 = 193 to scan: 65 + 64 + 64
 * scanned in three batches, 192 pages reclaimed, 341 free, not yet
 * balanced. Its next pass, at priority 5, stops a batch above the high
 * watermark: two batches more. 7.2 (mglru_evict_budget): the batches
 * at priority 6 take exactly the 193 pages (64, 64, 64 and 1).
 */
static void kswapd_stops_a_pass_once_it_scanned_its_share_of_the_lruvec(void **state)
{
	struct tb_file *f = tb_file_create(12352);
	const struct kshim_trace *k = tb_kswapd_trace(0);
	struct folio *folio;
	LIST_HEAD(held);

	TB_ONE_NODE_ONLY("one node's kswapd");
	assert_int_equal(tb_cgroup_mkdir("b"), 0);
	tb_run_in("b");
	tb_read_range(f, 12352);
	lru_add_drain();
	assert_int_equal(node_page_state(NODE_DATA(0), NR_INACTIVE_FILE), 12352);
	tb_take_free_pages_down_to(150, &held);
	tb_kthreads_settle();
	assert_int_equal(kshim_vm_event_read(PAGEOUTRUN), 0);
	folio = tb_alloc_folio(GFP_ATOMIC, 0);
	assert_non_null(folio);
	list_add(&folio->lru, &held);
	tb_kthreads_settle();
	assert_int_equal(k->inactive_reclaimed[F][6], TB_HAVE_mglru_evict_budget ? 193 : 3 * MIN_LRU_BATCH);
	assert_int_equal(k->inactive_reclaimed[F][5], 2 * MIN_LRU_BATCH);
	assert_int_equal(kshim_reclaim_event_read(PGSTEAL_KSWAPD),
			 (TB_HAVE_mglru_evict_budget ? 193 : 3 * MIN_LRU_BATCH) + 2 * MIN_LRU_BATCH);
	tb_put_folios(&held);
}

/*
 * should_run_aging() counts every generation from min_seq to max_seq
 * once: 512 pages read once, then a forced aging (the oldest generation
 * retired, the pages now in min_seq, one of four). A memcg reclaim
 * scans total >> priority: nothing at priority 10 (512 >> 10 is 0), one
 * batch at 9. 7.2 (mglru_evict_budget): 512 >> 9 = 1 page at 9, then 1,
 * 3, 7, 15 and 30 at 8 to 4, until the 32 pages asked are reclaimed.
 */
static void memcg_reclaim_scans_its_generations_shifted_by_priority(void **state)
{
	struct tb_file *f = tb_file_create(512);
	struct lruvec *lruvec;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	tb_read_range(f, 512);
	lru_add_drain();
	lruvec = tb_lruvec_of("a");
	assert_int_equal(tb_lru_gen_cmd("+ %u 0 3 0 1", tb_memcg_id("a")), 11);
	assert_int_equal(lruvec->lrugen.min_seq[F], 1);
	assert_int_equal(tb_gen_seq_pages(lruvec, 1, F), 512);
	kshim_trace_reset();
	assert_write_ok("a", "memory.reclaim", "128K");
	assert_int_equal(kshim_trace.inactive_reclaimed[F][10], 0);
#if TB_HAVE_mglru_evict_budget
	assert_int_equal(kshim_trace.inactive_reclaimed[F][9], 1);
	assert_int_equal(kshim_trace.inactive_reclaimed[F][4], 30);
#else
	assert_int_equal(eviction_priority(), 9);
	assert_int_equal(kshim_trace.inactive_reclaimed[F][9], MIN_LRU_BATCH);
#endif
}

/* a task of "a" writes page i of d and reads page i of c, for i < n */
static void write_and_read_in_turn(struct tb_file *d, struct tb_file *c, unsigned long n)
{
	unsigned long i;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	for (i = 0; i < n; i++) {
		assert_int_equal(tb_file_write(d, i), 0);
		assert_int_equal(tb_file_read(c, i), 0);
	}
	lru_add_drain();
}

/*
 * try_to_shrink_lruvec() wakes the flushers only when every page cache
 * folio the eviction took was dirty and not yet queued for writeback
 * (sc->nr.unqueued_dirty == sc->nr.file_taken). 32 pages written and 32
 * read, in turn, in one generation: memory.reclaim "128K" takes the 64,
 * reclaims the 32 clean ones and leaves the dirty ones to the flushers,
 * which are not woken (the world's flushers write every dirty file when
 * woken). Then only dirty pages are left to take: the next eviction
 * wakes them, and shrink_folio_list() waits on the writes of the folios
 * it marked (memcg reclaim is not writeback_throttling_sane() here) and
 * frees them. Without mglru_sort_lets_dirty_through (6.12 before
 * 6.12.115) sort_folio() holds every dirty or writeback folio back
 * instead: the second call wakes the flushers (lru_gen_wakes_flushers,
 * since 6.12.107; before, they stay dirty) and reclaims nothing: -EAGAIN.
 * 7.2 (mglru_evict_budget): the first batch, at priority 6, is 64 >> 6 =
 * 1 page, d's first, dirty: all it took was dirty, so the flushers are
 * woken at once and clean d, and the later batches reclaim both files.
 */
static void eviction_wakes_the_flushers_only_if_all_it_took_was_dirty(void **state)
{
	struct tb_file *d = tb_file_create(32), *c = tb_file_create(32);

	write_and_read_in_turn(d, c, 32);
	assert_int_equal(tb_file_dirty(d), 32);

	assert_write_ok("a", "memory.reclaim", "128K");
#if TB_HAVE_mglru_evict_budget
	assert_int_equal(tb_file_dirty(d), 0);
	assert_true(tb_stat("a", "pgsteal") >= 32);
	assert_int_equal(tb_file_cached(c) + tb_file_cached(d), 64 - tb_stat("a", "pgsteal"));
#else
	assert_int_equal(tb_file_cached(c), 0);
	assert_int_equal(tb_file_cached(d), 32);
	assert_int_equal(tb_file_dirty(d), 32);
#endif

#if TB_HAVE_mglru_evict_budget
	/* fewer than 32 pages left, all clean: all reclaimed, still short */
	assert_write("a", "memory.reclaim", "128K", -EAGAIN);
	assert_int_equal(tb_file_cached(c) + tb_file_cached(d), 0);
#elif TB_HAVE_mglru_sort_lets_dirty_through
	assert_write_ok("a", "memory.reclaim", "128K");
	assert_int_equal(tb_file_dirty(d), 0);
#else
	assert_write("a", "memory.reclaim", "128K", -EAGAIN);
	assert_int_equal(tb_file_cached(d), 32);
	assert_int_equal(tb_file_dirty(d), TB_HAVE_lru_gen_wakes_flushers ? 0 : 32);
#endif
}

/*
 * What an eviction isolated and did not free goes back to the LRU
 * (shrink_folio_list() activates a dirty page cache folio it may not
 * write, for the flushers to clean). 7.3 (lru_gen_evict_rotations):
 * evict_folios() counts each batch's isolated pages beyond what it freed,
 * its retry pass included, as rotated (PGROTATE_FILE of the lruvec, the
 * page cache's half of the reclaim cost prepare_scan_control() folds);
 * a batch that freed all it took counts none. 32 pages written and 32
 * read in turn, reclaimed through memory.reclaim: whatever the batches,
 * the rotations are the pages taken less the pages stolen, and the dirty
 * pages taken before the flushers cleaned them make them more than none.
 * Before 7.3 the multi-gen LRU counts no rotation.
 */
static void eviction_counts_the_pages_it_took_and_did_not_free_as_rotated(void **state)
{
	struct tb_file *d = tb_file_create(32), *c = tb_file_create(32);
	unsigned long taken, stolen;
#if TB_HAVE_lru_gen_evict_rotations
	unsigned long rotated;
#endif

	write_and_read_in_turn(d, c, 32);
#if TB_HAVE_lru_gen_evict_rotations
	tb_memcg_flush_stats(tb_memcg("a"));
	rotated = lruvec_page_state(tb_lruvec_of("a"), PGROTATE_FILE);
#endif
	stolen = tb_stat("a", "pgsteal");
	kshim_trace_reset();
	assert_write_ok("a", "memory.reclaim", "128K");
	taken = kshim_trace.isolate_sum.taken;
	stolen = tb_stat("a", "pgsteal") - stolen;
	assert_true(stolen >= 32);
	assert_true(taken >= stolen);
#if TB_HAVE_lru_gen_evict_rotations
	assert_true(taken > stolen);
	tb_memcg_flush_stats(tb_memcg("a"));
	assert_int_equal(lruvec_page_state(tb_lruvec_of("a"), PGROTATE_FILE) - rotated,
			 taken - stolen);
	assert_int_equal(lruvec_page_state(tb_lruvec_of("a"), PGROTATE_ANON), 0);
#endif
}

/*
 * A forced aging with MAX_NR_GENS generations walks the page tables
 * first: folio_update_gen() marks the folios it finds young as members
 * of the youngest generation, leaving them on their lists; inc_min_seq()
 * then retires the oldest generation and moves each folio to the list
 * of the generation it is marked for (folio_inc_gen() returns the one
 * the walk gave it), not to the next one. 64 pages read once, in the
 * oldest generation (min_seq 3, max_seq 6) after three agings, then
 * mapped and touched: the fourth aging puts them in generation 6.
 */
static void forced_aging_moves_the_folios_its_walk_promoted_to_their_generation(void **state)
{
	struct tb_file *f = tb_file_create(MIN_LRU_BATCH);
	struct lruvec *lruvec;
	struct folio *folio;
	unsigned short id;
	unsigned long seq;
	long n = 0;

	lruvec = in_memcg_a(&id);
	for (seq = 3; seq < 5; seq++)
		assert_int_equal(tb_lru_gen_cmd("+ %u 0 %lu 0 1", id, seq), 11);
	read_times_drained(f, MIN_LRU_BATCH, 1);
	assert_int_equal(tb_gen_seq_pages(lruvec, 3, F), MIN_LRU_BATCH);
	assert_int_equal(tb_lru_gen_cmd("+ %u 0 5 0 1", id), 11);
	assert_int_equal(lruvec->lrugen.min_seq[F], 3);
	assert_int_equal(lruvec->lrugen.max_seq, 6);
	fault_in(f, MIN_LRU_BATCH, false);

	assert_int_equal(tb_lru_gen_cmd("+ %u 0 6 0 1", id), 11);
	assert_int_equal(lruvec->lrugen.min_seq[F], 4);
	assert_int_equal(tb_gen_seq_pages(lruvec, 6, F), MIN_LRU_BATCH);
	list_for_each_entry(folio, &lruvec->lrugen.folios[lru_gen_from_seq(6)][F][ZONE_NORMAL], lru) {
		assert_int_equal(folio_lru_gen(folio), lru_gen_from_seq(6));
		n++;
	}
	assert_int_equal(n, MIN_LRU_BATCH);
	tb_assert_lrus_consistent();
}

/*
 * GFP_NOIO reclaim takes dirty page cache: it cannot write it
 * (shrink_folio_list() leaves it to the flushers: PG_reclaim, back to the
 * LRU), but only anon that would need swap I/O is refused at isolation
 * (isolate_folio()'s "swap constrained"). 256 pages written, then page
 * cache read until free memory is at min: a GFP_NOIO page, free memory
 * taken under min, reclaims with nothing skipped; the dirty pages it took
 * carry PG_reclaim.
 */
static void noio_direct_reclaim_takes_dirty_page_cache_and_leaves_it_to_the_flushers(void **state)
{
	struct tb_file *d = tb_file_create(256), *f = tb_file_create(PAGES(64 * MB));
	unsigned long i, kept = 0;
	struct folio *folio;
	LIST_HEAD(held);

	TB_ONE_NODE_ONLY("one node's free memory");
	in_memcg_a(NULL);
	for (i = 0; i < 256; i++)
		assert_int_equal(tb_file_write(d, i), 0);
	for (i = 0; tb_free_pages(0) > tb_wmark(0, WMARK_MIN) + 8; i++)
		assert_int_equal(tb_file_read(f, i), 0);
	lru_add_drain();
	assert_int_equal(tb_file_dirty(d), 256);
	tb_take_free_pages_down_to(100, &held);
	kshim_trace_reset();

	folio = tb_alloc_folio(GFP_NOIO, 0);
	assert_non_null(folio);
	list_add(&folio->lru, &held);
	assert_int_equal(kshim_trace.isolate_sum.skipped, 0);
	assert_true(kshim_trace.isolate_sum.taken > 0);
	for (i = 0; i < 256; i++)
		kept += folio_test_reclaim(tb_file_folio(d, i));
	assert_true(kept > 0);
	assert_int_equal(tb_file_cached(d), 256);
	tb_put_folios(&held);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		TB_MGLRU_TEST(eviction_counts_sorted_and_isolated_folios_per_memcg_and_node),
		TB_MGLRU_TEST(eviction_sorts_a_generation_larger_than_a_batch_in_rounds),
		TB_MGLRU_TEST(three_generations_a_quarter_in_the_oldest),
		TB_MGLRU_TEST(three_generations_under_a_quarter_in_the_oldest),
		TB_MGLRU_TEST(three_generations_half_in_the_youngest),
		TB_MGLRU_TEST(three_generations_over_half_in_the_youngest),
		TB_RECLAIM_TEST_ON(global_reclaim_starts_at_a_priority_from_the_inactive_size, setup_big),
		TB_MGLRU_TEST(kswapd_stops_a_batch_above_the_high_watermark),
		TB_MGLRU_SWAP_TEST(kswapd_ages_only_the_generations_never_the_classic_anon_lists),
		cmocka_unit_test_setup_teardown(laptop_mode_holds_global_reclaim_off_the_lrus_where_it_is_honoured,
						tb_mglru_setup, laptop_mode_teardown),
		TB_MGLRU_TEST(aging_walk_promotes_a_folio_and_clears_its_file_refs),
		TB_MGLRU_TEST(hopeless_node_kswapd_failures_after_direct_reclaim_progress),
		TB_MGLRU_TEST(kswapd_woken_for_order_3_counts_each_pass_once_toward_the_compact_gap),
		TB_RECLAIM_TEST_ON(noio_direct_reclaim_takes_page_cache_and_swaps_no_anon,
				   setup_swap_no_kswapd),
		TB_MGLRU_TEST(forced_aging_carries_the_retired_generations_tier_counts_over),
		TB_MGLRU_SWAP_TEST(eviction_with_swap_moves_the_page_cache_min_seq_by_its_types_rule),
		TB_MGLRU_SWAP_TEST(eviction_with_swap_lets_anon_min_seq_lead_the_page_cache_by_one),
		TB_MGLRU_TEST(removed_memcg_out_of_cold_folios_has_its_page_cache_reclaimed),
		TB_RECLAIM_TEST_ON(anon_under_swap_writeback_waits_out_of_the_oldest_generation,
				   setup_swap_disk),
		TB_MGLRU_TEST(unforced_aging_skips_an_mm_that_has_not_run_since_the_last_walk),
		TB_MGLRU_TEST(memcg_reclaim_rotates_its_memcg_only_when_it_aged_it),
		TB_RECLAIM_TEST_ON(noio_direct_reclaim_takes_clean_anon_from_the_swap_cache,
				   setup_swap_disk_no_kswapd),
		TB_MGLRU_TEST(memcg_below_low_is_reclaimed_only_after_a_visit_to_the_tail),
		TB_MGLRU_TEST(memcg_low_under_an_unprotected_parent_counts_only_before_the_path_walk),
		TB_MGLRU_TEST(kswapd_woken_for_zone_normal_stops_a_batch_above_the_high_watermark),
		TB_MGLRU_TEST(kswapd_reports_each_memcgs_own_scan_to_vmpressure),
		TB_MGLRU_TEST(global_reclaim_drains_the_cpus_lru_batches_first),
		TB_MGLRU_TEST(eviction_at_the_default_priority_does_not_age),
		TB_MGLRU_TEST(kswapd_stops_a_pass_once_it_scanned_its_share_of_the_lruvec),
		TB_MGLRU_TEST(memcg_reclaim_scans_its_generations_shifted_by_priority),
		TB_MGLRU_TEST(eviction_wakes_the_flushers_only_if_all_it_took_was_dirty),
		TB_MGLRU_TEST(eviction_counts_the_pages_it_took_and_did_not_free_as_rotated),
		TB_MGLRU_TEST(forced_aging_moves_the_folios_its_walk_promoted_to_their_generation),
		TB_RECLAIM_TEST_ON(noio_direct_reclaim_takes_dirty_page_cache_and_leaves_it_to_the_flushers,
				   setup_swap_no_kswapd),
	};

	return TB_RUN(tests);
}
