/* SPDX-License-Identifier: GPL-2.0-only */
/* Plain C interface to the 6.1 vs 6.12 shrink_slab fixture (shrink_trees_ops.c). */
#ifndef _BENCH_SHRINK_TREES_OPS_H
#define _BENCH_SHRINK_TREES_OPS_H
#ifdef __cplusplus
extern "C" {
#endif

/* tree 0: 6.1 (rwsem), 1: 6.12 (lockless); churn: a mount/umount thread */
void st_setup(int tree, unsigned int nr_memcgs, int churn);
/* stops the churn thread; the world is kept for the next setup of the same shape */
void st_teardown(void);
/* tears the kept world down; nonzero when it leaked or an object was freed twice */
int st_shutdown(void);
void st_thread_enter(int cpu);
void st_thread_exit(void);
/* one reclaim pass over every memcg at DEF_PRIORITY; memcgs visited */
unsigned long st_pass(void);
/* since the setup: 6.1's failed trylocks of shrinker_rwsem, its contended breaks */
void st_giveups(long *trylock_fails, long *contended_breaks);
long st_churned(void);

#ifdef __cplusplus
}
#endif
#endif
