// SPDX-License-Identifier: GPL-2.0-only
/*
 * The simulated RAM: a FLATMEM memmap of real struct pages, one
 * pglist_data per node with one populated zone (ZONE_NORMAL; ZONE_MOVABLE
 * empty), the kernel's watermarks (mm/page_alloc.c's own
 * calculate_min_free_kbytes, setup_per_zone_lowmem_reserve and
 * __setup_per_zone_wmarks, extracted), and an allocator over each zone's
 * buddy free lists (mm/page_alloc.c's own __rmqueue_smallest() and
 * __free_one_page(), extracted). What the allocator does when memory runs
 * short is __alloc_pages_slowpath's: wake kswapd below the low watermark,
 * allocate down to min (with the flags the real gfp_to_alloc_flags() gives
 * the slow path: __GFP_HIGH and callers that cannot reclaim may go below
 * it), then direct reclaim through the real try_to_free_pages, retrying
 * while reclaim makes progress (MAX_RECLAIM_RETRIES without it), then OOM;
 * a high order gives up sooner, as the gfp says, and a costly one never
 * OOM-kills. The world has no per-CPU page lists and no compaction.
 */
#include <linux/mm.h>
#include <linux/bitmap.h>
#include <linux/mm_inline.h>
#include <linux/swap.h>
#include <linux/vmstat.h>
#include <linux/oom.h>
#include <linux/sched/mm.h>
#include <linux/pagemap.h>
#include <kshim/reclaim.h>
#include <kshim/mem_tb.h>
#include <kshim/memcg_tb.h>
#include <linux/writeback.h>
#include <linux/cpuset.h>
#include <kgen/mm_internal_memcg.h>
#include <kgen/mm_internal_page_alloc.h>
#include "world.h"
#include <sys/mman.h>

struct page *mem_map;
static unsigned long nr_memmap;
unsigned long max_mapnr;	/* pfn_valid(): the memmap's extent */
/* mm/mm_init.c's memmap_init(): the last pfn with a struct page (vm_normal_page()) */
unsigned long highest_memmap_pfn;
#if !TB_HAVE_totalreserve_in_page_alloc
unsigned long totalreserve_pages;	/* mm/show_mem.c's */
#endif
static bool booted;
/*
 * The contents of RAM, as far as reclaim can tell them apart: a bit per
 * pfn, set while the page holds a byte other than zero (an anonymous
 * page starts zeroed; a write of data sets it). The zero page is one
 * more struct page past the memmap's end (the kernel's empty_zero_page,
 * in the kernel image: not RAM the allocator has).
 */
static unsigned long *page_data;
static unsigned long zero_page_index;
static LIST_HEAD(reserved);	/* pages the rest of the system holds */
static unsigned long nr_reserved;
struct cpumask kshim_cpu_all_mask;
#if !TB_HAVE_memory_tier_late_init
bool numa_demotion_enabled;	/* mm/memory-tiers.c's, where the world builds no tiers */
#endif

/* mm/page_alloc.c (extracted into kpage_alloc) */
extern int min_free_kbytes;
extern int user_min_free_kbytes;
extern int watermark_scale_factor;
void calculate_min_free_kbytes(void);
void setup_per_zone_lowmem_reserve(void);
void __setup_per_zone_wmarks(void);
#if TB_HAVE_alloc_flags_slowpath
/* 7.0 renamed it */
unsigned int alloc_flags_slowpath(gfp_t gfp_mask, unsigned int order);
#define gfp_to_alloc_flags alloc_flags_slowpath
#else
unsigned int gfp_to_alloc_flags(gfp_t gfp_mask, unsigned int order);
#endif
void build_zonelists(pg_data_t *pgdat);
extern int node_load[MAX_NUMNODES];

/*
 * 512 GiB per node: seed 002 at the seed's full size on one node needs
 * 300 GiB (a memmap of 4.7 GiB, calloc'd)
 */
#define TB_MAX_RAM_PAGES (512UL << (30 - PAGE_SHIFT))

/* the largest free block: MAX_PAGE_ORDER (MAX_ORDER - 1 before 6.8) */
#define TB_MAX_ORDER (NR_PAGE_ORDERS - 1)
#define TB_MAX_BLOCK (1UL << TB_MAX_ORDER)

static struct list_head *free_list(struct zone *zone, unsigned int order)
{
	return &zone->free_area[order].free_list[MIGRATE_MOVABLE];
}

/*
 * Boot frees a node's RAM as memblock_free_all() does: blocks of the
 * largest order its alignment allows, in pfn order, each to the tail of
 * its free list. The run of max-order blocks in the middle is listed
 * lazily: counted in nr_free and NR_FREE_PAGES from boot, but only the
 * next one (from unlisted_pfn up to unlisted_end) is on the list, at its
 * tail where boot would have put the rest; when the allocator takes the
 * last max-order block listed, it lists the next. The kernel code that
 * reads the free area (the watermark test of an order, the fragmentation
 * index) sees it as boot leaves it, the allocator hands out the same
 * pages in the same order, and the memmap of RAM never used is neither
 * written nor backed by the host (a quarter of seed 002's at full size).
 */
static unsigned long unlisted_pfn[MAX_NUMNODES], unlisted_end[MAX_NUMNODES];

