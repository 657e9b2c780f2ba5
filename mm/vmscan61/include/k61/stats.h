/* SPDX-License-Identifier: GPL-2.0-only */
/* Give-up counters of 6.1's shrink_slab paths (no kernel types: C++ safe). */
#ifndef _TB_K61_STATS_H
#define _TB_K61_STATS_H
#ifdef __cplusplus
extern "C" {
#endif
struct k61_stats {
	long trylock_fails;	/* ... that failed: the call gave up */
	long contended_breaks;	/* shrink_slab_memcg stopped early */
};
void k61_stats_read(struct k61_stats *st);
void k61_stats_reset(void);
#ifdef __cplusplus
}
#endif
#endif
