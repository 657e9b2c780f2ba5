/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_TOPOLOGY_H
#define _KSHIM_LINUX_TOPOLOGY_H
/*
 * The machine's NUMA topology: each virtual CPU sits on one node (the
 * world's boot spreads them in blocks, as firmware numbers them), and a
 * node is at LOCAL_DISTANCE from itself and REMOTE_DISTANCE from every
 * other (a flat SLIT, as QEMU's -numa gives without dist options).
 */
#include <linux/numa.h>
#include <kshim/cpu.h>

#define LOCAL_DISTANCE 10
#define REMOTE_DISTANCE 20
#define node_distance(a, b) ((a) == (b) ? LOCAL_DISTANCE : REMOTE_DISTANCE)
/* the distance past which node reclaim and khugepaged keep off a node */
#define RECLAIM_DISTANCE 30
extern int node_reclaim_distance;
/* find_next_best_node(): a node with CPUs is a little farther */
#define PENALTY_FOR_NODE_WITH_CPUS 1

extern int kshim_cpu_node[KSHIM_MAX_CPUS];

static inline int cpu_to_node(int cpu)
{
	return kshim_cpu_node[cpu];
}

/* the node of the CPU the calling thread runs on */
#define numa_node_id() cpu_to_node(kshim_ctx.cpu)
/* every node has memory: the local memory node is the local node */
#define numa_mem_id() numa_node_id()
#endif
