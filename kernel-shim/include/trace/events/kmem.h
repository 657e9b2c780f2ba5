/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_TRACE_EVENTS_KMEM_H
#define _KSHIM_TRACE_EVENTS_KMEM_H
/*
 * The kmem tracepoints mm/page_alloc.c's watermark set-up (7.2) and its
 * buddy free lists fire:
 * no probe attaches to them in the test bed, so each is a disabled
 * tracepoint, whatever the tree passes it
 */
#define trace_mm_setup_per_zone_wmarks(...) do { } while (0)
#define trace_mm_setup_per_zone_lowmem_reserve(...) do { } while (0)
#define trace_mm_calculate_totalreserve_pages(...) do { } while (0)
#define trace_mm_page_alloc_zone_locked(...) do { } while (0)
#endif
