// SPDX-License-Identifier: GPL-2.0-only
/*
 * Transparent huge pages' settings as mm/huge_memory.c and mm/khugepaged.c
 * keep them: the boot options, hugepage_init()'s rule for small machines,
 * the files of /sys/kernel/mm/transparent_hugepage (one directory per
 * size), and the free-memory reserve khugepaged keeps while THP is on
 * (set_recommended_min_free_kbytes()). The world boots with
 * transparent_hugepage=never unless its command line says otherwise.
 */
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/mmzone.h>
#include <linux/vmstat.h>
#include <linux/swap.h>
#include <linux/rmap.h>
#include <kshim/reclaim.h>
#include <kshim/trace.h>
#include <sys/mman.h>
#include "tb_mglru.h"

#define THP "kernel/mm/transparent_hugepage/"

/* a machine of mb MiB (and swap_mb of swap) booted with the command line given */
static int boot_swap(void **state, unsigned long mb, unsigned long swap_mb, const char *cmdline)
{
	/* a swap disk if the fixture asked for one */
	tb_mem = (struct tb_mem_config){ .ram_pages = PAGES(mb * MB),
					 .swap_pages = PAGES(swap_mb * MB),
					 .swap_disk = tb_mem.swap_disk };
	tb_setup(state);
	if (tb_boot_cmdline(cmdline) || tb_memcg_boot() || tb_mem_boot(&tb_mem))
		return -1;
	/* either LRU, switched as an administrator does before any fault */
	if (tb_lru_gen_on() && tb_sysfs_write("kernel/mm/lru_gen/enabled", "y") != 1)
		return -1;
	return 0;
}

static int boot(void **state, unsigned long mb, const char *cmdline)
{
	return boot_swap(state, mb, 0, cmdline);
}

static int setup_1g(void **state)
{
	return boot(state, 1024, "");
}

static int setup_1g_swap(void **state)
{
	return boot_swap(state, 1024, 64, "");
}

static int setup_1g_always(void **state)
{
	return boot(state, 1024, "transparent_hugepage=always");
}

static int setup_1g_always_swap(void **state)
{
	return boot_swap(state, 1024, 64, "transparent_hugepage=always");
}

static int setup_1g_always_swap_disk(void **state)
{
	tb_mem.swap_disk = true;
	return boot_swap(state, 1024, 64, "transparent_hugepage=always");
}

static int setup_256m_always(void **state)
{
	return boot(state, 256, "transparent_hugepage=always");
}

static int setup_1g_madvise(void **state)
{
	return boot(state, 1024, "transparent_hugepage=madvise");
}

static int setup_1g_anon_64k(void **state)
{
	return boot(state, 1024, "thp_anon=64K:always");
}

static int setup_1g_anon_64k_swap(void **state)
{
	return boot_swap(state, 1024, 64, "thp_anon=64K:always");
}

static int setup_1g_anon_64k_swap_disk(void **state)
{
	tb_mem.swap_disk = true;
	return boot_swap(state, 1024, 64, "thp_anon=64K:always");
}

static void assert_reads(const char *file, const char *want)
{
	char buf[256];

	assert_true(tb_sysfs_read(file, buf, sizeof(buf)) > 0);
	assert_string_equal(buf, want);
}

static void thp_boots_never_without_a_boot_option(void **state)
{
	assert_reads(THP "enabled", "always madvise [never]\n");
	assert_reads(THP "hpage_pmd_size", "2097152\n");
	assert_reads(THP "khugepaged/max_ptes_none", "511\n");
}

static void thp_boot_option_always_turns_it_on(void **state)
{
	assert_reads(THP "enabled", "[always] madvise never\n");
	/* the PMD size inherits the global setting; the smaller ones are off */
	assert_reads(THP "hugepages-2048kB/enabled", "always [inherit] madvise never\n");
	assert_reads(THP "hugepages-64kB/enabled", "always inherit madvise [never]\n");
}

/* hugepage_init(): below 512 MiB of RAM THP starts off, whatever the command line */
static void thp_stays_off_below_512_mib_of_ram(void **state)
{
	assert_reads(THP "enabled", "always madvise [never]\n");
	assert_int_equal(tb_sysfs_write(THP "enabled", "always"), strlen("always"));
	assert_reads(THP "enabled", "[always] madvise never\n");
}

static void thp_anon_boot_option_sets_one_size(void **state)
{
	assert_reads(THP "hugepages-64kB/enabled", "[always] inherit madvise never\n");
	assert_reads(THP "hugepages-2048kB/enabled", "always inherit madvise [never]\n");
}

static void thp_refuses_a_bad_setting_with_einval(void **state)
{
	assert_int_equal(tb_sysfs_write(THP "enabled", "sometimes"), -EINVAL);
	assert_int_equal(tb_sysfs_write(THP "hugepages-2048kB/enabled", "sometimes"), -EINVAL);
	assert_int_equal(tb_sysfs_write(THP "khugepaged/max_ptes_none", "512"), -EINVAL);
	assert_reads(THP "enabled", "always madvise [never]\n");
}

static void thp_boot_option_of_a_bad_value_is_refused(void **state)
{
	/* a world booted already: the option is checked, not applied */
	assert_int_equal(tb_boot_cmdline("transparent_hugepage=sometimes"), -EINVAL);
	assert_reads(THP "enabled", "always madvise [never]\n");
}

/*
 * set_recommended_min_free_kbytes(), which runs whenever the setting
 * changes: with THP on, two pageblocks free plus MIGRATE_PCPTYPES^2 per
 * zone (ZONE_NORMAL alone, 512-page pageblocks): 5632 pages, 22528 kB,
 * under 5% of the buffer pages. With THP off, the kernel's formula,
 * int_sqrt(16 * kB of buffer pages), the buffer pages being RAM less the
 * high watermark of the moment: 262144 - 1548 pages at boot (min 1024 of
 * 4096 kB, high 1024 + 2 * 262), 4083 kB; 262144 - 8448 after THP's
 * reserve (min 5632, high 5632 + 2 * 1408), 4029 kB.
 */
static void thp_on_raises_min_free_kbytes_to_khugepaged_reserve(void **state)
{
	assert_int_equal(min_free_kbytes, 4083);
	assert_int_equal(tb_wmark(0, WMARK_MIN), 4083 / 4);
	assert_int_equal(tb_sysfs_write(THP "enabled", "always"), strlen("always"));
	assert_int_equal(min_free_kbytes, 22528);
	assert_int_equal(tb_wmark(0, WMARK_MIN), 5632);
	assert_int_equal(tb_wmark(0, WMARK_HIGH), 5632 + 2 * 1408);
	assert_int_equal(tb_sysfs_write(THP "enabled", "never"), strlen("never"));
	assert_int_equal(min_free_kbytes, 4029);
	assert_int_equal(tb_wmark(0, WMARK_MIN), 4029 / 4);
}

/* with THP on at boot, the reserve is there from the start */
static void thp_always_at_boot_keeps_khugepaged_reserve(void **state)
{
	assert_int_equal(min_free_kbytes, 22528);
	assert_int_equal(tb_wmark(0, WMARK_MIN), 5632);
}

static struct folio *folio_at(struct tb_vma *vma, unsigned long index)
{
	struct folio *folio = tb_vma_folio(vma, index);

	assert_non_null(folio);
	return folio;
}

/*
 * __handle_mm_fault(): a pmd with no pte table in a vma THP may use
 * (thp_vma_allowable_order()) takes do_huge_pmd_anonymous_page(): one
 * folio of HPAGE_PMD_ORDER, charged whole, mapped by the pmd
 */
static void thp_always_fault_maps_a_pmd_sized_folio(void **state)
{
	struct tb_vma *vma;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	vma = tb_map_anon(PAGES(4 * MB));
	assert_int_equal(tb_touch(vma, 3, true), 0);
	assert_int_equal(folio_order(folio_at(vma, 0)), HPAGE_PMD_ORDER);
	assert_ptr_equal(folio_at(vma, 511), folio_at(vma, 0));
	assert_null(tb_vma_folio(vma, 512));
	assert_int_equal(tb_vma_resident(vma), HPAGE_PMD_NR);
	assert_int_equal(tb_stat("a", "anon_thp"), 2 * MB);
	assert_int_equal(tb_stat("a", "anon"), 2 * MB);
	assert_int_equal(tb_stat("a", "thp_fault_alloc"), 1);
	/* its page tables are charged too: pud, pmd and the deposited pte table */
	assert_int_equal(tb_stat("a", "pagetables"), 3 * PAGE_SIZE);
	assert_int_equal(tb_usage("a"), 2 * MB + 3 * PAGE_SIZE);
	/* the next touch within it is a hit; past it, a second THP */
	assert_int_equal(tb_touch(vma, 100, false), 0);
	assert_int_equal(tb_touch(vma, 512, true), 0);
	assert_int_equal(tb_stat("a", "thp_fault_alloc"), 2);
	tb_unmap(vma);
	assert_int_equal(tb_stat("a", "anon_thp"), 0);
	assert_int_equal(tb_stat("a", "pagetables"), 0);
	assert_int_equal(tb_usage("a"), 0);
}

