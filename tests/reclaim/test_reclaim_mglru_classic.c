// SPDX-License-Identifier: GPL-2.0-only
/*
 * The multi-gen LRU in the situations of the part-1 cases that assert the
 * classic active/inactive LRU's own policy (they skip with MGLRU on:
 * TB_CLASSIC_LRU_ONLY). Each case here is the counterpart of one of them,
 * under its own name, asserting what mm/vmscan.c's CONFIG_LRU_GEN code
 * does in the same world:
 *
 *   test_reclaim_pressure
 *     page_cache_folio_with_an_extra_reference_is_not_freed
 *       -> rejected_page_cache_folio_is_retried_then_moved_to_the_youngest_generation
 *     dma_pinned_anon_folio_is_not_added_to_swap
 *       -> dma_pinned_anon_folio_is_not_swapped_and_moves_to_a_young_generation
 *     pinned_mapped_file_folio_is_unmapped_but_kept
 *       -> pinned_mapped_file_folio_is_unmapped_and_activated_never_deactivated
 *     shm_locked_page_cache_is_culled_to_the_unevictable_list
 *       -> shm_locked_page_cache_is_culled_by_eviction_without_sorting
 *   test_reclaim_lru
 *     use_once_page_cache_goes_before_mapped_pages_in_use
 *       -> page_cache_read_once_is_evicted_before_the_younger_mapped_pages
 *     refault_within_workingset_is_activated
 *       -> refault_from_the_oldest_generation_counts_as_activation_but_stays_old
 *     refault_beyond_workingset_stays_inactive
 *       -> refault_after_the_oldest_generation_moved_on_is_no_activation
 *     swappiness_200_spares_page_cache_in_use
 *       -> swappiness_200_still_evicts_page_cache_older_than_the_anon
 *     stale_memcg_lru_sizes_miss_cache_trim_mode
 *       -> reclaim_right_after_the_reads_needs_no_flushed_lru_sizes
 *   test_reclaim_scan
 *     memory_reclaim_scans_lru_size_shifted_by_priority
 *       -> memory_reclaim_evicts_whole_batches_at_the_default_priority
 *     swappiness_60_scans_both_types_and_anon_rotations_shift_it_to_file
 *       -> without_refaults_file_goes_first_from_a_generation_holding_both_types
 *     file_rotations_shift_the_fraction_to_anon
 *       -> file_refaults_turn_the_eviction_to_anon
 *     global_reclaim_with_tiny_page_cache_scans_anon_only
 *       -> global_reclaim_with_tiny_page_cache_evicts_it_first_as_the_oldest
 *     exec_file_pages_are_activated_at_first_use_and_kept_active
 *       -> exec_text_in_use_stays_resident_in_young_generations
 *     mapped_file_pages_without_exec_are_deactivated
 *       -> mapped_text_without_exec_in_use_stays_resident_like_exec
 *     kswapd_ages_anon_of_a_memcg_that_reclaim_skips
 *       -> kswapd_does_not_age_a_memcg_that_reclaim_skips
 *     reclaim_culls_page_cache_locked_on_the_lru_to_the_unevictable_list
 *       -> reclaim_culls_locked_page_cache_from_every_generation_in_one_pass
 *
 * (The 18th, global_reclaim_spares_memory_low_until_nothing_else_is_left,
 * has its counterpart in test_reclaim_mglru:
 * global_reclaim_reclaims_a_memcg_below_low_on_its_second_visit.)
 *
 * Every world here boots with MGLRU switched on before any page is
 * faulted (tb_mglru_setup()).
 */
#include <linux/kernel.h>
#include <linux/delay.h>
#include <linux/mm.h>
#include <linux/mm_inline.h>
#include <linux/pagemap.h>
#include <linux/swap.h>
#include <linux/vmstat.h>
#include <linux/workqueue.h>
#include <kshim/trace.h>
#include "tb_mglru.h"

#define ANON LRU_GEN_ANON
#define FILE LRU_GEN_FILE

static unsigned long sum(const unsigned long *per_prio)
{
	unsigned long n = 0;
	int p;

	for (p = 0; p < KSHIM_TRACE_PRIORITIES; p++)
		n += per_prio[p];
	return n;
}

/* seq of the generation folio is in, counted from the lruvec's max_seq down */
static unsigned long folio_seq(struct lruvec *lruvec, struct folio *folio)
{
	unsigned long max_seq = READ_ONCE(lruvec->lrugen.max_seq), seq;

	for (seq = max_seq; seq + MAX_NR_GENS > max_seq; seq--)
		if (lru_gen_from_seq(seq) == folio_lru_gen(folio))
			return seq;
	fail_msg("folio not on a generation");
	return 0;
}

/*
 * what three reads leave on a folio: PG_workingset (7.2,
 * lru_tier_workingset: three refs, PG_workingset only once they saturate)
 */
static bool read_three_times(struct folio *folio)
{
#if TB_HAVE_lru_tier_workingset
	return folio_lru_refs(folio) == 3 && !folio_test_workingset(folio);
#else
	return folio_test_workingset(folio);
#endif
}

/* ======== test_reclaim_pressure ======== */

/*
 * A page cache folio someone holds a reference on: __remove_mapping()
 * cannot freeze its refcount and shrink_folio_list() keeps it.
 * evict_folios() gives a kept folio that is clean, unmapped and not
 * referenced one retry (it may have missed folio_rotate_reclaimable()),
 * and when the retry keeps it too, sets PG_active on it ("don't add
 * rejected folios to the oldest generation"): move_folios_to_lru() puts
 * it in the youngest generation, and lru_gen_add_folio() clears
 * PG_active again (7.2, lru_gen_folio_seq: only when the folio would go
 * back to the oldest generation, and an active folio goes to the second
 * youngest). memory.reclaim's retries age the lruvec round after
 * round; the folio ends where the last rejection put it.
 */
static void rejected_page_cache_folio_is_retried_then_moved_to_the_youngest_generation(void **state)
{
	struct tb_file *f = tb_file_create(PAGES(1 * MB));
	struct lruvec *lruvec;
	struct folio *folio;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	tb_read_range(f, PAGES(1 * MB));
	lru_add_drain();
	lruvec = tb_lruvec_of("a");
	folio = tb_file_folio(f, 7);
	tb_folio_get(folio);

	assert_write("a", "memory.reclaim", "1M", -EAGAIN);
	assert_int_equal(tb_file_cached(f), 1);
	assert_ptr_equal(tb_file_folio(f, 7), folio);
	assert_int_equal(folio_ref_count(folio), 2);
	assert_true(folio_test_lru(folio));
	assert_false(folio_test_active(folio));
	assert_true(lruvec->lrugen.max_seq > MIN_NR_GENS + 1);
	/*
	 * 7.2 (lru_gen_folio_seq): an active folio, not workingset, is added
	 * to the second youngest generation
	 */
	assert_int_equal(folio_seq(lruvec, folio),
			 lruvec->lrugen.max_seq - TB_HAVE_lru_gen_folio_seq);
	assert_int_equal(tb_stat("a", "pgsteal"), PAGES(1 * MB) - 1);
	tb_assert_lrus_consistent();

	/* the reference gone, the same folio is evicted */
	tb_folio_put(folio);
	assert_write_ok("a", "memory.reclaim", "4K");
	assert_int_equal(tb_file_cached(f), 0);
}

/*
 * The retry is one more shrink_folio_list() of the kept folio in the same
 * evict_folios() (a second trace of the batch, nothing reclaimed), only
 * for a folio clean, unmapped and unreferenced: one page cache page read
 * three times (PG_workingset), held, evicted from the oldest generation
 * by debugfs; rejected again, it loses its refs and PG_workingset. Its isolation leaves the
 * generation empty, try_to_inc_min_seq() retires it, and with MIN_NR_GENS
 * left evict_folios() reports (and traces) 0 scanned.
 */
