/* SPDX-License-Identifier: GPL-2.0-only */
/* bench_primitives' C side: each function runs PRIM_N of one primitive. */
#ifndef _BENCH_PRIM_OPS_H
#define _BENCH_PRIM_OPS_H
#ifdef __cplusplus
extern "C" {
#endif
#define PRIM_N 1000
void prim_setup(void);
void prim_teardown(void);
/* name i (NULL past the last) and its loop */
const char *prim_name(unsigned int i);
void prim_run(unsigned int i);
#ifdef __cplusplus
}
#endif
#endif
