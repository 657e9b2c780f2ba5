/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_TRACEPOINT_DEFS_H
#define _KSHIM_LINUX_TRACEPOINT_DEFS_H
/* No tracepoint infrastructure: a declared tracepoint is never enabled. */
#define DECLARE_TRACEPOINT(tp) extern int __kshim_tracepoint_##tp
#define tracepoint_enabled(tp) 0
#endif
