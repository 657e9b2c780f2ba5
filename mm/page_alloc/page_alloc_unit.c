// SPDX-License-Identifier: GPL-2.0-only
/*
 * mm/page_alloc.c's watermark code and buddy free lists over the reclaim
 * environment.
 */
#include "vmscan/reclaim_env.h"
/* the world boots no kdump capture kernel (boost_watermark() asks) */
static inline bool is_kdump_kernel(void)
{
	return false;
}
#include <kgen/mm_internal_page_alloc.h>
#include <linux/mempolicy.h>
#include <linux/topology.h>
#include <trace/events/kmem.h>
/*
 * The per-CPU page lists' batch and high marks, which follow the
 * watermarks: the world's allocator keeps no per-CPU lists
 */
static void zone_pcp_update(struct zone *zone, int cpu_online)
{
}

#include <kgen/buddy_isolation.h>
#include <kgen/buddy_shuffle.h>
#include <kgen/buddy_reporting.h>
#include <kshim/mem_tb.h>

/*
 * The world keeps no pageblock bitmap: every pageblock is
 * MIGRATE_MOVABLE, as memmap_init() leaves it and as no steal or
 * isolation here changes it, so the buddy code never meets two types
 */
#define get_pageblock_migratetype(page) MIGRATE_MOVABLE
#define get_pfnblock_migratetype(page, pfn) MIGRATE_MOVABLE

static inline void change_pageblock_range(struct page *pageblock_page, int start_order,
					  int migratetype)
{
}

/* no direct compaction runs here, so no task waits to capture a freed page */
static inline struct capture_control *task_capc(struct zone *zone)
{
	return NULL;
}

static inline bool compaction_capture(struct capture_control *capc, struct page *page,
				      int order, int migratetype)
{
	return false;
}

/* the kernel dumps the page and taints; here a test fails on the WARN */
static void bad_page(struct page *page, const char *reason)
{
	WARN(1, "tb: bad page: pfn %lu: %s", page_to_pfn(page), reason);
}

#if TB_HAVE_thp_folio_split
/* mm_init.c's: a test build checks every page it frees, as CONFIG_DEBUG_VM does */
DEFINE_STATIC_KEY_TRUE(check_pages_enabled);
#endif

#include KPAGE_ALLOC_EXTRACT

/*
 * The world's allocator (kernel-shim/world/mem.c) over the kernel's free
 * lists, under zone->lock: everything is MIGRATE_MOVABLE
 */
struct page *tb_buddy_take(struct zone *zone, unsigned int order)
{
	struct page *page = __rmqueue_smallest(zone, order, MIGRATE_MOVABLE);

#if !TB_HAVE_account_freepages
	/* before 6.10 rmqueue_buddy() counted what __rmqueue_smallest() took */
	if (page)
		__mod_zone_page_state(zone, NR_FREE_PAGES, -(1L << order));
#endif
	return page;
}

void tb_buddy_free(struct zone *zone, struct page *page, unsigned int order)
{
	__free_one_page(page, page_to_pfn(page), zone, order, MIGRATE_MOVABLE, FPI_NONE);
}

void tb_set_buddy_order(struct page *page, unsigned int order)
{
	set_buddy_order(page, order);
}

#if TB_HAVE_thp_folio_split
int tb_free_tail_page_prepare(struct page *head, struct page *page)
{
	return free_tail_page_prepare(head, page);
}
#endif
