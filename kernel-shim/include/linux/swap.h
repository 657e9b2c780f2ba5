/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_SWAP_H
#define _KSHIM_LINUX_SWAP_H
/*
 * Reclaim entry points, the LRU functions of mm/swap.c, workingset and
 * swap accounting as the kernel declares them (kgen/swap.h); reclaim is
 * the real mm/vmscan.c, the swap device the world's
 * (kernel-shim/world/swap.c).
 */
#include <linux/types.h>
#include <linux/atomic.h>
#include <linux/memcontrol.h>
#include <linux/cgroup.h>

extern int vm_swappiness;
extern long total_swap_pages;
extern atomic_long_t nr_swap_pages;
#if TB_HAVE_swap_ops || TB_HAVE_swapin_thp
/* struct swap_info_struct's members (6.12 on: kgen/swap.h has it) */
#include <linux/plist_types.h>
#include <linux/rbtree_types.h>
#include <linux/completion.h>
#include <linux/percpu-refcount.h>
#include <linux/workqueue.h>
#endif
/* uapi/linux/mempolicy.h: vm.zone_reclaim_mode's bits (node_reclaim_enabled()) */
/* (spelt as there: a unit that includes it too sees one definition) */
#define RECLAIM_ZONE	(1<<0)
#define RECLAIM_WRITE	(1<<1)
#define RECLAIM_UNMAP	(1<<2)
#include <kgen/swap.h>
#if TB_HAVE_swap_ops
#include <kgen/swap_ops.h>
#endif
#if !TB_HAVE_swappiness_range
/* before 6.8 the vm.swappiness sysctl's bound (kernel/sysctl.c), unnamed */
#define MAX_SWAPPINESS 200
#endif

void lru_add_drain_all(void);
#endif