static void rejected_clean_folio_is_shrunk_twice_in_one_eviction(void **state)
{
	struct tb_file *f = tb_file_create(1);
	struct lruvec *lruvec;
	struct folio *folio;
	int i;

	tb_skip_before_6_4("mm/vmscan.c's eviction retry");

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	for (i = 0; i < 3; i++)
		tb_read_range(f, 1);
	lru_add_drain();
	lruvec = tb_lruvec_of("a");
	folio = tb_file_folio(f, 0);
	tb_folio_get(folio);
	assert_int_equal(folio_seq(lruvec, folio), 1);
#if TB_HAVE_lru_tier_workingset
	/* 7.2: three reads are three refs, PG_workingset only once they saturate */
	assert_false(folio_test_workingset(folio));
	assert_int_equal(folio_lru_refs(folio), 3);
#else
	assert_true(folio_test_workingset(folio));
#endif
	kshim_trace_reset();

	assert_true(tb_lru_gen_cmd("- %u 0 1 0 %d", tb_memcg_id("a"), MIN_LRU_BATCH) > 0);
	assert_int_equal(kshim_trace.shrink_inactive_count, 2);
	/* the isolation emptied generation 1: MIN_NR_GENS left, "0 scanned" (7.2: 1) */
	assert_int_equal(lruvec->lrugen.min_seq[LRU_GEN_FILE], 2);
	assert_int_equal(kshim_trace.last_inactive.nr_scanned, !TB_HAVE_mglru_evict_zero_at_min_gens);
	assert_int_equal(kshim_trace.last_inactive.nr_reclaimed, 0);
	assert_int_equal(tb_file_cached(f), 1);
	/* 7.2 (lru_gen_folio_seq): active, not workingset: the second youngest */
	assert_int_equal(folio_seq(lruvec, folio),
			 lruvec->lrugen.max_seq - TB_HAVE_lru_gen_folio_seq);
	/* rejected: its refs, PG_referenced and PG_workingset cleared */
	assert_false(folio_test_workingset(folio));
	assert_int_equal(folio_lru_refs(folio), 0);
	tb_folio_put(folio);
	tb_assert_lrus_consistent();
}

/*
 * A locked page cache folio (someone reading or writing it) kept by
 * shrink_folio_list() is not retried: evict_folios() sets PG_active on
 * it at once and it goes to the youngest generation after one shrink.
 * Without mglru_sort_lets_dirty_through (6.12 before 6.12.115)
 * sort_folio() holds a locked folio back ("waiting for writeback"):
 * folio_inc_gen() moves it to the next generation with PG_reclaim,
 * nothing is isolated (no eviction event), and the generation it left,
 * now empty, is retired: the folio ends in the oldest one.
 */
static void locked_folio_kept_by_eviction_goes_young_without_a_retry(void **state)
{
	struct tb_file *f = tb_file_create(1);
	struct lruvec *lruvec;
	struct folio *folio;

	tb_skip_before_6_4("mm/vmscan.c's eviction of a locked folio");
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	tb_read_range(f, 1);
	lru_add_drain();
	lruvec = tb_lruvec_of("a");
	folio = tb_file_folio(f, 0);
	assert_true(folio_trylock(folio));
	kshim_trace_reset();

	assert_true(tb_lru_gen_cmd("- %u 0 1 0 %d", tb_memcg_id("a"), MIN_LRU_BATCH) > 0);
	assert_int_equal(tb_file_cached(f), 1);
#if TB_HAVE_mglru_sort_lets_dirty_through
	/*
	 * 7.2 (lru_gen_folio_seq): evict_folios() retries a locked folio as
	 * any clean unmapped one; kept again, it would go back to the oldest
	 * generation, so it is activated: the second youngest
	 */
	assert_int_equal(kshim_trace.shrink_inactive_count, 1 + TB_HAVE_lru_gen_folio_seq);
	assert_int_equal(folio_seq(lruvec, folio),
			 lruvec->lrugen.max_seq - TB_HAVE_lru_gen_folio_seq);
#else
	assert_int_equal(kshim_trace.shrink_inactive_count, 0);
	assert_int_equal(folio_seq(lruvec, folio), lruvec->lrugen.min_seq[FILE]);
	assert_true(folio_seq(lruvec, folio) < lruvec->lrugen.max_seq);
	assert_true(folio_test_reclaim(folio));
#endif
	folio_unlock(folio);
	tb_assert_lrus_consistent();
}

/*
 * Dirty page cache met by an eviction that is not kswapd's:
 * shrink_folio_list() leaves the writing to the flushers, sets
 * PG_reclaim and activates it. evict_folios() passes such a folio over
 * (it only gives back the PG_referenced that isolate_folio() took from a
 * PG_workingset folio): no retry, and PG_workingset stays, where a
 * rejected folio would have its refs and both flags cleared. Back on the
 * LRU it is active: lru_gen_add_folio() puts it in the youngest
 * generation and clears its LRU_REFS and PG_referenced, not
 * PG_workingset (PSI).
 *
 * 7.2 (lru_tier_workingset): PG_workingset comes only once the refs are
 * saturated (five writes), and sort_folio() protects such a folio as
 * the workingset being lazily promoted: folio_inc_gen() moves it to the
 * next generation, clearing its refs and PG_referenced, not
 * PG_workingset. Never isolated, it gets no PG_reclaim and stays dirty.
 */
static void dirty_workingset_folio_kept_for_writeback_stays_workingset(void **state)
{
	struct tb_file *f = tb_file_create(1);
	struct lruvec *lruvec;
	struct folio *folio;
	int i;

	tb_skip_before_6_4("mm/vmscan.c's eviction of a dirty folio");
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	for (i = 0; i < (TB_HAVE_lru_tier_workingset ? BIT(LRU_REFS_WIDTH) + 1 : 3); i++)
		assert_int_equal(tb_file_write(f, 0), 0);
	lru_add_drain();
	lruvec = tb_lruvec_of("a");
	folio = tb_file_folio(f, 0);
	/* three writes: PG_referenced, PG_workingset and one in LRU_REFS */
	assert_true(folio_test_referenced(folio));
	assert_true(folio_test_workingset(folio));
	assert_int_equal(folio_lru_refs(folio),
			 TB_HAVE_lru_tier_workingset ? BIT(LRU_REFS_WIDTH) : 2);
	assert_true(folio_test_dirty(folio));
	kshim_trace_reset();

	assert_true(tb_lru_gen_cmd("- %u 0 1 0 %d", tb_memcg_id("a"), MIN_LRU_BATCH) > 0);
	assert_int_equal(tb_file_cached(f), 1);
#if TB_HAVE_lru_tier_workingset
	assert_int_equal(kshim_trace.shrink_inactive_count, 0);
	assert_false(folio_test_reclaim(folio));
	assert_true(folio_test_dirty(folio));
	assert_true(folio_test_workingset(folio));
	assert_false(folio_test_referenced(folio));
	assert_int_equal(folio_lru_refs(folio), 0);
	assert_int_equal(folio_seq(lruvec, folio), lruvec->lrugen.min_seq[FILE]);
#else
	assert_true(folio_test_reclaim(folio));
	assert_true(folio_test_dirty(folio));
	assert_false(folio_test_referenced(folio));
	assert_false(folio_test_active(folio));
#if TB_HAVE_mglru_sort_lets_dirty_through
	assert_int_equal(kshim_trace.shrink_inactive_count, 1);
	assert_true(folio_test_workingset(folio));
	assert_int_equal(folio_lru_refs(folio), 1);
	assert_int_equal(folio_seq(lruvec, folio), lruvec->lrugen.max_seq);
#else
	/*
	 * sort_folio() holds the dirty folio back: folio_inc_gen() marks it
	 * PG_reclaim and moves it to the next generation, clearing its refs,
	 * PG_referenced and PG_workingset; never isolated, no eviction
	 * event; the generation it left is retired, it is in the oldest.
	 */
	assert_int_equal(kshim_trace.shrink_inactive_count, 0);
	assert_false(folio_test_workingset(folio));
	assert_int_equal(folio_lru_refs(folio), 0);
	assert_int_equal(folio_seq(lruvec, folio), lruvec->lrugen.min_seq[FILE]);
	assert_true(folio_seq(lruvec, folio) < lruvec->lrugen.max_seq);
#endif
#endif
	tb_assert_lrus_consistent();
}

