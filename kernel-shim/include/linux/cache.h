/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_CACHE_H
#define _KSHIM_LINUX_CACHE_H
#include <linux/kernel.h>
#define L1_CACHE_SHIFT 6
#define L1_CACHE_BYTES (1 << L1_CACHE_SHIFT)
#define SMP_CACHE_BYTES L1_CACHE_BYTES
#define ____cacheline_aligned __attribute__((__aligned__(SMP_CACHE_BYTES)))
#define ____cacheline_aligned_in_smp ____cacheline_aligned
#define __cacheline_aligned ____cacheline_aligned
#define __cacheline_aligned_in_smp ____cacheline_aligned
#define ____cacheline_internodealigned_in_smp ____cacheline_aligned
#define cache_line_size() L1_CACHE_BYTES
#define CACHELINE_PADDING(name) struct cacheline_padding name ____cacheline_aligned
struct cacheline_padding {
	char x[0];
} ____cacheline_aligned;
#endif