static void zone_boot(struct pglist_data *pgdat, enum zone_type zid,
		      unsigned long start_pfn, unsigned long pages)
{
	struct zone *zone = &pgdat->node_zones[zid];
	unsigned int order, t;

	zone->zone_pgdat = pgdat;
	zone->node = pgdat->node_id;
	zone->name = zid == ZONE_NORMAL ? "Normal" : "Movable";
	zone->zone_start_pfn = start_pfn;
	zone->spanned_pages = zone->present_pages = pages;
	atomic_long_set(&zone->managed_pages, pages);
	spin_lock_init(&zone->lock);
	for (order = 0; order < NR_PAGE_ORDERS; order++)
		for (t = 0; t < MIGRATE_TYPES; t++)
			INIT_LIST_HEAD(&zone->free_area[order].free_list[t]);
	zone->per_cpu_zonestats = alloc_percpu(struct per_cpu_zonestat);
	/* init_currently_empty_zone(): the buddy code asserts it */
	zone->initialized = 1;
}

/*
 * A free block's struct pages made, as memmap_init()'s
 * __init_single_page() makes them at boot (its count left 0, as
 * __free_pages_core() leaves a page given to the buddy allocator), and
 * the block put at the tail of its free list, already counted
 */
static void block_list(struct zone *zone, unsigned long pfn, unsigned int order)
{
	struct page *page = pfn_to_page(pfn);
	unsigned long i;

	for (i = 0; i < 1UL << order; i++) {
		set_page_links(page + i, zone_idx(zone), zone->node, pfn + i);
		atomic_set(&page[i]._mapcount, -1);
		INIT_LIST_HEAD(&page[i].lru);
	}
	tb_set_buddy_order(page, order);
	list_add_tail(&page->buddy_list, free_list(zone, order));
}

/* the pages from pfn to end in the blocks their alignment allows, listed */
static void zone_fill_edge(struct zone *zone, unsigned long pfn, unsigned long end)
{
	while (pfn < end) {
		unsigned int order = pfn ? min_t(unsigned int, __ffs(pfn), TB_MAX_ORDER) :
				     TB_MAX_ORDER;

		while (pfn + (1UL << order) > end)
			order--;
		zone->free_area[order].nr_free++;
		block_list(zone, pfn, order);
		pfn += 1UL << order;
	}
}

/* the next max-order block of the lazy run, if any (under zone->lock) */
static void zone_list_next(struct zone *zone)
{
	unsigned long pfn = unlisted_pfn[zone->node];

	if (pfn >= unlisted_end[zone->node])
		return;
	unlisted_pfn[zone->node] = pfn + TB_MAX_BLOCK;
	block_list(zone, pfn, TB_MAX_ORDER);
}

/* every page of the zone free; struct pages made as their blocks are listed */
static void zone_fill(struct zone *zone)
{
	unsigned long start = zone->zone_start_pfn, end = zone_end_pfn(zone);
	unsigned long run = ALIGN(start, TB_MAX_BLOCK), run_end = ALIGN_DOWN(end, TB_MAX_BLOCK);

	if (run >= run_end)
		run = run_end = end;
	zone_fill_edge(zone, start, run);
	zone->free_area[TB_MAX_ORDER].nr_free += (run_end - run) / TB_MAX_BLOCK;
	unlisted_pfn[zone->node] = run;
	unlisted_end[zone->node] = run_end;
	zone_list_next(zone);
	zone_fill_edge(zone, run_end, end);
	__mod_zone_page_state(zone, NR_FREE_PAGES, zone->spanned_pages);
}

/* memblock_free_all(): the RAM the buddy allocator was given */
atomic_long_t _totalram_pages;

static void node_boot(int nid, unsigned long start_pfn, unsigned long pages)
{
	struct pglist_data *pgdat = NODE_DATA(nid);
	int i;

	pgdat->node_id = nid;
	pgdat->node_start_pfn = start_pfn;
	pgdat->node_present_pages = pgdat->node_spanned_pages = pages;
	pgdat->nr_zones = ZONE_NORMAL + 1;
	init_waitqueue_head(&pgdat->kswapd_wait);
	init_waitqueue_head(&pgdat->pfmemalloc_wait);
	for (i = 0; i < NR_VMSCAN_THROTTLE; i++)
		init_waitqueue_head(&pgdat->reclaim_wait[i]);
	lruvec_init(&pgdat->__lruvec);
#if defined(CONFIG_TRANSPARENT_HUGEPAGE) && TB_HAVE_pgdat_deferred_split_queue
	/* mm_init.c's pgdat_init_split_queue(): THP's deferred split, per node */
	spin_lock_init(&pgdat->deferred_split_queue.split_queue_lock);
	INIT_LIST_HEAD(&pgdat->deferred_split_queue.split_queue);
	pgdat->deferred_split_queue.split_queue_len = 0;
#endif
	pgdat->per_cpu_nodestats = alloc_percpu(struct per_cpu_nodestat);
	zone_boot(pgdat, ZONE_NORMAL, start_pfn, pages);
	zone_boot(pgdat, ZONE_MOVABLE, start_pfn + pages, 0);
	zone_fill(&pgdat->node_zones[ZONE_NORMAL]);
}

