/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_JIFFIES_H
#define _KSHIM_LINUX_JIFFIES_H
/* Virtual time: only sleeps and the test advance it (DESIGN, Principle 2). */
#include <linux/types.h>
#define HZ CONFIG_HZ
#define USER_HZ 100
#define MAX_JIFFY_OFFSET ((LONG_MAX >> 1) - 1)
extern volatile unsigned long jiffies;
/* one counter, as the kernel's linker script makes them on 64-bit */
#define jiffies_64 ((u64)__atomic_load_n(&jiffies, __ATOMIC_RELAXED))
#define time_after(a, b) ((long)((b) - (a)) < 0)
#define time_before(a, b) time_after(b, a)
#define time_after64(a, b) ((s64)((b) - (a)) < 0)
#define time_before64(a, b) time_after64(b, a)
#define time_after_eq(a, b) ((long)((a) - (b)) >= 0)
#define time_before_eq(a, b) time_after_eq(b, a)
#define time_is_before_jiffies(a) time_after(jiffies, a)
#define time_is_after_jiffies(a) time_before(jiffies, a)
static inline unsigned long msecs_to_jiffies(const unsigned int m) { return ((unsigned long)m * HZ + 999) / 1000; }
static inline unsigned int jiffies_to_msecs(const unsigned long j) { return j * (1000 / HZ); }
static inline unsigned long usecs_to_jiffies(const unsigned int u) { return ((unsigned long)u * HZ + 999999) / 1000000; }
static inline unsigned int jiffies_to_usecs(const unsigned long j) { return j * (1000000 / HZ); }
static inline u64 get_jiffies_64(void) { return jiffies_64; }
#endif
