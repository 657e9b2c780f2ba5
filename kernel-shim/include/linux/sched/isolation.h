/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_SCHED_ISOLATION_H
#define _KSHIM_LINUX_SCHED_ISOLATION_H
/* No isolated CPUs in the test bed: drain_all_stock visits every CPU. */
#include <linux/types.h>
static inline bool cpu_is_isolated(int cpu)
{
	return false;
}
#endif
