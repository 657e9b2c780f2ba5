// SPDX-License-Identifier: GPL-2.0-only
/*
 * The multi-gen LRU's page-table walk and look-around (mm/vmscan.c over
 * mm/pagewalk.c and the world's x86-64 page tables):
 *
 * - walk_mm() (aging, try_to_inc_max_seq()) visits the mms of the memcg's
 *   mm list, vma by vma, and should_skip_vma() leaves out a vma with no
 *   access rights, without recency (MADV_RANDOM, MADV_SEQUENTIAL), or of
 *   an unevictable (SHM_LOCKed) file; walk_pte_range() clears the accessed
 *   bit of each young pte whose folio belongs to the lruvec aged, moves
 *   the folio to the youngest generation and hands the pte's dirty bit to
 *   a clean swap-cache folio; walk_pud_range() stops after MAX_LRU_BATCH
 *   folios moved and walk_mm() resumes at the next PUD;
 * - without the mm-walk cap (lru_gen/enabled without 0x0002) aging clears
 *   no accessed bit (iterate_mm_list_nowalk());
 * - lru_gen_look_around(), called by the rmap walk of a young folio being
 *   evicted, clears the young ptes around it (at most MIN_LRU_BATCH, in
 *   its page table and vma): with a walk (debugfs eviction, memory.reclaim,
 *   kswapd) their folios go to the youngest generation in a batch; without
 *   (a charge's reclaim) the ones on the LRU are activated; a one-page vma
 *   has no neighbours to look at;
 * - a task moved to another memcg takes its mm to that memcg's list
 *   (lru_gen_migrate_mm() from mem_cgroup_attach()); its folios stay
 *   charged where they were, so neither memcg's walk ages them.
 */
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/mm_inline.h>
#include <linux/memcontrol.h>
#include <linux/sched/mm.h>
#include <kshim/testbed.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include "tb_mglru.h"

/* lru_gen/enabled caps (mm/vmscan.c's LRU_GEN_CORE, _MM_WALK, _NONLEAF_YOUNG) */
#define CAP_CORE	0x1
#define CAP_MM_WALK	0x2
#define CAP_NONLEAF	0x4

static int gen_of(struct tb_vma *vma, unsigned long i)
{
	return folio_lru_gen(tb_vma_folio(vma, i));
}

/* pages [from, to) of vma whose ptes are young */
static unsigned long young(struct tb_vma *vma, unsigned long from, unsigned long to)
{
	unsigned long i, n = 0;

	for (i = from; i < to; i++)
		n += tb_vma_pte_young(vma, i);
	return n;
}

/* pages [from, to) of vma in the generation of seq */
static unsigned long in_gen(struct tb_vma *vma, unsigned long from, unsigned long to,
			    unsigned long seq)
{
	unsigned long i, n = 0;

	for (i = from; i < to; i++)
		n += gen_of(vma, i) == lru_gen_from_seq(seq);
	return n;
}

/* "+ memcg node max_seq can_swap force_scan" for a's lruvec on node 0 */
static void age(const char *path, bool can_swap, bool force_scan)
{
	unsigned long max_seq = tb_lruvec_of(path)->lrugen.max_seq;

	assert_true(tb_lru_gen_cmd("+ %u 0 %lu %d %d", tb_memcg_id(path), max_seq,
				   can_swap, force_scan) > 0);
	assert_int_equal(tb_lruvec_of(path)->lrugen.max_seq, max_seq + 1);
}

/* the lruvec's walk counters (mm_state->stats: NR_HIST_GENS is 1 without CONFIG_LRU_GEN_STATS) */
static unsigned long mm_stat(const char *path, int item)
{
	return READ_ONCE(tb_lruvec_of(path)->mm_state.stats[0][item]);
}

static void touch_range(struct tb_vma *vma, unsigned long from, unsigned long to, bool write)
{
	unsigned long i;

	for (i = from; i < to; i++)
		assert_int_equal(tb_touch(vma, i, write), 0);
	lru_add_drain();
}

/* ---- which vmas the walk visits ---- */

/*
 * Six mappings of memcg a's task, every pte young: anonymous, then
 * MADV_RANDOM, MADV_SEQUENTIAL, mprotect(PROT_NONE) (the MMU refuses a
 * touch, SIGSEGV), a file SHM_LOCKed after the reads and a plain file.
 * The walk clears the accessed bits of the first and the last only;
 * should_skip_vma() leaves the others, whatever their ptes say. force_scan: every pte table is
 * read, and the pmds' accessed bits stay.
 */
static void walk_skips_vmas_without_recency_access_or_evictable_pages(void **state)
{
	struct tb_file *f = tb_file_create(8), *g = tb_file_create(8);
	struct tb_vma *anon, *rand, *seq, *none, *file, *plain;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_mglru_switch_on();
	tb_run_in("a");
	anon = tb_map_anon(8);
	rand = tb_map_anon(8);
	seq = tb_map_anon(8);
	none = tb_map_anon(8);
	file = tb_map_file(f);
	plain = tb_map_file(g);
	touch_range(anon, 0, 8, true);
	touch_range(rand, 0, 8, true);
	touch_range(seq, 0, 8, true);
	touch_range(none, 0, 8, true);
	touch_range(file, 0, 8, false);
	touch_range(plain, 0, 8, false);
	tb_file_set_unevictable(f, true);
	assert_int_equal(tb_madvise(rand, MADV_RANDOM), 0);
	assert_int_equal(tb_madvise(seq, MADV_SEQUENTIAL), 0);
	assert_int_equal(tb_mprotect(none, PROT_NONE), 0);
	assert_int_equal(tb_touch(none, 0, false), -EFAULT);

	age("a", true, true);
	assert_int_equal(young(anon, 0, 8), 0);
	assert_true(tb_vma_pmd_young(anon, 0));
	assert_int_equal(young(rand, 0, 8), 8);
	assert_int_equal(young(seq, 0, 8), 8);
	assert_int_equal(young(none, 0, 8), 8);
	assert_int_equal(young(file, 0, 8), 8);
	assert_int_equal(young(plain, 0, 8), 0);

	/* MADV_NORMAL gives the vma its recency back */
	assert_int_equal(tb_madvise(rand, MADV_NORMAL), 0);
	age("a", true, true);
	assert_int_equal(young(rand, 0, 8), 0);
	assert_int_equal(young(seq, 0, 8), 8);
	assert_int_equal(tb_madvise(rand, MADV_WILLNEED), -EINVAL);
	tb_file_set_unevictable(f, false);
	tb_assert_lrus_consistent();
}

