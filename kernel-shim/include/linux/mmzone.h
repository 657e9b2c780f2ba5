/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_MMZONE_H
#define _KSHIM_LINUX_MMZONE_H
/*
 * The kernel's own node and zone structures, lruvec and their helpers
 * (kgen/mmzone.h, extracted at configure time). The world boots the
 * nodes (kernel-shim/world/): one pglist_data per node, as on x86-64.
 */
#include <linux/types.h>
#include <linux/list.h>
#include <linux/llist.h>
#include <linux/spinlock.h>
#include <linux/atomic.h>
#include <linux/wait.h>
#include <linux/cache.h>
#include <linux/nodemask.h>
#include <linux/zswap.h>
#include <linux/list_nulls.h>
#include <generated/bounds.h>
#include <linux/page-flags-layout.h>
#include <linux/mm_types.h>

typedef struct pglist_data pg_data_t;
#include <kgen/mmzone.h>
#if !TB_HAVE_max_page_order
#define NR_PAGE_ORDERS MAX_ORDER	/* before 6.8 MAX_ORDER counted the orders */
#endif

extern struct pglist_data kshim_nodes[MAX_NUMNODES];
#define NODE_DATA(nid) (&kshim_nodes[nid])
#endif
