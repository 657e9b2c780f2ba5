/* SPDX-License-Identifier: GPL-2.0-only */
/* The test-bed memcg world (kernel-shim/world/memcg_standin.c). */
#ifndef _KSHIM_MEMCG_H
#define _KSHIM_MEMCG_H
#include <linux/types.h>
struct mem_cgroup;
/*
 * What a memcg's online/offline/free call into mm code. NULL (the default):
 * mm/shrinker.c's alloc_shrinker_info, reparent_shrinker_deferred and
 * free_shrinker_info. A world of another tree, or one with list_lrus, sets
 * its own before creating memcgs (seed 003: 6.1's vmscan.c and list_lru.c).
 */
struct kshim_memcg_hooks {
	int (*online)(struct mem_cgroup *memcg);
	void (*offline)(struct mem_cgroup *memcg);
	void (*free)(struct mem_cgroup *memcg);
};
extern const struct kshim_memcg_hooks *kshim_memcg_hooks;
/* a new online memcg under parent (NULL: the root); NULL on -ENOMEM */
struct mem_cgroup *kshim_memcg_create(struct mem_cgroup *parent);
/* rmdir: offline now, freed after the last css reference and a grace period */
void kshim_memcg_destroy(struct mem_cgroup *memcg);
/*
 * One reclaim pass as shrink_node_memcgs() makes it: shrink_slab() on root
 * (NULL: the root memcg) and every memcg below it; returns objects freed
 * and adds the memcgs visited to *visits when given.
 */
unsigned long kshim_shrink_memcgs(struct mem_cgroup *root, int nid, int priority,
				  unsigned long *visits);
/* the same pass with another tree's shrink_slab (6.1's k61_shrink_slab) */
typedef unsigned long (*kshim_shrink_slab_fn)(gfp_t gfp_mask, int nid,
					       struct mem_cgroup *memcg, int priority);
unsigned long kshim_shrink_memcgs_with(kshim_shrink_slab_fn shrink, struct mem_cgroup *root,
				       int nid, int priority, unsigned long *visits);
#endif
