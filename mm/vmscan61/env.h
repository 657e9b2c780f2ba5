/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the 6.1 mm code gets from its environment, beyond the shim: 6.1's
 * shrinker_info (kgen61/memcontrol.h) and, for the seed, the rwsem calls of
 * mm/vmscan.c routed through counters (give-ups are what seed 003 counts).
 */
#ifndef _TB_K61_ENV_H
#define _TB_K61_ENV_H
#include <linux/kernel.h>
#include <linux/atomic.h>
#include <linux/rwsem.h>
#include <linux/memcontrol.h>

#if TB_HAVE_shrinker_c
/* the same switch as 6.12's memcg_kmem_online(), under its 6.1 name */
#define memcg_kmem_enabled_key memcg_kmem_online_key
#include <kgen61/memcontrol.h>
#endif	/* else 6.1 is the main tree: linux/memcontrol.h has them already */

/* static in 6.1's vmscan.c, made global by the extraction (globalize) */
struct shrinker;
struct shrink_control;
unsigned long shrink_slab(gfp_t gfp_mask, int nid, struct mem_cgroup *memcg, int priority);
unsigned long shrink_slab_memcg(gfp_t gfp_mask, int nid, struct mem_cgroup *memcg,
				int priority);
unsigned long do_shrink_slab(struct shrink_control *shrinkctl, struct shrinker *shrinker,
			     int priority);
int expand_shrinker_info(int new_id);
extern int shrinker_nr_max;

bool k61_down_read_trylock(struct rw_semaphore *sem);
bool k61_rwsem_is_contended(struct rw_semaphore *sem);
#endif
