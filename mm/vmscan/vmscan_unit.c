// SPDX-License-Identifier: GPL-2.0-only
/*
 * mm/vmscan.c's extract (#line markers into the tree) over the reclaim
 * environment, and the variants that hook it (seeds 000 and 002).
 */
#include "vmscan/reclaim_env.h"

/*
 * The seeds' variants hook trees they are written for (vmscan.manifest's
 * `if` lines, tools/tb_features.py's VARIANTS): seed 000 mm/vmscan.c since
 * the shrinker left it, seed 002 MGLRU's memcg LRU. Elsewhere the real code
 * runs alone. A variant left out of a build that could have it
 * (TB_VARIANTS_OFF: a patch under `tools/tb compare` changes what it
 * replaces) steps aside: its calls below do nothing and the tree's own
 * code, the patch's, runs in its place.
 */
#define TB_SEED000_VARIANT TB_HAVE_variant_global_shrink_priority
#define TB_SEED002_VARIANT TB_HAVE_variant_memcg_iter

/* the variants' declarations below come before the extract defines it */
struct scan_control;
#if TB_SEED000_VARIANT
/*
 * kextract `wrap`: the real definitions become __real_*; the variant
 * defines the names (mm/variants/global_shrink_priority.c).
 */
void shrink_lruvec(struct lruvec *lruvec, struct scan_control *sc);
static void shrink_active_list(unsigned long nr_to_scan, struct lruvec *lruvec,
			       struct scan_control *sc, enum lru_list lru);
static void kswapd_age_node(struct pglist_data *pgdat, struct scan_control *sc);
#endif
#if TB_SEED002_VARIANT
/* seed 002 (mm/variants/memcg_iter_shrink_many.c) */
static void shrink_many(struct pglist_data *pgdat, struct scan_control *sc);
static int shrink_one(struct lruvec *lruvec, struct scan_control *sc);
static void lru_gen_shrink_lruvec(struct lruvec *lruvec, struct scan_control *sc);
static void lru_gen_rotate_memcg(struct lruvec *lruvec, int op);
#endif
#if TB_SEED000_VARIANT || TB_SEED002_VARIANT
/*
 * root reclaim: lruvecs the memcg walk handed to reclaim (classic
 * shrink_lruvec(), MGLRU shrink_one()), seed 002's cost of a walk
 */
static atomic_long_t tb_root_visits = ATOMIC_LONG_INIT(0);
#endif
#if TB_SEED000_VARIANT
/* seed 000: shrink_node_memcgs()'s two calls that take the memcg's value */
static bool seed000_below_min(struct mem_cgroup *target, struct mem_cgroup *memcg,
			      struct scan_control *sc);
static unsigned long seed000_shrink_slab(gfp_t gfp_mask, int nid, struct mem_cgroup *memcg,
					 int priority, struct scan_control *sc);
#define mem_cgroup_below_min(target, memcg) seed000_below_min(target, memcg, sc)
#define shrink_slab(gfp, nid, memcg, prio) seed000_shrink_slab(gfp, nid, memcg, prio, sc)
#endif

#include KVMSCAN_EXTRACT

#if TB_SEED000_VARIANT
#undef mem_cgroup_below_min
#undef shrink_slab
#include "variants/global_shrink_priority.c"
#endif
#if TB_SEED002_VARIANT
#include "variants/memcg_iter_shrink_many.c"
#endif

#if !TB_SEED000_VARIANT && TB_HAVE_shrinker_c
#include <kshim/variants.h>
/* stepped aside: memory.global_shrink_priority is the tree's, if it has one */
int tb_variant_global_shrink_priority(bool on)
{
	return 0;
}

unsigned long tb_variant_global_shrink_scanned(struct mem_cgroup *memcg, int priority,
					       unsigned long *lru_pages)
{
	if (lru_pages)
		*lru_pages = 0;
	return 0;
}
#endif
#if !TB_SEED002_VARIANT && TB_HAVE_mglru_memcg
#include <kshim/variants.h>
/* stepped aside: every mode runs the tree's own walk; nothing counts visits */
void tb_variant_memcg_iter(enum tb_memcg_iter mode)
{
}

unsigned long tb_variant_memcg_iter_visits(void)
{
	return 0;
}
#endif
