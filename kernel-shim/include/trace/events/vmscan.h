/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_TRACE_EVENTS_VMSCAN_H
#define _KSHIM_TRACE_EVENTS_VMSCAN_H
/*
 * The vmscan tracepoints, recorded per thread (kshim/trace.h) where a test
 * asserts on them; the others compile to nothing.
 */
#include <kshim/trace.h>
#include <linux/shrinker.h>
/*
 * A kernel tracepoint is a static key: a NOP until a probe attaches. Test
 * builds attach the test bed's recorder for good (KSHIM_TRACE_RECORD);
 * benchmark builds attach nothing, so a call costs what a disabled
 * tracepoint does.
 */
#ifndef KSHIM_TRACE_RECORD
#define KSHIM_TRACE_RECORD 0
#endif
static inline void kshim_trace_shrink_slab_start(struct shrinker *shr, struct shrink_control *sc,
					      long nr_objects_to_shrink, unsigned long cache_items,
					      unsigned long long delta, unsigned long total_scan,
					      int priority)
{
	if (!KSHIM_TRACE_RECORD)
		return;
	kshim_trace.shrink_start_count++;
	kshim_trace.last_start = (struct kshim_trace_shrink_start){
		shr, sc->nid, nr_objects_to_shrink, cache_items, delta, total_scan, priority };
}
static inline void kshim_trace_shrink_slab_end(struct shrinker *shr, int nid, int shrinker_retval,
					    long unused_scan_cnt, long new_scan_cnt, long total_scan)
{
	if (!KSHIM_TRACE_RECORD)
		return;
	kshim_trace.shrink_end_count++;
	kshim_trace.last_end = (struct kshim_trace_shrink_end){
		shr, nid, shrinker_retval, unused_scan_cnt, new_scan_cnt, total_scan };
}
/*
 * Every event takes what the tree passes after the fields recorded here
 * (`...`): a tree that adds an argument (7.0's memcg of
 * mm_shrink_slab_start) needs no edit.
 */
#define trace_mm_shrink_slab_start(shr, sc, nr, items, delta, total, prio, ...) \
	kshim_trace_shrink_slab_start(shr, sc, nr, items, delta, total, prio)
#define trace_mm_shrink_slab_end(shr, nid, ret, unused, new, total, ...) \
	kshim_trace_shrink_slab_end(shr, nid, ret, unused, new, total)