/* thp_vma_suitable_order(): a vma not covering a whole aligned PMD faults small folios */
static void thp_fault_of_a_vma_smaller_than_a_pmd_is_order_0(void **state)
{
	struct tb_vma *vma;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	vma = tb_map_anon(PAGES(1 * MB));
	assert_int_equal(tb_touch(vma, 0, true), 0);
	assert_false(folio_test_large(folio_at(vma, 0)));
	assert_int_equal(tb_stat("a", "thp_fault_alloc"), 0);
	tb_unmap(vma);
}

/* __do_huge_pmd_anonymous_page(): a charge over memory.max falls back to ptes */
static void thp_fault_over_memory_max_falls_back_to_a_small_folio(void **state)
{
	struct tb_vma *vma;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	assert_write_ok("a", "memory.max", "1M");
	tb_run_in("a");
	vma = tb_map_anon(PAGES(4 * MB));
	assert_int_equal(tb_touch(vma, 0, true), 0);
	assert_false(folio_test_large(folio_at(vma, 0)));
	assert_int_equal(tb_stat("a", "thp_fault_alloc"), 0);
	assert_int_equal(tb_stat("a", "anon"), PAGE_SIZE);
	tb_unmap(vma);
}

/*
 * A THP's own charge may not block (vma_thp_gfp_mask() under the default
 * defrag): over memory.high, try_charge_memcg() only records the 512
 * pages for the task's return to user mode. The deposited pte table's
 * charge that follows in do_huge_pmd_anonymous_page() is
 * GFP_PGTABLE_USER, which may: if the CPU's charge stock cannot serve
 * it (here drained, as a charge of another memcg on the CPU would), its
 * charge finds more than a batch recorded and reclaims there
 * (__mem_cgroup_handle_over_high()), within the fault.
 */
static void thp_fault_over_memory_high_reclaims_at_its_page_table_charge(void **state)
{
	struct tb_vma *vma;
	unsigned long i;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	assert_write_ok("a", "memory.high", "4M");
	tb_run_in("a");
	vma = tb_map_anon(PAGES(8 * MB));
	for (i = 0; i < 2; i++)
		assert_int_equal(tb_touch(vma, i * HPAGE_PMD_NR, true), 0);
	assert_int_equal(tb_stat("a", "pgscan"), 0);
	tb_drain_all_stock(tb_memcg("a"), true);
	assert_int_equal(tb_touch(vma, 2 * HPAGE_PMD_NR, true), 0);
	assert_int_equal(tb_stat("a", "thp_fault_alloc"), 3);
	assert_true(tb_stat("a", "pgscan") > 0);
	assert_true(kshim_vm_event_read(PSWPOUT) > 0);
	assert_int_equal(current->memcg_nr_pages_over_high, 0);
	tb_unmap(vma);
}

#define MTHP_64K_ORDER 4
#define MTHP_64K_NR (1 << MTHP_64K_ORDER)
#define MTHP_64K THP "hugepages-64kB/"

/*
 * do_anonymous_page() with 64K on: alloc_anon_folio() takes the highest
 * enabled order whose aligned range of ptes is empty and maps all 16
 * ptes of the folio; none is young (pte_sw_mkyoung() does nothing on
 * x86) until the MMU's retried access sets the faulting one's bits
 */
static void mthp_fault_maps_all_ptes_of_its_folio_young_only_where_touched(void **state)
{
	struct tb_mem_stats before, after;
	struct folio *folio;
	struct tb_vma *vma;
	unsigned long i;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	vma = tb_map_anon(PAGES(1 * MB));
	assert_int_equal(tb_touch(vma, 5, true), 0);
	folio = folio_at(vma, 0);
	assert_int_equal(folio_order(folio), MTHP_64K_ORDER);
	for (i = 0; i < MTHP_64K_NR; i++)
		assert_ptr_equal(folio_at(vma, i), folio);
	assert_null(tb_vma_folio(vma, MTHP_64K_NR));
	assert_int_equal(tb_vma_resident(vma), MTHP_64K_NR);
	assert_true(tb_vma_pte_young(vma, 5));
	assert_false(tb_vma_pte_young(vma, 4));
	assert_int_equal(tb_stat("a", "anon"), MTHP_64K_NR * PAGE_SIZE);
	assert_reads(MTHP_64K "stats/anon_fault_alloc", "1\n");
	/* another page of it is mapped already: a hit */
	tb_mem_stats(&before);
	assert_int_equal(tb_touch(vma, 6, false), 0);
	tb_mem_stats(&after);
	assert_int_equal(after.minor, before.minor);
	tb_unmap(vma);
	assert_int_equal(tb_stat("a", "anon"), 0);
}

/* a vma's first 64K in memcg "a", the folio's page 5 touched */
static struct tb_vma *mthp_in_a(void)
{
	struct tb_vma *vma;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	vma = tb_map_anon(PAGES(1 * MB));
	assert_int_equal(tb_touch(vma, 5, true), 0);
	assert_int_equal(folio_order(folio_at(vma, 0)), MTHP_64K_ORDER);
	return vma;
}

/*
 * folio_referenced_one() tests and clears every pte that maps the folio:
 * a vma whose young ptes are its 6th and 10th page counts once
 */
static void mthp_folio_referenced_clears_every_young_pte_and_counts_the_vma_once(void **state)
{
	struct tb_vma *vma = mthp_in_a();
	struct folio *folio = folio_at(vma, 0);
	unsigned long vm_flags;

	assert_int_equal(tb_touch(vma, 9, false), 0);
	assert_true(tb_vma_pte_young(vma, 9));
	/* isolated, as shrink_folio_list() has it (the look-around asks) */
	lru_add_drain();
	assert_true(folio_isolate_lru(folio));
	assert_int_equal(folio_referenced(folio, 0, NULL, &vm_flags), 1);
	assert_false(tb_vma_pte_young(vma, 5));
	assert_false(tb_vma_pte_young(vma, 9));
	assert_int_equal(folio_referenced(folio, 0, NULL, &vm_flags), 0);
	folio_putback_lru(folio);
	tb_unmap(vma);
}

/*
 * An mTHP mapped in part is queued and split as a THP is (its size's
 * split_deferred, split). The split maps the pages still mapped but never
 * written to the zero page (remap_page()'s RMP_USE_SHARED_ZEROPAGE): of
 * the first half only the page touched keeps a folio, and the rest of
 * the 16 pages is freed.
 */
static void mthp_unmapped_in_part_is_split_by_the_deferred_split_shrinker(void **state)
{
	struct tb_vma *vma = mthp_in_a();

	assert_int_equal(tb_madvise_range(vma, 8, 8, MADV_DONTNEED), 0);
	assert_int_equal(tb_vma_resident(vma), 8);
	assert_reads(MTHP_64K "stats/split_deferred", "1\n");
	assert_int_equal(tb_usage("a"), 16 * PAGE_SIZE + tb_stat("a", "kernel"));
	tb_cgroup_write_str("a", "memory.reclaim", "32K");
	assert_reads(MTHP_64K "stats/split", "1\n");
	assert_int_equal(tb_vma_resident(vma), 1);
	assert_false(folio_test_large(folio_at(vma, 5)));
	assert_null(tb_vma_folio(vma, 4));
	assert_int_equal(tb_usage("a"), PAGE_SIZE + tb_stat("a", "kernel"));
	tb_unmap(vma);
}

/* the folio swapped out whole: 16 slots of a cluster on the non-rotational device */
static void mthp_reclaim_swaps_the_folio_out_whole(void **state)
{
	struct tb_vma *vma = mthp_in_a();

	tb_cgroup_write_str("a", "memory.reclaim", "64K");
	assert_int_equal(tb_vma_swapped(vma), MTHP_64K_NR);
	assert_reads(MTHP_64K "stats/swpout", "1\n");
	assert_int_equal(kshim_vm_event_read(PSWPOUT), MTHP_64K_NR);
	assert_int_equal(tb_stat("a", "anon"), 0);
	tb_unmap(vma);
}