static struct folio *rmqueue(struct zone *zone, unsigned int order);

static int check_config(unsigned long ram, const struct tb_mem_config *cfg)
{
	if (ram < 1024 || ram > TB_MAX_RAM_PAGES) {
		fprintf(stderr, "tb: RAM of %lu pages per node: give 1024 (4 MiB) to %lu (512 GiB)\n",
			ram, TB_MAX_RAM_PAGES);
		return -EINVAL;
	}
	if (cfg && cfg->swap_pages > TB_MAX_SWAP_PAGES) {
		fprintf(stderr, "tb: swap of %lu pages exceeds the device limit of %lu (64 GiB)\n",
			cfg->swap_pages, TB_MAX_SWAP_PAGES);
		return -EINVAL;
	}
	if (cfg && cfg->swappiness_set &&
	    (cfg->swappiness < 0 || cfg->swappiness > MAX_SWAPPINESS)) {
		fprintf(stderr, "tb: vm.swappiness %d: give 0 to %d\n", cfg->swappiness,
			MAX_SWAPPINESS);
		return -EINVAL;
	}
	if (cfg && cfg->reserved_pages >= ram * nr_node_ids / 2) {
		fprintf(stderr, "tb: %lu reserved pages leave less than half of the RAM\n",
			cfg->reserved_pages);
		return -EINVAL;
	}
	if (cfg && (cfg->slow_nodes >> nr_node_ids ||
		    cfg->slow_nodes == (1UL << nr_node_ids) - 1)) {
		fprintf(stderr, "tb: slow nodes %#lx: give some of the %u nodes, not all\n",
			cfg->slow_nodes, nr_node_ids);
		return -EINVAL;
	}
	if (cfg && (cfg->min_free_kbytes < 0 || cfg->watermark_scale_factor < 0 ||
		    cfg->watermark_scale_factor > 3000)) {
		fprintf(stderr, "tb: vm.min_free_kbytes %d / vm.watermark_scale_factor %d out of range\n",
			cfg->min_free_kbytes, cfg->watermark_scale_factor);
		return -EINVAL;
	}
	return 0;
}

/*
 * The kernel maps the memmap with 2 MiB pages (vmemmap): so does the
 * world where the host gives them, or reclaim's walks over gigabytes of
 * struct pages would miss the host's TLB at nearly every page. calloc()
 * maps a large memmap by itself, zero and untouched: its pages are made
 * only as they are first written.
 */
static void memmap_huge_pages(void)
{
	unsigned long start = ALIGN((unsigned long)mem_map, PMD_SIZE);
	unsigned long end = ALIGN_DOWN((unsigned long)(mem_map + nr_memmap), PMD_SIZE);

	if (end > start)
		madvise((void *)start, end - start, MADV_HUGEPAGE);
}

int tb_mem_boot(const struct tb_mem_config *cfg)
{
	unsigned long ram = cfg && cfg->ram_pages ? cfg->ram_pages : (64UL << 20) >> PAGE_SHIFT;
	int nid, cpu, err;

	err = check_config(ram, cfg);
	if (err)
		return err;
	if (booted) {
		fprintf(stderr, "tb: memory already booted\n");
		return -EBUSY;
	}
	nr_memmap = ram * nr_node_ids;
	max_mapnr = nr_memmap;
	highest_memmap_pfn = nr_memmap - 1;
	/*
	 * up to the end of the last max-order block, as the kernel's memmap
	 * covers whole sections: __free_one_page() looks at a buddy's struct
	 * page there (never a buddy: zero); three more: a folio spans four
	 */
	zero_page_index = ALIGN(nr_memmap, TB_MAX_BLOCK) + 3;
	mem_map = calloc(zero_page_index + 1, sizeof(struct page));
	page_data = calloc(BITS_TO_LONGS(zero_page_index + 1), sizeof(long));
	if (!mem_map || !page_data) {
		free(mem_map);
		free(page_data);
		mem_map = NULL;
		page_data = NULL;
		return -ENOMEM;
	}
	tb_zero_page_boot(&mem_map[zero_page_index]);
	memmap_huge_pages();
	cpumask_clear(&kshim_cpu_all_mask);
	for_each_possible_cpu(cpu)
		__cpumask_set_cpu(cpu, &kshim_cpu_all_mask);
	for (nid = 0; nid < (int)nr_node_ids; nid++)
		node_boot(nid, nid * ram, ram);
	atomic_long_set(&_totalram_pages, ram * nr_node_ids);
	/* __build_all_zonelists(): every node's, from a clear node_load */
	memset(node_load, 0, sizeof(node_load));
	for (nid = 0; nid < (int)nr_node_ids; nid++)
		build_zonelists(NODE_DATA(nid));
	/* init_per_zone_wmark_min(), with the sysctls the boot gives */
	watermark_scale_factor = cfg && cfg->watermark_scale_factor ?
				 cfg->watermark_scale_factor : 10;
	/* a fresh boot: no value a previous world's sysctl left behind */
	user_min_free_kbytes = -1;
	calculate_min_free_kbytes();
	setup_per_zone_lowmem_reserve();
	__setup_per_zone_wmarks();
	/* subsys_initcall(hugepage_init): THP's reserve may raise min_free_kbytes */
	tb_thp_boot();
	/* then userspace's sysctl vm.min_free_kbytes (min_free_kbytes_sysctl_handler()) */
	if (cfg && cfg->min_free_kbytes) {
		min_free_kbytes = user_min_free_kbytes = cfg->min_free_kbytes;
		__setup_per_zone_wmarks();
	}
	vm_swappiness = cfg && cfg->swappiness_set ? cfg->swappiness : 60;
	if (cfg && cfg->reserved_pages) {
		unsigned long i;

		for (i = 0; i < cfg->reserved_pages; i++) {
			struct folio *folio = rmqueue(&NODE_DATA(i % nr_node_ids)->node_zones[ZONE_NORMAL], 0);

			list_add(&folio->lru, &reserved);
		}
		nr_reserved = cfg->reserved_pages;
	}
	err = tb_swap_boot(cfg ? cfg->swap_pages : 0, cfg && (cfg->swap_disk || cfg->swap_fs),
			   cfg && cfg->swap_fs);
	if (err)
		goto fail;
	tb_world_stats_reset();
	tb_flushers_reset();
	tb_dirty_ratio_set(cfg ? cfg->dirty_ratio : 0);
	tb_kcompactd_reset();
	tb_tiers_boot(cfg ? cfg->slow_nodes : 0);
	booted = true;
	if (!(cfg && cfg->no_kswapd)) {
		err = tb_kswapd_start_all();
		if (err) {
			tb_mem_shutdown();
			return err;
		}
	}
	return 0;
fail:
	tb_thp_shutdown();
	tb_zero_page_boot(NULL);
	free(mem_map);
	mem_map = NULL;
	free(page_data);
	page_data = NULL;
	return err;
}

