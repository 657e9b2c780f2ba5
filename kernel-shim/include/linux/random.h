/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_RANDOM_H
#define _KSHIM_LINUX_RANDOM_H
/* get_random_*: a seeded PRNG, reset per test (kshim_random_seed). */
#include <linux/types.h>
u32 get_random_u32(void);
u64 get_random_u64(void);
static inline unsigned long get_random_long(void) { return get_random_u64(); }
static inline u32 get_random_u32_below(u32 ceil) { return ceil ? (u32)(((u64)get_random_u32() * ceil) >> 32) : 0; }
static inline u32 get_random_u32_inclusive(u32 floor, u32 ceil) { return floor + get_random_u32_below(ceil - floor + 1); }
#define prandom_u32_max(c) get_random_u32_below(c)
void get_random_bytes(void *buf, size_t len);
void kshim_random_seed(u64 seed);
#endif
