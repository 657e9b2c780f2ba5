// SPDX-License-Identifier: GPL-2.0-only
/* The nodes of the simulated machine and their vmstat counters. */
#include <linux/mmzone.h>
#include <linux/vmstat.h>
#include <linux/atomic.h>
#include <linux/mm.h>

struct pglist_data kshim_nodes[MAX_NUMNODES];

void __mod_node_page_state(struct pglist_data *pgdat, enum node_stat_item item, long delta)
{
	atomic_long_add(delta, &pgdat->vm_stat[item]);
}

void __mod_zone_page_state(struct zone *zone, enum zone_stat_item item, long delta)
{
	atomic_long_add(delta, &zone->vm_stat[item]);
}

/* mm/vmstat.c's thresholds: 0, every update reaches the counter at once */
int calculate_pressure_threshold(struct zone *zone)
{
	return 0;
}

int calculate_normal_threshold(struct zone *zone)
{
	return 0;
}

unsigned long sum_zone_node_page_state(int node, enum zone_stat_item item)
{
	struct zone *zones = NODE_DATA(node)->node_zones;
	unsigned long count = 0;
	int i;

	for (i = 0; i < MAX_NR_ZONES; i++)
		count += zone_page_state(zones + i, item);
	return count;
}

unsigned long node_page_state(struct pglist_data *pgdat, enum node_stat_item item)
{
	long x = atomic_long_read(&pgdat->vm_stat[item]);

	return x < 0 ? 0 : x;
}

/* the nodes' counts summed (the kernel keeps a global vm_node_stat[] too) */
unsigned long global_node_page_state(enum node_stat_item item)
{
	long x = 0;
	int nid;

	for (nid = 0; nid < MAX_NUMNODES; nid++)
		x += atomic_long_read(&kshim_nodes[nid].vm_stat[item]);
	return x < 0 ? 0 : x;
}

/* world boot: every node empty, with its id */
void kshim_nodes_reset(void)
{
	int nid;

	memset(kshim_nodes, 0, sizeof(kshim_nodes));
	for (nid = 0; nid < MAX_NUMNODES; nid++)
		kshim_nodes[nid].node_id = nid;
}

/*
 * A folio as the allocator hands it out: one reference, its node and zone
 * in page->flags, and for more than one page the head flag and size. The
 * memcg suites charge "folios" of any page count as a stand-in for a
 * batch of pages; the memory world only makes 2^order ones.
 */
void kshim_folio_prep(struct folio *folio, unsigned long nr_pages, int nid)
{
	memset(folio, 0, sizeof(*folio));
	set_page_links(&folio->page, ZONE_NORMAL, nid, 0);
	INIT_LIST_HEAD(&folio->lru);
	atomic_set(&folio->_refcount, 1);
	atomic_set(&folio->_mapcount, -1);
	if (nr_pages > 1) {
		__set_bit(PG_head, &TB_FLAGS(folio));
#if TB_HAVE_folio_nr_pages_member
		folio->_nr_pages = nr_pages;
#else
		folio->_folio_nr_pages = nr_pages;
#endif
#if TB_HAVE_folio_order_member
		/* before 6.6: the order in a byte of its own and one compound
		 * mapcount (prep_compound_head()) */
		folio->_folio_order = ilog2(roundup_pow_of_two(nr_pages));
		atomic_set(&folio->_total_mapcount, -1);
#else
		folio->_flags_1 = ilog2(roundup_pow_of_two(nr_pages));
		atomic_set(&folio->_large_mapcount, -1);
		atomic_set(&folio->_entire_mapcount, -1);
#endif
#ifdef CONFIG_MM_ID
		/* prep_compound_head(): no mm maps it yet */
		folio->_mm_ids = 0;
		folio->_mm_id_mapcount[0] = -1;
		folio->_mm_id_mapcount[1] = -1;
#endif
	}
}