/*
 * Small vmas next to each other, in one page table (as an allocator's
 * many mmap()s): walk_pte_range() goes on with the next vma of the same
 * PMD (get_next_vma()) instead of returning to the PGD, passing over the
 * ones should_skip_vma() leaves out (here a MADV_RANDOM one, whose ptes
 * stay young); every other young pte is cleared and its folio moved.
 */
static void walk_finishes_a_page_table_across_small_vmas(void **state)
{
	struct tb_vma *v[6];
	unsigned long max_seq;
	int i;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_mglru_switch_on();
	tb_run_in("a");
	v[0] = tb_map_anon(4);
	for (i = 1; i < 6; i++)
		v[i] = tb_map_anon_near(4);
	for (i = 0; i < 6; i++)
		touch_range(v[i], 0, 4, true);
	assert_int_equal(tb_madvise(v[3], MADV_RANDOM), 0);
	max_seq = tb_lruvec_of("a")->lrugen.max_seq;
	age("a", true, true);
	touch_range(v[1], 0, 4, false);
	touch_range(v[4], 0, 4, false);
	age("a", true, true);
	for (i = 0; i < 6; i++) {
		assert_int_equal(young(v[i], 0, 4), i == 3 ? 4 : 0);
		assert_int_equal(in_gen(v[i], 0, 4, max_seq + 1), i == 1 || i == 4 ? 4 : 0);
	}
	tb_assert_lrus_consistent();
}

/*
 * can_swap 0 (no swap, or swappiness 0): should_skip_vma() leaves out
 * every anonymous vma (its page table is not read), so the walk clears
 * only the page cache's accessed bits; anon folios, young or not, stay
 * where they are.
 */
static void aging_without_swap_walks_only_file_vmas(void **state)
{
	struct tb_file *f = tb_file_create(16);
	struct tb_vma *anon, *file;
	unsigned long max_seq, total;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_mglru_switch_on();
	tb_run_in("a");
	anon = tb_map_anon(16);
	file = tb_map_file(f);
	touch_range(anon, 0, 16, true);
	touch_range(file, 0, 16, false);
	max_seq = tb_lruvec_of("a")->lrugen.max_seq;
	total = mm_stat("a", MM_LEAF_TOTAL);
	age("a", false, true);
	assert_int_equal(young(anon, 0, 16), 16);
	assert_int_equal(young(file, 0, 16), 0);
	/* the anon vma's page table is not even read */
	assert_int_equal(mm_stat("a", MM_LEAF_TOTAL) - total, 16);
	assert_int_equal(in_gen(anon, 0, 16, max_seq), 16);
	tb_assert_lrus_consistent();
}

/*
 * The Bloom filter and the non-leaf accessed bits (aging without
 * force_scan). Two vmas, a page table each, all 64 ptes of each young:
 * a forced walk reads both tables, finds them dense with young ptes
 * (suitable_to_scan()) and adds both pmds to the next generation's
 * filter. Only a's pages are touched again: the next walk reads both
 * tables (both in the filter), finds b's cold and leaves it out of the
 * next filter. Both are touched: the third walk clears the accessed bit
 * of each young pmd (walk_pmd_range_locked(), x86's non-leaf young bits)
 * but reads only a's table: b's ptes stay young, its folios where they
 * were. The walk's counters (mm_state->stats) say the same: leaf ptes
 * seen and young, tables found and added to the filter. A fourth walk,
 * forced, reads b's table whatever its pmd and the filter say.
 */
