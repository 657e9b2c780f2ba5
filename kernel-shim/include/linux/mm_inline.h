/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_MM_INLINE_H
#define _KSHIM_LINUX_MM_INLINE_H
/* The kernel's LRU helpers (kgen/mm_inline.h): which list, add, delete. */
#include <linux/atomic.h>
#include <linux/mm_types.h>
#include <linux/page-flags.h>
#include <linux/mmzone.h>
#include <linux/memcontrol.h>
#include <linux/swap.h>
#include <linux/string.h>
#include <linux/fs.h>
#include <kgen/mm_inline.h>
#endif