/*
 * A DMA-pinned anon folio: shrink_folio_list() keeps it before
 * add_to_swap(); evict_folios() finds it mapped, sets PG_active and it
 * goes back to the youngest generation, while every other page of the
 * mapping is swapped (each found young once, promoted by the look-around,
 * then aged out).
 */
static void dma_pinned_anon_folio_is_not_swapped_and_moves_to_a_young_generation(void **state)
{
	unsigned long n = PAGES(1 * MB);
	struct lruvec *lruvec;
	struct tb_vma *vma;
	struct folio *folio;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	vma = tb_map_anon(n);
	tb_touch_range(vma, n, true);
	lru_add_drain();
	lruvec = tb_lruvec_of("a");
	folio = tb_vma_folio(vma, 3);
	tb_folio_pin(folio);

	assert_write("a", "memory.reclaim", "1M", -EAGAIN);
	assert_int_equal(tb_vma_swapped(vma), n - 1);
	assert_ptr_equal(tb_vma_folio(vma, 3), folio);
	assert_false(folio_test_swapcache(folio));
	assert_true(folio_test_lru(folio));
	assert_int_equal(folio_seq(lruvec, folio), lruvec->lrugen.max_seq);
	assert_int_equal(tb_swap_used(), n - 1);
	assert_int_equal(tb_gen_pages(lruvec, ANON), 1);

	/* unpinned, it goes to swap like the others */
	tb_folio_unpin(folio);
	assert_write_ok("a", "memory.reclaim", "4K");
	assert_int_equal(tb_vma_swapped(vma), n);
}

/*
 * A pinned page cache folio mapped by a task: try_to_unmap() takes its
 * pte, then folio_maybe_dma_pinned() sends it to activate_locked
 * (pgactivate) and evict_folios() puts it in the youngest generation.
 * Every retry of memory.reclaim ages the lruvec until the folio is in the
 * oldest generation again and activates it again; nothing deactivates it
 * in between (the multi-gen LRU has no shrink_active_list(): pgdeactivate
 * stays 0, where the classic LRU matches each activation with one).
 */
static void pinned_mapped_file_folio_is_unmapped_and_activated_never_deactivated(void **state)
{
	unsigned long n = PAGES(1 * MB);
	struct tb_file *f = tb_file_create(n);
	struct lruvec *lruvec;
	struct tb_vma *vma;
	struct folio *folio;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	vma = tb_map_file(f);
	tb_touch_range(vma, n, false);
	lru_add_drain();
	lruvec = tb_lruvec_of("a");
	folio = tb_vma_folio(vma, 5);
	tb_folio_pin(folio);

	assert_write("a", "memory.reclaim", "1M", -EAGAIN);
	assert_int_equal(tb_vma_resident(vma), 0);
	assert_false(folio_mapped(folio));
	assert_int_equal(tb_file_cached(f), 1);
	assert_ptr_equal(tb_file_folio(f, 5), folio);
	assert_true(tb_stat("a", "pgactivate") > 1);
	assert_int_equal(tb_stat("a", "pgdeactivate"), 0);
	/*
	 * 7.2 (mglru_age_at_three_gens): the folio, active and PG_workingset
	 * (folio_update_gen() set it), goes to the youngest generation; the
	 * last round ages the lruvec before it finds nothing to evict
	 */
#if TB_HAVE_mglru_age_at_three_gens
	assert_true(folio_test_workingset(folio));
#endif
	assert_int_equal(folio_seq(lruvec, folio),
			 lruvec->lrugen.max_seq - TB_HAVE_mglru_age_at_three_gens);
	assert_int_equal(tb_stat("a", "file_mapped"), 0);
	assert_int_equal(tb_stat("a", "pgsteal"), n - 1);
	tb_folio_unpin(folio);
	tb_assert_lrus_consistent();
}

/*
 * SHM_LOCK after the pages are cached: sort_folio() lets a folio that is
 * no longer evictable through before any tier protection ("let it
 * through and the generic path will cull it"), shrink_folio_list() sends
 * it to activate_locked (pgactivate), and move_folios_to_lru() culls it
 * through folio_putback_lru(). Every folio goes that way, read once or
 * twice: each is scanned once, none is sorted (pgrefill 0), all are
 * activated -- where the classic LRU takes the active ones with
 * shrink_active_list() (pgrefill) without activating them. evict_folios()
 * passes an unevictable folio over: PG_workingset of the pages read three
 * times stays (a rejected folio would lose it). Without
 * mglru_unevictable_generic_cull (6.1 before 6.1.192, 6.12 before
 * 6.12.115) sort_folio() culls it to the unevictable list itself: each
 * is counted as sorted (pgrefill), none scanned, isolated or activated.
 */
static void shm_locked_page_cache_is_culled_by_eviction_without_sorting(void **state)
{
	unsigned long n = PAGES(1 * MB), twice = 64;
	struct tb_file *f = tb_file_create(n);
	long long pgactivate;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	tb_read_range(f, n);
	tb_read_range(f, twice);
	tb_read_range(f, 16);
	lru_add_drain();
	assert_true(read_three_times(tb_file_folio(f, 0)));
	pgactivate = tb_stat("a", "pgactivate");
	tb_file_set_unevictable(f, true);
	assert_int_equal(tb_stat("a", "unevictable"), 0);	/* nothing moved yet */

	assert_write("a", "memory.reclaim", "1M", -EAGAIN);
	lru_add_drain();
	assert_int_equal(kshim_vm_event_read(UNEVICTABLE_PGCULLED), n);
	assert_int_equal(tb_stat("a", "unevictable"), n * 4096);
	assert_int_equal(tb_gen_pages(tb_lruvec_of("a"), FILE), 0);
	assert_int_equal(tb_stat("a", "pgscan"), TB_HAVE_mglru_unevictable_generic_cull ? n : 0);
	assert_int_equal(tb_stat("a", "pgrefill"), TB_HAVE_mglru_unevictable_generic_cull ? 0 : n);
	assert_int_equal(tb_stat("a", "pgactivate") - pgactivate,
			 TB_HAVE_mglru_unevictable_generic_cull ? n : 0);
	assert_int_equal(tb_stat("a", "pgsteal"), 0);
	assert_int_equal(tb_file_cached(f), n);
	/* culled, not rejected: the flags of a page read three times stay */
	assert_true(read_three_times(tb_file_folio(f, 0)));

	tb_file_set_unevictable(f, false);
	assert_int_equal(kshim_vm_event_read(UNEVICTABLE_PGRESCUED), n);
	assert_int_equal(tb_stat("a", "unevictable"), 0);
	assert_int_equal(tb_gen_pages(tb_lruvec_of("a"), FILE), n);
	tb_assert_lrus_consistent();
}

/* ======== test_reclaim_lru ======== */

/*
 * Pages faulted in go to the youngest generation (folio_add_lru() in a
 * fault sets PG_active), page cache read through read() to min_seq + 1.
 * The eviction takes the older page cache, batch by batch, and never
 * reaches the mapped file: no page of it is scanned or activated, where
 * the classic LRU looked at each mapped page and activated it.
 *
 * 7.2 (lru_gen_fault_referenced): a fault marks the folio PG_referenced,
 * which puts the mapped pages in the generation of the page cache read
 * once. The aging that the reclaim runs below DEF_PRIORITY walks the
 * page table, finds the mapped pages young and promotes them: the page
 * cache still goes first, nothing activated, each reclaim taking size >>
 * priority a priority (mglru_evict_budget) until the page cache is gone.
 */