static void aging_without_force_scan_skips_tables_the_last_walk_found_cold(void **state)
{
	unsigned long max_seq, total, leaf_young, found, added;
	struct tb_vma *a, *b;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_mglru_switch_on();
	tb_run_in("a");
	a = tb_map_anon(64);
	b = tb_map_anon(64);
	touch_range(a, 0, 64, true);
	touch_range(b, 0, 64, true);
	max_seq = tb_lruvec_of("a")->lrugen.max_seq;

#define SNAP() (total = mm_stat("a", MM_LEAF_TOTAL), leaf_young = mm_stat("a", MM_LEAF_YOUNG), \
		found = mm_stat("a", MM_NONLEAF_FOUND), added = mm_stat("a", MM_NONLEAF_ADDED))
	SNAP();
	age("a", true, true);
	assert_int_equal(mm_stat("a", MM_LEAF_TOTAL) - total, 128);
	assert_int_equal(mm_stat("a", MM_LEAF_YOUNG) - leaf_young, 128);
	assert_int_equal(mm_stat("a", MM_NONLEAF_FOUND) - found, 2);
	assert_int_equal(mm_stat("a", MM_NONLEAF_ADDED) - added, 2);
	assert_true(tb_vma_pmd_young(a, 0) && tb_vma_pmd_young(b, 0));
	/*
	 * aging without force_scan wants fewer than MAX_NR_GENS - 1
	 * generations: an eviction with nothing old to evict retires the
	 * empty ones below the folios' (try_to_inc_min_seq())
	 */
	assert_true(tb_lru_gen_cmd("- %u 0 %lu 200 1000", tb_memcg_id("a"), max_seq - 1) > 0);
	assert_int_equal(tb_lruvec_of("a")->lrugen.min_seq[LRU_GEN_ANON], max_seq);
	assert_int_equal(tb_swap_used(), 0);

	touch_range(a, 0, 64, false);
	SNAP();
	age("a", true, false);
	assert_int_equal(mm_stat("a", MM_LEAF_TOTAL) - total, 128);
	assert_int_equal(mm_stat("a", MM_LEAF_YOUNG) - leaf_young, 64);
	assert_int_equal(mm_stat("a", MM_NONLEAF_FOUND) - found, 2);
	assert_int_equal(mm_stat("a", MM_NONLEAF_ADDED) - added, 1);
	assert_int_equal(in_gen(a, 0, 64, max_seq + 1), 64);
	assert_int_equal(in_gen(b, 0, 64, max_seq), 64);

	touch_range(a, 0, 64, false);
	touch_range(b, 0, 64, false);
	SNAP();
	age("a", true, false);
	assert_int_equal(mm_stat("a", MM_LEAF_TOTAL) - total, 64);
	assert_int_equal(mm_stat("a", MM_LEAF_YOUNG) - leaf_young, 64);
	assert_int_equal(mm_stat("a", MM_NONLEAF_FOUND) - found, 1);
	assert_int_equal(mm_stat("a", MM_NONLEAF_ADDED) - added, 1);
	assert_false(tb_vma_pmd_young(a, 0));
	assert_false(tb_vma_pmd_young(b, 0));
	assert_int_equal(young(a, 0, 64), 0);
	assert_int_equal(young(b, 0, 64), 64);
	assert_int_equal(in_gen(a, 0, 64, max_seq + 2), 64);
	assert_int_equal(in_gen(b, 0, 64, max_seq), 64);

	/* force_scan reads b's table though its pmd is old and it left the filter */
	age("a", true, true);
	assert_int_equal(young(b, 0, 64), 0);
	assert_int_equal(in_gen(b, 0, 64, max_seq + 3), 64);
#undef SNAP
	tb_assert_lrus_consistent();
}

/*
 * A walk without force_scan reads the Bloom filter the previous walk
 * filled, which reset_bloom_filter() allocates when that walk starts (a
 * memcg's first walk is forced: its mm is new to the list). When that
 * allocation failed, test_bloom_filter() finds no filter and lets every
 * table through.
 */
static void walk_without_a_bloom_filter_reads_every_table(void **state)
{
	unsigned long max_seq, found, added;
	struct tb_vma *a, *b;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_mglru_switch_on();
	tb_run_in("a");
	a = tb_map_anon(64);
	b = tb_map_anon(64);
	touch_range(a, 0, 64, true);
	touch_range(b, 0, 64, true);
	max_seq = tb_lruvec_of("a")->lrugen.max_seq;
	/* bitmap_zalloc() of lib/bitmap.c: reset_bloom_filter() is its one caller here */
	kshim_fault_filter("bitmap_alloc|bitmap_zalloc", NULL);
	kshim_fault_nth(1);
	age("a", true, true);
	assert_int_equal(kshim_fault_injected(), 1);
	kshim_fault_reset();
	assert_null(tb_lruvec_of("a")->mm_state.filters[(max_seq + 1) % NR_BLOOM_FILTERS]);
	/* fewer than MAX_NR_GENS - 1 generations, as aging without force_scan wants */
	assert_true(tb_lru_gen_cmd("- %u 0 %lu 200 1000", tb_memcg_id("a"), max_seq - 1) > 0);
	assert_int_equal(tb_swap_used(), 0);

	touch_range(a, 0, 64, false);
	touch_range(b, 0, 64, false);
	found = mm_stat("a", MM_NONLEAF_FOUND);
	added = mm_stat("a", MM_NONLEAF_ADDED);
	age("a", true, false);
	assert_int_equal(mm_stat("a", MM_NONLEAF_FOUND) - found, 2);
	assert_int_equal(mm_stat("a", MM_NONLEAF_ADDED) - added, 2);
	assert_int_equal(young(a, 0, 64), 0);
	assert_int_equal(young(b, 0, 64), 0);
	tb_assert_lrus_consistent();
}

/*
 * Without the non-leaf young cap (lru_gen/enabled without 0x0004),
 * should_clear_pmd_young() is false: a walk without force_scan neither
 * skips old pmds nor clears the accessed bits of young ones (as the
 * third walk above does).
 */
static void walk_without_the_nonleaf_cap_leaves_the_pmds_accessed_bits(void **state)
{
	struct tb_vma *a;
	unsigned long max_seq;
	char caps[8];

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_mglru_switch_on();
	snprintf(caps, sizeof(caps), "0x%x", CAP_CORE | CAP_MM_WALK);
	assert_int_equal(tb_sysfs_write(LRU_GEN_ENABLED, caps), strlen(caps));
	tb_run_in("a");
	a = tb_map_anon(64);
	touch_range(a, 0, 64, true);
	max_seq = tb_lruvec_of("a")->lrugen.max_seq;
	/* the first walk is forced (a new mm): a second one is not */
	age("a", true, true);
	assert_true(tb_lru_gen_cmd("- %u 0 %lu 200 1000", tb_memcg_id("a"), max_seq - 1) > 0);
	touch_range(a, 0, 64, false);
	assert_true(tb_vma_pmd_young(a, 0));

	age("a", true, false);
	assert_int_equal(young(a, 0, 64), 0);
	assert_true(tb_vma_pmd_young(a, 0));
	tb_assert_lrus_consistent();
}

/*
 * Swapped out and read back in, a folio stays in the swap cache, clean
 * (do_swap_page() of a read). A later write hit sets only the pte's
 * dirty bit; the walk that finds the pte young hands the dirty bit to the
 * folio (its swap copy is stale now). The folios only read stay clean.
 */
