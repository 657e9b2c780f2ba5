/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_KSHIM_TRACE_H
#define _KSHIM_KSHIM_TRACE_H
/*
 * Tracepoints the test bed records: the last events of each kind, so a
 * test can assert what the kernel computed internally (e.g. the scan
 * target shrink_slab derived from the priority).
 */
#include <linux/types.h>
struct shrinker;
struct shrink_control;
struct kshim_trace_shrink_start {
	struct shrinker *shr;
	int nid;
	long nr_objects_to_shrink;
	unsigned long cache_items;
	unsigned long long delta;
	unsigned long total_scan;
	int priority;
};
struct kshim_trace_shrink_end {
	struct shrinker *shr;
	int nid;
	int shrinker_retval;
	long unused_scan_cnt;
	long new_scan_cnt;
	long total_scan;
};
struct kshim_trace {
	unsigned long shrink_start_count;
	unsigned long shrink_end_count;
	struct kshim_trace_shrink_start last_start;
	struct kshim_trace_shrink_end last_end;
};
extern __thread struct kshim_trace kshim_trace;
void kshim_trace_reset(void);
#endif
