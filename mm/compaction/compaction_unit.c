// SPDX-License-Identifier: GPL-2.0-only
/*
 * mm/compaction.c's compaction_suitable() and reset_isolation_suitable(),
 * and mm/vmstat.c's fragmentation_index(), over the reclaim environment.
 */
#include "vmscan/reclaim_env.h"
#include <linux/math64.h>
#include <kgen/mm_internal_page_alloc.h>
#include <trace/events/compaction.h>

/*
 * A pageblock's skip hint, reset when a full compaction has finished
 * (zone->compact_blockskip_flush): compaction never runs in the world, so
 * nothing set the flag and the walk that calls this never starts.
 */
static bool __reset_isolation_pfn(struct zone *zone, unsigned long pfn, bool check_source,
				  bool check_target)
{
	WARN_ONCE(1, "tb: compaction never ran, yet zone %s has skip hints to reset",
		  zone->name);
	return false;
}

#include KCOMPACTION_EXTRACT
#include KVMSTAT_FRAG_EXTRACT