static void walk_marks_a_swap_cache_folio_dirty_from_its_pte(void **state)
{
	struct tb_vma *vma;
	unsigned long i, max_seq;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_mglru_switch_on();
	tb_run_in("a");
	vma = tb_map_anon(16);
	touch_range(vma, 0, 16, true);
	max_seq = tb_lruvec_of("a")->lrugen.max_seq;
	age("a", true, true);
	age("a", true, true);
	assert_true(tb_lru_gen_cmd("- %u 0 %lu 200 1000", tb_memcg_id("a"), max_seq) > 0);
	assert_int_equal(tb_vma_swapped(vma), 16);

	touch_range(vma, 0, 16, false);
	for (i = 0; i < 16; i++) {
		struct folio *folio = tb_vma_folio(vma, i);

		assert_true(folio_test_swapcache(folio));
		assert_false(folio_test_dirty(folio));
	}
	touch_range(vma, 0, 8, true);
	age("a", true, true);
	for (i = 0; i < 16; i++) {
		struct folio *folio = tb_vma_folio(vma, i);

		assert_true(folio_test_swapcache(folio));
		assert_int_equal(folio_test_dirty(folio), i < 8);
	}
	tb_assert_lrus_consistent();
}

/*
 * 5000 folios made young again, more than MAX_LRU_BATCH (4096) of them
 * moved by one walk: walk_pud_range() stops after the PUD where the
 * batch filled, walk_mm() flushes the batch and walks again from the
 * next PUD; a second vma is two PUDs further (past an untouched 2 GiB
 * one, whose PUD entries have no table): every
 * young folio of both reaches the youngest generation, and the counters
 * of the batches add up (tb_assert_lrus_consistent()).
 */
static void walk_moves_more_than_a_batch_resuming_at_the_next_pud(void **state)
{
	struct tb_vma *a, *gap, *c;
	unsigned long max_seq, total, found;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_mglru_switch_on();
	tb_run_in("a");
	a = tb_map_anon(5000);
	gap = tb_map_anon(2UL * PTRS_PER_PMD * PTRS_PER_PTE);
	c = tb_map_anon(64);
	touch_range(a, 0, 5000, true);
	touch_range(c, 0, 64, true);
	max_seq = tb_lruvec_of("a")->lrugen.max_seq;
	age("a", true, true);
	assert_int_equal(young(a, 0, 5000) + young(c, 0, 64), 0);
	assert_int_equal(in_gen(a, 0, 5000, max_seq), 5000);

	touch_range(a, 0, 5000, false);
	touch_range(c, 0, 64, false);
	total = mm_stat("a", MM_LEAF_TOTAL);
	found = mm_stat("a", MM_NONLEAF_FOUND);
	age("a", true, true);
	/*
	 * each pte once (nothing walked twice across the stop), and the
	 * gap's empty pmds in the PUDs that have a table: 502 after a's ten
	 * pte tables in the first, 10 before c's in the third
	 */
	assert_int_equal(mm_stat("a", MM_LEAF_TOTAL) - total, 5000 + 64 + 502 + 10);
	assert_int_equal(mm_stat("a", MM_NONLEAF_FOUND) - found, 10 + 1);
	assert_int_equal(in_gen(a, 0, 5000, max_seq + 1), 5000);
	assert_int_equal(in_gen(c, 0, 64, max_seq + 1), 64);
	assert_int_equal(young(a, 0, 5000) + young(c, 0, 64), 0);
	assert_int_equal(tb_vma_resident(gap), 0);
	tb_assert_lrus_consistent();
}

/*
 * Without the mm-walk cap, try_to_inc_max_seq() only iterates the mm list
 * (iterate_mm_list_nowalk()): a new generation, no accessed bit cleared,
 * no folio moved; with the cap back, the walk does both.
 */
static void aging_without_the_mm_walk_cap_reads_no_page_table(void **state)
{
	struct tb_vma *vma;
	unsigned long max_seq;
	char caps[16];

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_mglru_switch_on();
	tb_run_in("a");
	vma = tb_map_anon(64);
	touch_range(vma, 0, 64, true);
	max_seq = tb_lruvec_of("a")->lrugen.max_seq;
	age("a", true, true);
	touch_range(vma, 0, 64, false);

	snprintf(caps, sizeof(caps), "0x%x", CAP_CORE | CAP_NONLEAF);
	assert_int_equal(tb_sysfs_write(LRU_GEN_ENABLED, caps), strlen(caps));
	age("a", true, true);
	assert_int_equal(young(vma, 0, 64), 64);
	assert_int_equal(in_gen(vma, 0, 64, max_seq), 64);

	snprintf(caps, sizeof(caps), "0x%x", CAP_CORE | CAP_MM_WALK | CAP_NONLEAF);
	assert_int_equal(tb_sysfs_write(LRU_GEN_ENABLED, caps), strlen(caps));
	age("a", true, true);
	assert_int_equal(young(vma, 0, 64), 0);
	assert_int_equal(in_gen(vma, 0, 64, max_seq + 2), 64);
	tb_assert_lrus_consistent();
}

/*
 * With MAX_NR_GENS (4) generations, inc_max_seq() first moves the oldest
 * one's folios up a generation (inc_min_seq(), MAX_LRU_BATCH at a time,
 * dropping the LRU lock and starting over between batches). 5000 folios
 * faulted into the youngest generation and never touched again: three
 * agings retire the empty generations below them, the fourth moves all
 * 5000, in two batches, to the next one, which is the oldest now.
 */