/*
 * MADV_PAGEOUT over a range that maps an mTHP whole: mm/madvise.c's pte
 * walk batches its 16 ptes (folio_pte_batch()), finds the folio mapped
 * exclusively and isolates it whole; reclaim_pages() swaps it out whole
 */
static void mthp_madvise_pageout_of_the_whole_folio_swaps_it_out_whole(void **state)
{
	struct tb_vma *vma = mthp_in_a();

	assert_int_equal(tb_madvise_range(vma, 0, MTHP_64K_NR, MADV_PAGEOUT), 0);
	assert_int_equal(tb_vma_swapped(vma), MTHP_64K_NR);
	assert_reads(MTHP_64K "stats/swpout", "1\n");
	assert_reads(MTHP_64K "stats/split", "0\n");
	assert_int_equal(tb_stat("a", "anon"), 0);
	tb_unmap(vma);
}

/*
 * A range that covers half of an mTHP: the walk splits the folio first
 * (split_folio()), then takes the small folios of the range alone. Every
 * page written, so the split maps none to the zero page: 8 pages swapped
 * out, the other 8 stay, order 0
 */
static void mthp_madvise_pageout_of_half_the_folio_splits_it_and_swaps_that_half(void **state)
{
	struct tb_vma *vma = mthp_in_a();
	unsigned long i;

	for (i = 0; i < MTHP_64K_NR; i++)
		assert_int_equal(tb_touch(vma, i, true), 0);
	assert_int_equal(tb_madvise_range(vma, 0, MTHP_64K_NR / 2, MADV_PAGEOUT), 0);
	assert_reads(MTHP_64K "stats/split", "1\n");
	assert_reads(MTHP_64K "stats/swpout", "0\n");
	assert_int_equal(tb_vma_swapped(vma), MTHP_64K_NR / 2);
	assert_int_equal(tb_vma_resident(vma), MTHP_64K_NR / 2);
	assert_false(folio_test_large(folio_at(vma, MTHP_64K_NR / 2)));
	assert_int_equal(tb_stat("a", "anon"), MTHP_64K_NR / 2 * PAGE_SIZE);
	tb_unmap(vma);
}

/*
 * MADV_FREE of a whole mTHP: the walk batches its ptes, cleans them and
 * the folio, and makes it lazyfree whole; reclaim then drops it unwritten
 */
static void mthp_madvise_free_of_the_whole_folio_lets_reclaim_discard_it(void **state)
{
	struct tb_vma *vma = mthp_in_a();

	assert_int_equal(tb_madvise_range(vma, 0, MTHP_64K_NR, MADV_FREE), 0);
	assert_int_equal(tb_stat("a", "pglazyfree"), MTHP_64K_NR);
	assert_int_equal(folio_order(folio_at(vma, 0)), MTHP_64K_ORDER);
	assert_false(folio_test_swapbacked(folio_at(vma, 0)));
	tb_cgroup_write_str("a", "memory.reclaim", "64K");
	assert_int_equal(tb_stat("a", "pglazyfreed"), MTHP_64K_NR);
	assert_reads(MTHP_64K "stats/swpout", "0\n");
	assert_int_equal(tb_vma_resident(vma), 0);
	assert_int_equal(tb_vma_swapped(vma), 0);
	tb_unmap(vma);
}

/*
 * MADV_FREE of half an mTHP: the folio is split first, and only the
 * small folios of the range become lazyfree (every page written, so the
 * split maps none to the zero page), through the per-CPU lazyfree batch
 */
static void mthp_madvise_free_of_half_the_folio_splits_it_and_frees_that_half(void **state)
{
	struct tb_vma *vma = mthp_in_a();
	unsigned long i;

	for (i = 0; i < MTHP_64K_NR; i++)
		assert_int_equal(tb_touch(vma, i, true), 0);
	assert_int_equal(tb_madvise_range(vma, 0, MTHP_64K_NR / 2, MADV_FREE), 0);
	assert_reads(MTHP_64K "stats/split", "1\n");
	/* small folios wait in this CPU's lazyfree batch (a large one moves at once) */
	assert_int_equal(tb_stat("a", "pglazyfree"), 0);
	lru_add_drain();
	assert_int_equal(tb_stat("a", "pglazyfree"), MTHP_64K_NR / 2);
	assert_int_equal(tb_vma_resident(vma), MTHP_64K_NR);
	assert_false(folio_test_swapbacked(folio_at(vma, 0)));
	assert_true(folio_test_swapbacked(folio_at(vma, MTHP_64K_NR / 2)));
	tb_unmap(vma);
}

/*
 * MADV_COLD of a whole mTHP: clear_young_dirty_ptes() makes all 16 ptes
 * old, and the folio stays whole and mapped (nothing is reclaimed)
 */
static void mthp_madvise_cold_makes_every_pte_old_and_keeps_the_folio_whole(void **state)
{
	struct tb_vma *vma = mthp_in_a();
	struct folio *folio = folio_at(vma, 0);

	assert_int_equal(tb_touch(vma, 9, false), 0);
	assert_true(tb_vma_pte_young(vma, 5));
	assert_true(tb_vma_pte_young(vma, 9));
	assert_int_equal(tb_madvise(vma, MADV_COLD), 0);
	assert_false(tb_vma_pte_young(vma, 5));
	assert_false(tb_vma_pte_young(vma, 9));
	assert_ptr_equal(folio_at(vma, 0), folio);
	assert_int_equal(folio_order(folio), MTHP_64K_ORDER);
	assert_int_equal(tb_vma_resident(vma), MTHP_64K_NR);
	assert_int_equal(tb_stat("a", "anon"), MTHP_64K_NR * PAGE_SIZE);
	tb_unmap(vma);
}

/*
 * Large-folio swap-in (mm/memory.c's do_swap_page() on a SWP_SYNCHRONOUS_IO
 * device, the world's zram): the mTHP of mthp_in_a() swapped out whole,
 * its 16 ptes contiguous swap entries of memcg "a", each slot held by its
 * pte alone
 */
static struct tb_vma *mthp_swapped_out(void)
{
	struct tb_vma *vma = mthp_in_a();

	tb_cgroup_write_str("a", "memory.reclaim", "64K");
	assert_int_equal(tb_vma_swapped(vma), MTHP_64K_NR);
	assert_reads(MTHP_64K "stats/swpout", "1\n");
	assert_int_equal(tb_cgroup_read_u64("a", "memory.swap.current"), 64 * 1024);
	return vma;
}

/*
 * A read of one page brings the whole folio back at its order: 6.12's
 * alloc_swap_folio() (a slot of swap count 1) or 7.x's
 * thp_swapin_suitable_orders() take the 64K order, whose aligned ptes
 * are contiguous entries; do_swap_page() maps all 16 ptes (set_ptes()),
 * the faulting one young once the MMU retries. One major fault, 16 pages
 * read (PSWPIN, the size's swpin where the tree counts it), the folio
 * charged whole. The slots are freed and their swap uncharged: 6.12 read
 * the folio outside the swap cache and let go of the slots after mapping
 * (swapcache_clear()); 7.x's should_try_to_free_swap() always frees the
 * swap cache of a synchronous device.
 */
static void mthp_swapped_out_whole_comes_back_as_one_folio_of_its_order(void **state)
{
	struct tb_vma *vma = mthp_swapped_out();
	unsigned long pswpin = kshim_vm_event_read(PSWPIN);
	struct folio *folio;
	unsigned long i;

	assert_int_equal(tb_touch(vma, 5, false), 0);
	folio = folio_at(vma, 0);
	assert_int_equal(folio_order(folio), MTHP_64K_ORDER);
	for (i = 0; i < MTHP_64K_NR; i++)
		assert_ptr_equal(folio_at(vma, i), folio);
	assert_false(folio_test_swapcache(folio));
	assert_int_equal(tb_vma_resident(vma), MTHP_64K_NR);
	assert_int_equal(tb_vma_swapped(vma), 0);
	assert_true(tb_vma_pte_young(vma, 5));
	assert_false(tb_vma_pte_young(vma, 4));
	assert_int_equal(kshim_vm_event_read(PSWPIN) - pswpin, MTHP_64K_NR);
	assert_int_equal(tb_stat("a", "pgmajfault"), 1);
	if (TB_HAVE_mthp_stat_swpin)
		assert_reads(MTHP_64K "stats/swpin", "1\n");
	if (TB_HAVE_memcg_pswp) {
		assert_int_equal(tb_stat("a", "pswpin"), MTHP_64K_NR);
		assert_int_equal(tb_stat("a", "pswpout"), MTHP_64K_NR);
	}
	assert_int_equal(tb_stat("a", "anon"), 64 * 1024);
	assert_int_equal(tb_usage("a"), 64 * 1024 + tb_stat("a", "kernel"));
	assert_int_equal(tb_cgroup_read_u64("a", "memory.swap.current"), 0);
	assert_int_equal(tb_swap_used(), 0);
	/* the rest of it is mapped: a hit */
	assert_int_equal(tb_touch(vma, 15, true), 0);
	assert_int_equal(tb_stat("a", "pgmajfault"), 1);
	tb_unmap(vma);
	assert_int_equal(tb_stat("a", "anon"), 0);
}

