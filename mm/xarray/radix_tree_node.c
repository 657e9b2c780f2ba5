// SPDX-License-Identifier: GPL-2.0-only
/*
 * The xa_node cache for lib/xarray.c. radix_tree_init() creates it at
 * boot; here a constructor does, before any world boots, so nodes are
 * counted by the world that allocates them.
 */
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/radix-tree.h>
#include <linux/idr.h>
#include <linux/kmemleak.h>
#include <linux/local_lock.h>
#include <linux/percpu.h>
#include "radix-tree.extract.c"

static void __attribute__((constructor)) kshim_radix_tree_init(void)
{
	radix_tree_node_cachep = kmem_cache_create("radix_tree_node",
			sizeof(struct radix_tree_node), 0, 0, radix_tree_node_ctor);
}

/*
 * idr_preload() leaves nodes in each CPU's pool until the CPU goes
 * offline; a world's end is that moment (kshim_world_check counts leaks).
 */
void kshim_radix_tree_preloads_free(void)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		radix_tree_cpu_dead(cpu);
}

/* radix tree nodes allocated and not freed (the IDR's and the XArray's) */
long kshim_radix_tree_nodes(void)
{
	return __atomic_load_n(&radix_tree_node_cachep->live, __ATOMIC_RELAXED);
}

/* the xa_node cache, for a test's kshim_race_on_next_alloc() */
struct kmem_cache *kshim_radix_tree_node_cache(void)
{
	return radix_tree_node_cachep;
}