static void aging_past_max_nr_gens_moves_the_oldest_folios_in_batches(void **state)
{
	struct lruvec *lruvec;
	struct tb_vma *vma;
	unsigned long seq, i;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_mglru_switch_on();
	tb_run_in("a");
	vma = tb_map_anon(5000);
	touch_range(vma, 0, 5000, true);
	lruvec = tb_lruvec_of("a");
	seq = lruvec->lrugen.max_seq;
	age("a", true, true);
	age("a", true, true);
	age("a", true, true);
	assert_int_equal(lruvec->lrugen.min_seq[LRU_GEN_ANON], seq);
	assert_int_equal(in_gen(vma, 0, 5000, seq), 5000);

	age("a", true, true);
	assert_int_equal(lruvec->lrugen.min_seq[LRU_GEN_ANON], seq + 1);
	assert_int_equal(lruvec->lrugen.max_seq, seq + 4);
	assert_int_equal(in_gen(vma, 0, 5000, seq + 1), 5000);
	assert_int_equal(tb_gen_seq_pages(lruvec, seq + 1, LRU_GEN_ANON), 5000);
	/* moved by aging, not by reclaim: no PG_reclaim (folio_inc_gen(..., false)) */
	for (i = 0; i < 5000; i++)
		assert_false(folio_test_reclaim(tb_vma_folio(vma, i)));
	tb_assert_lrus_consistent();
}

/*
 * The same at can_swap 0, with 64 pages of a mapped file in the same
 * generation: inc_min_seq() moves the page cache up, but not the anon
 * folios it could not evict anyway; it only retires their generation
 * number, so the 5000 anon folios, untouched, are in the generation that
 * is now the youngest (a cold/hot inversion that only matters with swap).
 */
static void aging_without_swap_retires_the_oldest_anon_generation_in_place(void **state)
{
	struct tb_file *f = tb_file_create(64);
	struct tb_vma *vma, *file;
	struct lruvec *lruvec;
	unsigned long seq;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_mglru_switch_on();
	tb_run_in("a");
	vma = tb_map_anon(5000);
	touch_range(vma, 0, 5000, true);
	file = tb_map_file(f);
	touch_range(file, 0, 64, false);
	lruvec = tb_lruvec_of("a");
	seq = lruvec->lrugen.max_seq;
	age("a", true, true);
	age("a", true, true);
	age("a", true, true);
	age("a", false, true);
	/* page cache is moved up as ever */
	assert_int_equal(lruvec->lrugen.min_seq[LRU_GEN_FILE], seq + 1);
	assert_int_equal(in_gen(file, 0, 64, seq + 1), 64);
	assert_int_equal(lruvec->lrugen.min_seq[LRU_GEN_ANON], seq + 1);
	assert_int_equal(lruvec->lrugen.max_seq, seq + 4);
	assert_int_equal(lru_gen_from_seq(seq), lru_gen_from_seq(seq + 4));
	assert_int_equal(in_gen(vma, 0, 5000, seq + 4), 5000);
	assert_int_equal(tb_gen_seq_pages(lruvec, seq + 4, LRU_GEN_ANON), 5000);
	tb_assert_lrus_consistent();
}

/* memory.stat's size of an LRU of "a", in pages */
static long lru_size(const char *key)
{
	return tb_stat("a", key) / PAGE_SIZE;
}

/*
 * The active/inactive sizes the multi-gen LRU keeps for the rest of the
 * kernel: the two youngest generations (lru_gen_is_active()) count as
 * active, the others as inactive.
 */
static void assert_lru_sizes_follow_generations(struct lruvec *lruvec)
{
	static const char *const key[ANON_AND_FILE][2] = {
		{ "inactive_anon", "active_anon" }, { "inactive_file", "active_file" },
	};
	unsigned long max_seq = lruvec->lrugen.max_seq;
	int type;

	for (type = 0; type < ANON_AND_FILE; type++) {
		long active = tb_gen_seq_pages(lruvec, max_seq, type) +
			      tb_gen_seq_pages(lruvec, max_seq - 1, type);

		assert_int_equal(lru_size(key[type][1]), active);
		assert_int_equal(lru_size(key[type][0]), tb_gen_pages(lruvec, type) - active);
	}
}

/*
 * inc_max_seq() keeps those sizes: the generation leaving the two
 * youngest (max_seq - 1) goes from active to inactive, the one becoming
 * the youngest (max_seq + 1) from inactive to active, also when it still
 * holds the oldest anon folios (aging at can_swap 0 retires their
 * generation in place). Each new generation is stamped with the jiffies
 * of its aging (lru_gen's age column, min_ttl).
 */
static void aging_keeps_the_active_sizes_on_the_two_youngest_generations(void **state)
{
	struct tb_file *f = tb_file_create(64);
	struct tb_vma *vma, *file;
	unsigned long seq, stamp = 0;
	struct lruvec *lruvec;
	int i;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_mglru_switch_on();
	tb_run_in("a");
	vma = tb_map_anon(100);
	touch_range(vma, 0, 100, true);
	file = tb_map_file(f);
	touch_range(file, 0, 64, false);
	lruvec = tb_lruvec_of("a");
	seq = lruvec->lrugen.max_seq;
	assert_lru_sizes_follow_generations(lruvec);
	for (i = 0; i < 4; i++) {
		kshim_jiffies_advance(1000);
		/* the file pages are young again: the walk takes them to max_seq */
		if (i == 1)
			touch_range(file, 0, 64, false);
		age("a", i < 3, true);
		assert_int_equal(lruvec->lrugen.timestamps[lru_gen_from_seq(seq + i + 1)],
				 kshim_jiffies());
		if (i)
			assert_int_equal(lruvec->lrugen.timestamps[lru_gen_from_seq(seq + i)],
					 stamp);
		stamp = kshim_jiffies();
		assert_lru_sizes_follow_generations(lruvec);
	}
	/* the anon folios, never touched again, are in the youngest generation */
	assert_int_equal(in_gen(vma, 0, 100, seq + 4), 100);
	assert_int_equal(lru_size("active_anon"), 100);
	tb_assert_lrus_consistent();
}

