// SPDX-License-Identifier: GPL-2.0-only
/*
 * The world's page allocator over mm/page_alloc.c's buddy free lists:
 * boot's free blocks, an order-0 page splitting a block and merging back,
 * a folio of order 9 (compound, naturally aligned, charged nothing), an
 * order-9 request on fragmented memory failing without an OOM kill while
 * the order-0 watermark holds, and the memmap of RAM never used left
 * unwritten. Machine: 64 MiB, one node (1 GiB for the memmap case).
 */
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/mmzone.h>
#include <linux/huge_mm.h>
#include <linux/vmstat.h>
#include "tb_reclaim.h"

#define MAX_ORDER_HERE (NR_PAGE_ORDERS - 1)

static struct zone *zone0(void)
{
	return &NODE_DATA(0)->node_zones[ZONE_NORMAL];
}

static void snapshot(unsigned long *nr_free)
{
	int o;

	for (o = 0; o < NR_PAGE_ORDERS; o++)
		nr_free[o] = zone0()->free_area[o].nr_free;
}

/* the pages the free area holds: NR_FREE_PAGES says the same */
static unsigned long free_area_pages(void)
{
	unsigned long n = 0;
	int o;

	for (o = 0; o < NR_PAGE_ORDERS; o++)
		n += zone0()->free_area[o].nr_free << o;
	return n;
}

static int setup_1g(void **state)
{
	tb_mem = (struct tb_mem_config){ .ram_pages = PAGES(1024 * MB), .no_kswapd = true };
	return tb_reclaim_setup(state);
}

/*
 * Boot lists the node's RAM in max-order blocks; what they and NR_FREE_PAGES
 * count agree, and order-0 pages come in pfn order, each splitting the
 * smallest block; freeing them all merges every buddy back
 */
static void order_0_pages_split_a_block_and_merge_back(void **state)
{
	unsigned long before[NR_PAGE_ORDERS], after[NR_PAGE_ORDERS];
	struct folio *folios[1024];
	unsigned long first;
	int i;

	tb_run_in("");
	assert_int_equal(free_area_pages(), tb_free_pages(0));
	assert_true(zone0()->free_area[MAX_ORDER_HERE].nr_free > 0);
	snapshot(before);
	for (i = 0; i < 1024; i++) {
		folios[i] = tb_alloc_folio(GFP_KERNEL, 0);
		assert_non_null(folios[i]);
		assert_false(PageBuddy(&folios[i]->page));
	}
	first = folio_pfn(folios[0]);
	for (i = 1; i < 1024; i++)
		assert_int_equal(folio_pfn(folios[i]), first + i);
	assert_int_equal(free_area_pages(), tb_free_pages(0));
	snapshot(after);
	assert_memory_not_equal(before, after, sizeof(before));
	for (i = 0; i < 1024; i++)
		folio_put(folios[i]);
	snapshot(after);
	assert_memory_equal(before, after, sizeof(before));
	assert_int_equal(free_area_pages(), tb_free_pages(0));
}

#ifdef CONFIG_TRANSPARENT_HUGEPAGE
/*
 * A PMD-order folio: naturally aligned, compound (512 pages, its tails
 * pointing at the head), large rmappable as folio_alloc() makes it, charged
 * to nobody; 512 pages out of NR_FREE_PAGES, all back when it is freed, the
 * free area as it was
 */
