/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_TRACE_EVENTS_COMPACTION_H
#define _KSHIM_TRACE_EVENTS_COMPACTION_H
/*
 * The compaction tracepoint mm/compaction.c's compaction_suitable() fires,
 * recorded per thread (kshim/trace.h) in test builds, as the vmscan ones
 * are (trace/events/vmscan.h)
 */
#include <kshim/trace.h>
#ifndef KSHIM_TRACE_RECORD
#define KSHIM_TRACE_RECORD 0
#endif
#define trace_mm_compaction_suitable(zone, order, ret, ...) do {	\
	if (KSHIM_TRACE_RECORD) {				\
		kshim_trace.compaction_suitable_count++;	\
		kshim_trace.compaction_suitable_order = (order);	\
		kshim_trace.compaction_suitable_result = (ret);	\
	}							\
} while (0)
#endif
