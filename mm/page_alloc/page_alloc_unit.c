// SPDX-License-Identifier: GPL-2.0-only
/* mm/page_alloc.c's watermark code over the reclaim environment. */
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

#include KPAGE_ALLOC_EXTRACT
