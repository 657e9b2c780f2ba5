/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_NUMA_H
#define _KSHIM_LINUX_NUMA_H
#define NODES_SHIFT CONFIG_NODES_SHIFT
#define MAX_NUMNODES (1 << NODES_SHIFT)
#define NUMA_NO_NODE (-1)
#endif
