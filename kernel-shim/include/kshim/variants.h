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
#endif
