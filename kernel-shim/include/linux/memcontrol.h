/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_MEMCONTROL_H
#define _KSHIM_LINUX_MEMCONTROL_H
/*
 * struct mem_cgroup, its per-node info and the inline helpers come from
 * the real include/linux/memcontrol.h (kgen/memcontrol.h, extracted at
 * configure time); what memcontrol.c itself provides is declared here.
 */
#include <linux/kernel.h>
#include <linux/cgroup.h>
#include <linux/page_counter.h>
#include <linux/vmpressure.h>
#include <linux/mmzone.h>
#include <linux/workqueue.h>
#include <linux/jump_label.h>
#include <linux/refcount.h>
#include <linux/spinlock.h>
#include <linux/vmstat.h>
#include <linux/vm_event_item.h>
#include <linux/mm.h>
#include <linux/shrinker.h>

#include <kgen/memcontrol.h>

struct mem_cgroup *mem_cgroup_iter(struct mem_cgroup *root, struct mem_cgroup *prev,
				   struct mem_cgroup_reclaim_cookie *reclaim);
void mem_cgroup_iter_break(struct mem_cgroup *root, struct mem_cgroup *prev);

/* mm/shrinker.c */
int alloc_shrinker_info(struct mem_cgroup *memcg);
void free_shrinker_info(struct mem_cgroup *memcg);
void set_shrinker_bit(struct mem_cgroup *memcg, int nid, int shrinker_id);
void reparent_shrinker_deferred(struct mem_cgroup *memcg);
#endif