bool tb_mem_booted(void)
{
	return booted;
}

/*
 * The node's own lruvec (the one reclaim uses with cgroup_disable=memory)
 * lives as long as the machine: the multi-gen LRU's walks leave their
 * Bloom filters there, which a memcg's lruvec frees in
 * lru_gen_exit_memcg(); the machine going away frees them.
 */
static void node_lruvec_free(struct pglist_data *pgdat)
{
#ifdef CONFIG_LRU_GEN_WALKS_MMU
	int i;

	for (i = 0; i < NR_BLOOM_FILTERS; i++) {
		bitmap_free(pgdat->__lruvec.mm_state.filters[i]);
		pgdat->__lruvec.mm_state.filters[i] = NULL;
	}
#endif
}

/*
 * Folios a failed case left on LRU lists come off them before the RAM
 * goes: the lists outlive it in the memcgs, whose offline splices them
 * into the parent's (7.2's lru_reparent_memcg()). The case has failed
 * already (tb_mem_check_empty() named what was left).
 */
static void unlink_lru_folios(void)
{
	unsigned long pfn;

	for (pfn = 0; pfn < nr_memmap; pfn++) {
		struct folio *folio = page_folio(&mem_map[pfn]);

		if (&folio->page == &mem_map[pfn] && folio_test_lru(folio)) {
			list_del_init(&folio->lru);
			__folio_clear_lru(folio);
		}
	}
}

void tb_mem_shutdown(void)
{
	int nid, zid;

	if (!booted)
		return;
	tb_kswapd_stop_all();
	tb_thp_shutdown();
	tb_tiers_shutdown();
	tb_swap_shutdown();
	while (!list_empty(&reserved)) {
		struct folio *folio = list_first_entry(&reserved, struct folio, lru);

		list_del(&folio->lru);
		folio_put(folio);
	}
	nr_reserved = 0;
	for (nid = 0; nid < (int)nr_node_ids; nid++) {
		struct pglist_data *pgdat = NODE_DATA(nid);

		for (zid = 0; zid < MAX_NR_ZONES; zid++) {
			free_percpu(pgdat->node_zones[zid].per_cpu_zonestats);
			pgdat->node_zones[zid].per_cpu_zonestats = NULL;
		}
		free_percpu(pgdat->per_cpu_nodestats);
		pgdat->per_cpu_nodestats = NULL;
		node_lruvec_free(pgdat);
	}
	unlink_lru_folios();
	tb_zero_page_boot(NULL);
	free(mem_map);
	mem_map = NULL;
	free(page_data);
	page_data = NULL;
	nr_memmap = 0;
	max_mapnr = 0;
	highest_memmap_pfn = 0;
	booted = false;
}

/* whether page holds a byte other than zero (the zero page: never) */
bool tb_page_has_data(const struct page *page)
{
	return page_data && test_bit(page - mem_map, page_data);
}

/* the page is zeroed (data false) or has data written to it */
void tb_page_set_data(const struct page *page, bool data)
{
	if (WARN_ONCE(!page_data || page - mem_map >= (long)zero_page_index,
		      "tb: the contents of a page outside the RAM"))
		return;
	if (data)
		set_bit(page - mem_map, page_data);
	else
		clear_bit(page - mem_map, page_data);
}

bool tb_page_in_memmap(const struct page *page)
{
	return mem_map && page >= mem_map && page < mem_map + nr_memmap;
}

