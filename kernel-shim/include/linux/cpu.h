/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_CPU_H
#define _KSHIM_LINUX_CPU_H
/* Virtual CPUs never go offline: hotplug callbacks are never called. */
#include <linux/cpumask.h>
enum cpuhp_state { CPUHP_MM_MEMCQ_DEAD, CPUHP_MM_VMSTAT_DEAD };
static inline int cpuhp_setup_state_nocalls(enum cpuhp_state state, const char *name,
					    int (*startup)(unsigned int cpu),
					    int (*teardown)(unsigned int cpu))
{
	return 0;
}
#define cpus_read_lock() do { } while (0)
#define cpus_read_unlock() do { } while (0)
#endif
