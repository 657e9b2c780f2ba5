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
#include <linux/delay.h>
#include <linux/mm.h>
#include <linux/mm_inline.h>
#include <linux/memcontrol.h>
#include <linux/sched/mm.h>
#include <linux/hash.h>
#include <linux/bitmap.h>
#include <kshim/testbed.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include "tb_mglru.h"

/* lru_gen/enabled caps (mm/vmscan.c's LRU_GEN_CORE, _MM_WALK, _NONLEAF_YOUNG) */
#define CAP_CORE	0x1
#define CAP_MM_WALK	0x2
#define CAP_NONLEAF	0x4
/* mm/vmscan.c's: a Bloom filter of 1 << 15 bits, two bits an item */
#define BLOOM_FILTER_SHIFT 15

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

static void set_caps(unsigned int caps)
{
	char buf[8];

	snprintf(buf, sizeof(buf), "0x%x", caps);
	assert_int_equal(tb_sysfs_write(LRU_GEN_ENABLED, buf), strlen(buf));
}

/*
 * fewer than MAX_NR_GENS - 1 generations, as aging without force_scan
 * wants: an eviction with nothing old to evict retires the empty ones
 * below the folios' (try_to_inc_min_seq()); nr pages are swapped out
 */
static void retire_empty_generations_swapping(const char *path, unsigned long nr)
{
	unsigned long max_seq = tb_lruvec_of(path)->lrugen.max_seq;
	unsigned long swapped = tb_swap_used();

	assert_true(tb_lru_gen_cmd("- %u 0 %lu 200 1000", tb_memcg_id(path), max_seq - 2) > 0);
	assert_int_equal(tb_swap_used(), swapped + nr);
	assert_true(tb_lruvec_of(path)->lrugen.min_seq[LRU_GEN_ANON] + MAX_NR_GENS - 1 > max_seq);
}

static void retire_empty_generations(const char *path)
{
	retire_empty_generations_swapping(path, 0);
}

/*
 * the Bloom filter of seq holds the item (a pmd entry's address) as the
 * two BLOOM_FILTER_SHIFT-bit halves of its hash_ptr()
 */
static bool filter_has(const char *path, unsigned long seq, void *item)
{
	unsigned long *filter = tb_lruvec_of(path)->mm_state.filters[seq % NR_BLOOM_FILTERS];
	u32 hash = hash_ptr(item, BLOOM_FILTER_SHIFT * 2);

	assert_non_null(filter);
	assert_non_null(item);
	return test_bit(hash & (BIT(BLOOM_FILTER_SHIFT) - 1), filter) &&
	       test_bit(hash >> BLOOM_FILTER_SHIFT, filter);
}