/*
 * MADV_WILLNEED reads a swapped-out mTHP back page by page: the swap-in
 * walk's read_swap_cache_async() allocates order-0 folios into the swap
 * cache, whatever order the slots were written from. The faults after it
 * find them there (minor), and each maps its own small folio.
 */
static void mthp_swapped_out_whole_comes_back_in_order_0_under_madv_willneed(void **state)
{
	struct tb_vma *vma = mthp_swapped_out();
	unsigned long pswpin = kshim_vm_event_read(PSWPIN);
	unsigned long i;

	assert_int_equal(tb_madvise(vma, MADV_WILLNEED), 0);
	assert_int_equal(kshim_vm_event_read(PSWPIN) - pswpin, MTHP_64K_NR);
	assert_int_equal(tb_stat("a", "swapcached"), 64 * 1024);
	tb_touch_range(vma, MTHP_64K_NR, false);
	for (i = 0; i < MTHP_64K_NR; i++)
		assert_false(folio_test_large(folio_at(vma, i)));
	assert_int_equal(tb_vma_resident(vma), MTHP_64K_NR);
	assert_int_equal(tb_stat("a", "pgmajfault"), 0);
	assert_int_equal(kshim_vm_event_read(PSWPIN) - pswpin, MTHP_64K_NR);
	if (TB_HAVE_mthp_stat_swpin)
		assert_reads(MTHP_64K "stats/swpin", "0\n");
	tb_unmap(vma);
	assert_int_equal(tb_swap_used(), 0);
}

/*
 * A write fault maps the folio writable and every pte dirty (set_ptes()
 * of one pte_mkdirty()'d pte): reclaim writes it out again whole
 */
static void mthp_swapped_in_by_a_write_is_dirty_in_every_pte(void **state)
{
	struct tb_vma *vma = mthp_swapped_out();

	assert_int_equal(tb_touch(vma, 2, true), 0);
	assert_int_equal(folio_order(folio_at(vma, 0)), MTHP_64K_ORDER);
	tb_cgroup_write_str("a", "memory.reclaim", "64K");
	assert_int_equal(tb_vma_swapped(vma), MTHP_64K_NR);
	assert_reads(MTHP_64K "stats/swpout", "2\n");
	assert_int_equal(tb_stat("a", "anon"), 0);
	assert_int_equal(tb_touch(vma, 9, false), 0);
	assert_int_equal(folio_order(folio_at(vma, 0)), MTHP_64K_ORDER);
	tb_unmap(vma);
}

/*
 * A pte of the range no longer a swap entry (zapped): swap_pte_batch()
 * finds fewer than 16 contiguous entries, can_swapin_thp() refuses the
 * order and the page comes back alone; 7.x's fallback counters stay at 0
 * (the order was never tried)
 */
static void mthp_swap_in_with_a_pte_of_the_range_zapped_is_page_by_page(void **state)
{
	struct tb_vma *vma = mthp_swapped_out();

	assert_int_equal(tb_madvise_range(vma, 3, 1, MADV_DONTNEED), 0);
	assert_int_equal(tb_vma_swapped(vma), MTHP_64K_NR - 1);
	assert_int_equal(tb_touch(vma, 5, false), 0);
	assert_false(folio_test_large(folio_at(vma, 5)));
	assert_int_equal(tb_vma_resident(vma), 1);
	assert_int_equal(tb_vma_swapped(vma), MTHP_64K_NR - 2);
	if (TB_HAVE_mthp_stat_swpin) {
		assert_reads(MTHP_64K "stats/swpin", "0\n");
		assert_reads(MTHP_64K "stats/swpin_fallback", "0\n");
	}
	tb_unmap(vma);
	assert_int_equal(tb_swap_used(), 0);
}

/* the size turned off: thp_vma_allowable_orders() gives no large order */
static void mthp_swap_in_of_a_size_turned_off_is_page_by_page(void **state)
{
	struct tb_vma *vma = mthp_swapped_out();
	unsigned long pswpin = kshim_vm_event_read(PSWPIN);

	assert_int_equal(tb_sysfs_write(MTHP_64K "enabled", "never"), strlen("never"));
	assert_int_equal(tb_touch(vma, 5, false), 0);
	assert_false(folio_test_large(folio_at(vma, 5)));
	assert_int_equal(tb_vma_resident(vma), 1);
	assert_int_equal(kshim_vm_event_read(PSWPIN) - pswpin, 1);
	tb_unmap(vma);
	assert_int_equal(tb_swap_used(), 0);
}

/*
 * The folio's charge fails (memory.max, and vma_thp_gfp_mask() may not
 * reclaim): order 0 is charged instead; 7.x counts the size's
 * swpin_fallback_charge and swpin_fallback (swap_cache_alloc_folio())
 */
static void mthp_swap_in_over_memory_max_falls_back_to_order_0(void **state)
{
	struct tb_vma *vma = mthp_swapped_out();
	char max[32];

	snprintf(max, sizeof(max), "%lu", tb_usage("a") + 32 * 1024);
	tb_cgroup_write_str("a", "memory.max", max);
	assert_int_equal(tb_touch(vma, 5, false), 0);
	assert_false(folio_test_large(folio_at(vma, 5)));
	assert_int_equal(tb_vma_resident(vma), 1);
	assert_int_equal(tb_stat("a", "anon"), PAGE_SIZE);
	if (TB_HAVE_mthp_stat_swpin) {
		assert_reads(MTHP_64K "stats/swpin_fallback_charge", "1\n");
		assert_reads(MTHP_64K "stats/swpin_fallback", "1\n");
	}
	tb_unmap(vma);
	assert_int_equal(tb_swap_used(), 0);
}

/*
 * A disk is not SWP_SYNCHRONOUS_IO: swapin_readahead() reads order-0
 * folios into the swap cache (6.12 split the mTHP at swap-out already;
 * every page written, so none was mapped to the zero page)
 */
static void mthp_swap_in_from_a_disk_is_page_by_page(void **state)
{
	struct tb_vma *vma = mthp_in_a();

	tb_touch_range(vma, MTHP_64K_NR, true);
	tb_cgroup_write_str("a", "memory.reclaim", "64K");
	tb_cgroup_write_str("a", "memory.reclaim", "64K");
	assert_int_equal(tb_vma_swapped(vma), MTHP_64K_NR);
	assert_int_equal(tb_stat("a", "anon"), 0);
	assert_int_equal(tb_touch(vma, 5, false), 0);
	assert_false(folio_test_large(folio_at(vma, 5)));
	assert_int_equal(tb_vma_resident(vma), 1);
	tb_unmap(vma);
}

/*
 * An mTHP reclaimed to a rotational disk: 6.12 gives it no slots either
 * and splits it (shrink_folio_list()'s fallback): its size counts
 * swpout_fallback, and THP_SWPOUT_FALLBACK, for PMD-sized folios only,
 * stays 0 in the memcg and the node; the split maps the pages never
 * written to the zero page, so page 5 alone is swapped. From 6.14 it is
 * swapped whole.
 */
static void mthp_reclaim_to_a_rotational_disk_counts_its_own_size_s_fallback(void **state)
{
	struct tb_vma *vma = mthp_in_a();
	bool fallback = !TB_HAVE_swap_large_on_any_blkdev;

	tb_cgroup_write_str("a", "memory.reclaim", "64K");
	assert_reads(MTHP_64K "stats/swpout_fallback", fallback ? "1\n" : "0\n");
	assert_reads(MTHP_64K "stats/swpout", fallback ? "0\n" : "1\n");
	assert_int_equal(tb_stat("a", "thp_swpout_fallback"), 0);
	assert_int_equal(kshim_vm_event_read(THP_SWPOUT_FALLBACK), 0);
	/* split, the pages never written map the zero page: page 5 is swapped */
	assert_int_equal(tb_vma_swapped(vma), fallback ? 1 : MTHP_64K_NR);
	assert_int_equal(tb_stat("a", "anon"), 0);
	tb_unmap(vma);
}

