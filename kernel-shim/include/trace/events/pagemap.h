/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_TRACE_EVENTS_PAGEMAP_H
#define _KSHIM_TRACE_EVENTS_PAGEMAP_H
/* mm/swap.c's LRU tracepoints: not recorded */
#define trace_mm_lru_insertion(folio, ...) do { } while (0)
#define trace_mm_lru_activate(folio, ...) do { } while (0)
/* 7.2's drains of the per-CPU batches */
#define trace_mm_lru_add_drain_tp(...) do { } while (0)
#define trace_mm_lru_add_drain_all_tp(...) do { } while (0)
#endif