#define trace_mm_vmscan_direct_reclaim_begin(order, gfp, ...) do {					\
	if (KSHIM_TRACE_RECORD)					\
		kshim_trace.direct_reclaim_count++;				\
} while (0)
#define trace_mm_vmscan_direct_reclaim_end(nr, ...) do { } while (0)
#define trace_mm_vmscan_memcg_reclaim_begin(order, gfp, ...) do {					\
	if (KSHIM_TRACE_RECORD)					\
		kshim_trace.memcg_reclaim_count++;				\
} while (0)
#define trace_mm_vmscan_memcg_reclaim_end(nr, ...) do { } while (0)
#define trace_mm_vmscan_memcg_softlimit_reclaim_begin(order, gfp, ...) do { } while (0)
#define trace_mm_vmscan_memcg_softlimit_reclaim_end(nr, ...) do { } while (0)
#define trace_mm_vmscan_kswapd_sleep(nid, ...) do { } while (0)
#define trace_mm_vmscan_kswapd_clear_hopeless(nid, ...) do { } while (0)
/* 7.2's events no test records */
#define trace_mm_vmscan_balance_pgdat_begin(...) do { } while (0)
#define trace_mm_vmscan_balance_pgdat_end(...) do { } while (0)
#define trace_mm_vmscan_kswapd_reclaim_fail(...) do { } while (0)
#define trace_mm_vmscan_node_reclaim_begin(...) do { } while (0)
#define trace_mm_vmscan_node_reclaim_end(...) do { } while (0)
#define trace_mm_vmscan_reclaim_pages(...) do { } while (0)
#define trace_mm_vmscan_kswapd_wake(nid, zid, order, ...) do {	\
	if (KSHIM_TRACE_RECORD)	\
		kshim_trace.kswapd_wake_count++;	\
} while (0)
#define trace_mm_vmscan_wakeup_kswapd(nid, zid, order, gfp, ...) do {	\
	if (KSHIM_TRACE_RECORD)	\
		kshim_trace.wakeup_kswapd_count++;	\
} while (0)
#define trace_mm_vmscan_write_folio(folio, ...) do {	\
	if (KSHIM_TRACE_RECORD)	\
		kshim_trace.write_folio_count++;	\
} while (0)
#define kshim_trace_isolate_add(field, n) do {						\
	kshim_trace.isolate_sum.field += (n);						\
	if ((long)(n) > kshim_trace.isolate_max.field)					\
		kshim_trace.isolate_max.field = (n);					\
} while (0)
/* the trailing arguments: lru (6.12), or isolate_mode and lru (6.1) */
#define trace_mm_vmscan_lru_isolate(zoneidx, order, requested, nr_scan, nr_skip, nr_take, ...) do { \
	if (!KSHIM_TRACE_RECORD)							\
		break;								\
	kshim_trace.isolate_count++;							\
	kshim_trace.isolate_took_count += (nr_take) > 0;				\
	kshim_trace.last_isolate = (struct kshim_trace_isolate){			\
		(nr_scan), (nr_skip), (nr_take) };					\
	kshim_trace_isolate_add(scanned, nr_scan);					\
	kshim_trace_isolate_add(skipped, nr_skip);					\
	kshim_trace_isolate_add(taken, nr_take);					\
} while (0)
#define trace_mm_vmscan_throttled(nid, usec_timeout, usec_delayed, reason, ...) do {		\
	if (!KSHIM_TRACE_RECORD)								\
		break;								\
	kshim_trace.throttled_count++;							\
	kshim_trace.last_throttle_reason = (reason);					\
	if ((unsigned int)(reason) < ARRAY_SIZE(kshim_trace.throttled))			\
		kshim_trace.throttled[reason]++;					\
	kshim_trace.throttled_usecs += (usec_delayed);					\
} while (0)
/* a per-priority sum of kshim_trace: [file][prio], priorities out of range not summed */
#define kshim_trace_sum(field, file, prio, n) do {					\
	if ((unsigned int)(prio) < KSHIM_TRACE_PRIORITIES)				\
		kshim_trace.field[!!(file)][(prio)] += (n);				\
} while (0)
/* the pages written out, which struct reclaim_stat counts before 7.2 */
#if TB_HAVE_reclaim_stat_pageout
#define kshim_stat_pageout(stat) ((stat)->nr_pageout)
#else
#define kshim_stat_pageout(stat) 0
#endif
#define trace_mm_vmscan_lru_shrink_inactive(nid, scanned, reclaimed, stat, prio, file, ...) do {	\
	if (!KSHIM_TRACE_RECORD)								\
		break;								\
	struct kshim_trace_reclaim_stat *__s = &kshim_trace.inactive_stat;		\
	__s->nr_dirty += (stat)->nr_dirty;						\
	__s->nr_unqueued_dirty += (stat)->nr_unqueued_dirty;				\
	__s->nr_congested += (stat)->nr_congested;					\
	__s->nr_writeback += (stat)->nr_writeback;					\
	__s->nr_immediate += (stat)->nr_immediate;					\
	__s->nr_pageout += kshim_stat_pageout(stat);					\
	__s->nr_activate_anon += (stat)->nr_activate[0];				\
	__s->nr_activate_file += (stat)->nr_activate[1];				\
	__s->nr_ref_keep += (stat)->nr_ref_keep;					\
	__s->nr_unmap_fail += (stat)->nr_unmap_fail;					\
	kshim_trace.shrink_inactive_count++;						\
	kshim_trace.last_inactive = (struct kshim_trace_lru_shrink){			\
		nid, scanned, reclaimed, prio, file };					\
	if (!kshim_trace.min_priority || (prio) < kshim_trace.min_priority)		\
		kshim_trace.min_priority = (prio);					\
	kshim_trace_sum(inactive_scanned, file, prio, scanned);				\
	kshim_trace_sum(inactive_reclaimed, file, prio, reclaimed);			\
} while (0)
#define trace_mm_vmscan_lru_shrink_active(nid, taken, activate, deactivate, rotated, prio, file, ...) do { \
	kshim_trace.shrink_active_count++;						\
	kshim_trace.last_active = (struct kshim_trace_lru_shrink){			\
		nid, taken, deactivate, prio, file };					\
	kshim_trace_sum(active_taken, file, prio, taken);				\
	kshim_trace_sum(active_rotated, file, prio, rotated);				\
} while (0)
#endif