/*
 * MADV_COLLAPSE (madvise_collapse()): khugepaged's collapse of a
 * PMD range of small folios into one THP, synchronously and whatever THP's
 * enabled setting: a THP is allocated and charged, each page copied
 * (its contents too: a page written keeps data), the ptes' table taken
 * off the pmd and deposited, the pmd mapped; the small folios are freed
 */
static void madv_collapse_turns_small_folios_into_a_pmd_mapped_thp(void **state)
{
	struct tb_vma *vma;
	struct folio *thp;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	vma = tb_map_anon(PAGES(2 * MB));
	tb_touch_range(vma, PAGES(2 * MB), true);
	assert_false(folio_test_large(folio_at(vma, 0)));
	assert_int_equal(tb_madvise_range(vma, 0, PAGES(2 * MB), MADV_COLLAPSE), 0);
	thp = folio_at(vma, 0);
	assert_int_equal(folio_order(thp), HPAGE_PMD_ORDER);
	assert_ptr_equal(folio_at(vma, HPAGE_PMD_NR - 1), thp);
	assert_true(tb_page_has_data(folio_page(thp, 100)));
	assert_int_equal(tb_stat("a", "thp_collapse_alloc"), 1);
	assert_int_equal(tb_stat("a", "anon_thp"), 2 * MB);
	assert_int_equal(tb_stat("a", "anon"), 2 * MB);
	assert_int_equal(tb_vma_resident(vma), HPAGE_PMD_NR);
	/* the pud, the pmd and the pte table, now deposited */
	assert_int_equal(tb_stat("a", "pagetables"), 3 * PAGE_SIZE);
	assert_int_equal(tb_usage("a"), 2 * MB + tb_stat("a", "kernel"));
	tb_unmap(vma);
	assert_int_equal(tb_usage("a"), 0);
}

/* a 2 MiB anonymous vma in memcg "a", written, swapped out, its first pages touched again */
static struct tb_vma *small_folios_swapped_in_a(unsigned long present)
{
	struct tb_vma *vma;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	vma = tb_map_anon(PAGES(2 * MB));
	tb_touch_range(vma, PAGES(2 * MB), true);
	assert_int_equal(tb_madvise(vma, MADV_PAGEOUT), 0);
	assert_int_equal(tb_vma_swapped(vma), HPAGE_PMD_NR);
	tb_touch_range(vma, present, true);
	return vma;
}

/*
 * MADV_COLLAPSE of a range mostly swapped out: the collapse swaps each pte
 * in first (__collapse_huge_page_swapin(), do_swap_page() on the pte it
 * mapped), with no max_ptes_swap limit for madvise, then copies them into
 * one THP; no pte is left swapped and no slot stays charged
 */
static void madv_collapse_swaps_in_the_swapped_ptes_first(void **state)
{
	struct tb_vma *vma = small_folios_swapped_in_a(1);

	assert_int_equal(tb_madvise_range(vma, 0, PAGES(2 * MB), MADV_COLLAPSE), 0);
	assert_int_equal(folio_order(folio_at(vma, 0)), HPAGE_PMD_ORDER);
	assert_true(tb_page_has_data(folio_page(folio_at(vma, 0), 100)));
	assert_int_equal(tb_vma_swapped(vma), 0);
	assert_int_equal(tb_vma_resident(vma), HPAGE_PMD_NR);
	assert_int_equal(tb_cgroup_read_u64("a", "memory.swap.current"), 0);
	assert_int_equal(tb_stat("a", "thp_collapse_alloc"), 1);
	tb_unmap(vma);
}

/*
 * A range with no present pte: before 7.2 the scan wants a writable pte
 * (SCAN_PAGE_RO, -EINVAL) and leaves it swapped; since, it collapses
 */
static void madv_collapse_of_a_range_all_swapped_needs_a_writable_pte_before_7_2(void **state)
{
	struct tb_vma *vma = small_folios_swapped_in_a(0);
	int ret = tb_madvise_range(vma, 0, PAGES(2 * MB), MADV_COLLAPSE);

	if (TB_HAVE_collapse_needs_writable_pte) {
		assert_int_equal(ret, -EINVAL);
		assert_int_equal(tb_vma_swapped(vma), HPAGE_PMD_NR);
	} else {
		assert_int_equal(ret, 0);
		assert_int_equal(folio_order(folio_at(vma, 0)), HPAGE_PMD_ORDER);
		assert_int_equal(tb_vma_swapped(vma), 0);
	}
	tb_unmap(vma);
}

/*
 * khugepaged's thread: a THP fault over memory.max falls back to a small
 * folio, but puts the mm on khugepaged's list (khugepaged_enter_vma()),
 * which wakes the thread. Its first scan, before the task's next access,
 * finds the range with one page present (max_ptes_none 511) and fails to
 * charge the THP; it then sleeps scan_sleep_millisecs (10 s). The limit
 * is lifted after: a 2 MiB vma of memcg "a" with 2 small folios.
 */
static struct tb_vma *a_range_khugepaged_could_not_collapse(void)
{
	struct tb_vma *vma;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	assert_write_ok("a", "memory.max", "1M");
	tb_run_in("a");
	vma = tb_map_anon(PAGES(2 * MB));
	assert_int_equal(tb_touch(vma, 0, true), 0);
	assert_false(folio_test_large(folio_at(vma, 0)));
	assert_int_equal(tb_touch(vma, 1, true), 0);
	assert_int_equal(tb_stat("a", "thp_collapse_alloc"), 0);
	assert_write_ok("a", "memory.max", "max");
	return vma;
}

/*
 * While the thread sleeps the range is written whole: a pass of the scan
 * run by hand collapses it (hpage_collapse_scan_pmd(), 7.x collapse_scan_pmd())
 */
static void khugepaged_collapses_a_range_a_thp_fault_could_not_take(void **state)
{
	struct tb_vma *vma = a_range_khugepaged_could_not_collapse();

	tb_touch_range(vma, PAGES(2 * MB), true);
	assert_int_equal(tb_stat("a", "anon_thp"), 0);
	tb_khugepaged_scan();
	assert_int_equal(folio_order(folio_at(vma, 0)), HPAGE_PMD_ORDER);
	assert_int_equal(tb_stat("a", "thp_collapse_alloc"), 1);
	assert_int_equal(tb_stat("a", "anon_thp"), 2 * MB);
	assert_reads(THP "khugepaged/pages_collapsed", "1\n");
	tb_unmap(vma);
}

/*
 * Left to the thread, the range is collapsed once scan_sleep_millisecs
 * have passed on the world's clock
 */
static void khugepaged_thread_collapses_after_its_scan_sleep(void **state)
{
	struct tb_vma *vma = a_range_khugepaged_could_not_collapse();

	assert_int_equal(tb_touch(vma, 2, true), 0);
	assert_int_equal(tb_stat("a", "anon_thp"), 0);
	assert_reads(THP "khugepaged/scan_sleep_millisecs", "10000\n");
	msleep(10000);
	assert_int_equal(tb_touch(vma, 3, true), 0);
	assert_int_equal(folio_order(folio_at(vma, 0)), HPAGE_PMD_ORDER);
	assert_int_equal(tb_stat("a", "anon_thp"), 2 * MB);
	assert_int_equal(tb_stat("a", "thp_collapse_alloc"), 1);
	tb_unmap(vma);
}

/* a 2 MiB anonymous vma in memcg "a", written whole: one PMD-mapped THP */
static struct tb_vma *thp_in_a(void)
{
	struct tb_vma *vma;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	vma = tb_map_anon(PAGES(2 * MB));
	tb_touch_range(vma, PAGES(2 * MB), true);
	assert_int_equal(folio_order(folio_at(vma, 0)), HPAGE_PMD_ORDER);
	return vma;
}

/* "+ memcg 0 seq 1 1": aging of a's lruvec from seq, its walk forced over every table */
static void age_a(unsigned long seq)
{
	assert_int_equal(tb_lruvec_of("a")->lrugen.max_seq, seq);
	assert_true(tb_lru_gen_cmd("+ %u 0 %lu 1 1", tb_memcg_id("a"), seq) > 0);
	assert_int_equal(tb_lruvec_of("a")->lrugen.max_seq, seq + 1);
}

static unsigned long walk_stat(int item)
{
	return READ_ONCE(tb_lruvec_of("a")->mm_state.stats[0][item]);
}

