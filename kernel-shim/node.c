// SPDX-License-Identifier: GPL-2.0-only
/* The nodes of the simulated machine and their vmstat counters. */
#include <linux/mmzone.h>
#include <linux/vmstat.h>
#include <linux/atomic.h>

struct pglist_data kshim_nodes[MAX_NUMNODES];

void __mod_node_page_state(struct pglist_data *pgdat, enum node_stat_item item, long delta)
{
	atomic_long_add(delta, &pgdat->vm_stat[item]);
}

unsigned long node_page_state(struct pglist_data *pgdat, enum node_stat_item item)
{
	long x = atomic_long_read(&pgdat->vm_stat[item]);

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
