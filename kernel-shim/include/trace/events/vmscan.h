/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_TRACE_EVENTS_VMSCAN_H
#define _KSHIM_TRACE_EVENTS_VMSCAN_H
/* The vmscan tracepoints used by mm/shrinker.c, recorded per thread. */
#include <kshim/trace.h>
#include <linux/shrinker.h>
static inline void trace_mm_shrink_slab_start(struct shrinker *shr, struct shrink_control *sc,
					      long nr_objects_to_shrink, unsigned long cache_items,
					      unsigned long long delta, unsigned long total_scan,
					      int priority)
{
	kshim_trace.shrink_start_count++;
	kshim_trace.last_start = (struct kshim_trace_shrink_start){
		shr, sc->nid, nr_objects_to_shrink, cache_items, delta, total_scan, priority };
}
static inline void trace_mm_shrink_slab_end(struct shrinker *shr, int nid, int shrinker_retval,
					    long unused_scan_cnt, long new_scan_cnt, long total_scan)
{
	kshim_trace.shrink_end_count++;
	kshim_trace.last_end = (struct kshim_trace_shrink_end){
		shr, nid, shrinker_retval, unused_scan_cnt, new_scan_cnt, total_scan };
}
#endif