/*
 * The multi-gen LRU's walk over a PMD-mapped THP: walk_pmd_range() counts
 * the huge pmd as one leaf and, when get_pmd_pfn() finds it young, hands
 * it to walk_pmd_range_locked(), which clears its accessed bit under the
 * pmd lock (MM_LEAF_YOUNG) and moves the folio whole to the generation
 * aging started from; no pte table is looked for under it. An old pmd is
 * counted and its folio left where it is.
 */
static void thp_mglru_walk_moves_a_young_thp_and_leaves_an_old_one(void **state)
{
	unsigned long seq, total, leaf_young, nonleaf;
	struct tb_vma *vma;
	struct folio *folio;

	if (!tb_lru_gen_on())
		tb_skip("the multi-gen LRU's page-table walk");
	vma = thp_in_a();
	folio = folio_at(vma, 0);
	seq = tb_lruvec_of("a")->lrugen.max_seq;
	assert_true(tb_vma_pmd_young(vma, 0));
	total = walk_stat(MM_LEAF_TOTAL);
	leaf_young = walk_stat(MM_LEAF_YOUNG);
	nonleaf = walk_stat(MM_NONLEAF_FOUND);
	age_a(seq);
	assert_false(tb_vma_pmd_young(vma, 0));
	assert_int_equal(folio_lru_gen(folio), lru_gen_from_seq(seq));
	assert_int_equal(walk_stat(MM_LEAF_TOTAL) - total, 1);
	assert_int_equal(walk_stat(MM_LEAF_YOUNG) - leaf_young, 1);
	assert_int_equal(walk_stat(MM_NONLEAF_FOUND) - nonleaf, 0);
	/* old: counted, left two generations behind the youngest */
	age_a(seq + 1);
	assert_int_equal(folio_lru_gen(folio), lru_gen_from_seq(seq));
	assert_int_equal(walk_stat(MM_LEAF_TOTAL) - total, 2);
	assert_int_equal(walk_stat(MM_LEAF_YOUNG) - leaf_young, 1);
	/* read again: young, moved up to the generation aging starts from */
	assert_int_equal(tb_touch(vma, 7, false), 0);
	assert_true(tb_vma_pmd_young(vma, 0));
	age_a(seq + 2);
	assert_false(tb_vma_pmd_young(vma, 0));
	assert_int_equal(folio_lru_gen(folio), lru_gen_from_seq(seq + 2));
	assert_int_equal(walk_stat(MM_LEAF_YOUNG) - leaf_young, 2);
	assert_int_equal(walk_stat(MM_NONLEAF_FOUND) - nonleaf, 0);
	assert_int_equal(folio_order(folio), HPAGE_PMD_ORDER);
	tb_unmap(vma);
}

/*
 * MADV_DONTNEED of half a PMD-mapped THP: zap_pmd_range() splits the pmd,
 * 256 ptes go, and __folio_remove_rmap() queues the folio, now mapped in
 * part, for a deferred split; its 512 pages stay charged. Memcg reclaim's
 * shrink_slab() runs the deferred split shrinker (memcg aware: the folio
 * is on a's queue), which splits it and frees the unmapped half: without
 * swap, the only memory that reclaim gives back.
 */
static void thp_unmapped_in_part_is_split_by_the_deferred_split_shrinker(void **state)
{
	struct tb_vma *vma = thp_in_a();

	assert_int_equal(tb_madvise_range(vma, HPAGE_PMD_NR / 2, HPAGE_PMD_NR / 2,
					  MADV_DONTNEED), 0);
	assert_int_equal(tb_vma_resident(vma), HPAGE_PMD_NR / 2);
	assert_int_equal(tb_stat("a", "anon"), 1 * MB);
	assert_int_equal(kshim_vm_event_read(THP_DEFERRED_SPLIT_PAGE), 1);
	assert_reads(THP "hugepages-2048kB/stats/split_deferred", "1\n");
	assert_int_equal(tb_usage("a"), 2 * MB + tb_stat("a", "kernel"));
	assert_int_equal(kshim_vm_event_read(THP_SPLIT_PAGE), 0);
	tb_cgroup_write_str("a", "memory.reclaim", "1M");
	assert_int_equal(kshim_vm_event_read(THP_SPLIT_PAGE), 1);
	assert_int_equal(tb_usage("a"), 1 * MB + tb_stat("a", "kernel"));
	assert_int_equal(tb_vma_resident(vma), HPAGE_PMD_NR / 2);
	tb_unmap(vma);
}

/*
 * shrink_folio_list(): add_to_swap() gets the THP 512 slots of a cluster
 * on a non-rotational device (the world's synchronous one, as zram or an
 * SSD): it is unmapped (the pmd split into 512 swap ptes), written whole
 * (THP_SWPOUT) and freed whole
 */
static void thp_reclaim_swaps_a_thp_whole_to_a_non_rotational_device(void **state)
{
	struct tb_vma *vma = thp_in_a();

	tb_cgroup_write_str("a", "memory.reclaim", "2M");
	assert_int_equal(tb_stat("a", "thp_swpout"), 1);
	assert_int_equal(tb_stat("a", "thp_swpout_fallback"), 0);
	assert_int_equal(tb_vma_swapped(vma), HPAGE_PMD_NR);
	assert_int_equal(tb_stat("a", "anon"), 0);
	assert_int_equal(tb_stat("a", "pgsteal"), HPAGE_PMD_NR);
	assert_int_equal(tb_cgroup_read_u64("a", "memory.swap.current"), 2 * MB);
	/* swapped in page by page (order 0: no mTHP size is on) */
	tb_touch_range(vma, PAGES(2 * MB), false);
	assert_int_equal(tb_vma_resident(vma), HPAGE_PMD_NR);
	assert_false(folio_test_large(folio_at(vma, 0)));
	tb_unmap(vma);
}

/*
 * On a rotational disk (the world's disk, as the oracle guest's virtio
 * disk) 6.12's scan_swap_map_slots() gives a large folio no slots: the
 * THP is split (THP_SWPOUT_FALLBACK: unmap_folio() freezes the pmd into
 * migration entries, remap_page() maps the 512 small folios again) and
 * its pages go one by one; from 6.14 any block device gives it a cluster
 */
static void thp_reclaim_to_a_rotational_disk_splits_the_thp_before_6_14(void **state)
{
	struct tb_vma *vma = thp_in_a();
	bool fallback = !TB_HAVE_swap_large_on_any_blkdev;

	kshim_trace_reset();
	tb_cgroup_write_str("a", "memory.reclaim", "2M");
	assert_int_equal(tb_stat("a", "thp_swpout_fallback"), fallback);
	assert_int_equal(kshim_vm_event_read(THP_SWPOUT_FALLBACK), fallback);
	assert_reads(THP "hugepages-2048kB/stats/swpout_fallback", fallback ? "1\n" : "0\n");
	/*
	 * once split, the head counts as the one page it is: 512 pages
	 * written (the shrink event's count, before 7.3) and reclaimed in
	 * all, the head swapped with its tails (none activated)
	 */
	assert_int_equal(tb_stat("a", "pgsteal"), HPAGE_PMD_NR);
#if TB_HAVE_reclaim_stat_pageout
	assert_int_equal(kshim_trace.inactive_stat.nr_pageout, HPAGE_PMD_NR);
#endif
	assert_int_equal(kshim_trace.inactive_stat.nr_activate_anon, 0);
	assert_int_equal(tb_stat("a", "thp_swpout"), TB_HAVE_swap_large_on_any_blkdev);
	assert_int_equal(tb_stat("a", "anon_thp"), 0);
	assert_int_equal(tb_vma_swapped(vma), HPAGE_PMD_NR);
	tb_touch_range(vma, PAGES(2 * MB), false);
	assert_int_equal(tb_vma_resident(vma), HPAGE_PMD_NR);
	tb_unmap(vma);
}

/*
 * A THP whose pages were written only with zeros (the cgroup selftests'
 * "*ptr = 0"), split by reclaim on a rotational disk: the split's
 * remap_page() maps each zero-filled page to the zero page
 * (try_to_map_unused_to_zeropage(), 6.12), so no pte holds a slot of
 * it: swap_writepage() gives the slot back (folio_free_swap()) and the
 * page is freed when shrink_folio_list() puts it back, not counted as
 * reclaimed. memory.reclaim empties the memcg and still says -EAGAIN.
 * Reads see the zero page; a write faults a new page in. (6.14 on the
 * disk takes the THP whole: not split, it goes to swap.)
 */
