/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_MMZONE_H
#define _KSHIM_LINUX_MMZONE_H
/* Real mmzone.h pieces (kgen/mmzone.h, extracted at configure time). */
#include <linux/types.h>
#include <linux/list.h>
#include <linux/spinlock.h>
#include <linux/atomic.h>
#include <linux/nodemask.h>
#include <linux/zswap.h>
#include <linux/bounds.h>
/* pg_data_t is the whole node; mm code here only passes pointers to it */
typedef struct pglist_data pg_data_t;
#include <kgen/mmzone.h>

/*
 * A node of the simulated machine: its root lruvec and node vmstat
 * counters; the rest of the kernel's pglist_data is not modelled.
 */
struct pglist_data {
	int node_id;
	struct lruvec __lruvec;
	atomic_long_t vm_stat[NR_VM_NODE_STAT_ITEMS];
};
extern struct pglist_data kshim_nodes[MAX_NUMNODES];
#define NODE_DATA(nid) (&kshim_nodes[nid])
#endif