static void page_cache_read_once_is_evicted_before_the_younger_mapped_pages(void **state)
{
	struct tb_file *mapped = tb_file_create(256), *once = tb_file_create(256);
	struct lruvec *lruvec;
	struct tb_vma *vma;
	int round;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	vma = tb_map_file(mapped);
	tb_touch_range(vma, 256, false);
	tb_read_range(once, 256);
	lru_add_drain();
	lruvec = tb_lruvec_of("a");
#if TB_HAVE_lru_gen_fault_referenced
	assert_int_equal(folio_seq(lruvec, tb_vma_folio(vma, 0)), lruvec->lrugen.max_seq - 2);
	assert_int_equal(folio_seq(lruvec, tb_file_folio(once, 0)), lruvec->lrugen.max_seq - 2);
	for (round = 1; tb_file_cached(once); round++) {
		assert_true(round <= 4);
		assert_write_ok("a", "memory.reclaim", "256K");
		if (tb_file_cached(once))
			assert_int_equal(tb_vma_resident(vma), 256);
		tb_touch_range(vma, 256, false);
	}
#else
	assert_int_equal(folio_seq(lruvec, tb_vma_folio(vma, 0)), lruvec->lrugen.max_seq);
	assert_int_equal(folio_seq(lruvec, tb_file_folio(once, 0)),
			 lruvec->lrugen.min_seq[FILE] + 1);
	for (round = 1; round <= 4; round++) {
		assert_write_ok("a", "memory.reclaim", "256K");
		assert_int_equal(tb_file_cached(once), 256 - round * 64);
		assert_int_equal(tb_vma_resident(vma), 256);
		assert_int_equal(tb_stat("a", "pgscan"), round * 64);
		tb_touch_range(vma, 256, false);
	}
#endif
	assert_int_equal(tb_stat("a", "pgactivate"), 0);
	tb_unmap(vma);
}

/*
 * lru_gen_refault(): a refault is "recent" when the shadow's min_seq is
 * the lruvec's min_seq still, i.e. the folio was evicted from the
 * generation that is still the oldest. It is counted as
 * workingset_activate, but nothing is activated: the folio (read once,
 * refs below the tiers that restore PG_workingset) goes back to the
 * oldest generation (lru_gen_add_folio(): min_seq + MIN_NR_GENS >=
 * max_seq). memory.reclaim "256K" evicts one batch of MIN_LRU_BATCH of
 * the 2 * MIN_LRU_BATCH pages, so the generation stays. (7.2,
 * mglru_evict_budget: it evicts size >> priority a priority, past the 64
 * asked but not all; lru_gen_refault_activate_in_fault: no activation
 * is counted.)
 */
static void refault_from_the_oldest_generation_counts_as_activation_but_stays_old(void **state)
{
	struct tb_file *f = tb_file_create(2 * MIN_LRU_BATCH);
	struct lruvec *lruvec;
	unsigned long min_seq, evicted;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	tb_read_range(f, 2 * MIN_LRU_BATCH);
	lru_add_drain();
	lruvec = tb_lruvec_of("a");
	assert_write_ok("a", "memory.reclaim", "256K");
	evicted = 2 * MIN_LRU_BATCH - tb_file_cached(f);
	if (TB_HAVE_mglru_evict_budget)
		assert_in_range(evicted, MIN_LRU_BATCH, 2 * MIN_LRU_BATCH - 1);
	else
		assert_int_equal(evicted, MIN_LRU_BATCH);
	assert_null(tb_file_folio(f, 0));
	min_seq = lruvec->lrugen.min_seq[FILE];

	tb_read_range(f, 2 * MIN_LRU_BATCH);
	lru_add_drain();
	assert_int_equal(lruvec->lrugen.min_seq[FILE], min_seq);
	assert_int_equal(tb_stat("a", "workingset_refault_file"), evicted);
#if TB_HAVE_lru_gen_refault_activate_in_fault
	/* 7.2: no activation counted but for a workingset folio's refault in a fault */
	assert_int_equal(tb_stat("a", "workingset_activate_file"), 0);
#elif TB_HAVE_lru_gen_refault_activate
	assert_int_equal(tb_stat("a", "workingset_activate_file"), MIN_LRU_BATCH);
#else
	/* lru_gen_refault() of such trees counts a recent refault as a refault only */
	assert_int_equal(tb_stat("a", "workingset_activate_file"), 0);
#endif
	assert_int_equal(tb_stat("a", "workingset_restore_file"), 0);
#if TB_HAVE_lru_gen_folio_seq
	/* 7.2: read, so PG_referenced: the third youngest (the memcg reclaim aged once) */
	assert_int_equal(folio_seq(lruvec, tb_file_folio(f, 0)),
			 max(lruvec->lrugen.max_seq - 2, min_seq));
#else
	assert_int_equal(folio_seq(lruvec, tb_file_folio(f, 0)), min_seq);
#endif
	assert_int_equal(tb_stat("a", "pgactivate"), 0);
}

/*
 * A refault after the oldest generation moved on is not recent:
 * workingset_refault counts it, workingset_activate does not. f's 64
 * pages are evicted all at once (their generation empties when they are
 * isolated, and min_seq moves on before the shadows take it); then g is
 * read and evicted in turn, which takes an aging and moves min_seq again.
 */
static void refault_after_the_oldest_generation_moved_on_is_no_activation(void **state)
{
	struct tb_file *f = tb_file_create(64), *g = tb_file_create(256);
	struct lruvec *lruvec;
	unsigned long min_seq;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	tb_read_range(f, 64);
	lru_add_drain();
	lruvec = tb_lruvec_of("a");
	assert_write_ok("a", "memory.reclaim", "256K");
	assert_int_equal(tb_file_cached(f), 0);
	min_seq = lruvec->lrugen.min_seq[FILE];
	tb_read_range(g, 256);
	assert_write_ok("a", "memory.reclaim", "1M");
	assert_int_equal(tb_file_cached(g), 0);
	assert_true(lruvec->lrugen.min_seq[FILE] > min_seq);

	tb_read_range(f, 64);
#if TB_HAVE_lru_gen_refault_activate
	assert_int_equal(tb_stat("a", "workingset_refault_file"), 64);
#else
	/*
	 * lru_gen_refault() of such trees returns before it counts anything
	 * when the shadow's min_seq is not the lruvec's: no refault at all
	 */
	assert_int_equal(tb_stat("a", "workingset_refault_file"), 0);
#endif
	assert_int_equal(tb_stat("a", "workingset_activate_file"), 0);
}

/* anon and page cache in one memcg, all pages in use once */
static struct tb_vma *anon_and_file(struct tb_file *f, unsigned long pages)
{
	struct tb_vma *vma;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	vma = tb_map_anon(pages);
	tb_touch_range(vma, pages, true);
	tb_read_range(f, pages);
	return vma;
}

/*
 * isolate_folios() reads swappiness 200 (MAX_SWAPPINESS) as "anon
 * first" only when both types' oldest generations are the same one; the
 * anon here was faulted into the youngest generation, the page cache
 * (read twice: tier 1) sits in min_seq + 1, and once the empty
 * generations are skipped the anon's oldest is younger: the page cache
 * goes, no anon is scanned. (7.2, mglru_evict_budget: each priority
 * evicts size >> priority pages, so the calls end a little past the 512
 * pages asked.)
 */
static void swappiness_200_still_evicts_page_cache_older_than_the_anon(void **state)
{
	struct tb_file *f = tb_file_create(1024);
	struct tb_vma *vma = anon_and_file(f, 1024);
	struct lruvec *lruvec = tb_lruvec_of("a");

	tb_read_range(f, 1024);
	lru_add_drain();
	assert_true(folio_seq(lruvec, tb_vma_folio(vma, 0)) > folio_seq(lruvec, tb_file_folio(f, 0)));
	tb_reclaim_swappiness("a", "2M", 200);
#if TB_HAVE_mglru_evict_budget
	assert_in_range(1024 - tb_file_cached(f), 512, 512 + MIN_LRU_BATCH - 1);
#else
	assert_int_equal(tb_file_cached(f), 1024 - 512);
#endif
	assert_int_equal(tb_vma_swapped(vma), 0);
	assert_int_equal(kshim_reclaim_event_read(PGSCAN_ANON), 0);
	assert_int_equal(kshim_reclaim_event_read(PGSTEAL_FILE), 1024 - tb_file_cached(f));
}

