/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Plain C interface to the memcg benchmark fixture (memcg_ops.c), so the
 * C++ benchmark code never sees a kernel header.
 */
#ifndef _BENCH_MEMCG_OPS_H
#define _BENCH_MEMCG_OPS_H
#ifdef __cplusplus
extern "C" {
#endif

void mcb_setup(unsigned int depth);
void mcb_teardown(void);
void mcb_thread_enter(int cpu);
void mcb_thread_exit(void);
/*
 * nr (<= 63) folio charge+uncharge pairs on the calling thread's CPU;
 * miss: every charge misses the per-CPU stock. Returns the nanoseconds
 * spent in the pairs only (the stock refill before them is not timed),
 * or -1 when a charge failed.
 */
long long mcb_charge_run(int miss, unsigned int nr);
/* obj stock: the variant (0 = 6.12 "after", 1 = single slot "before") */
void mcb_objstock_begin(int before);
void mcb_objstock_step(unsigned long i, int alternating);
void mcb_objstock_counts(unsigned long *mod_calls, unsigned long *flush_calls);

#ifdef __cplusplus
}
#endif
#endif
