/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_TRACE_EVENTS_HUGE_MEMORY_H
#define _KSHIM_TRACE_EVENTS_HUGE_MEMORY_H
/* khugepaged's and the collapse's tracepoints: nothing listens in the world */
#define trace_mm_khugepaged_scan_pmd(...) do { } while (0)
#define trace_mm_khugepaged_scan(...) do { } while (0)
#define trace_mm_collapse_huge_page(...) do { } while (0)
#define trace_mm_collapse_huge_page_isolate(...) do { } while (0)
#define trace_mm_collapse_huge_page_swapin(...) do { } while (0)
#define trace_mm_khugepaged_scan_file(...) do { } while (0)
#define trace_mm_khugepaged_collapse_file(...) do { } while (0)
#endif