/*
 * The multi-gen LRU decides from its own generation sizes
 * (lrugen->nr_pages, updated under the LRU lock), not from the memcg's
 * rstat-flushed LRU counters prepare_scan_control() reads: right after
 * the reads, with the machine past its first periodic flush, the page
 * cache read once is evicted and no anon is swapped even at swappiness
 * 200, where the classic LRU, reading stale sizes, missed cache_trim_mode
 * and swapped.
 */
static void reclaim_right_after_the_reads_needs_no_flushed_lru_sizes(void **state)
{
	struct tb_file *f = tb_file_create(8192);
	struct tb_vma *vma;

	msleep(2100);
	flush_workqueue(system_unbound_wq);
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	vma = tb_map_anon(1024);
	tb_touch_range(vma, 1024, true);
	tb_read_range(f, 8192);

	tb_reclaim_swappiness("a", "2M", 200);
#if TB_HAVE_mglru_evict_budget
	/* each priority evicts size >> priority: a little past the 512 pages */
	assert_in_range(8192 - tb_file_cached(f), 512, 512 + MIN_LRU_BATCH - 1);
#elif TB_HAVE_reclaim_quarter_batches
	assert_int_equal(tb_file_cached(f), 8192 - 512);
#else
	/*
	 * One call for all 512 pages; memcg eviction stops at nr_to_scan,
	 * not at nr_to_reclaim (should_abort_scan()), so each priority
	 * evicts whole batches for (8192 + 1024) >> priority pages: 1, 1, 1,
	 * 1, 1, 2 and 3 batches at priorities 12..6, 640 pages.
	 */
	assert_int_equal(tb_file_cached(f), 8192 - 10 * MIN_LRU_BATCH);
#endif
	assert_int_equal(tb_vma_swapped(vma), 0);
	assert_int_equal(kshim_reclaim_event_read(PGSCAN_ANON), 0);
}

/* ======== test_reclaim_scan ======== */

/*
 * memory.reclaim "1M" (256 pages) on 8192 pages of page cache read once:
 * memory_reclaim() asks try_to_free_mem_cgroup_pages() for 64, 48, 32
 * and 16 (raised to 32) pages. Each call starts at DEF_PRIORITY;
 * get_nr_to_scan() gives nr_pages >> 12 = 1 or 2 pages to scan, but
 * evict_folios() isolates a whole batch (scan_folios() stops at
 * MIN_LRU_BATCH isolated) and every page of it is evicted: each call gets
 * 64 pages at priority 12 and never lowers it. 256 pages scanned and
 * evicted, where the classic LRU scanned 291 over priorities 12 to 7.
 *
 * 7.2 (mglru_evict_budget): evict_folios() takes nr_to_scan, the
 * lruvec's size >> priority, so each call goes down the priorities as
 * the classic LRU does: 2 + 1 + 1 + 1 pages at DEF_PRIORITY (8192 >> 12,
 * then fewer than 8192 pages), the same 291 over priorities 12 to 7.
 */
static void memory_reclaim_evicts_whole_batches_at_the_default_priority(void **state)
{
	struct tb_file *f = tb_file_create(8192);
	int p;
#if !TB_HAVE_reclaim_quarter_batches
	tb_skip("memory.reclaim asks for all that is left per call before 6.2 (one call, not 4)");
#endif

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	tb_read_range(f, 8192);
	tb_task_switch(NULL);
	lru_add_drain();
	kshim_trace_reset();

	assert_write_ok("a", "memory.reclaim", "1M");
	assert_int_equal(kshim_trace.memcg_reclaim_count, 4);
#if TB_HAVE_mglru_evict_budget
	for (p = 0; p < 7; p++)
		assert_int_equal(kshim_trace.inactive_scanned[FILE][p], 0);
	assert_int_equal(kshim_trace.inactive_scanned[FILE][DEF_PRIORITY], 2 + 1 + 1 + 1);
	assert_int_equal(sum(kshim_trace.inactive_scanned[FILE]), 291);
	assert_int_equal(sum(kshim_trace.inactive_reclaimed[FILE]), 291);
	assert_int_equal(sum(kshim_trace.inactive_scanned[ANON]), 0);
	assert_int_equal(tb_file_cached(f), 8192 - 291);
	assert_int_equal(tb_stat("a", "pgscan"), 291);
	assert_int_equal(tb_stat("a", "pgsteal"), 291);
#else
	assert_int_equal(kshim_trace.shrink_inactive_count, 4);
	for (p = 0; p < DEF_PRIORITY; p++)
		assert_int_equal(kshim_trace.inactive_scanned[FILE][p], 0);
	assert_int_equal(kshim_trace.inactive_scanned[FILE][DEF_PRIORITY], 4 * MIN_LRU_BATCH);
	assert_int_equal(kshim_trace.inactive_reclaimed[FILE][DEF_PRIORITY], 4 * MIN_LRU_BATCH);
	assert_int_equal(sum(kshim_trace.inactive_scanned[ANON]), 0);
	assert_int_equal(tb_file_cached(f), 8192 - 4 * MIN_LRU_BATCH);
	assert_int_equal(tb_stat("a", "pgscan"), 4 * MIN_LRU_BATCH);
	assert_int_equal(tb_stat("a", "pgsteal"), 4 * MIN_LRU_BATCH);
#endif
}

/*
 * Anon and page cache, touched and read once, brought into one generation
 * by three forced agings ("+ memcg node max_seq 1 1"): the walk finds
 * no young pte after the first, and each aging at MAX_NR_GENS runs
 * inc_min_seq(), which moves the oldest generation's folios up one.
 */
static struct tb_vma *both_types_in_one_generation(struct tb_file *f, unsigned long n)
{
	struct tb_vma *vma = anon_and_file(f, n);
	unsigned short id = tb_memcg_id("a");
	struct lruvec *lruvec;
	unsigned long seq;
	int i;

	lru_add_drain();
	lruvec = tb_lruvec_of("a");
	for (i = 0; i < 3; i++)
		assert_true(tb_lru_gen_cmd("+ %u 0 %lu 1 1", id, lruvec->lrugen.max_seq) > 0);
	seq = folio_seq(lruvec, tb_vma_folio(vma, 0));
	assert_int_equal(folio_seq(lruvec, tb_file_folio(f, 0)), seq);
	assert_int_equal(lruvec->lrugen.min_seq[ANON], seq);
	assert_int_equal(lruvec->lrugen.min_seq[FILE], seq);
	return vma;
}

/*
 * get_type_to_scan() compares tier 0 of anon (the setpoint, gain
 * swappiness 60) with tier 0 of file (gain 140): with fewer than
 * MIN_LRU_BATCH refaults of file, positive_ctrl_err() holds and file is
 * evicted. The classic LRU's SCAN_FRACT scanned both, anon 60:140.
 * (7.2, mglru_evict_budget: size >> priority a priority, a little past
 * the 64 pages asked.)
 */
static void without_refaults_file_goes_first_from_a_generation_holding_both_types(void **state)
{
	struct tb_file *f = tb_file_create(1024);
	struct tb_vma *vma = both_types_in_one_generation(f, 1024);

	tb_reclaim_swappiness("a", "256K", 60);
#if TB_HAVE_mglru_evict_budget
	assert_in_range(1024 - tb_file_cached(f), MIN_LRU_BATCH, 2 * MIN_LRU_BATCH - 1);
#else
	assert_int_equal(tb_file_cached(f), 1024 - MIN_LRU_BATCH);
#endif
	assert_int_equal(tb_vma_swapped(vma), 0);
	assert_int_equal(kshim_reclaim_event_read(PGSCAN_ANON), 0);
}

