/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_GFP_H
#define _KSHIM_LINUX_GFP_H
/* The gfp flag values are the kernel's own (real linux/gfp_types.h). */
#include <linux/types.h>
#include <linux/gfp_types.h>
static inline bool gfpflags_allow_blocking(const gfp_t gfp_flags)
{
	return !!(gfp_flags & __GFP_DIRECT_RECLAIM);
}
#define numa_node_id() 0
#define numa_mem_id() 0
#endif