static int setup_2_nodes(void **state)
{
	tb_world.nr_nodes = 2;
	return tb_mglru_setup_swap(state);
}

/*
 * Two nodes (CPUs 0-1 on node 0, 2-3 on node 1): a task faults pages
 * 0..31 of a vma on node 0, moves to CPU 3 and faults 32..63 on node 1.
 * Aging node 0's lruvec walks the whole mm but takes only node 0's
 * folios (get_pte_pfn(): a pfn outside the node is left alone): node
 * 1's ptes stay young until node 1's lruvec is aged.
 */
static void walk_of_one_node_leaves_the_other_nodes_ptes_young(void **state)
{
	struct lruvec *l0, *l1;
	struct tb_task *t;
	struct tb_vma *vma;
	unsigned long i;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_mglru_switch_on();
	t = tb_run_in("a");
	assert_int_equal(tb_task_set_cpu(t, 0), 0);
	vma = tb_map_anon(64);
	touch_range(vma, 0, 32, true);
	assert_int_equal(tb_task_set_cpu(t, 3), 0);
	touch_range(vma, 32, 64, true);
	for (i = 0; i < 64; i++)
		assert_int_equal(folio_nid(tb_vma_folio(vma, i)), i >= 32);
	l0 = mem_cgroup_lruvec(tb_memcg("a"), NODE_DATA(0));
	l1 = mem_cgroup_lruvec(tb_memcg("a"), NODE_DATA(1));

	assert_true(tb_lru_gen_cmd("+ %u 0 %lu 1 1", tb_memcg_id("a"), l0->lrugen.max_seq) > 0);
	assert_int_equal(young(vma, 0, 32), 0);
	assert_int_equal(young(vma, 32, 64), 32);
	assert_true(tb_lru_gen_cmd("+ %u 1 %lu 1 1", tb_memcg_id("a"), l1->lrugen.max_seq) > 0);
	assert_int_equal(young(vma, 32, 64), 0);
	tb_assert_lrus_consistent();
}

/*
 * Reclaim's aging without memory for a walk (set_mm_walk()'s kzalloc
 * failing): try_to_inc_max_seq() only iterates the mm list, as without
 * the mm-walk cap. A charge at memory.max (whose reclaim asks for a walk
 * only to age) over 256 young anon pages: with its walks, the reclaim
 * ages twice, the walk clearing the accessed bits, and swaps out a batch
 * (MIN_LRU_BATCH) of pages; without them the eviction finds the ptes
 * still young (only the look-around clears a few at a time) and the
 * reclaim ages twice more before it swaps out the same batch.
 */
static unsigned long charge_at_max_ages(const char *path, bool walk_fails)
{
	struct lruvec *lruvec;
	struct tb_vma *vma, *more;
	unsigned long max_seq;

	assert_int_equal(tb_cgroup_mkdir(path), 0);
	tb_run_in(path);
	lruvec = tb_lruvec_of(path);
	vma = tb_map_anon(256);
	touch_range(vma, 0, 256, true);
	max_seq = lruvec->lrugen.max_seq;
	tb_limit_to_current(path);
	if (walk_fails) {
		kshim_fault_filter("set_mm_walk", NULL);
		kshim_fault_probability(1000000, 1);
	}
	more = tb_map_anon(8);
	touch_range(more, 0, 8, true);
	assert_int_equal(kshim_fault_injected() > 0, walk_fails);
	kshim_fault_reset();
	assert_int_equal(tb_vma_swapped(vma), MIN_LRU_BATCH);
	return lruvec->lrugen.max_seq - max_seq;
}

static void aging_without_memory_for_a_walk_reads_no_page_table(void **state)
{
	tb_mglru_switch_on();
	assert_int_equal(charge_at_max_ages("walk", false), 2);
	assert_int_equal(charge_at_max_ages("nowalk", true), 4);
	tb_assert_lrus_consistent();
}

/* ---- the look-around ---- */

/* pages [0, 240) and [496, 512) of the 512-page vma are the old ones */
static bool old_page(unsigned long i)
{
	return i < 240 || i >= 496;
}

/*
 * A 512-page vma (one page table): the old pages faulted, aged once, the
 * others faulted, aged again; so the old pages are in the oldest
 * generation (max_seq - 2), the others in max_seq - 1, and then every
 * pte is made young again. Returns the max_seq of then.
 */
static unsigned long two_generations_all_young(struct tb_vma *vma, bool third)
{
	unsigned long i, max_seq;

	max_seq = tb_lruvec_of("a")->lrugen.max_seq;
	for (i = 0; i < 512; i++)
		if (old_page(i))
			assert_int_equal(tb_touch(vma, i, true), 0);
	lru_add_drain();
	age("a", true, true);
	for (i = 0; i < 512; i++)
		if (!old_page(i))
			assert_int_equal(tb_touch(vma, i, true), 0);
	lru_add_drain();
	age("a", true, true);
	if (third)
		age("a", true, true);
	for (i = 0; i < 512; i++)
		assert_int_equal(gen_of(vma, i), lru_gen_from_seq(old_page(i) ? max_seq : max_seq + 1));
	touch_range(vma, 0, 512, false);
	return max_seq + 2 + third;
}

/*
 * Eviction of the oldest generation through debugfs (with a walk): the
 * rmap walk of each young folio hands its pte to the look-around, over
 * MIN_LRU_BATCH (64) ptes of the page table: from the vma's start for
 * the folios near it, ending at the vma's end for those near it, else
 * centred. It runs for the folios whose ptes are still young: 0 ([0,
 * 64)), 64 ([32, 96)), ... 224 ([192, 256)) and 496 ([448, 512)); each
 * clears the young ptes of its range and moves their folios on the LRU
 * (240..255, 448..495, of the younger generation) to the youngest in the
 * walk's batch; the isolated ones are kept (folio_update_gen() marks them
 * referenced). Nothing is swapped out; 256..447 are not looked at.
 */
