/* SPDX-License-Identifier: GPL-2.0-only */
/* Plain C interface to the shrink_slab benchmark fixture. */
#ifndef _BENCH_SHRINKER_OPS_H
#define _BENCH_SHRINKER_OPS_H
#ifdef __cplusplus
extern "C" {
#endif

void sb_setup(unsigned int nr_memcgs, unsigned int nr_shrinkers);
void sb_teardown(void);
void sb_thread_enter(int cpu);
void sb_thread_exit(void);
/* one reclaim pass: shrink_slab on every memcg, as shrink_node_memcgs */
unsigned long sb_shrink_all(int nid, int priority);

#ifdef __cplusplus
}
#endif
#endif