static void thp_split_by_reclaim_maps_zero_filled_pages_to_the_zero_page(void **state)
{
	struct tb_vma *vma;
	unsigned long i;

	if (TB_HAVE_swap_large_on_any_blkdev)
		tb_skip("6.14 on: the THP is swapped whole, not split");
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	vma = tb_map_anon(PAGES(2 * MB));
	for (i = 0; i < PAGES(2 * MB); i++)
		assert_int_equal(tb_touch_write_zero(vma, i), 0);
	assert_int_equal(folio_order(folio_at(vma, 0)), HPAGE_PMD_ORDER);

	assert_int_equal(tb_cgroup_write_str("a", "memory.reclaim", "2M"), -EAGAIN);
	assert_int_equal(tb_stat("a", "thp_swpout_fallback"), 1);
	assert_int_equal(tb_stat("a", "anon"), 0);
	/* what is left charged is the page tables */
	assert_int_equal(tb_usage("a"), tb_stat("a", "kernel"));
	assert_int_equal(tb_cgroup_read_u64("a", "memory.swap.current"), 0);
	assert_int_equal(tb_stat("a", "pgsteal"), 0);
	assert_int_equal(tb_vma_swapped(vma), 0);
	assert_int_equal(tb_vma_resident(vma), 0);
	/* a read is a hit on the zero page; a write maps a page of its own */
	assert_int_equal(tb_touch(vma, 0, false), 0);
	assert_int_equal(tb_vma_resident(vma), 0);
	assert_int_equal(tb_touch(vma, 0, true), 0);
	assert_int_equal(tb_vma_resident(vma), 1);
	assert_int_equal(tb_stat("a", "anon"), PAGE_SIZE);
	tb_unmap(vma);
}

/* madvise_cold_or_pageout_pte_range()'s huge pmd: the THP isolated whole and swapped */
static void thp_madvise_pageout_swaps_the_thp_out(void **state)
{
	struct tb_vma *vma = thp_in_a();

	assert_int_equal(tb_madvise(vma, MADV_PAGEOUT), 0);
	assert_int_equal(tb_stat("a", "thp_swpout"), 1);
	assert_int_equal(tb_vma_swapped(vma), HPAGE_PMD_NR);
	assert_int_equal(tb_stat("a", "anon"), 0);
	tb_unmap(vma);
}

/*
 * A THP still in the swap cache comes back whole at the fault of one of
 * its pages: MADV_PAGEOUT splits the pmd, swaps the THP out whole to a
 * disk (7.x: any block device) and its write is in flight; do_swap_page()
 * maps a cached large folio from its first page when its ptes are its swap
 * entries in order: 512 ptes for one minor fault, no page read
 */
static void thp_found_in_the_swap_cache_is_mapped_whole_by_ptes(void **state)
{
	unsigned long pswpin = kshim_vm_event_read(PSWPIN), i;
	struct tb_vma *vma;
	struct folio *folio;

	if (!TB_HAVE_swap_large_on_any_blkdev)
		tb_skip("6.12 splits a THP it swaps to a (rotational) disk; zram's writes end at once");
	vma = thp_in_a();
	folio = folio_at(vma, 0);
	assert_int_equal(tb_madvise(vma, MADV_PAGEOUT), 0);
	assert_int_equal(tb_vma_swapped(vma), HPAGE_PMD_NR);
	assert_true(folio_test_swapcache(folio));
	assert_true(folio_test_writeback(folio));
	assert_int_equal(tb_touch(vma, 5, false), 0);
	for (i = 0; i < HPAGE_PMD_NR; i++)
		assert_ptr_equal(folio_at(vma, i), folio);
	assert_int_equal(folio_mapcount(folio), HPAGE_PMD_NR);
	assert_int_equal(folio_order(folio), HPAGE_PMD_ORDER);
	assert_int_equal(folio_entire_mapcount(folio), 0);
	assert_int_equal(tb_vma_swapped(vma), 0);
	assert_int_equal(tb_vma_resident(vma), HPAGE_PMD_NR);
	assert_int_equal(kshim_vm_event_read(PSWPIN), pswpin);
	assert_int_equal(tb_stat("a", "pgmajfault"), 0);
	tb_unmap(vma);
}

/* MADV_COLD: the pmd made old, the THP deactivated whole, nothing reclaimed */
static void thp_madvise_cold_keeps_the_thp_whole_and_old(void **state)
{
	struct tb_vma *vma = thp_in_a();

	assert_true(tb_vma_pmd_young(vma, 0));
	assert_int_equal(tb_madvise(vma, MADV_COLD), 0);
	assert_false(tb_vma_pmd_young(vma, 0));
	assert_int_equal(folio_order(folio_at(vma, 0)), HPAGE_PMD_ORDER);
	assert_int_equal(tb_vma_resident(vma), HPAGE_PMD_NR);
	assert_int_equal(tb_stat("a", "anon_thp"), 2 * MB);
	tb_unmap(vma);
}

/*
 * madvise_free_huge_pmd(): the THP lazyfree whole (PGLAZYFREE counts its
 * 512 pages); reclaim splits the pmd (TTU_SPLIT_HUGE_PMD), finds every
 * pte clean and discards the folio without writing it (PGLAZYFREED)
 */
static void thp_madvise_free_lets_reclaim_discard_the_clean_thp(void **state)
{
	struct tb_vma *vma = thp_in_a();

	assert_int_equal(tb_madvise(vma, MADV_FREE), 0);
	assert_int_equal(tb_stat("a", "pglazyfree"), HPAGE_PMD_NR);
	tb_cgroup_write_str("a", "memory.reclaim", "2M");
	assert_int_equal(tb_stat("a", "pglazyfreed"), HPAGE_PMD_NR);
	assert_int_equal(tb_vma_resident(vma), 0);
	assert_int_equal(tb_vma_swapped(vma), 0);
	assert_int_equal(tb_stat("a", "anon"), 0);
	tb_unmap(vma);
}

/*
 * enabled = madvise: __thp_vma_allowable_orders() gives a vma the PMD
 * order only with VM_HUGEPAGE, which MADV_HUGEPAGE sets (the kernel's
 * hugepage_madvise()); MADV_NOHUGEPAGE takes the order away again and
 * the next fault maps a small folio; the THP faulted before stays
 */
static void thp_madvise_mode_faults_a_thp_only_after_madv_hugepage(void **state)
{
	struct tb_vma *vma;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	vma = tb_map_anon(PAGES(8 * MB));
	assert_int_equal(tb_touch(vma, 0, true), 0);
	assert_false(folio_test_large(folio_at(vma, 0)));
	assert_int_equal(tb_madvise(vma, MADV_HUGEPAGE), 0);
	/* the first PMD has its pte table: only an empty pmd takes a THP */
	assert_int_equal(tb_touch(vma, HPAGE_PMD_NR, true), 0);
	assert_int_equal(folio_order(folio_at(vma, HPAGE_PMD_NR)), HPAGE_PMD_ORDER);
	assert_int_equal(tb_stat("a", "thp_fault_alloc"), 1);
	/*
	 * MADV_HUGEPAGE put the mm on khugepaged's list; its thread, woken,
	 * collapsed the first PMD before that access (one page present)
	 */
	assert_int_equal(folio_order(folio_at(vma, 0)), HPAGE_PMD_ORDER);
	assert_int_equal(tb_stat("a", "thp_collapse_alloc"), 1);
	assert_int_equal(tb_madvise(vma, MADV_NOHUGEPAGE), 0);
	assert_int_equal(tb_touch(vma, 2 * HPAGE_PMD_NR, true), 0);
	assert_false(folio_test_large(folio_at(vma, 2 * HPAGE_PMD_NR)));
	assert_int_equal(tb_stat("a", "anon_thp"), 4 * MB);
	assert_int_equal(tb_stat("a", "thp_fault_alloc"), 1);
	tb_unmap(vma);
}

/*
 * enabled = always: MADV_NOHUGEPAGE keeps a vma to small folios
 * (__thp_vma_allowable_orders() refuses VM_NOHUGEPAGE), MADV_HUGEPAGE
 * clears it again; a read-ahead hint given before changes neither
 */