/*
 * The evicted file pages refault (recent: their generation is still the
 * oldest): file tier 0 has 64 refaults of 64 evicted against anon's 0 of
 * 0, and positive_ctrl_err() (64 * (0 + 64) * 60 > (0 + 1) * 64 * 140)
 * no longer holds: the next eviction takes anon. The classic LRU moved
 * its fraction by reclaim costs (rotations); the multi-gen LRU moves by
 * refaults. (7.2, mglru_evict_budget: each reclaim takes a little past
 * the 64 pages asked.)
 */
static void file_refaults_turn_the_eviction_to_anon(void **state)
{
	struct tb_file *f = tb_file_create(1024);
	struct tb_vma *vma = both_types_in_one_generation(f, 1024);
	unsigned long evicted;

	tb_reclaim_swappiness("a", "256K", 60);
	evicted = 1024 - tb_file_cached(f);
	assert_int_equal(evicted, TB_HAVE_mglru_evict_budget ? evicted : MIN_LRU_BATCH);
	assert_in_range(evicted, MIN_LRU_BATCH, 2 * MIN_LRU_BATCH - 1);
	tb_read_range(f, 1024);
	assert_int_equal(tb_stat("a", "workingset_refault_file"), evicted);
#if TB_HAVE_lru_gen_refault_activate_in_fault
	/* 7.2: no activation counted but for a workingset folio's refault in a fault */
	assert_int_equal(tb_stat("a", "workingset_activate_file"), 0);
#elif TB_HAVE_lru_gen_refault_activate
	assert_int_equal(tb_stat("a", "workingset_activate_file"), evicted);
#else
	/* lru_gen_refault() of such trees counts no activation, only lrugen->refaulted */
	assert_int_equal(tb_stat("a", "workingset_activate_file"), 0);
#endif

	tb_reclaim_swappiness("a", "256K", 60);
	assert_int_equal(tb_file_cached(f), 1024);
#if TB_HAVE_mglru_evict_budget
	assert_in_range(tb_vma_swapped(vma), MIN_LRU_BATCH, 2 * MIN_LRU_BATCH - 1);
#else
	assert_int_equal(tb_vma_swapped(vma), MIN_LRU_BATCH);
#endif
	assert_int_equal(kshim_reclaim_event_read(PGSTEAL_ANON), tb_vma_swapped(vma));
}

/* page cache pages [0, n) of f cached, of the even (odd) ones when parity is 0 (1) */
static unsigned long cached_of(struct tb_file *f, unsigned long n, int parity)
{
	unsigned long i, c = 0;

	for (i = parity; i < n; i += 2)
		c += tb_file_folio(f, i) != NULL;
	return c;
}

/* file folios of tier 1 that sort_folio() protected in the oldest generation */
static unsigned long file_protected_tier_1(struct lruvec *lruvec)
{
	int hist = lru_hist_from_seq(lruvec->lrugen.min_seq[FILE]);

	return lruvec->lrugen.protected[hist][FILE][0];
}

/*
 * get_type_to_scan() also picks the last tier of the type it chose: the
 * other type's tier 0 is the setpoint and a tier of the chosen one whose
 * refault rate is above it (positive_ctrl_err() false, gains swappiness
 * and 200 - swappiness) ends the tiers evicted. Anon and page cache in
 * one generation, the even pages read twice more (tier 1), the odd ones
 * not (tier 0); debugfs evicts at swappiness 60 with __GFP_IO. Without
 * refaults file goes and every tier with it: tier 1 pages are evicted
 * like the others. Once more than MIN_LRU_BATCH of the evicted tier 1
 * pages refault (anon's tier 0 has none), file is still the type (its
 * tier 0 has no refaults), but only tier 0 is evicted: sort_folio()
 * moves the tier 1 folios it meets to the next generation. The pages
 * alternate on the generation's list, so the evictions take as many of
 * each tier, then one tier 1 page is protected per tier 0 page isolated.
 *
 * 7.2 (mglru_type_by_all_tiers): the type is chosen on the refaults of
 * all tiers, and file's tier 1 refaults, more than MIN_LRU_BATCH against
 * anon's none, turn the eviction to anon: file keeps every page.
 */
static void file_tier_refaulting_above_anon_tier_0_is_protected(void **state)
{
	struct tb_file *f = tb_file_create(1024);
	struct tb_vma *vma = both_types_in_one_generation(f, 1024);
	struct lruvec *lruvec = tb_lruvec_of("a");
	unsigned short id = tb_memcg_id("a");
	unsigned long seq = lruvec->lrugen.min_seq[FILE], i, even, odd;

	for (i = 0; i < 1024; i += 2) {
		assert_int_equal(tb_file_read(f, i), 0);
		assert_int_equal(tb_file_read(f, i), 0);
	}
	assert_int_equal(tb_folio_tier(tb_file_folio(f, 0)), 1);
	assert_int_equal(tb_folio_tier(tb_file_folio(f, 1)), 0);

	/* no refaults: four batches of file, tier 1 and tier 0 alike */
	assert_true(tb_lru_gen_cmd("- %u 0 %lu 60 %d", id, seq, 4 * MIN_LRU_BATCH) > 0);
	even = 512 - cached_of(f, 1024, 0);
	odd = 512 - cached_of(f, 1024, 1);
	assert_int_equal(even, 2 * MIN_LRU_BATCH);
	assert_int_equal(odd, 2 * MIN_LRU_BATCH);
	assert_int_equal(file_protected_tier_1(lruvec), 0);
	assert_int_equal(tb_vma_swapped(vma), 0);
	assert_int_equal(lruvec->lrugen.min_seq[FILE], seq);

	/* the evicted tier 1 pages refault */
	for (i = 0; i < 1024; i += 2)
		if (!tb_file_folio(f, i))
			assert_int_equal(tb_file_read(f, i), 0);
	assert_int_equal(tb_stat("a", "workingset_refault_file"), even);

	assert_true(tb_lru_gen_cmd("- %u 0 %lu 60 %d", id, seq, MIN_LRU_BATCH) > 0);
	assert_int_equal(cached_of(f, 1024, 0), 512);
#if TB_HAVE_mglru_type_by_all_tiers
	assert_int_equal(512 - cached_of(f, 1024, 1), odd);
	assert_int_equal(file_protected_tier_1(lruvec), 0);
	assert_int_equal(tb_vma_swapped(vma), MIN_LRU_BATCH);
#else
	assert_int_equal(512 - cached_of(f, 1024, 1), odd + MIN_LRU_BATCH);
	/* the two tiers alternate on the list: one protected per one isolated */
	assert_int_equal(file_protected_tier_1(lruvec), MIN_LRU_BATCH);
	assert_int_equal(tb_vma_swapped(vma), 0);
#endif
	tb_assert_lrus_consistent();
}

/* read evicted pages of f from *i on until "a" has counted nr file refaults */
static void refault_until(struct tb_file *f, unsigned long *i, long nr)
{
	for (; tb_stat("a", "workingset_refault_file") < nr; ++*i)
		if (!tb_file_folio(f, *i))
			assert_int_equal(tb_file_read(f, *i), 0);
	assert_int_equal(tb_stat("a", "workingset_refault_file"), nr);
}

/*
 * get_type_to_scan() with no anon evicted (anon's tier 0 is 0 refaulted
 * of 0): positive_ctrl_err() keeps file while it has fewer than
 * MIN_LRU_BATCH refaults or refaulted * (0 + MIN_LRU_BATCH) * swappiness
 * <= (0 + 1) * evicted * (200 - swappiness), the bound included. At
 * swappiness 40 that is at most one refault per 16 pages evicted: 1024
 * file pages evicted and 64 of them refaulting is the bound, file goes;
 * with 69 refaults of 1088 anon goes.
 *
 * 7.2 (mglru_type_by_all_tiers): all tiers are summed, anon's with the
 * 1024 pages inc_min_seq() counted as protected when the agings moved
 * them up: 64 * (1024 + 64) * 40 > 1 * (1544 + 1024 + 64) * 160 already
 * at MIN_LRU_BATCH refaults. File goes while it has fewer.
 */
