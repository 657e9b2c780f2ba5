/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_GFP_H
#define _KSHIM_LINUX_GFP_H
/*
 * The gfp flag values (real linux/gfp_types.h) and the zone and zonelist
 * selection of linux/gfp.h (kgen/gfp.h). Every node's memory is
 * ZONE_NORMAL (and an empty ZONE_MOVABLE).
 */
#include <linux/types.h>
#include <linux/gfp_types.h>
#include <linux/topology.h>
#ifndef KSHIM_GFP_NO_ZONES
#include <linux/mmzone.h>
#define page_group_by_mobility_disabled 0
#include <kgen/gfp.h>
/* no allocation profiling (CONFIG_MEM_ALLOC_PROFILING off) */
#define vma_alloc_folio(...)	vma_alloc_folio_noprof(__VA_ARGS__)
#define folio_alloc(...)	folio_alloc_noprof(__VA_ARGS__)
/* the world's allocator on a preferred node (khugepaged's collapse) */
struct folio *__folio_alloc_noprof(gfp_t gfp, unsigned int order, int preferred_nid,
				   nodemask_t *nodemask);
#define __folio_alloc(...)	__folio_alloc_noprof(__VA_ARGS__)
/* linux/gfp.h's: on the node, the world's allocator */
static inline struct folio *__folio_alloc_node_noprof(gfp_t gfp, unsigned int order, int nid)
{
	return __folio_alloc_noprof(gfp | __GFP_THISNODE, order, nid, NULL);
}
#else
static inline bool gfpflags_allow_blocking(const gfp_t gfp_flags)
{
	return !!(gfp_flags & __GFP_DIRECT_RECLAIM);
}
#endif
#endif
