/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_SWAP_H
#define _KSHIM_LINUX_SWAP_H
/*
 * Reclaim entry points and swap space as memcg sees them. The constants
 * and mem_cgroup_swappiness() are the real ones (kgen/swap.h); reclaim
 * itself is the test bed's (kernel-shim/memcg_env.c scripts it until
 * vmscan.c arrives).
 */
#include <linux/types.h>
#include <linux/memcontrol.h>
#include <linux/cgroup.h>

extern int vm_swappiness;
extern long total_swap_pages;
#include <kgen/swap.h>

extern atomic_long_t nr_swap_pages;
static inline void lru_add_drain_all(void)
{
}
#endif