static void file_goes_while_its_refaults_are_within_the_swappiness_bound(void **state)
{
	struct tb_file *f = tb_file_create(2048);
	struct tb_vma *vma = both_types_in_one_generation(f, 2048);
	struct lruvec *lruvec = tb_lruvec_of("a");
	unsigned short id = tb_memcg_id("a");
	unsigned long seq = lruvec->lrugen.min_seq[FILE], i = 0;

	assert_int_equal(tb_gen_seq_pages(lruvec, seq, FILE), 2048);
	assert_true(tb_lru_gen_cmd("- %u 0 %lu 40 %d", id, seq, 1024) > 0);
	assert_int_equal(tb_file_cached(f), 2048 - 1024);
	assert_int_equal(tb_vma_swapped(vma), 0);
#if TB_HAVE_mglru_type_by_all_tiers
	refault_until(f, &i, MIN_LRU_BATCH - 1);
	assert_true(tb_lru_gen_cmd("- %u 0 %lu 40 %d", id, seq, MIN_LRU_BATCH) > 0);
	assert_int_equal(tb_vma_swapped(vma), 0);
	assert_int_equal(tb_file_cached(f), 2048 - 1024 + MIN_LRU_BATCH - 1 - MIN_LRU_BATCH);

	refault_until(f, &i, MIN_LRU_BATCH);
#else
	refault_until(f, &i, MIN_LRU_BATCH);

	/* 64 * 64 * 40 <= 1 * 1024 * 160: file */
	assert_true(tb_lru_gen_cmd("- %u 0 %lu 40 %d", id, seq, MIN_LRU_BATCH) > 0);
	assert_int_equal(tb_vma_swapped(vma), 0);
	assert_int_equal(tb_file_cached(f), 2048 - 1024);

	/* 69 * 64 * 40 > 1 * 1088 * 160: anon */
	refault_until(f, &i, MIN_LRU_BATCH + 5);
#endif
	assert_true(tb_lru_gen_cmd("- %u 0 %lu 40 %d", id, seq, MIN_LRU_BATCH) > 0);
	assert_int_equal(tb_vma_swapped(vma), MIN_LRU_BATCH);
	assert_int_equal(lruvec->lrugen.min_seq[FILE], seq);
	tb_assert_lrus_consistent();
}

static int setup_swap_no_kswapd(void **state)
{
	tb_mem = (struct tb_mem_config){ .swap_pages = PAGES(64 * MB), .no_kswapd = true };
	return tb_mglru_setup(state);
}

/*
 * No kswapd: the task reclaims for itself. It read 64 pages of a file
 * (min_seq + 1), then touches anon (the youngest generation) until the
 * allocator enters direct reclaim. There is no file_is_tiny: the page
 * cache is the oldest generation and the first direct reclaim evicts all
 * of it, nothing else (the classic LRU scanned anon at every priority and
 * swapped 56 pages, keeping half the page cache). The anon goes to swap
 * only later, once the page cache is gone. (7.2, mglru_evict_budget: the
 * first direct reclaim evicts the root's size >> priority a priority, most
 * of the page cache, still nothing else.)
 */
static void global_reclaim_with_tiny_page_cache_evicts_it_first_as_the_oldest(void **state)
{
	struct tb_file *f = tb_file_create(64);
	struct tb_vma *vma;
	unsigned long i;

	tb_run_in("");
	tb_read_range(f, 64);
	vma = tb_map_anon(PAGES(64 * MB));
	for (i = 0; !kshim_trace.direct_reclaim_count; i++)
		assert_int_equal(tb_touch(vma, i, true), 0);
	assert_int_equal(kshim_trace.direct_reclaim_count, 1);
#if TB_HAVE_mglru_evict_budget
	/* 7.2: size >> priority a priority, until the SWAP_CLUSTER_MAX asked */
	assert_in_range(64 - tb_file_cached(f), SWAP_CLUSTER_MAX, 63);
#else
	assert_int_equal(tb_file_cached(f), 0);
#endif
	assert_int_equal(tb_vma_swapped(vma), 0);
	assert_int_equal(kshim_reclaim_event_read(PGSCAN_DIRECT), 64 - tb_file_cached(f));
	assert_int_equal(kshim_reclaim_event_read(PGSTEAL_FILE), 64 - tb_file_cached(f));
	assert_int_equal(kshim_reclaim_event_read(PGSCAN_ANON), 0);

	for (; i < PAGES(64 * MB); i++)
		assert_int_equal(tb_touch(vma, i, true), 0);
	assert_true(tb_vma_swapped(vma) > 0);
	assert_int_equal(kshim_reclaim_event_read(PGSTEAL_ANON), tb_vma_swapped(vma));
}

static int setup_no_kswapd(void **state)
{
	tb_mem = (struct tb_mem_config){ .no_kswapd = true };
	return tb_mglru_setup(state);
}

#define TEXT_PAGES 8192UL	/* half the RAM */
#define STREAM_PAGES PAGES(128 * MB)

/*
 * A task with a file of TEXT_PAGES mapped (exec or not) and touched, then
 * reading STREAM_PAGES of another file once, touching the whole mapping
 * again after every 1024 pages read. No kswapd: the direct reclaim is
 * global and on this thread.
 */
static struct tb_vma *run_program_streaming(struct tb_file *text, bool exec)
{
	struct tb_file *stream = tb_file_create(STREAM_PAGES);
	struct tb_vma *vma;
	unsigned long i;

	tb_run_in("");
	vma = exec ? tb_map_file_exec(text) : tb_map_file(text);
	tb_touch_range(vma, TEXT_PAGES, false);
	for (i = 0; i < STREAM_PAGES; i++) {
		assert_int_equal(tb_file_read(stream, i), 0);
		if (i % 1024 == 1023)
			tb_touch_range(vma, TEXT_PAGES, false);
	}
	return vma;
}

/*
 * The text is faulted into the youngest generation; the stream's pages
 * join the oldest (min_seq + MIN_NR_GENS >= max_seq), and the direct
 * reclaim evicts them from there. The text never reaches the eviction:
 * no page of it is scanned, so folio_check_references()'s VM_EXEC rule
 * (which applies with MGLRU too) never runs: nothing is activated, and
 * there is no active list to rotate on (pgrefill 0).
 *
 * 7.2 (lru_gen_fault_referenced): the text is faulted in PG_referenced,
 * in the stream's generation. The first batch of it the eviction
 * isolates is found young and activated; lru_gen_look_around() from
 * those promotes the rest, which sort_folio() moves on without
 * isolating (pgrefill): the text stays resident all the same.
 */
static void exec_text_in_use_stays_resident_in_young_generations(void **state)
{
	struct tb_file *text = tb_file_create(TEXT_PAGES);
	struct tb_vma *vma = run_program_streaming(text, true);

	assert_true(kshim_reclaim_event_read(PGSTEAL_DIRECT) > STREAM_PAGES / 2);
	assert_int_equal(tb_vma_resident(vma), TEXT_PAGES);
#if TB_HAVE_lru_gen_fault_referenced
	assert_int_equal(kshim_vm_event_read(PGACTIVATE), MIN_LRU_BATCH);
	assert_true(kshim_reclaim_event_read(PGREFILL) >= TEXT_PAGES);
#else
	assert_int_equal(kshim_vm_event_read(PGACTIVATE), 0);
	assert_int_equal(kshim_reclaim_event_read(PGREFILL), 0);
#endif
	assert_int_equal(kshim_vm_event_read(PGDEACTIVATE), 0);
}

/* the same program without VM_EXEC: the same outcome, exec or not */
static void mapped_text_without_exec_in_use_stays_resident_like_exec(void **state)
{
	struct tb_file *text = tb_file_create(TEXT_PAGES);
	struct tb_vma *vma = run_program_streaming(text, false);

	assert_true(kshim_reclaim_event_read(PGSTEAL_DIRECT) > STREAM_PAGES / 2);
	assert_int_equal(tb_vma_resident(vma), TEXT_PAGES);
#if TB_HAVE_lru_gen_fault_referenced
	assert_int_equal(kshim_vm_event_read(PGACTIVATE), MIN_LRU_BATCH);
	assert_true(kshim_reclaim_event_read(PGREFILL) >= TEXT_PAGES);
#else
	assert_int_equal(kshim_vm_event_read(PGACTIVATE), 0);
	assert_int_equal(kshim_reclaim_event_read(PGREFILL), 0);
#endif
	assert_int_equal(kshim_vm_event_read(PGDEACTIVATE), 0);
}

