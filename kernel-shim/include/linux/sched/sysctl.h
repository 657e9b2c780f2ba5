/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_SCHED_SYSCTL_H
#define _KSHIM_LINUX_SCHED_SYSCTL_H
/* !CONFIG_NUMA_BALANCING: no memory tiering mode */
#define NUMA_BALANCING_MEMORY_TIERING 0x2
#define sysctl_numa_balancing_mode 0
#endif