static void thp_madv_nohugepage_keeps_the_vma_small_under_always(void **state)
{
	struct tb_vma *vma;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	vma = tb_map_anon(PAGES(4 * MB));
	assert_int_equal(tb_madvise(vma, MADV_RANDOM), 0);
	assert_int_equal(tb_madvise(vma, MADV_NOHUGEPAGE), 0);
	assert_int_equal(tb_touch(vma, 0, true), 0);
	assert_false(folio_test_large(folio_at(vma, 0)));
	assert_int_equal(tb_stat("a", "thp_fault_alloc"), 0);
	assert_int_equal(tb_madvise(vma, MADV_HUGEPAGE), 0);
	assert_int_equal(tb_touch(vma, HPAGE_PMD_NR, true), 0);
	assert_int_equal(folio_order(folio_at(vma, HPAGE_PMD_NR)), HPAGE_PMD_ORDER);
	tb_unmap(vma);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(thp_boots_never_without_a_boot_option,
						setup_1g, tb_reclaim_teardown),
		cmocka_unit_test_setup_teardown(thp_boot_option_always_turns_it_on,
						setup_1g_always, tb_reclaim_teardown),
		cmocka_unit_test_setup_teardown(thp_stays_off_below_512_mib_of_ram,
						setup_256m_always, tb_reclaim_teardown),
		cmocka_unit_test_setup_teardown(thp_anon_boot_option_sets_one_size,
						setup_1g_anon_64k, tb_reclaim_teardown),
		cmocka_unit_test_setup_teardown(thp_refuses_a_bad_setting_with_einval,
						setup_1g, tb_reclaim_teardown),
		cmocka_unit_test_setup_teardown(thp_boot_option_of_a_bad_value_is_refused,
						setup_1g, tb_reclaim_teardown),
		cmocka_unit_test_setup_teardown(thp_on_raises_min_free_kbytes_to_khugepaged_reserve,
						setup_1g, tb_reclaim_teardown),
		cmocka_unit_test_setup_teardown(thp_always_at_boot_keeps_khugepaged_reserve,
						setup_1g_always, tb_reclaim_teardown),
		cmocka_unit_test_setup_teardown(thp_always_fault_maps_a_pmd_sized_folio,
						setup_1g_always, tb_reclaim_teardown),
		cmocka_unit_test_setup_teardown(thp_fault_of_a_vma_smaller_than_a_pmd_is_order_0,
						setup_1g_always, tb_reclaim_teardown),
		cmocka_unit_test_setup_teardown(thp_fault_over_memory_max_falls_back_to_a_small_folio,
						setup_1g_always, tb_reclaim_teardown),
		cmocka_unit_test_setup_teardown(thp_fault_over_memory_high_reclaims_at_its_page_table_charge,
						setup_1g_always_swap, tb_reclaim_teardown),
		cmocka_unit_test_setup_teardown(mthp_fault_maps_all_ptes_of_its_folio_young_only_where_touched,
						setup_1g_anon_64k, tb_reclaim_teardown),
		cmocka_unit_test_setup_teardown(mthp_folio_referenced_clears_every_young_pte_and_counts_the_vma_once,
						setup_1g_anon_64k, tb_reclaim_teardown),
		cmocka_unit_test_setup_teardown(mthp_unmapped_in_part_is_split_by_the_deferred_split_shrinker,
						setup_1g_anon_64k, tb_reclaim_teardown),
		cmocka_unit_test_setup_teardown(mthp_reclaim_swaps_the_folio_out_whole,
						setup_1g_anon_64k_swap, tb_reclaim_teardown),
		cmocka_unit_test_setup_teardown(mthp_madvise_pageout_of_the_whole_folio_swaps_it_out_whole,
						setup_1g_anon_64k_swap, tb_reclaim_teardown),
		cmocka_unit_test_setup_teardown(mthp_madvise_pageout_of_half_the_folio_splits_it_and_swaps_that_half,
						setup_1g_anon_64k_swap, tb_reclaim_teardown),
		cmocka_unit_test_setup_teardown(mthp_madvise_cold_makes_every_pte_old_and_keeps_the_folio_whole,
						setup_1g_anon_64k, tb_reclaim_teardown),
		cmocka_unit_test_setup_teardown(mthp_madvise_free_of_the_whole_folio_lets_reclaim_discard_it,
						setup_1g_anon_64k_swap, tb_reclaim_teardown),
		cmocka_unit_test_setup_teardown(mthp_madvise_free_of_half_the_folio_splits_it_and_frees_that_half,
						setup_1g_anon_64k_swap, tb_reclaim_teardown),
		cmocka_unit_test_setup_teardown(mthp_swapped_out_whole_comes_back_as_one_folio_of_its_order,
						setup_1g_anon_64k_swap, tb_reclaim_teardown),
		cmocka_unit_test_setup_teardown(mthp_swapped_out_whole_comes_back_in_order_0_under_madv_willneed,
						setup_1g_anon_64k_swap, tb_reclaim_teardown),
		cmocka_unit_test_setup_teardown(mthp_swapped_in_by_a_write_is_dirty_in_every_pte,
						setup_1g_anon_64k_swap, tb_reclaim_teardown),
		cmocka_unit_test_setup_teardown(mthp_swap_in_with_a_pte_of_the_range_zapped_is_page_by_page,
						setup_1g_anon_64k_swap, tb_reclaim_teardown),
		cmocka_unit_test_setup_teardown(mthp_swap_in_of_a_size_turned_off_is_page_by_page,
						setup_1g_anon_64k_swap, tb_reclaim_teardown),
		cmocka_unit_test_setup_teardown(mthp_swap_in_over_memory_max_falls_back_to_order_0,
						setup_1g_anon_64k_swap, tb_reclaim_teardown),
		cmocka_unit_test_setup_teardown(mthp_swap_in_from_a_disk_is_page_by_page,
						setup_1g_anon_64k_swap_disk, tb_reclaim_teardown),
		cmocka_unit_test_setup_teardown(mthp_reclaim_to_a_rotational_disk_counts_its_own_size_s_fallback,
						setup_1g_anon_64k_swap_disk, tb_reclaim_teardown),
		cmocka_unit_test_setup_teardown(thp_unmapped_in_part_is_split_by_the_deferred_split_shrinker,
						setup_1g_always, tb_reclaim_teardown),
		cmocka_unit_test_setup_teardown(madv_collapse_turns_small_folios_into_a_pmd_mapped_thp,
						setup_1g, tb_reclaim_teardown),
		cmocka_unit_test_setup_teardown(madv_collapse_swaps_in_the_swapped_ptes_first,
						setup_1g_swap, tb_reclaim_teardown),
		cmocka_unit_test_setup_teardown(
			madv_collapse_of_a_range_all_swapped_needs_a_writable_pte_before_7_2,
			setup_1g_swap, tb_reclaim_teardown),
		cmocka_unit_test_setup_teardown(khugepaged_collapses_a_range_a_thp_fault_could_not_take,
						setup_1g_always, tb_reclaim_teardown),
		cmocka_unit_test_setup_teardown(khugepaged_thread_collapses_after_its_scan_sleep,
						setup_1g_always, tb_reclaim_teardown),
		cmocka_unit_test_setup_teardown(thp_reclaim_swaps_a_thp_whole_to_a_non_rotational_device,
						setup_1g_always_swap, tb_reclaim_teardown),
		cmocka_unit_test_setup_teardown(thp_reclaim_to_a_rotational_disk_splits_the_thp_before_6_14,
						setup_1g_always_swap_disk, tb_reclaim_teardown),
		cmocka_unit_test_setup_teardown(thp_split_by_reclaim_maps_zero_filled_pages_to_the_zero_page,
						setup_1g_always_swap_disk, tb_reclaim_teardown),
		cmocka_unit_test_setup_teardown(thp_found_in_the_swap_cache_is_mapped_whole_by_ptes,
						setup_1g_always_swap_disk, tb_reclaim_teardown),
		cmocka_unit_test_setup_teardown(thp_madvise_pageout_swaps_the_thp_out,
						setup_1g_always_swap, tb_reclaim_teardown),
		cmocka_unit_test_setup_teardown(thp_mglru_walk_moves_a_young_thp_and_leaves_an_old_one,
						setup_1g_always_swap, tb_reclaim_teardown),
		cmocka_unit_test_setup_teardown(thp_madvise_cold_keeps_the_thp_whole_and_old,
						setup_1g_always, tb_reclaim_teardown),
		cmocka_unit_test_setup_teardown(thp_madvise_free_lets_reclaim_discard_the_clean_thp,
						setup_1g_always_swap, tb_reclaim_teardown),
		cmocka_unit_test_setup_teardown(thp_madvise_mode_faults_a_thp_only_after_madv_hugepage,
						setup_1g_madvise, tb_reclaim_teardown),
		cmocka_unit_test_setup_teardown(thp_madv_nohugepage_keeps_the_vma_small_under_always,
						setup_1g_always, tb_reclaim_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
