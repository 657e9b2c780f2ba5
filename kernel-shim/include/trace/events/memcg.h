/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_TRACE_EVENTS_MEMCG_H
#define _KSHIM_TRACE_EVENTS_MEMCG_H
/*
 * The memcg tracepoints of mm/memcontrol.c (6.14): no probe attaches to
 * them in the test bed, so each is a disabled tracepoint, whatever the
 * tree passes it
 */
#define trace_mod_memcg_state(...) do { } while (0)
#define trace_mod_memcg_lruvec_state(...) do { } while (0)
#define trace_count_memcg_events(...) do { } while (0)
#define trace_memcg_flush_stats(...) do { } while (0)
#endif