#ifdef CONFIG_TRANSPARENT_HUGEPAGE
/* mm/debug.c: a bad page's state in the kernel log, before the report */
void dump_page(const struct page *page, const char *reason)
{
	pr_emerg("page:%px pfn:%#lx refcount:%d mapcount:%d flags:%#lx: %s\n", page,
		 page_to_pfn(page), page_ref_count(page), atomic_read(&page->_mapcount),
		 page->flags, reason);
}
#endif

/* ---- the allocator ---- */
/*
 * The smallest free block of at least 2^order pages, split as the kernel
 * splits it (rmqueue_buddy()); the page made as prep_new_page() makes it,
 * and for order > 0 a compound, large rmappable folio (folio_alloc())
 */
static struct folio *rmqueue(struct zone *zone, unsigned int order)
{
	unsigned long flags;
	struct page *page;
	struct folio *folio;

	spin_lock_irqsave(&zone->lock, flags);
	page = tb_buddy_take(zone, order);
	if (page && list_empty(free_list(zone, TB_MAX_ORDER)))
		zone_list_next(zone);
	spin_unlock_irqrestore(&zone->lock, flags);
	if (!page)
		return NULL;
	folio = (struct folio *)page;
	folio->mapping = NULL;
	folio->index = 0;
	folio->private = NULL;
	folio->memcg_data = 0;
	INIT_LIST_HEAD(&folio->lru);
	atomic_set(&folio->_refcount, 1);
#if TB_HAVE_thp_folio_split
	if (order) {
		prep_compound_page(page, order);
		folio = page_rmappable_folio(page);
	}
#endif
	return folio;
}

/*
 * get_page_from_freelist()'s walk: the zonelist from the preferred node
 * on, within nodemask; alloc_flags: the watermark test's
 * (ALLOC_MIN_RESERVE, ALLOC_NON_BLOCK dip below it)
 */
static struct folio *get_page_from_zonelist(gfp_t gfp, unsigned int order, int nid,
					    nodemask_t *nodemask, enum zone_watermarks wmark,
					    unsigned int alloc_flags)
{
	int highest = gfp_zone(gfp);
	struct zonelist *zonelist = node_zonelist(nid, gfp);
	struct zoneref *z;
	struct zone *zone;

	for_each_zone_zonelist_nodemask(zone, z, zonelist, highest, nodemask) {
		struct folio *folio;

		if (cpusets_enabled() && (alloc_flags & ALLOC_CPUSET) &&
		    !__cpuset_zone_allowed(zone, gfp))
			continue;
		if (!zone_watermark_ok(zone, order, wmark_pages(zone, wmark), highest, alloc_flags))
			continue;
		folio = rmqueue(zone, order);
		if (folio)
			return folio;
	}
	return NULL;
}

/* as mm/page_alloc.c's: each node of the zonelist once */
static void wake_all_kswapds(gfp_t gfp, unsigned int order, int nid, nodemask_t *nodemask)
{
	int highest = gfp_zone(gfp);
	struct zonelist *zonelist = node_zonelist(nid, gfp);
	pg_data_t *last_pgdat = NULL;
	struct zoneref *z;
	struct zone *zone;

	for_each_zone_zonelist_nodemask(zone, z, zonelist, highest, nodemask) {
		if (last_pgdat == zone->zone_pgdat)
			continue;
		wakeup_kswapd(zone, gfp, order, highest);
		last_pgdat = zone->zone_pgdat;
	}
}

static unsigned long perform_reclaim(gfp_t gfp, unsigned int order, int nid,
				     nodemask_t *nodemask)
{
	unsigned int noreclaim_flag;
	unsigned long progress;

	noreclaim_flag = memalloc_noreclaim_save();
	progress = try_to_free_pages(node_zonelist(nid, gfp), order, gfp, nodemask);
	memalloc_noreclaim_restore(noreclaim_flag);
	return progress;
}

/*
 * prepare_alloc_pages(): with cpusets in use, a task's allocation is
 * confined to its cpuset's nodes (and reclaims only them)
 */
static nodemask_t *alloc_nodemask(gfp_t *gfp)
{
	if (!cpusets_enabled())
		return NULL;
	*gfp |= __GFP_HARDWALL;
	return in_task() ? &cpuset_current_mems_allowed : NULL;
}

void tb_wake_kswapd(gfp_t gfp, unsigned int order, int nid)
{
	wake_all_kswapds(gfp, order, nid, alloc_nodemask(&gfp));
}

/*
 * __alloc_pages_slowpath()'s word after a reclaim attempt of a high order
 * that did not give a page: give up (false), or reclaim again (true) with
 * *no_progress counted as should_reclaim_retry() counts it, or, out of
 * retries, OOM-kill, which the kernel never does for a costly order
 */
static bool high_order_retry(gfp_t gfp, unsigned int order, unsigned long progress,
			     int *no_progress)
{
	bool costly = order > PAGE_ALLOC_COSTLY_ORDER;

	if (gfp & __GFP_NORETRY)
		return false;
	if (costly && !(gfp & __GFP_RETRY_MAYFAIL))
		return false;
	if (progress && !costly)
		*no_progress = 0;
	else
		(*no_progress)++;
	if (*no_progress <= MAX_RECLAIM_RETRIES)
		return true;
	if (costly || (gfp & __GFP_RETRY_MAYFAIL) || !tb_global_oom(gfp) ||
	    tsk_is_oom_victim(current))
		return false;
	*no_progress = 0;
	return true;
}

