/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Variants: changes that are in no kernel tree (mm/variants/), selected at
 * run time beside the real code they hook.
 */
#ifndef _KSHIM_VARIANTS_H
#define _KSHIM_VARIANTS_H
#include <linux/types.h>

struct mem_cgroup;

/*
 * Seed 000: memory.global_shrink_priority (mm/variants/global_shrink_priority.c).
 * Select it after tb_memcg_boot(): every memcg's value is reset to 12 and
 * the control file appears; off, the real 6.12 code runs untouched.
 */
int tb_variant_global_shrink_priority(bool on);
/*
 * pages shrink_lruvec() scanned in memcg at sc->priority in global reclaim,
 * and (*lru_pages) the evictable LRU pages summed over those calls
 */
unsigned long tb_variant_global_shrink_scanned(struct mem_cgroup *memcg, int priority,
					       unsigned long *lru_pages);
/*
 * Seed 002: MGLRU's root reclaim walks memcgs with mem_cgroup_iter() and a
 * per-node cookie instead of the memcg LRU (mm/variants/memcg_iter_shrink_many.c).
 * AS_POSTED is the seed's diff, which leaks a memcg reference when a walk
 * without a cookie (kswapd's) stops early; FIXED drops it. OFF: 6.12.
 */
enum tb_memcg_iter {
	TB_MEMCG_ITER_OFF,
	TB_MEMCG_ITER_AS_POSTED,
	TB_MEMCG_ITER_FIXED,
};
void tb_variant_memcg_iter(enum tb_memcg_iter mode);	/* and zeroes the visits */
/* lruvecs root reclaim handed to reclaim, MGLRU (either walk) or classic */
unsigned long tb_variant_memcg_iter_visits(void);
#endif
