// SPDX-License-Identifier: GPL-2.0-only
/*
 * shrink_slab benchmark fixture: N memcgs under the root, each with the
 * bits of M memcg-aware shrinkers set. The shrinkers are bottomless
 * (scanning frees nothing from the count), so every pass does the same
 * work: the lockless shrinker_info walk, refcounting and do_shrink_slab.
 */
#include <linux/memcontrol.h>
#include <linux/shrinker.h>
#include <kshim/memcg.h>
#include <kshim/testbed.h>
#include "shrinker_ops.h"

#define SB_OBJECTS 4096

static struct {
	struct mem_cgroup *root;
	struct mem_cgroup **memcg;
	struct shrinker **shrinker;
	unsigned int nr_memcgs, nr_shrinkers;
} sb;

static unsigned long sb_count(struct shrinker *s, struct shrink_control *sc)
{
	return SB_OBJECTS;
}

static unsigned long sb_scan(struct shrinker *s, struct shrink_control *sc)
{
	return sc->nr_to_scan;
}

void sb_setup(unsigned int nr_memcgs, unsigned int nr_shrinkers)
{
	struct kshim_world_config cfg = { .nr_cpus = 4, .nr_nodes = 1, .seed = 1 };
	unsigned int i, j;

	kshim_world_boot(&cfg);
	sb.nr_memcgs = nr_memcgs;
	sb.nr_shrinkers = nr_shrinkers;
	sb.root = kshim_memcg_create(NULL);
	sb.memcg = calloc(nr_memcgs, sizeof(*sb.memcg));
	sb.shrinker = calloc(nr_shrinkers, sizeof(*sb.shrinker));
	for (i = 0; i < nr_memcgs; i++)
		sb.memcg[i] = kshim_memcg_create(sb.root);
	for (j = 0; j < nr_shrinkers; j++) {
		struct shrinker *s = shrinker_alloc(SHRINKER_MEMCG_AWARE, "bench");

		s->count_objects = sb_count;
		s->scan_objects = sb_scan;
		shrinker_register(s);
		sb.shrinker[j] = s;
		for (i = 0; i < nr_memcgs; i++)
			set_shrinker_bit(sb.memcg[i], 0, s->id);
	}
}

void sb_teardown(void)
{
	unsigned int i;

	for (i = 0; i < sb.nr_shrinkers; i++)
		shrinker_free(sb.shrinker[i]);
	for (i = 0; i < sb.nr_memcgs; i++)
		kshim_memcg_destroy(sb.memcg[i]);
	kshim_memcg_destroy(sb.root);
	free(sb.memcg);
	free(sb.shrinker);
	kshim_world_teardown();
}

void sb_thread_enter(int cpu)
{
	kshim_thread_enter(cpu);
}

void sb_thread_exit(void)
{
	kshim_thread_exit();
}

unsigned long sb_shrink_all(int nid, int priority)
{
	return kshim_shrink_memcgs(sb.root, nid, priority, NULL);
}