/* nid: the preferred node (the local one: numa_node_id()) */
static struct folio *alloc_folio_order(gfp_t gfp, unsigned int order, int nid)
{
	nodemask_t *nodemask = alloc_nodemask(&gfp);
	/* the slow path's flags: a GFP_ATOMIC caller may take part of the reserve under min */
	unsigned int alloc_flags = gfp_to_alloc_flags(gfp, order);
	unsigned long progress;
	struct folio *folio;
	int no_progress = 0;

	might_sleep_if(gfpflags_allow_blocking(gfp));
	/* a large folio is compound: trees without THP here build none */
	if (WARN_ONCE(order >= NR_PAGE_ORDERS || (order && !TB_HAVE_thp_folio_split),
		      "tb: no folio of order %u on this tree", order))
		return NULL;
	folio = get_page_from_zonelist(gfp, order, nid, nodemask, WMARK_LOW, ALLOC_CPUSET);
	if (folio)
		return folio;
	if (gfp & __GFP_KSWAPD_RECLAIM) {
		wake_all_kswapds(gfp, order, nid, nodemask);
		/* kswapd runs on another CPU: here, before the allocation goes on */
		tb_kthreads_run();
		folio = get_page_from_zonelist(gfp, order, nid, nodemask, WMARK_LOW,
					       ALLOC_CPUSET);
		if (folio)
			return folio;
	}
	for (;;) {
		folio = get_page_from_zonelist(gfp, order, nid, nodemask, WMARK_MIN, alloc_flags);
		if (folio || !gfpflags_allow_blocking(gfp) || (current->flags & PF_MEMALLOC))
			return folio;
		if (tsk_is_oom_victim(current))
			return NULL;
		progress = perform_reclaim(gfp, order, nid, nodemask);
		folio = get_page_from_zonelist(gfp, order, nid, nodemask, WMARK_MIN, alloc_flags);
		if (folio)
			return folio;
		if (order) {
			if (high_order_retry(gfp, order, progress, &no_progress))
				continue;
			return NULL;
		}
		if (progress)
			no_progress = 0;
		else
			no_progress++;
		if (no_progress <= MAX_RECLAIM_RETRIES)
			continue;
		if (!tb_global_oom(gfp) || tsk_is_oom_victim(current))
			return NULL;
		no_progress = 0;
	}
}

/*
 * __free_pages(): the last reference of a page the kernel allocated for
 * itself (a page table) frees it without the folio's LRU and charge paths
 * (free_pages_prepare() uncharges a kernel page)
 */
void tb_page_free(struct page *page, unsigned int order)
{
	if (put_page_testzero(page))
		free_unref_page(page, order);
}

/*
 * __alloc_pages(): a __GFP_ACCOUNT page is charged to the current task's
 * memcg as kernel memory, and freed if the charge fails
 */
struct folio *tb_alloc_folio_order(gfp_t gfp, unsigned int order, int nid)
{
	struct folio *folio = alloc_folio_order(gfp, order, nid);
	unsigned long i;

	/* post_alloc_hook(): __GFP_ZERO clears every page */
	for (i = 0; folio && (gfp & __GFP_ZERO) && i < (1UL << order); i++)
		tb_page_set_data(folio_page(folio, i), false);
	if (folio && (gfp & __GFP_ACCOUNT) &&
	    unlikely(memcg_kmem_charge_page(&folio->page, gfp, order))) {
		tb_page_free(&folio->page, order);
		return NULL;
	}
	return folio;
}

struct folio *tb_alloc_folio(gfp_t gfp, int nid)
{
	return tb_alloc_folio_order(gfp, 0, nid);
}

/*
 * __alloc_pages() for a caller that may not block (demotion's GFP_NOWAIT
 * target): the fast path at low, kswapd woken, then the slow path's
 * watermark and reserves; never reclaim. Within nodemask, or the task's
 * cpuset as prepare_alloc_pages() gives it (whose __GFP_HARDWALL keeps a
 * given nodemask within the cpuset too); __GFP_THISNODE selects the
 * node's no-fallback zonelist.
 */
struct folio *tb_alloc_folio_nowait(gfp_t gfp, int nid, nodemask_t *nodemask)
{
	nodemask_t *cpuset_mems = alloc_nodemask(&gfp);
	unsigned int alloc_flags = gfp_to_alloc_flags(gfp, 0);
	struct folio *folio;

	if (WARN_ON_ONCE(gfpflags_allow_blocking(gfp)))
		return NULL;
	if (!nodemask)
		nodemask = cpuset_mems;
	folio = get_page_from_zonelist(gfp, 0, nid, nodemask, WMARK_LOW, ALLOC_CPUSET);
	if (folio)
		return folio;
	if (gfp & __GFP_KSWAPD_RECLAIM)
		wake_all_kswapds(gfp, 0, nid, nodemask);
	return get_page_from_zonelist(gfp, 0, nid, nodemask, WMARK_MIN, alloc_flags);
}

void free_unref_page(struct page *page, unsigned int order);

/* its name since 6.15, which folio.c's __folio_put() calls */
void free_frozen_pages(struct page *page, unsigned int order)
{
	free_unref_page(page, order);
}