static unsigned long filter_weight(const char *path, unsigned long seq)
{
	unsigned long *filter = tb_lruvec_of(path)->mm_state.filters[seq % NR_BLOOM_FILTERS];

	assert_non_null(filter);
	return bitmap_weight(filter, BIT(BLOOM_FILTER_SHIFT));
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

	tb_mglru_run_in_new("a");
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
	/* an advice madvise() does not know changes nothing */
	assert_int_equal(tb_madvise(rand, -1), -EINVAL);
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

	tb_mglru_run_in_new("a");
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

	tb_mglru_run_in_new("a");
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
	/* where the faults added them (7.2, lru_gen_fault_referenced: the second youngest) */
	assert_int_equal(in_gen(anon, 0, 16, max_seq - TB_HAVE_lru_gen_fault_referenced), 16);
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

	tb_mglru_run_in_new("a");
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
	unsigned long max_seq, found, added, warnings;
	struct tb_vma *a, *b;

	tb_mglru_run_in_new("a");
	a = tb_map_anon(64);
	b = tb_map_anon(64);
	touch_range(a, 0, 64, true);
	touch_range(b, 0, 64, true);
	max_seq = tb_lruvec_of("a")->lrugen.max_seq;
	/* bitmap_zalloc() of lib/bitmap.c: reset_bloom_filter() is its one caller here */
	kshim_fault_filter("bitmap_alloc|bitmap_zalloc", NULL);
	kshim_fault_nth(1);
	warnings = kshim_slab_fail_warnings();
	age("a", true, true);
	assert_int_equal(kshim_fault_injected(), 1);
	/* __GFP_NOWARN: the walk does without a filter, silently */
	assert_int_equal(kshim_slab_fail_warnings(), warnings);
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
 * pages [0, n) of vma written, aged twice, swapped out to the disk and,
 * its writes completed, read back in: clean folios in the swap cache (a
 * disk's swap-in keeps the copy; zram's frees the slot on every tree)
 */
static void swap_out_and_read_back(struct tb_vma *vma, unsigned long n)
{
	unsigned long max_seq = tb_lruvec_of("a")->lrugen.max_seq;

	touch_range(vma, 0, n, true);
	age("a", true, true);
	age("a", true, true);
	assert_true(tb_lru_gen_cmd("- %u 0 %lu 200 1000", tb_memcg_id("a"), max_seq) > 0);
	assert_int_equal(tb_vma_swapped(vma), n);
	msleep(1);
	touch_range(vma, 0, n, false);
}

/* 64 MiB of swap on a disk */
static int setup_swap_disk(void **state)
{
	tb_mem.swap_pages = PAGES(64 * MB);
	tb_mem.swap_disk = true;
	return tb_mglru_setup(state);
}

/*
 * Swapped out to a disk and read back in, a folio stays in the swap
 * cache, clean (do_swap_page() of a read; a swap-in from zram keeps no
 * copy). A later write hit sets only the pte's
 * dirty bit; the walk that finds the pte young hands the dirty bit to the
 * folio (its swap copy is stale now). The folios only read stay clean.
 */
static void walk_marks_a_swap_cache_folio_dirty_from_its_pte(void **state)
{
	struct tb_vma *vma;
	unsigned long i;

	tb_mglru_run_in_new("a");
	vma = tb_map_anon(16);
	swap_out_and_read_back(vma, 16);
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

	tb_mglru_run_in_new("a");
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

	tb_mglru_run_in_new("a");
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

	tb_mglru_run_in_new("a");
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

	tb_mglru_run_in_new("a");
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

	tb_mglru_run_in_new("a");
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
 *
 * 7.2 (lru_gen_fault_referenced, mglru_evict_budget): the pages are
 * faulted into the second youngest generation, and the reclaim evicts
 * size >> priority a priority. With its walks it ages three times and
 * swaps out a batch; without them it also ages three times, the
 * evictions down to priority 2 finding young ptes: that priority's 256
 * >> 2 pages, 8 of them spent before the third aging, swap out 56.
 */
static unsigned long charge_at_max_ages(const char *path, bool walk_fails, unsigned long swapped)
{
	unsigned long max_seq, warnings = kshim_slab_fail_warnings();
	struct lruvec *lruvec;
	struct tb_vma *vma, *more;

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
	/* __GFP_NOWARN: reclaim ages without a walk, silently */
	assert_int_equal(kshim_slab_fail_warnings(), warnings);
	kshim_fault_reset();
	assert_int_equal(tb_vma_swapped(vma), swapped);
	return lruvec->lrugen.max_seq - max_seq;
}

static void aging_without_memory_for_a_walk_reads_no_page_table(void **state)
{
	tb_mglru_switch_on();
#if TB_HAVE_lru_gen_fault_referenced && TB_HAVE_mglru_evict_budget
	assert_int_equal(charge_at_max_ages("walk", false, MIN_LRU_BATCH), 3);
	assert_int_equal(charge_at_max_ages("nowalk", true, MIN_LRU_BATCH - 8), 3);
#else
	assert_int_equal(charge_at_max_ages("walk", false, MIN_LRU_BATCH), 2);
	assert_int_equal(charge_at_max_ages("nowalk", true, MIN_LRU_BATCH), 4);
#endif
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
 *
 * 7.2 (look_around_skips_isolated): the look-around passes over the
 * isolated folios of the batch, so each of them, its pte still young,
 * runs one; the folios on the LRU it clears leave the oldest generation
 * and the next batch starts past them: 0..63, 95..158, then 190..239
 * with 496..509. 239's range, [207, 271), takes 256..270 too.
 */
static void look_around_with_a_walk_moves_young_neighbours_to_the_youngest_generation(void **state)
{
	struct tb_vma *vma;
	unsigned long max_seq;

	tb_mglru_run_in_new("a");
	vma = tb_map_anon(512);
	max_seq = two_generations_all_young(vma, false);
	assert_true(tb_lru_gen_cmd("- %u 0 %lu 200 1000", tb_memcg_id("a"), max_seq - 2) > 0);
	lru_add_drain();
	assert_int_equal(tb_swap_used(), 0);
	assert_int_equal(in_gen(vma, 0, 256, max_seq), 256);
	assert_int_equal(in_gen(vma, 448, 512, max_seq), 64);
	assert_int_equal(young(vma, 0, 256) + young(vma, 448, 512), 0);
#if TB_HAVE_look_around_skips_isolated
	assert_int_equal(in_gen(vma, 256, 271, max_seq), 15);
	assert_int_equal(young(vma, 256, 271), 0);
	assert_int_equal(in_gen(vma, 271, 448, max_seq - 1), 448 - 271);
	assert_int_equal(young(vma, 271, 448), 448 - 271);
#else
	assert_int_equal(in_gen(vma, 256, 448, max_seq - 1), 192);
	assert_int_equal(young(vma, 256, 448), 192);
#endif
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
 * the look-arounds, the following eviction swaps out pages 0..63, one
 * batch of MIN_LRU_BATCH, for the 8 pages charged: should_abort_scan()
 * stops the memcg reclaim once it has its nr_to_reclaim. Before 6.12.118
 * it never stopped a memcg reclaim, which took a second batch (0..127).
 *
 * 7.2 (look_around_skips_isolated, mglru_evict_budget): the reclaim
 * evicts 1, 2, 4, ... pages a priority, each isolated folio still young
 * runs a look-around of its own and is activated, and the look-arounds
 * activate far more than 240..255 and 448..495. The batch swapped out is
 * 448..511, every pte old by then.
 */
static void look_around_without_a_walk_activates_young_neighbours(void **state)
{
	const int batches = 1 + TB_HAVE_mglru_memcg_reclaim_no_abort;
	struct tb_vma *vma, *more;
	unsigned long i;

	tb_mglru_run_in_new("a");
	vma = tb_map_anon(512);
	two_generations_all_young(vma, true);
	tb_limit_to_current("a");
	more = tb_map_anon(8);
	touch_range(more, 0, 8, true);
	assert_int_equal(tb_swap_used(), batches * MIN_LRU_BATCH);
	assert_int_equal(tb_stat("a", "pgsteal"), batches * MIN_LRU_BATCH);
#if TB_HAVE_look_around_skips_isolated
	assert_true(tb_stat("a", "pgactivate") > 16 + 48);
	for (i = 0; i < 512; i++)
		assert_int_equal(tb_vma_folio(vma, i) == NULL, i >= 512 - MIN_LRU_BATCH);
#else
	/* the look-around's folio_activate()s: 240..255 and 448..495 */
	assert_int_equal(tb_stat("a", "pgactivate"), 16 + 48);
	for (i = 0; i < 512; i++)
		assert_int_equal(tb_vma_folio(vma, i) == NULL, i < batches * MIN_LRU_BATCH);
#endif
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

	tb_mglru_run_in_new("a");
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

	tb_mglru_run_in_new("a");
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
	/* nor a look at its one pte: nothing for the Bloom filter */
	assert_false(filter_has("a", max_seq + 2, tb_vma_pmdp(vma, 0)));
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

	tb_mglru_run_in_new("a");
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

/*
 * The look-around of a folio leaves its neighbours of another memcg:
 * pages 0..7 of a vma are a's, aged to the oldest generation and
 * touched again; the task moved to b, pages 8..15 are b's, young. The
 * eviction of a's oldest generation looks around each young folio of a
 * over the whole vma: get_pfn_folio() refuses b's folios (another
 * memcg's), whose ptes stay young; a's are cleared and kept.
 *
 * 7.2 (lru_gen_debugfs_target_memcg): the eviction is a's own reclaim,
 * and folio_referenced() passes over an mm that is not a's: the mm is
 * b's now, a's folios are found unreferenced and swapped out, b's ptes
 * left young.
 */
static void look_around_leaves_young_neighbours_of_another_memcg(void **state)
{
	struct tb_task *t;
	struct tb_vma *vma;
	unsigned long max_seq;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	assert_int_equal(tb_cgroup_mkdir("b"), 0);
	tb_mglru_switch_on();
	t = tb_run_in("a");
	vma = tb_map_anon(16);
	touch_range(vma, 0, 8, true);
	max_seq = tb_lruvec_of("a")->lrugen.max_seq;
	age("a", true, true);
	age("a", true, true);
	assert_int_equal(tb_task_move(t, "b"), 0);
	touch_range(vma, 8, 16, true);
	touch_range(vma, 0, 8, false);
	assert_int_equal(young(vma, 0, 16), 16);
	assert_true(tb_lru_gen_cmd("- %u 0 %lu 200 1000", tb_memcg_id("a"), max_seq) > 0);
#if TB_HAVE_lru_gen_debugfs_target_memcg
	assert_int_equal(tb_swap_used(), 8);
	assert_int_equal(tb_vma_swapped(vma), 8);
	assert_null(tb_vma_folio(vma, 0));
#else
	assert_int_equal(tb_swap_used(), 0);
	assert_int_equal(young(vma, 0, 8), 0);
	assert_int_equal(in_gen(vma, 0, 8, max_seq + 2), 8);
#endif
	assert_int_equal(young(vma, 8, 16), 8);
	assert_int_equal(tb_stat("b", "anon"), 8 * PAGE_SIZE);
	tb_assert_lrus_consistent();
}

/* ---- exact counts: pmd batches, the mm list, the Bloom filter ---- */

/* 64 pages of each pmd to be young in the layout below: v0, r2, r3, big, far */
static void touch_layout(struct tb_vma **v, const unsigned long *big_pmds, int n)
{
	int i;

	touch_range(v[0], 0, 64, true);
	touch_range(v[0], PTRS_PER_PTE, PTRS_PER_PTE + 64, true);
	touch_range(v[1], 0, 8, true);
	touch_range(v[2], 0, 8, true);
	for (i = 0; i < n; i++)
		touch_range(v[3], big_pmds[i] * PTRS_PER_PTE, big_pmds[i] * PTRS_PER_PTE + 64, true);
	touch_range(v[4], 0, 64, true);
}

/*
 * walk_pmd_range_locked() batches the young non-leaf pmds of one vma's
 * walk: the first one, then each of the next MIN_LRU_BATCH (64) pmds as
 * a bit of the batch's bitmap; a young pmd further away flushes the batch
 * (itself, the first, then the bitmap's), and the end of the vma flushes
 * what is left. Each young pmd walked is cleared exactly once and no
 * other: two vmas of MADV_RANDOM right after the first (pmds 2 and 3),
 * which the walk leaves out, keep their young pmds. The layout, one PUD
 * from its start: v0 over pmds 0-1, r2 and r3, big over pmds 4-74
 * (touched in its pmds 0, 64 and 70 only), a gap, far at pmd 480 (a
 * batch whose first pmd is among the PUD's last 64).
 */
static void walk_without_force_scan_clears_each_young_pmd_once_in_batches(void **state)
{
	static const unsigned long big_pmds[] = { 0, 64, 70 };
	struct tb_vma *v[5], *v0, *r2, *r3, *big, *gap, *far;
	unsigned long i;

	tb_mglru_run_in_new("a");
	v[0] = v0 = tb_map_anon(2 * PTRS_PER_PTE);
	v[1] = r2 = tb_map_anon(8);
	v[2] = r3 = tb_map_anon(8);
	v[3] = big = tb_map_anon(71 * PTRS_PER_PTE);
	gap = tb_map_anon((480 - 75) * PTRS_PER_PTE);
	v[4] = far = tb_map_anon(64);
	touch_layout(v, big_pmds, ARRAY_SIZE(big_pmds));
	assert_int_equal(tb_madvise(r2, MADV_RANDOM), 0);
	assert_int_equal(tb_madvise(r3, MADV_RANDOM), 0);
	/* the pmds are where the layout says, each over a table of its own */
	assert_int_equal((pmd_t *)tb_vma_pmdp(r2, 0) - (pmd_t *)tb_vma_pmdp(v0, 0), 2);
	assert_int_equal((pmd_t *)tb_vma_pmdp(big, 70 * PTRS_PER_PTE) -
			 (pmd_t *)tb_vma_pmdp(v0, 0), 74);
	assert_int_equal((pmd_t *)tb_vma_pmdp(far, 0) - (pmd_t *)tb_vma_pmdp(v0, 0), 480);
	assert_int_equal(tb_vma_resident(gap), 0);

	/* the mm's first walk is forced: it clears no pmd */
	age("a", true, true);
	assert_true(tb_vma_pmd_young(v0, 0) && tb_vma_pmd_young(far, 0));
	/*
	 * 7.2 (lru_gen_fault_referenced): r2's and r3's pages, which the walk
	 * leaves out, were faulted into the generation the eviction reaches
	 */
	retire_empty_generations_swapping("a", TB_HAVE_lru_gen_fault_referenced ? 16 : 0);
	touch_layout(v, big_pmds, ARRAY_SIZE(big_pmds));
	age("a", true, false);
	assert_false(tb_vma_pmd_young(v0, 0));
	assert_false(tb_vma_pmd_young(v0, PTRS_PER_PTE));
	assert_true(tb_vma_pmd_young(r2, 0));
	assert_true(tb_vma_pmd_young(r3, 0));
	for (i = 0; i < ARRAY_SIZE(big_pmds); i++)
		assert_false(tb_vma_pmd_young(big, big_pmds[i] * PTRS_PER_PTE));
	assert_false(tb_vma_pmd_young(far, 0));
	tb_assert_lrus_consistent();
}

/*
 * The look-around's range away from the page table's ends: centred on
 * the folio (32 pages before, 32 after) once it is 32 pages or more from
 * both ends. Three folios in the oldest generation of a 1024-page vma
 * (two tables) whose every pte is young: 40 (32 from the start: [8, 72)),
 * 200 ([168, 232)) and 984, 40 before the second table's end ([952,
 * 1016)); their eviction clears the young ptes of those ranges only.
 */
static void look_around_centres_its_range_away_from_the_table_ends(void **state)
{
	static const unsigned long old[] = { 40, 200, 984 };
	struct tb_vma *vma;
	unsigned long i, j, max_seq;

	tb_mglru_run_in_new("a");
	vma = tb_map_anon(1024);
	for (j = 0; j < ARRAY_SIZE(old); j++)
		assert_int_equal(tb_touch(vma, old[j], true), 0);
	lru_add_drain();
	max_seq = tb_lruvec_of("a")->lrugen.max_seq;
	age("a", true, true);
	age("a", true, true);
	touch_range(vma, 0, 1024, true);
	assert_int_equal(in_gen(vma, 0, 1024, max_seq), ARRAY_SIZE(old));
	assert_true(tb_lru_gen_cmd("- %u 0 %lu 200 1000", tb_memcg_id("a"), max_seq) > 0);
	assert_int_equal(tb_swap_used(), 0);
	for (i = 0; i < 1024; i++) {
		bool in_range = false;

		for (j = 0; j < ARRAY_SIZE(old); j++)
			in_range |= i + 32 >= old[j] && i < old[j] + 32;
		assert_int_equal(tb_vma_pte_young(vma, i), !in_range);
	}
	tb_assert_lrus_consistent();
}

/*
 * Pages 0..31 swapped out to a disk and read back (clean folios in the
 * swap cache; from zram they would not be), 32..63 faulted by writes (anon folios outside the swap cache:
 * reclaim writes them out whatever their dirty bit), all aged twice (the
 * walks find no pte dirty over a swap-cache folio). Then 0..15 are read
 * and 16..63 written: the eviction of the oldest generation looks around
 * the whole 64-page vma and hands the pte's dirty bit to the swap-cache
 * folios written (16..31) only: their swap copy is stale now.
 *
 * 7.2 (look_around_skips_isolated): the eviction isolates all 64 folios
 * in one batch, and each look-around passes over them: no folio is
 * marked dirty, the dirty bits stay in the ptes.
 */
static void look_around_hands_a_dirty_pte_only_to_a_clean_swap_cache_folio(void **state)
{
	struct tb_vma *vma;
	unsigned long i, max_seq;

	tb_mglru_run_in_new("a");
	vma = tb_map_anon(64);
	swap_out_and_read_back(vma, 32);
	touch_range(vma, 32, 64, true);
	max_seq = tb_lruvec_of("a")->lrugen.max_seq;
	age("a", true, true);
	age("a", true, true);
	assert_int_equal(in_gen(vma, 0, 64, max_seq), 64);
	touch_range(vma, 0, 16, false);
	touch_range(vma, 16, 64, true);
	for (i = 0; i < 64; i++) {
		assert_int_equal(folio_test_swapcache(tb_vma_folio(vma, i)), i < 32);
		assert_false(folio_test_dirty(tb_vma_folio(vma, i)));
	}
	assert_true(tb_lru_gen_cmd("- %u 0 %lu 200 1000", tb_memcg_id("a"), max_seq) > 0);
	assert_int_equal(tb_vma_resident(vma), 64);
	assert_int_equal(young(vma, 0, 64), 0);
	for (i = 0; i < 64; i++)
		assert_int_equal(folio_test_dirty(tb_vma_folio(vma, i)),
				 !TB_HAVE_look_around_skips_isolated && i >= 16 && i < 32);
	tb_assert_lrus_consistent();
}

/*
 * The walk's dirty rule for the folios it finds young: a new anon folio
 * (swap-backed, outside the swap cache) stays clean whatever its pte
 * says; a lazyfree one (MADV_FREE: anon, not swap-backed) written again
 * is marked dirty, so reclaim keeps and swaps it instead of dropping the
 * new data.
 */
static void walk_marks_a_rewritten_lazyfree_folio_dirty_not_a_new_anon_one(void **state)
{
	struct tb_vma *fresh, *lazy;
	unsigned long i;

	tb_mglru_run_in_new("a");
	fresh = tb_map_anon(16);
	lazy = tb_map_anon(16);
	touch_range(fresh, 0, 16, true);
	touch_range(lazy, 0, 16, true);
	assert_int_equal(tb_madvise(lazy, MADV_FREE), 0);
	touch_range(lazy, 0, 8, true);
	for (i = 0; i < 16; i++) {
		assert_false(folio_test_swapbacked(tb_vma_folio(lazy, i)));
		assert_false(folio_test_dirty(tb_vma_folio(lazy, i)));
	}
	age("a", true, true);
	for (i = 0; i < 16; i++) {
		assert_false(folio_test_dirty(tb_vma_folio(fresh, i)));
		assert_int_equal(folio_test_dirty(tb_vma_folio(lazy, i)), i < 8);
	}
	assert_int_equal(young(fresh, 0, 16) + young(lazy, 0, 16), 0);
	tb_assert_lrus_consistent();
}

/*
 * suitable_to_scan(): a table is worth reading again (the walk adds its
 * pmd to the next generation's Bloom filter) when it has on average one
 * young pte per cache line of ptes (8 of them): 8 young of 64 ptes is
 * enough, 7 is not.
 */
static void walk_adds_a_table_with_a_young_pte_per_cache_line_to_the_filter(void **state)
{
	unsigned long added, max_seq;
	struct tb_vma *vma;

	tb_mglru_run_in_new("a");
	vma = tb_map_anon(64);
	touch_range(vma, 0, 64, true);
	age("a", true, true);

	touch_range(vma, 0, 8, false);
	added = mm_stat("a", MM_NONLEAF_ADDED);
	max_seq = tb_lruvec_of("a")->lrugen.max_seq;
	age("a", true, true);
	assert_int_equal(mm_stat("a", MM_NONLEAF_ADDED) - added, 1);
	assert_true(filter_has("a", max_seq + 1, tb_vma_pmdp(vma, 0)));

	touch_range(vma, 0, 7, false);
	added = mm_stat("a", MM_NONLEAF_ADDED);
	age("a", true, true);
	assert_int_equal(mm_stat("a", MM_NONLEAF_ADDED) - added, 0);
	assert_int_equal(filter_weight("a", max_seq + 2), 0);
	tb_assert_lrus_consistent();
}

/* a task in path with 64 young pages of its own (an mm the walk does not skip) */
static struct tb_task *task_with_pages(const char *path, struct tb_vma **vma)
{
	struct tb_task *t = tb_run_in(path);

	*vma = tb_map_anon(64);
	touch_range(*vma, 0, 64, true);
	return t;
}

static void touch_as(struct tb_task *t, struct tb_vma *vma)
{
	tb_task_switch(t);
	touch_range(vma, 0, 64, false);
}

/*
 * The mm list of a memcg: a walk without force_scan still reads every
 * table of an mm added since the last iteration ended (iterate_mm_list()
 * forces the scan from the mm_state's tail on, which lru_gen_add_mm()
 * points at the first mm added, and lru_gen_del_mm() moves on when that
 * one goes). t1 is walked once; t2 and t3 come, t2 goes; the next walk
 * without force_scan reads t1's table (in the filter) and t3's (new),
 * whose young ptes it clears. The filter it fills, reset once at the
 * iteration's first mm, holds both tables: a third walk reads both.
 */
static void walk_forces_a_scan_of_the_mms_added_since_the_last_iteration(void **state)
{
	struct tb_vma *v1, *v2, *v3;
	struct tb_task *t1, *t2, *t3;
	unsigned long max_seq;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_mglru_switch_on();
	t1 = task_with_pages("a", &v1);
	age("a", true, true);
	retire_empty_generations("a");

	t2 = task_with_pages("a", &v2);
	t3 = task_with_pages("a", &v3);
	tb_task_exit(t2);
	touch_as(t1, v1);
	touch_as(t3, v3);
	max_seq = tb_lruvec_of("a")->lrugen.max_seq;
	age("a", true, false);
	assert_int_equal(young(v1, 0, 64), 0);
	assert_int_equal(young(v3, 0, 64), 0);
	assert_true(filter_has("a", max_seq + 1, tb_vma_pmdp(v1, 0)));
	assert_true(filter_has("a", max_seq + 1, tb_vma_pmdp(v3, 0)));

	retire_empty_generations("a");
	touch_as(t1, v1);
	touch_as(t3, v3);
	age("a", true, false);
	assert_int_equal(young(v1, 0, 64), 0);
	assert_int_equal(young(v3, 0, 64), 0);
	tb_task_exit(t1);
	tb_task_exit(t3);
	tb_assert_lrus_consistent();
}

/*
 * One walk visits the mms of the list in turn, each from its first user
 * address: t1's 5000 young pages stop its walk at a batch, and walk_mm()
 * resumes it at the next PUD, towards t1's second vma two PUDs further;
 * t2's walk, next, still starts below those addresses, where t2's only
 * vma is.
 */
static void walk_of_each_mm_starts_at_its_first_address(void **state)
{
	struct tb_vma *v1, *gap, *far, *v2;
	struct tb_task *t1, *t2;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_mglru_switch_on();
	t1 = tb_run_in("a");
	v1 = tb_map_anon(5000);
	gap = tb_map_anon(2UL * PTRS_PER_PMD * PTRS_PER_PTE);
	far = tb_map_anon(64);
	touch_range(v1, 0, 5000, true);
	touch_range(far, 0, 64, true);
	t2 = task_with_pages("a", &v2);
	age("a", true, true);
	touch_as(t1, v1);
	touch_range(v1, 64, 5000, false);
	touch_range(far, 0, 64, false);
	touch_as(t2, v2);
	age("a", true, true);
	assert_int_equal(young(v1, 0, 5000) + young(far, 0, 64), 0);
	assert_int_equal(tb_vma_resident(gap), 0);
	assert_int_equal(young(v2, 0, 64), 0);
	tb_task_exit(t1);
	tb_task_exit(t2);
	tb_assert_lrus_consistent();
}

/*
 * A walk stopped after a batch resumes at the next PUD's first address:
 * 5000 young pages in the first PUD, then a vma starting exactly at the
 * second PUD whose 64 pages are young, the first one too.
 */
static void walk_resumes_a_stopped_walk_at_the_next_puds_first_page(void **state)
{
	struct tb_vma *a, *pad, *c;

	tb_mglru_run_in_new("a");
	a = tb_map_anon(5000);
	pad = tb_map_anon(PTRS_PER_PMD * PTRS_PER_PTE - 10 * PTRS_PER_PTE);
	c = tb_map_anon(64);
	assert_int_equal((unsigned long)tb_vma_pmdp(c, 0) & ~PAGE_MASK, 0);
	touch_range(a, 0, 5000, true);
	touch_range(c, 0, 64, true);
	age("a", true, true);
	touch_range(a, 0, 5000, false);
	touch_range(c, 0, 64, false);
	age("a", true, true);
	assert_int_equal(young(a, 0, 5000) + young(c, 0, 64), 0);
	assert_int_equal(tb_vma_resident(pad), 0);
	tb_assert_lrus_consistent();
}

/*
 * walk_pte_range() goes on with the next vma of its page table
 * (get_next_vma()) up to the table's end even when that vma runs on
 * into the next table: 4 pages, then a near vma of 1000 pages over the
 * rest of the first table and into the second, every page young; the
 * walk clears them all, each pte once.
 */
static void walk_goes_on_into_a_vma_crossing_the_table_end(void **state)
{
	struct tb_vma *a, *b;
	unsigned long total;

	tb_mglru_run_in_new("a");
	a = tb_map_anon(4);
	b = tb_map_anon_near(1000);
	touch_range(a, 0, 4, true);
	touch_range(b, 0, 1000, true);
	assert_ptr_equal(tb_vma_pmdp(a, 0), tb_vma_pmdp(b, 0));
	assert_ptr_not_equal(tb_vma_pmdp(b, 0), tb_vma_pmdp(b, 999));
	total = mm_stat("a", MM_LEAF_TOTAL);
	age("a", true, true);
	assert_int_equal(young(a, 0, 4) + young(b, 0, 1000), 0);
	assert_int_equal(mm_stat("a", MM_LEAF_TOTAL) - total, 1004);
	tb_assert_lrus_consistent();
}

/*
 * The walk's batch of moved folios updates the active/inactive sizes too
 * (reset_batch_size()), of each type: 64 anon and 64 page cache folios
 * in the oldest generation (inactive) made young again are moved by the
 * walk to max_seq (active).
 */
static void walk_moves_folios_from_an_inactive_to_an_active_generation(void **state)
{
	struct tb_file *f = tb_file_create(64);
	struct tb_vma *vma, *file;
	struct lruvec *lruvec;

	tb_mglru_run_in_new("a");
	vma = tb_map_anon(64);
	file = tb_map_file(f);
	touch_range(vma, 0, 64, true);
	touch_range(file, 0, 64, false);
	lruvec = tb_lruvec_of("a");
	age("a", true, true);
	age("a", true, true);
	assert_int_equal(lru_size("inactive_anon"), 64);
	assert_int_equal(lru_size("inactive_file"), 64);
	touch_range(vma, 0, 64, false);
	touch_range(file, 0, 64, false);
	age("a", true, true);
	assert_int_equal(in_gen(vma, 0, 64, lruvec->lrugen.max_seq - 1), 64);
	assert_int_equal(in_gen(file, 0, 64, lruvec->lrugen.max_seq - 1), 64);
	assert_int_equal(lru_size("active_anon"), 64);
	assert_int_equal(lru_size("inactive_anon"), 0);
	assert_int_equal(lru_size("active_file"), 64);
	assert_int_equal(lru_size("inactive_file"), 0);
	assert_lru_sizes_follow_generations(lruvec);
	tb_assert_lrus_consistent();
}

/*
 * The look-around's feedback to the next walk: when the ptes it looked
 * at are dense with young ones (one per cache line of ptes), it adds
 * their table to the Bloom filter of max_seq. Three 64-page vmas (a
 * table each), aged twice (the second walk found them cold: none is in
 * the filter), then only x's page 0, y's 0..7 and z's 0..6 made young
 * again: the eviction of their generation swaps out the others, and its
 * look-arounds find 1 young pte of 64 in x's table, 8 in y's, 7 in z's:
 * only y's table goes into the filter.
 *
 * 7.2 (look_around_skips_isolated): a look-around passes over the
 * folios isolated with its own, so it counts little more than its own
 * pte young: no table is dense enough, the filter stays empty.
 */
static void look_around_adds_a_table_dense_with_young_ptes_to_the_filter(void **state)
{
	struct tb_vma *x, *y, *z;
	unsigned long max_seq;

	tb_mglru_run_in_new("a");
	x = tb_map_anon(64);
	y = tb_map_anon(64);
	z = tb_map_anon(64);
	touch_range(x, 0, 64, true);
	touch_range(y, 0, 64, true);
	touch_range(z, 0, 64, true);
	max_seq = tb_lruvec_of("a")->lrugen.max_seq;
	age("a", true, true);
	age("a", true, true);
	assert_int_equal(filter_weight("a", max_seq + 2), 0);
	touch_range(x, 0, 1, false);
	touch_range(y, 0, 8, false);
	touch_range(z, 0, 7, false);
	assert_true(tb_lru_gen_cmd("- %u 0 %lu 200 1000", tb_memcg_id("a"), max_seq) > 0);
	assert_int_equal(tb_vma_resident(x), 1);
	assert_int_equal(tb_vma_resident(y), 8);
	assert_int_equal(tb_vma_resident(z), 7);
#if TB_HAVE_look_around_skips_isolated
	assert_int_equal(filter_weight("a", max_seq + 2), 0);
#else
	assert_false(filter_has("a", max_seq + 2, tb_vma_pmdp(x, 0)));
	assert_true(filter_has("a", max_seq + 2, tb_vma_pmdp(y, 0)));
	assert_false(filter_has("a", max_seq + 2, tb_vma_pmdp(z, 0)));
	assert_int_equal(filter_weight("a", max_seq + 2), 2);
#endif
	tb_assert_lrus_consistent();
}

/* another CPU holding a page table lock (the mm's, no split ptlocks) until told */
struct ptl_holder {
	spinlock_t *ptl;
	int phase;	/* 0 start, 1 holding, 2 release */
};

static void *hold_ptl(void *arg)
{
	struct ptl_holder *h = arg;

	kshim_thread_enter(1);
	spin_lock(h->ptl);
	__atomic_store_n(&h->phase, 1, __ATOMIC_RELEASE);
	while (__atomic_load_n(&h->phase, __ATOMIC_ACQUIRE) != 2)
		sched_yield();
	spin_unlock(h->ptl);
	kshim_thread_exit();
	return NULL;
}

static void ptl_hold(struct ptl_holder *h, pthread_t *tid)
{
	h->ptl = &current->mm->page_table_lock;
	h->phase = 0;
	assert_int_equal(pthread_create(tid, NULL, hold_ptl, h), 0);
	while (__atomic_load_n(&h->phase, __ATOMIC_ACQUIRE) != 1)
		sched_yield();
}

static void ptl_release(struct ptl_holder *h, pthread_t tid)
{
	__atomic_store_n(&h->phase, 2, __ATOMIC_RELEASE);
	assert_int_equal(pthread_join(tid, NULL), 0);
}

/*
 * b's 512-pte table in the Bloom filter with its pmd old: the table,
 * with 32 young ptes, is too sparse for the filter (the first walk leaves
 * it out); the second walk, with the non-leaf young cap, clears b's
 * young pmd but, the table not being in the filter, leaves its ptes
 * young; the eviction's look-around (32 young of the 64 it looks at)
 * adds the table to the filter of max_seq, and other's (64 young pages
 * in a table of their own, which keep the mm worth walking:
 * should_skip_mm()) too. Then a walk without force_scan, with caps:
 * how many tables it reads (MM_NONLEAF_FOUND). (7.2: the look-around
 * adds neither table, look_around_skips_isolated; a forced walk finding
 * both tables locked puts them in the filter, walk_locked_table_to_filter.)
 */
static unsigned long walk_old_pmd_in_filter(unsigned int caps)
{
	unsigned long max_seq, seq, found;
	struct tb_vma *b, *other;
	struct ptl_holder h __maybe_unused;
	pthread_t tid __maybe_unused;

	tb_mglru_run_in_new("a");
	b = tb_map_anon(512);
	other = tb_map_anon(64);
	touch_range(b, 0, 32, true);
	touch_range(other, 0, 64, true);
	max_seq = tb_lruvec_of("a")->lrugen.max_seq;
	age("a", true, true);
	assert_false(filter_has("a", max_seq + 1, tb_vma_pmdp(b, 0)));
	retire_empty_generations("a");

	touch_range(b, 0, 32, false);
	age("a", true, false);
	assert_false(tb_vma_pmd_young(b, 0));
	assert_int_equal(young(b, 0, 32), 32);
	touch_range(other, 0, 64, false);
#if TB_HAVE_look_around_skips_isolated && TB_HAVE_walk_locked_table_to_filter
	/*
	 * 7.2: the look-around passes over the folios isolated with its own
	 * and adds neither table; a forced walk finding both tables locked
	 * adds them, unread, and leaves the pmds' accessed bits
	 */
	ptl_hold(&h, &tid);
	age("a", true, true);
	ptl_release(&h, tid);
	seq = max_seq + 3;
	assert_int_equal(young(b, 0, 32), 32);
	/* the task runs again (else should_skip_mm() leaves its mm) */
	touch_range(other, 0, 64, false);
#else
	assert_true(tb_lru_gen_cmd("- %u 0 %lu 200 1000", tb_memcg_id("a"), max_seq) > 0);
	assert_int_equal(tb_vma_resident(b) + tb_vma_resident(other), 32 + 64);
	assert_int_equal(young(b, 0, 32), 0);
	seq = max_seq + 2;
#endif
	assert_true(filter_has("a", seq, tb_vma_pmdp(b, 0)));
	assert_true(filter_has("a", seq, tb_vma_pmdp(other, 0)));
	assert_false(tb_vma_pmd_young(b, 0));
	assert_true(tb_vma_pmd_young(other, 0));

	set_caps(caps);
	found = mm_stat("a", MM_NONLEAF_FOUND);
	age("a", true, false);
	tb_assert_lrus_consistent();
	return mm_stat("a", MM_NONLEAF_FOUND) - found;
}

/* with the non-leaf young cap, a walk without force_scan skips b's old pmd */
static void walk_skips_a_table_whose_pmd_is_old_though_in_the_filter(void **state)
{
	assert_int_equal(walk_old_pmd_in_filter(CAP_CORE | CAP_MM_WALK | CAP_NONLEAF), 1);
}

/*
 * without it, should_clear_pmd_young() is false and the walk does not
 * look at the pmd's accessed bit: it reads both tables the filter lets
 * through
 */
static void walk_without_the_nonleaf_cap_reads_a_table_whose_pmd_is_old(void **state)
{
	assert_int_equal(walk_old_pmd_in_filter(CAP_CORE | CAP_MM_WALK), 2);
}

/*
 * An aging whose iteration of the mm list finds no mm to walk (the only
 * mm has not run since the last walk: should_skip_mm()) resets no Bloom
 * filter: iterate_mm_list() resets the next one at the first mm it
 * hands out. Here that filter was never allocated, so the walk after
 * it, the task running again, finds no filter and reads every table.
 */
static void aging_that_walks_no_mm_leaves_the_next_filter_alone(void **state)
{
	unsigned long max_seq, found;
	struct tb_vma *vma;

	tb_mglru_run_in_new("a");
	vma = tb_map_anon(64);
	touch_range(vma, 0, 64, true);
	max_seq = tb_lruvec_of("a")->lrugen.max_seq;
	age("a", true, true);
	retire_empty_generations("a");

	found = mm_stat("a", MM_NONLEAF_FOUND);
	age("a", true, false);
	assert_int_equal(mm_stat("a", MM_NONLEAF_FOUND) - found, 0);
	assert_null(tb_lruvec_of("a")->mm_state.filters[(max_seq + 2) % NR_BLOOM_FILTERS]);

	touch_range(vma, 0, 64, false);
	age("a", true, false);
	assert_int_equal(mm_stat("a", MM_NONLEAF_FOUND) - found, 1);
	assert_int_equal(young(vma, 0, 64), 0);
	tb_assert_lrus_consistent();
}

/*
 * The look-around's dirty rule for a lazyfree folio (MADV_FREE: anon,
 * not swap-backed) written again: its dirty pte makes the folio dirty,
 * so reclaim keeps the new data. 64 such folios in the oldest
 * generation, every pte young and dirty: the eviction's first rmap walk
 * (page 0's) looks around the whole vma. (7.2, look_around_skips_isolated:
 * the 64 are isolated in one batch, and every look-around passes over
 * them: none is marked dirty, the dirty bits stay in the ptes.)
 */
static void look_around_marks_a_rewritten_lazyfree_folio_dirty(void **state)
{
	struct tb_vma *lazy;
	unsigned long i, max_seq;

	tb_mglru_run_in_new("a");
	lazy = tb_map_anon(64);
	touch_range(lazy, 0, 64, true);
	max_seq = tb_lruvec_of("a")->lrugen.max_seq;
	age("a", true, true);
	age("a", true, true);
	assert_int_equal(tb_madvise(lazy, MADV_FREE), 0);
	touch_range(lazy, 0, 64, true);
	for (i = 0; i < 64; i++)
		assert_false(folio_test_dirty(tb_vma_folio(lazy, i)));
	assert_true(tb_lru_gen_cmd("- %u 0 %lu 0 1000", tb_memcg_id("a"), max_seq) > 0);
	assert_int_equal(tb_vma_resident(lazy), 64);
	assert_int_equal(young(lazy, 0, 64), 0);
	/*
	 * but for page 0's: the folio whose rmap walk looked around clears
	 * its own pte's accessed bit before the range and leaves its dirty
	 * bit to try_to_unmap()
	 */
	for (i = 0; i < 64; i++)
		assert_int_equal(folio_test_dirty(tb_vma_folio(lazy, i)),
				 !TB_HAVE_look_around_skips_isolated && i > 0);
	tb_assert_lrus_consistent();
}

/*
 * The look-around without a walk (a charge's reclaim) activates the
 * young neighbours it finds on the LRU in another generation, and
 * clears their LRU refs first (folio_clear_lru_refs()): the reads
 * through read() that gave them PG_referenced and PG_workingset counted
 * towards a tier of the generation they leave. Without the mm-walk cap
 * (aging moves no folio), pages 0 and 1 of a mapped file are faulted one
 * generation before pages 2..63, which are read twice more through the
 * page cache; with no swap, a charge at memory.max evicts page 0's
 * generation (pages 0, 1 and 64 pages of another file, unmapped), and
 * page 0's look-around over the 64 pages activates 2..63, their refs
 * cleared; page 1, isolated with page 0, is not activated, and stays.
 * Without mglru_activate_clears_refs (6.12 before 6.12.115) the
 * look-around activates them as they are: PG_referenced and
 * PG_workingset stay. With lru_gen_set_refs_promotes (7.2) the
 * look-around's lru_gen_set_refs() promotes each (accessed more than
 * once): refs and PG_referenced cleared, PG_workingset set.
 */
static void look_around_without_a_walk_clears_the_refs_of_the_folios_it_activates(void **state)
{
	struct tb_file *f = tb_file_create(64), *g = tb_file_create(64);
	struct tb_vma *file, *cold, *more;
	unsigned long i, max_seq;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_mglru_switch_on();
	set_caps(CAP_CORE | CAP_NONLEAF);
	tb_run_in("a");
	file = tb_map_file(f);
	max_seq = tb_lruvec_of("a")->lrugen.max_seq;
	touch_range(file, 0, 2, false);
	/* page cache no longer mapped, in page 0's generation: what the charge reclaims */
	cold = tb_map_file(g);
	touch_range(cold, 0, 64, false);
	tb_unmap(cold);
	age("a", false, true);
	touch_range(file, 2, 64, false);
	for (i = 2; i < 64; i++) {
		int j;

		/* 7.2 (lru_tier_workingset): PG_workingset once the refs saturate */
		for (j = 0; j < (TB_HAVE_lru_tier_workingset ? BIT(LRU_REFS_WIDTH) : 2); j++)
			assert_int_equal(tb_file_read(f, i), 0);
	}
#if TB_HAVE_lru_gen_fault_referenced
	/*
	 * 7.2: the faults put the pages in the third youngest generation, 0
	 * and 1 already the oldest; more agings would fold 2..63 in with them
	 */
	max_seq = tb_lruvec_of("a")->lrugen.max_seq - 3;
#else
	age("a", false, true);
	age("a", false, true);
#endif
	assert_int_equal(gen_of(file, 0), lru_gen_from_seq(max_seq));
	assert_int_equal(gen_of(file, 1), lru_gen_from_seq(max_seq));
	for (i = 2; i < 64; i++) {
		struct folio *folio = tb_vma_folio(file, i);

		assert_int_equal(folio_lru_gen(folio), lru_gen_from_seq(max_seq + 1));
		assert_true(folio_test_referenced(folio) && folio_test_workingset(folio));
	}
	assert_int_equal(young(file, 0, 64), 64);

	tb_limit_to_current("a");
	more = tb_map_anon(1);
	touch_range(more, 0, 1, true);
	assert_int_equal(tb_stat("a", "pgsteal"), 64 - tb_file_cached(g));
	assert_int_equal(tb_file_cached(f), 64);
	/*
	 * 7.2 (lru_gen_fault_referenced, look_around_skips_isolated): pages 0
	 * and 1, PG_referenced since their faults, are found young and
	 * activated too
	 */
	assert_int_equal(tb_stat("a", "pgactivate"), 62 + 2 * TB_HAVE_lru_gen_fault_referenced);
	for (i = 2; i < 64; i++) {
		struct folio *folio = tb_vma_folio(file, i);

		assert_non_null(folio);
#if TB_HAVE_lru_gen_set_refs_promotes
		/* 7.2: refs and PG_referenced give way to PG_workingset */
		assert_false(folio_test_referenced(folio));
		assert_int_equal(folio_lru_refs(folio), 0);
		assert_true(folio_test_workingset(folio));
#else
		assert_int_equal(folio_test_referenced(folio), !TB_HAVE_mglru_activate_clears_refs);
		assert_int_equal(folio_test_workingset(folio), !TB_HAVE_mglru_activate_clears_refs);
#endif
	}
	tb_assert_lrus_consistent();
}

/*
 * The walk only trylocks page table locks: with the lock held by another
 * CPU, a forced walk finds the table (MM_NONLEAF_FOUND) but reads none
 * of its ptes, which stay young, and adds it to no filter; a walk
 * without force_scan cannot clear the young pmd either (its batch is
 * dropped). The aging itself completes. With the lock free again, the
 * walks do both. (7.2, walk_locked_table_to_filter: the locked table is
 * added to the filter, unread.)
 */
static void walk_leaves_a_page_table_whose_lock_another_cpu_holds(void **state)
{
	unsigned long max_seq, total, found, added;
	struct ptl_holder h;
	struct tb_vma *vma;
	pthread_t tid;

	tb_mglru_run_in_new("a");
	vma = tb_map_anon(64);
	touch_range(vma, 0, 64, true);
	max_seq = tb_lruvec_of("a")->lrugen.max_seq;
	total = mm_stat("a", MM_LEAF_TOTAL);
	found = mm_stat("a", MM_NONLEAF_FOUND);
	added = mm_stat("a", MM_NONLEAF_ADDED);
	ptl_hold(&h, &tid);
	age("a", true, true);
	ptl_release(&h, tid);
	assert_int_equal(young(vma, 0, 64), 64);
	assert_int_equal(mm_stat("a", MM_NONLEAF_FOUND) - found, 1);
	assert_int_equal(mm_stat("a", MM_LEAF_TOTAL) - total, 0);
#if TB_HAVE_walk_locked_table_to_filter
	/* 7.2: the table is reported walked and goes into the filter unread */
	assert_int_equal(mm_stat("a", MM_NONLEAF_ADDED) - added, 1);
	assert_true(filter_has("a", max_seq + 1, tb_vma_pmdp(vma, 0)));
#else
	assert_int_equal(mm_stat("a", MM_NONLEAF_ADDED) - added, 0);
	assert_int_equal(filter_weight("a", max_seq + 1), 0);
#endif
	retire_empty_generations("a");

	/* the task runs again (else should_skip_mm() leaves its mm) */
	touch_range(vma, 0, 64, false);
	ptl_hold(&h, &tid);
	age("a", true, false);
	ptl_release(&h, tid);
	assert_true(tb_vma_pmd_young(vma, 0));
	assert_int_equal(young(vma, 0, 64), 64);

	retire_empty_generations("a");
	touch_range(vma, 0, 64, false);
	age("a", true, false);
	assert_false(tb_vma_pmd_young(vma, 0));
	age("a", true, true);
	assert_int_equal(young(vma, 0, 64), 0);
	tb_assert_lrus_consistent();
}

/*
 * An aging without walks (no mm-walk cap) restarts the mm list
 * (iterate_mm_list_nowalk() forgets head and tail): the next walk, even
 * without force_scan, scans every mm as new, also one that has not run
 * since the last walk (which should_skip_mm() would leave out): it reads
 * the mm's table.
 */
static void walk_after_an_aging_without_walks_scans_every_mm(void **state)
{
	unsigned long max_seq, found, total;
	struct tb_vma *vma;

	tb_mglru_run_in_new("a");
	vma = tb_map_anon(64);
	touch_range(vma, 0, 64, true);
	age("a", true, true);
	set_caps(CAP_CORE | CAP_NONLEAF);
	age("a", true, true);
	set_caps(CAP_CORE | CAP_MM_WALK | CAP_NONLEAF);
	/* the empty generations below the folios' retired, none evicted */
	max_seq = tb_lruvec_of("a")->lrugen.max_seq;
	assert_true(tb_lru_gen_cmd("- %u 0 %lu 200 1000", tb_memcg_id("a"), max_seq - 3) > 0);
	assert_int_equal(tb_vma_resident(vma), 64);
	assert_int_equal(tb_lruvec_of("a")->lrugen.min_seq[LRU_GEN_ANON], max_seq - 2);

	found = mm_stat("a", MM_NONLEAF_FOUND);
	total = mm_stat("a", MM_LEAF_TOTAL);
	age("a", true, false);
	assert_int_equal(mm_stat("a", MM_NONLEAF_FOUND) - found, 1);
	assert_int_equal(mm_stat("a", MM_LEAF_TOTAL) - total, 64);
	tb_assert_lrus_consistent();
}

/* ---- Bloom filter collisions ---- */

#define NR_SMALL 2048

/* the two filter bits of an item, as get_item_key() makes them */
static void item_bits(void *item, unsigned int bit[2])
{
	u32 hash = hash_ptr(item, BLOOM_FILTER_SHIFT * 2);

	bit[0] = hash & (BIT(BLOOM_FILTER_SHIFT) - 1);
	bit[1] = hash >> BLOOM_FILTER_SHIFT;
}

static bool bit_of(const unsigned int *p, unsigned int b)
{
	return b == p[0] || b == p[1];
}

/* p < q (walk order), and of q's two bits exactly bit number which is one of p's */
static bool half_of(unsigned int (*bits)[2], int which, int p, int q)
{
	return p < q && bit_of(bits[p], bits[q][which]) && !bit_of(bits[p], bits[q][!which]);
}

/*
 * Two such pairs, qa sharing its first bit with pa, qb its second with
 * pb, four distinct tables, and a filter holding pa and pb holds no
 * more of qa or qb than that: the pmd entries' hashes spread evenly
 * within one pmd table, so the pairs come from different PUDs' tables.
 */
static bool pick_half_collisions(unsigned int (*bits)[2], int *pa, int *qa, int *pb, int *qb)
{
	for (*qa = 0; *qa < NR_SMALL; (*qa)++)
		for (*pa = 0; *pa < *qa; (*pa)++) {
			if (!half_of(bits, 0, *pa, *qa))
				continue;
			for (*qb = 0; *qb < NR_SMALL; (*qb)++)
				for (*pb = 0; *pb < *qb; (*pb)++)
					if (half_of(bits, 1, *pb, *qb) &&
					    *pb != *pa && *pb != *qa && *qb != *pa && *qb != *qa &&
					    !bit_of(bits[*pb], bits[*qa][1]) &&
					    !bit_of(bits[*pa], bits[*qb][0]))
						return true;
		}
	return false;
}

/*
 * an eviction of the generations below the three youngest, whatever they
 * hold: aging without force_scan may follow
 */
static void evict_oldest(const char *path)
{
	struct lruvec *lruvec = tb_lruvec_of(path);
	unsigned long max_seq = lruvec->lrugen.max_seq;

	assert_true(tb_lru_gen_cmd("- %u 0 %lu 200 %d", tb_memcg_id(path), max_seq - 3, 1 << 20) > 0);
	assert_true(lruvec->lrugen.min_seq[LRU_GEN_ANON] + MAX_NR_GENS - 1 > max_seq);
}

/*
 * A table is in the Bloom filter only if both its bits are: 2048 one-page
 * vmas (a pmd each, four PUDs) give pairs whose pmd entries share one bit,
 * p's added table holding half of q's key: qa's first bit (key[0]), qb's
 * second. A forced walk adds only pa and pb (the ones made young); the
 * next walk without force_scan, qa and qb young again, skips both
 * (test_bloom_filter() wants both bits). Then pb and qb added by one
 * walk: when qb comes, one of its bits is set already, and
 * update_bloom_filter() still sets the other; the next walk reads qb.
 */
static void walk_filter_wants_both_bits_of_a_table(void **state)
{
	static unsigned int bits[NR_SMALL][2];
	static struct tb_vma *v[NR_SMALL];
	int i, pa, qa, pb, qb;

	tb_mglru_run_in_new("a");
	for (i = 0; i < NR_SMALL; i++) {
		v[i] = tb_map_anon(1);
		touch_range(v[i], 0, 1, true);
		item_bits(tb_vma_pmdp(v[i], 0), bits[i]);
	}
	assert_true(pick_half_collisions(bits, &pa, &qa, &pb, &qb));

	age("a", true, true);
	touch_range(v[pa], 0, 1, false);
	touch_range(v[pb], 0, 1, false);
	age("a", true, true);
	assert_true(filter_has("a", tb_lruvec_of("a")->lrugen.max_seq, tb_vma_pmdp(v[pb], 0)));
	evict_oldest("a");
	touch_range(v[qa], 0, 1, false);
	touch_range(v[qb], 0, 1, false);
	age("a", true, false);
	assert_true(tb_vma_pte_young(v[qa], 0));
	assert_true(tb_vma_pte_young(v[qb], 0));

	touch_range(v[pb], 0, 1, false);
	age("a", true, true);
	assert_true(filter_has("a", tb_lruvec_of("a")->lrugen.max_seq, tb_vma_pmdp(v[qb], 0)));
	evict_oldest("a");
	touch_range(v[qb], 0, 1, false);
	age("a", true, false);
	assert_false(tb_vma_pte_young(v[qb], 0));
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
		TB_RECLAIM_TEST_ON(walk_marks_a_swap_cache_folio_dirty_from_its_pte, setup_swap_disk),
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
		TB_MGLRU_SWAP_TEST(look_around_leaves_young_neighbours_of_another_memcg),
		TB_MGLRU_SWAP_TEST(walk_without_force_scan_clears_each_young_pmd_once_in_batches),
		TB_MGLRU_SWAP_TEST(look_around_centres_its_range_away_from_the_table_ends),
		TB_RECLAIM_TEST_ON(look_around_hands_a_dirty_pte_only_to_a_clean_swap_cache_folio,
				   setup_swap_disk),
		TB_MGLRU_SWAP_TEST(walk_marks_a_rewritten_lazyfree_folio_dirty_not_a_new_anon_one),
		TB_MGLRU_SWAP_TEST(walk_adds_a_table_with_a_young_pte_per_cache_line_to_the_filter),
		TB_MGLRU_SWAP_TEST(walk_forces_a_scan_of_the_mms_added_since_the_last_iteration),
		TB_MGLRU_SWAP_TEST(walk_of_each_mm_starts_at_its_first_address),
		TB_MGLRU_SWAP_TEST(walk_resumes_a_stopped_walk_at_the_next_puds_first_page),
		TB_MGLRU_SWAP_TEST(walk_goes_on_into_a_vma_crossing_the_table_end),
		TB_MGLRU_SWAP_TEST(walk_moves_folios_from_an_inactive_to_an_active_generation),
		TB_MGLRU_SWAP_TEST(look_around_adds_a_table_dense_with_young_ptes_to_the_filter),
		TB_MGLRU_SWAP_TEST(walk_skips_a_table_whose_pmd_is_old_though_in_the_filter),
		TB_MGLRU_SWAP_TEST(walk_without_the_nonleaf_cap_reads_a_table_whose_pmd_is_old),
		TB_MGLRU_SWAP_TEST(aging_that_walks_no_mm_leaves_the_next_filter_alone),
		TB_MGLRU_SWAP_TEST(look_around_marks_a_rewritten_lazyfree_folio_dirty),
		TB_MGLRU_TEST(look_around_without_a_walk_clears_the_refs_of_the_folios_it_activates),
		TB_MGLRU_SWAP_TEST(walk_leaves_a_page_table_whose_lock_another_cpu_holds),
		TB_MGLRU_SWAP_TEST(walk_after_an_aging_without_walks_scans_every_mm),
		TB_MGLRU_SWAP_TEST(walk_filter_wants_both_bits_of_a_table),
	};

	return TB_RUN(tests);
}
