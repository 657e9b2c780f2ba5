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
/* one shrink_inactive_list/shrink_active_list call of vmscan.c */
struct kshim_trace_lru_shrink {
	int nid;
	unsigned long nr_scanned;	/* inactive: scanned; active: taken */
	unsigned long nr_reclaimed;	/* inactive: reclaimed; active: deactivated */
	int priority;
	int file;
};
/* sc->priority runs from DEF_PRIORITY (12) down to 0 */
#define KSHIM_TRACE_PRIORITIES 13
struct kshim_trace {
	unsigned long shrink_start_count;
	unsigned long shrink_end_count;
	struct kshim_trace_shrink_start last_start;
	struct kshim_trace_shrink_end last_end;
	/* vmscan.c: reclaim entries, throttling, kswapd, per-LRU shrinks */
	unsigned long direct_reclaim_count;
	unsigned long memcg_reclaim_count;
	unsigned long throttled_count;
	int last_throttle_reason;
	unsigned long kswapd_wake_count;
	/* wakeup_kswapd() calls that woke (or found awake) a node's kswapd */
	unsigned long wakeup_kswapd_count;
	unsigned long write_folio_count;
	unsigned long shrink_inactive_count;
	unsigned long shrink_active_count;
	struct kshim_trace_lru_shrink last_inactive;
	struct kshim_trace_lru_shrink last_active;
	/* the lowest priority (hardest pass) any shrink_inactive_list ran at */
	int min_priority;
	/*
	 * Sums per sc->priority and LRU type ([0] anon, [1] file): pages
	 * shrink_inactive_list scanned and reclaimed, pages shrink_active_list
	 * took off the active list and, of those, kept active (nr_rotated:
	 * referenced VM_EXEC file folios).
	 */
	unsigned long inactive_scanned[2][KSHIM_TRACE_PRIORITIES];
	unsigned long inactive_reclaimed[2][KSHIM_TRACE_PRIORITIES];
	unsigned long active_taken[2][KSHIM_TRACE_PRIORITIES];
	unsigned long active_rotated[2][KSHIM_TRACE_PRIORITIES];
	/* reclaim_throttle() calls that slept, by enum vmscan_throttle_state */
	unsigned long throttled[4];
	/* how long those sleeps lasted (timeout - what was left on wake-up), in µs, summed */
	unsigned long throttled_usecs;
	/*
	 * mm_vmscan_lru_isolate: calls, the last one's figures, their sums
	 * and the largest of each over the calls (isolate_lru_folios(), the
	 * multi-gen LRU's scan_folios())
	 */
	unsigned long isolate_count;
	/* of those, the calls that took at least one folio */
	unsigned long isolate_took_count;
	struct kshim_trace_isolate {
		long scanned, skipped, taken;
	} last_isolate, isolate_sum, isolate_max;
	/* shrink_inactive_list's struct reclaim_stat, summed over its calls */
	struct kshim_trace_reclaim_stat {
		unsigned long nr_dirty, nr_unqueued_dirty, nr_congested, nr_writeback;
		unsigned long nr_immediate, nr_pageout, nr_activate_anon, nr_activate_file;
		unsigned long nr_ref_keep, nr_unmap_fail;
	} inactive_stat;
	/* mm_compaction_suitable: compaction_suitable()'s calls, the last one's order and verdict */
	unsigned long compaction_suitable_count;
	int compaction_suitable_order;
	int compaction_suitable_result;	/* enum compact_result */
};
extern __thread struct kshim_trace kshim_trace;
void kshim_trace_reset(void);
#endif
