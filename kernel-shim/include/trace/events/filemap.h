/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_TRACE_EVENTS_FILEMAP_H
#define _KSHIM_TRACE_EVENTS_FILEMAP_H
/* mm/filemap.c's tracepoints: not recorded */
#define trace_mm_filemap_add_to_page_cache(folio) do { } while (0)
#define trace_mm_filemap_delete_from_page_cache(folio) do { } while (0)
#define trace_mm_filemap_fault(...) do { } while (0)
#define trace_mm_filemap_map_pages(...) do { } while (0)
#endif