static void an_order_9_folio_is_compound_and_merges_back(void **state)
{
	unsigned long before[NR_PAGE_ORDERS], after[NR_PAGE_ORDERS];
	unsigned long free = tb_free_pages(0);
	struct folio *folio;
	struct page *page;

	tb_run_in("");
	snapshot(before);
	folio = tb_alloc_folio_order(GFP_TRANSHUGE, HPAGE_PMD_ORDER, 0);
	assert_non_null(folio);
	page = &folio->page;
	assert_int_equal(folio_pfn(folio) % HPAGE_PMD_NR, 0);
	assert_true(folio_test_large(folio));
	assert_int_equal(folio_order(folio), HPAGE_PMD_ORDER);
	assert_int_equal(folio_nr_pages(folio), HPAGE_PMD_NR);
	assert_true(folio_test_large_rmappable(folio));
	assert_int_equal(folio_large_mapcount(folio), 0);
	assert_int_equal(folio_ref_count(folio), 1);
	assert_int_equal(folio->memcg_data, 0);
	assert_true(PageTail(page + 1));
	assert_ptr_equal(compound_head(page + HPAGE_PMD_NR - 1), page);
	assert_int_equal(tb_free_pages(0), free - HPAGE_PMD_NR);
	assert_int_equal(free_area_pages(), tb_free_pages(0));
	folio_put(folio);
	assert_int_equal(tb_free_pages(0), free);
	assert_false(PageTail(page + 1));
	assert_null(page[HPAGE_PMD_NR - 1].mapping);
	snapshot(after);
	assert_memory_equal(before, after, sizeof(before));
}
#endif

/*
 * Free memory fragmented (every free page's buddy held): far above the
 * high watermark at order 0, but no block of order 9, so the watermark test
 * at order 9 fails, and so does a THP fault's request, light (no direct
 * reclaim) or GFP_TRANSHUGE (a costly order: no retry without
 * __GFP_RETRY_MAYFAIL, never an OOM kill)
 */
static void order_9_fails_on_fragmented_memory_without_an_oom_kill(void **state)
{
	struct zone *zone = zone0();
	LIST_HEAD(held);

	tb_run_in("");
	tb_mem_fragment(0, ULONG_MAX, &held);
	assert_true(tb_free_pages(0) > 4 * tb_wmark(0, WMARK_HIGH));
	assert_true(zone_watermark_ok(zone, 0, tb_wmark(0, WMARK_HIGH), ZONE_NORMAL, 0));
	assert_false(__zone_watermark_ok(zone, 9, tb_wmark(0, WMARK_MIN), ZONE_NORMAL, 0,
					 tb_free_pages(0)));
	assert_int_equal(zone->free_area[0].nr_free, tb_free_pages(0));
#ifdef CONFIG_TRANSPARENT_HUGEPAGE
	assert_null(tb_alloc_folio_order(GFP_TRANSHUGE_LIGHT, HPAGE_PMD_ORDER, 0));
	assert_null(tb_alloc_folio_order(GFP_TRANSHUGE, HPAGE_PMD_ORDER, 0));
#endif
	assert_int_equal(kshim_vm_event_read(OOM_KILL), 0);
	tb_put_folios(&held);
	/* every buddy free again: the blocks merge back to the largest order */
	assert_int_equal(zone->free_area[0].nr_free, 0);
}

/*
 * A 1 GiB node: boot wrote the struct pages of its first max-order block
 * only; an allocation there leaves the rest of the memmap untouched (the
 * memmap of RAM never used costs the host nothing)
 */
static void the_memmap_of_ram_never_used_is_never_written(void **state)
{
	static const struct page zero;
	unsigned long end = PAGES(1024 * MB), block = 1UL << MAX_ORDER_HERE, pfn;
	struct folio *folio;

	tb_run_in("");
	folio = tb_alloc_folio(GFP_KERNEL, 0);
	assert_non_null(folio);
	assert_true(folio_pfn(folio) < 2 * block);
	for (pfn = 3 * block; pfn < end; pfn += 97)
		assert_memory_equal(pfn_to_page(pfn), &zero, sizeof(zero));
	folio_put(folio);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		TB_RECLAIM_TEST(order_0_pages_split_a_block_and_merge_back),
#ifdef CONFIG_TRANSPARENT_HUGEPAGE
		TB_RECLAIM_TEST(an_order_9_folio_is_compound_and_merges_back),
#endif
		TB_RECLAIM_TEST(order_9_fails_on_fragmented_memory_without_an_oom_kill),
		TB_RECLAIM_TEST_ON(the_memmap_of_ram_never_used_is_never_written, setup_1g),
	};

	return TB_RUN(tests);
}
