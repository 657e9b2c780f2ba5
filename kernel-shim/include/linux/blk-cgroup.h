/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_BLK_CGROUP_H
#define _KSHIM_LINUX_BLK_CGROUP_H
/* no io controller (blk-cgroup): a task's cgroup is never congested */
#include <linux/types.h>
static inline bool blk_cgroup_congested(void)
{
	return false;
}
#endif