static void look_around_with_a_walk_moves_young_neighbours_to_the_youngest_generation(void **state)
{
	struct tb_vma *vma;
	unsigned long max_seq;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_mglru_switch_on();
	tb_run_in("a");
	vma = tb_map_anon(512);
	max_seq = two_generations_all_young(vma, false);
	assert_true(tb_lru_gen_cmd("- %u 0 %lu 200 1000", tb_memcg_id("a"), max_seq - 2) > 0);
	lru_add_drain();
	assert_int_equal(tb_swap_used(), 0);
	assert_int_equal(in_gen(vma, 0, 256, max_seq), 256);
	assert_int_equal(in_gen(vma, 448, 512, max_seq), 64);
	assert_int_equal(young(vma, 0, 256) + young(vma, 448, 512), 0);
	assert_int_equal(in_gen(vma, 256, 448, max_seq - 1), 192);
	assert_int_equal(young(vma, 256, 448), 192);
	tb_assert_lrus_consistent();
}

/*
 * The same, aged once more (four generations: the oldest is evictable
 * without aging first), then evicted by the reclaim of a charge at
 * memory.max, which has no walk (set_mm_walk() allocates one for
 * proactive reclaim only). The look-around marks the isolated folios of
 * its range referenced and activates the young ones on the LRU it finds
 * in another generation (folio_activate(): 240..255 and 448..495, to the
 * youngest generation when the batch drains). With every pte old after
 * the look-arounds, the following evictions swap out pages 0..127, two
 * batches of MIN_LRU_BATCH, for the 8 pages charged.
 */
static void look_around_without_a_walk_activates_young_neighbours(void **state)
{
	struct tb_vma *vma, *more;
	unsigned long i;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_mglru_switch_on();
	tb_run_in("a");
	vma = tb_map_anon(512);
	two_generations_all_young(vma, true);
	tb_limit_to_current("a");
	more = tb_map_anon(8);
	touch_range(more, 0, 8, true);
	assert_int_equal(tb_swap_used(), 2 * MIN_LRU_BATCH);
	assert_int_equal(tb_stat("a", "pgsteal"), 2 * MIN_LRU_BATCH);
	/* the look-around's folio_activate()s: 240..255 and 448..495 */
	assert_int_equal(tb_stat("a", "pgactivate"), 16 + 48);
	for (i = 0; i < 512; i++)
		assert_int_equal(tb_vma_folio(vma, i) == NULL, i < 2 * MIN_LRU_BATCH);
	assert_int_equal(young(vma, 0, 512), 0);
	tb_assert_lrus_consistent();
}

/*
 * The look-around's range: within the folio's page table and vma, at
 * most MIN_LRU_BATCH (64) ptes, from the table's start for a folio less
 * than 32 pages after it, ending at the table's end for one less than 32
 * pages before it. A 1024-page vma over two page tables, every pte
 * young; only pages 487 (25 before the first table's end) and 537 (25
 * after the second's start) in the oldest generation: their eviction
 * clears the young ptes of [448, 512) and [512, 576), no others, and
 * keeps both folios.
 */
static void look_around_clamps_its_range_to_the_page_table(void **state)
{
	struct tb_vma *vma;
	unsigned long i, max_seq;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_mglru_switch_on();
	tb_run_in("a");
	vma = tb_map_anon(1024);
	assert_int_equal(tb_touch(vma, 487, true), 0);
	assert_int_equal(tb_touch(vma, 537, true), 0);
	lru_add_drain();
	max_seq = tb_lruvec_of("a")->lrugen.max_seq;
	age("a", true, true);
	age("a", true, true);
	touch_range(vma, 0, 1024, true);
	assert_int_equal(in_gen(vma, 0, 1024, max_seq), 2);
	assert_true(tb_lru_gen_cmd("- %u 0 %lu 200 1000", tb_memcg_id("a"), max_seq) > 0);
	assert_int_equal(tb_swap_used(), 0);
	assert_int_equal(tb_vma_resident(vma), 1024);
	for (i = 0; i < 1024; i++)
		assert_int_equal(tb_vma_pte_young(vma, i), i < 448 || i >= 576);
	tb_assert_lrus_consistent();
}

/*
 * A one-page vma: the look-around finds the folio's pte young, clears
 * it and has no neighbour to look at (its range is the page): the folio
 * is kept, in the youngest generation, and the eviction swaps out none.
 */
static void look_around_of_a_one_page_vma_keeps_the_folio(void **state)
{
	struct tb_vma *vma;
	unsigned long max_seq;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_mglru_switch_on();
	tb_run_in("a");
	vma = tb_map_anon(1);
	touch_range(vma, 0, 1, true);
	max_seq = tb_lruvec_of("a")->lrugen.max_seq;
	age("a", true, true);
	age("a", true, true);
	touch_range(vma, 0, 1, false);
	assert_true(tb_lru_gen_cmd("- %u 0 %lu 200 16", tb_memcg_id("a"), max_seq) > 0);
	assert_int_equal(tb_vma_resident(vma), 1);
	assert_int_equal(tb_swap_used(), 0);
	assert_false(tb_vma_pte_young(vma, 0));
	assert_int_equal(gen_of(vma, 0), lru_gen_from_seq(max_seq + 2));
	tb_assert_lrus_consistent();
}

/*
 * The look-around stays within the folio's vma: three small vmas
 * sharing one page table, every pte young, b's folios aged to the oldest
 * generation, then an eviction of it: the look-arounds of b's folios
 * clear b's young ptes only; a's and c's, in the same page table, stay
 * young, their folios where they were.
 */
