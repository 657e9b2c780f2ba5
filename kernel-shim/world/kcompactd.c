// SPDX-License-Identifier: GPL-2.0-only
/*
 * kcompactd, as far as reclaim meets it: kswapd and wakeup_kswapd() wake
 * a node's kcompactd for an order (mm/compaction.c's wakeup_kcompactd()).
 * The world records each wake-up and runs no compaction: its allocator
 * has no blocks of higher order to make, so free pages are never made
 * contiguous and every high-order watermark test fails, as on a machine
 * whose free memory is entirely fragmented.
 */
#include <linux/compaction.h>
#include <linux/mmzone.h>
#include <kshim/mem_tb.h>
#include "world.h"

static struct tb_kcompactd_wakeups wakeups[MAX_NUMNODES];

void wakeup_kcompactd(pg_data_t *pgdat, int order, int highest_zoneidx)
{
	struct tb_kcompactd_wakeups *w = &wakeups[pgdat->node_id];

	w->count++;
	w->last_order = order;
	w->last_highest_zoneidx = highest_zoneidx;
	if (order > w->max_order)
		w->max_order = order;
}

struct tb_kcompactd_wakeups tb_kcompactd_wakeups(int nid)
{
	return wakeups[nid];
}

void tb_kcompactd_reset(void)
{
	memset(wakeups, 0, sizeof(wakeups));
}
