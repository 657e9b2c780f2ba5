/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_CPUSET_H
#define _KSHIM_LINUX_CPUSET_H
/* !CONFIG_CPUSETS: every zone is allowed. */
#include <linux/types.h>
#include <linux/gfp.h>
struct zone;
static inline bool cpuset_zone_allowed(struct zone *z, gfp_t gfp_mask)
{
	return true;
}
#endif