static void look_around_stays_within_the_folios_vma(void **state)
{
	struct tb_vma *a, *b, *c;
	unsigned long max_seq;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_mglru_switch_on();
	tb_run_in("a");
	a = tb_map_anon(8);
	b = tb_map_anon_near(8);
	c = tb_map_anon_near(8);
	touch_range(b, 0, 8, true);
	max_seq = tb_lruvec_of("a")->lrugen.max_seq;
	age("a", true, true);
	age("a", true, true);
	touch_range(a, 0, 8, true);
	touch_range(c, 0, 8, true);
	touch_range(b, 0, 8, false);
	assert_true(tb_lru_gen_cmd("- %u 0 %lu 200 1000", tb_memcg_id("a"), max_seq) > 0);
	assert_int_equal(tb_swap_used(), 0);
	assert_int_equal(young(b, 0, 8), 0);
	assert_int_equal(in_gen(b, 0, 8, max_seq + 2), 8);
	assert_int_equal(young(a, 0, 8), 8);
	assert_int_equal(young(c, 0, 8), 8);
	tb_assert_lrus_consistent();
}

/* ---- a task moving between memcgs ---- */

/*
 * mem_cgroup_attach() of a task moved from a to b: lru_gen_migrate_mm()
 * moves its mm from a's mm list to b's. Its folios stay charged to a
 * (cgroup v2), so b's walk finds their young ptes but leaves them
 * (get_pfn_folio(): another memcg's folio), and a's walk no longer visits
 * the mm: neither clears the accessed bits. New pages are b's. Moving to
 * the cgroup it is in attaches nothing.
 */
static void moving_a_task_moves_its_mm_to_the_new_memcgs_walk(void **state)
{
	struct tb_task *t;
	struct tb_vma *vma, *more;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	assert_int_equal(tb_cgroup_mkdir("b"), 0);
	tb_mglru_switch_on();
	t = tb_run_in("a");
	vma = tb_map_anon(16);
	touch_range(vma, 0, 16, true);
	assert_ptr_equal(current->mm->lru_gen.memcg, tb_memcg("a"));

	assert_int_equal(tb_task_move(t, "a"), 0);
	assert_ptr_equal(current->mm->lru_gen.memcg, tb_memcg("a"));
	assert_int_equal(tb_task_move(t, "b"), 0);
	assert_ptr_equal(current->mm->lru_gen.memcg, tb_memcg("b"));
	assert_ptr_equal(folio_memcg(tb_vma_folio(vma, 0)), tb_memcg("a"));

	age("b", true, true);
	assert_int_equal(young(vma, 0, 16), 16);
	age("a", true, true);
	assert_int_equal(young(vma, 0, 16), 16);

	more = tb_map_anon(16);
	touch_range(more, 0, 16, true);
	assert_int_equal(tb_stat("a", "anon"), 16 * PAGE_SIZE);
	assert_int_equal(tb_stat("b", "anon"), 16 * PAGE_SIZE);
	age("b", true, true);
	assert_int_equal(young(more, 0, 16), 0);
	assert_int_equal(young(vma, 0, 16), 16);

	/* and back: a's walk clears what b's could not */
	assert_int_equal(tb_task_move(t, "a"), 0);
	assert_ptr_equal(current->mm->lru_gen.memcg, tb_memcg("a"));
	age("a", true, true);
	assert_int_equal(young(vma, 0, 16), 0);
	assert_int_equal(tb_task_move(t, "nope"), -ENOENT);
	tb_assert_lrus_consistent();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		TB_MGLRU_TEST(walk_skips_vmas_without_recency_access_or_evictable_pages),
		TB_MGLRU_TEST(walk_finishes_a_page_table_across_small_vmas),
		TB_MGLRU_SWAP_TEST(aging_without_swap_walks_only_file_vmas),
		TB_MGLRU_SWAP_TEST(aging_without_force_scan_skips_tables_the_last_walk_found_cold),
		TB_MGLRU_SWAP_TEST(walk_without_a_bloom_filter_reads_every_table),
		TB_MGLRU_SWAP_TEST(walk_without_the_nonleaf_cap_leaves_the_pmds_accessed_bits),
		TB_MGLRU_SWAP_TEST(walk_marks_a_swap_cache_folio_dirty_from_its_pte),
		TB_MGLRU_SWAP_TEST(walk_moves_more_than_a_batch_resuming_at_the_next_pud),
		TB_MGLRU_TEST(aging_without_the_mm_walk_cap_reads_no_page_table),
		cmocka_unit_test_setup_teardown(walk_of_one_node_leaves_the_other_nodes_ptes_young, setup_2_nodes, tb_reclaim_teardown),
		TB_MGLRU_SWAP_TEST(aging_without_memory_for_a_walk_reads_no_page_table),
		TB_MGLRU_SWAP_TEST(aging_past_max_nr_gens_moves_the_oldest_folios_in_batches),
		TB_MGLRU_SWAP_TEST(aging_without_swap_retires_the_oldest_anon_generation_in_place),
		TB_MGLRU_SWAP_TEST(aging_keeps_the_active_sizes_on_the_two_youngest_generations),
		TB_MGLRU_SWAP_TEST(look_around_with_a_walk_moves_young_neighbours_to_the_youngest_generation),
		TB_MGLRU_SWAP_TEST(look_around_without_a_walk_activates_young_neighbours),
		TB_MGLRU_SWAP_TEST(look_around_of_a_one_page_vma_keeps_the_folio),
		TB_MGLRU_SWAP_TEST(look_around_stays_within_the_folios_vma),
		TB_MGLRU_SWAP_TEST(look_around_clamps_its_range_to_the_page_table),
		TB_MGLRU_SWAP_TEST(moving_a_task_moves_its_mm_to_the_new_memcgs_walk),
	};

	return TB_RUN(tests);
}