/* free_page_is_bad(): a page freed while something still holds it */
static bool free_page_is_bad(struct page *page)
{
	return WARN_ONCE(page->mapping || atomic_read(&page->_mapcount) != -1 ||
			 page_ref_count(page) || page->memcg_data ||
			 (TB_FLAGS(page) & PAGE_FLAGS_CHECK_AT_FREE),
			 "tb: bad page freed: pfn %lu flags %#lx mapcount %d refs %d memcg %#lx",
			 page_to_pfn(page), TB_FLAGS(page), atomic_read(&page->_mapcount),
			 page_ref_count(page), page->memcg_data);
}

/*
 * free_pages_prepare()'s checks of a large folio's tails, before the head
 * stops saying compound: each tail as free_tail_page_prepare() checks and
 * clears it (compound_head, the mapping); the number found bad
 */
static int free_tails_prepare(struct page *page, unsigned int order)
{
	int bad = 0;
#if TB_HAVE_thp_folio_split
	bool compound = PageCompound(page);
	unsigned int i;

	if (compound) {
		TB_FLAGS(&page[1]) &= ~PAGE_FLAGS_SECOND;
#ifdef NR_PAGES_IN_LARGE_FOLIO
		/* 6.15 on: the folio's size, where page[1]'s memcg_data is */
		((struct folio *)page)->_nr_pages = 0;
#endif
	}
	for (i = 1; i < 1U << order; i++) {
		if (compound)
			bad += tb_free_tail_page_prepare(page, page + i);
		if (free_page_is_bad(page + i)) {
			bad++;
			continue;
		}
		TB_FLAGS(page + i) &= ~PAGE_FLAGS_CHECK_AT_PREP;
	}
#endif
	return bad;
}

/* mm/page_alloc.c: the last reference of a page, or of a folio of 2^order pages, is gone */
void free_unref_page(struct page *page, unsigned int order)
{
	struct zone *zone = page_zone(page);
	unsigned long flags;
	int bad;

	if (WARN_ONCE(!tb_page_in_memmap(page) || order >= NR_PAGE_ORDERS ||
		      (order && !TB_HAVE_thp_folio_split) ||
		      !IS_ALIGNED(page_to_pfn(page), 1UL << order),
		      "tb: freeing a page the world did not allocate (order %u)", order))
		return;
	/* free_pages_prepare(): a kernel page's charge goes with it */
	memcg_kmem_uncharge_page(page, order);
	bad = order ? free_tails_prepare(page, order) : 0;
	/* free_pages_prepare(): an anon page still names its anon_vma */
	if ((unsigned long)page->mapping & TB_MAPPING_FLAGS)
		page->mapping = NULL;
	/* a bad page never goes back to the free lists: the kernel leaks it too */
	if (free_page_is_bad(page) || bad)
		return;
	TB_FLAGS(page) &= ~PAGE_FLAGS_CHECK_AT_PREP;
	page->private = 0;
	spin_lock_irqsave(&zone->lock, flags);
	tb_buddy_free(zone, page, order);
	spin_unlock_irqrestore(&zone->lock, flags);
}

#if TB_HAVE_folios_put_refs
void free_unref_folios(struct folio_batch *fbatch)
{
	unsigned long pages = 0;
	unsigned int i;

	/* the cost of freeing is per page, a large folio's too */
	for (i = 0; i < folio_batch_count(fbatch); i++)
		pages += folio_nr_pages(fbatch->folios[i]);
	tb_charge_reclaimed(pages);
	for (i = 0; i < folio_batch_count(fbatch); i++)
		free_unref_page(&fbatch->folios[i]->page, folio_order(fbatch->folios[i]));
	folio_batch_reinit(fbatch);
}
#endif

#if !TB_HAVE_folios_put_refs
void free_unref_page_list(struct list_head *list)
{
	struct page *page, *next;
	unsigned long nr = 0;

	list_for_each_entry_safe(page, next, list, lru) {
		list_del(&page->lru);
		free_unref_page(page, 0);
		nr++;
	}
	tb_charge_reclaimed(nr);
}

/* trees before 6.10: the world makes no compound pages there */
void destroy_large_folio(struct folio *folio)
{
	free_unref_page(&folio->page, folio_order(folio));
}
#endif

unsigned long tb_free_pages(int nid)
{
	return zone_page_state(&NODE_DATA(nid)->node_zones[ZONE_NORMAL], NR_FREE_PAGES);
}

void tb_mem_fragment(int nid, unsigned long target, struct list_head *held)
{
	struct zone *zone = &NODE_DATA(nid)->node_zones[ZONE_NORMAL];
	struct folio *folio, *next;
	LIST_HEAD(odd);

	/* the rest of the system takes every free page, whatever the watermarks */
	while ((folio = rmqueue(zone, 0)))
		list_add_tail(&folio->lru, folio_pfn(folio) & 1 ? &odd : held);
	/* and frees pages of even pfn: each one's buddy stays held */
	list_for_each_entry_safe(folio, next, held, lru) {
		if (tb_free_pages(nid) >= target)
			break;
		list_del(&folio->lru);
		folio_put(folio);
	}
	list_splice(&odd, held);
}