/*
 * kswapd with MGLRU on: balance_pgdat()'s kswapd_age_node() is
 * lru_gen_age_node(), which ages nothing: it computes every memcg's
 * effective protection and checks lru_gen_min_ttl. "a" (4096 anon pages,
 * memory.min 32M) is below its min: shrink_one() rotates it young without
 * reclaiming or aging it. While "b" streams page cache through kswapd, a
 * keeps its generations (max_seq unchanged), no page of it is scanned or
 * swapped, and its memory.emin is what kswapd computed. The classic
 * kswapd_age_node() deactivated a's anon, protected or not.
 */
static void kswapd_does_not_age_a_memcg_that_reclaim_skips(void **state)
{
	struct tb_file *stream = tb_file_create(PAGES(64 * MB));
	struct lruvec *lruvec;
	unsigned long max_seq;
	struct tb_vma *vma;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	assert_int_equal(tb_cgroup_mkdir("b"), 0);
	tb_run_in("a");
	vma = tb_map_anon(4096);
	tb_touch_range(vma, 4096, true);
	tb_task_switch(NULL);
	lru_add_drain();
	assert_write_ok("a", "memory.min", "32M");
	lruvec = tb_lruvec_of("a");
	max_seq = lruvec->lrugen.max_seq;
	assert_int_equal(tb_memcg("a")->memory.emin, 0);

	tb_run_in("b");
	tb_read_range(stream, PAGES(64 * MB));
	assert_true(kshim_vm_event_read(PAGEOUTRUN) > 0);
	assert_true(tb_stat("b", "pgsteal_kswapd") > 0);
	assert_int_equal(tb_memcg("a")->memory.emin, PAGES(32 * MB));
	assert_int_equal(lruvec->lrugen.max_seq, max_seq);
	assert_int_equal(tb_stat("a", "pgscan"), 0);
	assert_int_equal(tb_stat("a", "pgrefill"), 0);
	assert_int_equal(tb_vma_resident(vma), 4096);
	assert_int_equal(tb_gen_pages(lruvec, ANON), 4096);
}

/*
 * SHM_LOCK on page cache already in the generations, read once (tier 0)
 * and twice (tier 1): the eviction lets every unevictable folio through
 * sort_folio() and culls it, batch after batch, whatever its tier; there
 * is no shrink_active_list() pass (nothing taken off an active list).
 * SHM_UNLOCK rescues them; a folio still in this CPU's lru_add batch is
 * scanned, not rescued, and lru_add() puts it in a generation as it is
 * evictable again -- as with the classic LRU.
 */
static void reclaim_culls_locked_page_cache_from_every_generation_in_one_pass(void **state)
{
	struct tb_file *once = tb_file_create(256), *twice = tb_file_create(512);
	struct tb_file *late = tb_file_create(1);
	struct lruvec *lruvec;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	tb_read_range(once, 256);
	tb_read_range(twice, 512);
	tb_read_range(twice, 512);
	lru_add_drain();
	lruvec = tb_lruvec_of("a");
	tb_file_set_unevictable(once, true);
	tb_file_set_unevictable(twice, true);
	kshim_trace_reset();

	assert_write("a", "memory.reclaim", "1M", -EAGAIN);
	lru_add_drain();
	assert_int_equal(kshim_vm_event_read(UNEVICTABLE_PGCULLED), 768);
#if TB_HAVE_mglru_evict_budget
	/* 7.2: batches of size >> priority, at most MIN_LRU_BATCH each */
	assert_true(kshim_trace.shrink_inactive_count >= 768 / MIN_LRU_BATCH);
	assert_int_equal(sum(kshim_trace.inactive_reclaimed[FILE]), 0);
#elif TB_HAVE_lru_gen_evict_trace && TB_HAVE_mglru_unevictable_generic_cull
	assert_int_equal(kshim_trace.shrink_inactive_count, 768 / MIN_LRU_BATCH);
	assert_int_equal(sum(kshim_trace.inactive_reclaimed[FILE]), 0);
#else
	/*
	 * evict_folios() of 6.1 has no mm_vmscan_lru_shrink_inactive event;
	 * without mglru_unevictable_generic_cull sort_folio() culls every
	 * folio itself, evict_folios() isolates none and emits none
	 */
	assert_int_equal(kshim_trace.shrink_inactive_count, 0);
#endif
	assert_int_equal(kshim_trace.shrink_active_count, 0);
	assert_int_equal(tb_stat("a", "unevictable"), 768 * 4096);
	assert_int_equal(tb_gen_pages(lruvec, FILE), 0);
	assert_int_equal(tb_file_cached(once) + tb_file_cached(twice), 768);

	tb_assert_shm_unlock_rescues("a", once, twice, 768, late);
	assert_int_equal(tb_gen_pages(lruvec, FILE), 769);
	tb_assert_lrus_consistent();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		TB_MGLRU_TEST(rejected_page_cache_folio_is_retried_then_moved_to_the_youngest_generation),
		TB_MGLRU_TEST(rejected_clean_folio_is_shrunk_twice_in_one_eviction),
		TB_MGLRU_TEST(locked_folio_kept_by_eviction_goes_young_without_a_retry),
		TB_MGLRU_TEST(dirty_workingset_folio_kept_for_writeback_stays_workingset),
		TB_MGLRU_SWAP_TEST(dma_pinned_anon_folio_is_not_swapped_and_moves_to_a_young_generation),
		TB_MGLRU_TEST(pinned_mapped_file_folio_is_unmapped_and_activated_never_deactivated),
		TB_MGLRU_TEST(shm_locked_page_cache_is_culled_by_eviction_without_sorting),
		TB_MGLRU_TEST(page_cache_read_once_is_evicted_before_the_younger_mapped_pages),
		TB_MGLRU_TEST(refault_from_the_oldest_generation_counts_as_activation_but_stays_old),
		TB_MGLRU_TEST(refault_after_the_oldest_generation_moved_on_is_no_activation),
		TB_MGLRU_SWAP_TEST(swappiness_200_still_evicts_page_cache_older_than_the_anon),
		TB_MGLRU_SWAP_TEST(reclaim_right_after_the_reads_needs_no_flushed_lru_sizes),
		TB_MGLRU_TEST(memory_reclaim_evicts_whole_batches_at_the_default_priority),
		TB_MGLRU_SWAP_TEST(without_refaults_file_goes_first_from_a_generation_holding_both_types),
		TB_MGLRU_SWAP_TEST(file_refaults_turn_the_eviction_to_anon),
		TB_MGLRU_SWAP_TEST(file_tier_refaulting_above_anon_tier_0_is_protected),
		TB_MGLRU_SWAP_TEST(file_goes_while_its_refaults_are_within_the_swappiness_bound),
		cmocka_unit_test_setup_teardown(global_reclaim_with_tiny_page_cache_evicts_it_first_as_the_oldest,
						setup_swap_no_kswapd, tb_reclaim_teardown),
		cmocka_unit_test_setup_teardown(exec_text_in_use_stays_resident_in_young_generations,
						setup_no_kswapd, tb_reclaim_teardown),
		cmocka_unit_test_setup_teardown(mapped_text_without_exec_in_use_stays_resident_like_exec,
						setup_no_kswapd, tb_reclaim_teardown),
		TB_MGLRU_SWAP_TEST(kswapd_does_not_age_a_memcg_that_reclaim_skips),
		TB_MGLRU_TEST(reclaim_culls_locked_page_cache_from_every_generation_in_one_pass),
	};

	return TB_RUN(tests);
}
