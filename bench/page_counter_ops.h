/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Plain C interface to the page_counter benchmark fixture, so the C++
 * benchmark code never sees a kernel header.
 */
#ifndef _BENCH_PAGE_COUNTER_OPS_H
#define _BENCH_PAGE_COUNTER_OPS_H
#ifdef __cplusplus
extern "C" {
#endif

void pcb_setup(unsigned int depth);
void pcb_teardown(void);
void pcb_thread_enter(int cpu);
void pcb_thread_exit(void);
int pcb_charge_uncharge(void);

#ifdef __cplusplus
}
#endif
#endif
