/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_TRACE_EVENTS_READAHEAD_H
#define _KSHIM_TRACE_EVENTS_READAHEAD_H
/* mm/readahead.c's tracepoints (7.x): not recorded */
#define trace_page_cache_ra_unbounded(...) do { } while (0)
#define trace_page_cache_ra_order(...) do { } while (0)
#define trace_page_cache_sync_ra(...) do { } while (0)
#define trace_page_cache_async_ra(...) do { } while (0)
#endif