/* mm/page_alloc.c (globalized) */
bool boost_watermark(struct zone *zone);

void tb_mem_steal_pageblock(int nid)
{
	struct zone *zone = &NODE_DATA(nid)->node_zones[ZONE_NORMAL];
	unsigned long flags;
	bool boosted;

	spin_lock_irqsave(&zone->lock, flags);
	boosted = boost_watermark(zone);
	spin_unlock_irqrestore(&zone->lock, flags);
	if (boosted)
		wakeup_kswapd(zone, 0, 0, zone_idx(zone));
}

unsigned long tb_wmark(int nid, int which)
{
	/* a variable: before 6.5 wmark_pages() did not parenthesize its zone */
	struct zone *zone = &NODE_DATA(nid)->node_zones[ZONE_NORMAL];

	return wmark_pages(zone, which);
}

/* ---- invariants ---- */
/* mm/vmscan.c (globalized): the LRU size counters of zones up to zone_idx */
unsigned long lruvec_lru_size(struct lruvec *lruvec, enum lru_list lru, int zone_idx);

static char check_msg[256];

/*
 * every evictable LRU list of lruvec holds as many pages as its size
 * counters say (unevictable folios are counted but never listed: their
 * lru field holds mlock_count)
 */
static const char *check_lruvec(struct lruvec *lruvec, const char *what)
{
	enum lru_list lru;

	spin_lock_irq(&lruvec->lru_lock);
	for_each_evictable_lru(lru) {
		unsigned long n = 0, counted = 0;
		struct folio *folio;

		list_for_each_entry(folio, &lruvec->lists[lru], lru)
			n += folio_nr_pages(folio);
		counted = lruvec_lru_size(lruvec, lru, MAX_NR_ZONES);
		if (n != counted) {
			snprintf(check_msg, sizeof(check_msg),
				 "%s: LRU %s holds %lu pages, its size says %lu", what,
				 lru_list_name(lru), n, counted);
			spin_unlock_irq(&lruvec->lru_lock);
			return check_msg;
		}
	}
	spin_unlock_irq(&lruvec->lru_lock);
	return NULL;
}

const char *tb_mem_check(void)
{
	struct mem_cgroup *memcg;
	const char *msg = NULL;
	int nid;

	if (!booted)
		return NULL;
	for (nid = 0; nid < (int)nr_node_ids && !msg; nid++) {
		memcg = mem_cgroup_iter(NULL, NULL, NULL);
		do {
			msg = check_lruvec(mem_cgroup_lruvec(memcg, NODE_DATA(nid)),
					   mem_cgroup_is_root(memcg) ? "root" : "memcg");
		} while (!msg && (memcg = mem_cgroup_iter(NULL, memcg, NULL)));
		if (memcg)
			mem_cgroup_iter_break(NULL, memcg);
	}
	return msg;
}

const char *tb_mem_teardown(void)
{
	const char *msg, *files;

	/* what the world's going away queues runs on this thread */
	kshim_async_inline(true);
	tb_task_exit_all();
	files = tb_files_destroy_all();
	msg = tb_mem_check_empty();
	if (files)	/* named first: what the memory check finds may follow from it */
		msg = files;
	/* before the RAM goes: folios a failed case left may be on the LRUs */
	tb_memcg_lru_gen_reset();
	tb_mem_shutdown();
	tb_memcg_shutdown();
	kshim_async_inline(false);
	return msg;
}

/*
 * a node's NR_ISOLATED_ANON or NR_ISOLATED_FILE that is not 0 (the raw
 * count: node_page_state() shows a negative one as 0), or 0
 */
static long isolated_left(int *nid)
{
	enum node_stat_item item;
	long n;

	for (*nid = 0; *nid < (int)nr_node_ids; (*nid)++)
		for (item = NR_ISOLATED_ANON; item <= NR_ISOLATED_FILE; item++) {
			n = atomic_long_read(&NODE_DATA(*nid)->vm_stat[item]);
			if (n)
				return n;
		}
	return 0;
}

/*
 * after every task and file is gone: all RAM free, no swap slot in use,
 * no page counted as isolated from an LRU list
 */
const char *tb_mem_check_empty(void)
{
	long isolated;
	unsigned long free = 0;
	int nid;

	/* kswapd may have stopped mid-reclaim, folios isolated: let it finish */
	tb_kthreads_settle();
	tb_swap_drop_unreferenced();
	lru_add_drain_all();
	for (nid = 0; nid < (int)nr_node_ids; nid++)
		free += tb_free_pages(nid);
	if (free + nr_reserved != nr_memmap)
		snprintf(check_msg, sizeof(check_msg), "%lu of %lu pages not freed",
			 nr_memmap - nr_reserved - free, nr_memmap);
	else if (tb_swap_used())
		snprintf(check_msg, sizeof(check_msg), "%lu swap slots not released",
			 tb_swap_used());
	else if (tb_page_tables_live())
		snprintf(check_msg, sizeof(check_msg), "%lu page tables not freed",
			 tb_page_tables_live());
	else if ((isolated = isolated_left(&nid)))
		snprintf(check_msg, sizeof(check_msg), "node %d: %ld pages counted isolated",
			 nid, isolated);
	else
		return tb_mem_check();
	return check_msg;
}
