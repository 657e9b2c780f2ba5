/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_BITS_H
#define _KSHIM_LINUX_BITS_H
#include <linux/const.h>
#include <asm/bitsperlong.h>
#define BIT(nr) (UL(1) << (nr))
#define BIT_ULL(nr) (ULL(1) << (nr))
#define BIT_MASK(nr) (UL(1) << ((nr) % BITS_PER_LONG))
#define BIT_WORD(nr) ((nr) / BITS_PER_LONG)
#define BITS_PER_BYTE 8
#define GENMASK(h, l) (((~UL(0)) - (UL(1) << (l)) + 1) & (~UL(0) >> (BITS_PER_LONG - 1 - (h))))
#define GENMASK_ULL(h, l) (((~ULL(0)) - (ULL(1) << (l)) + 1) & (~ULL(0) >> (64 - 1 - (h))))
#endif
