/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_ASM_PAGE_H
#define _KSHIM_ASM_PAGE_H
#include <linux/const.h>
#include <linux/types.h>
#define PAGE_SHIFT CONFIG_PAGE_SHIFT
#define PAGE_SIZE (_AC(1, UL) << PAGE_SHIFT)
#define PAGE_MASK (~(PAGE_SIZE - 1))
#define PAGE_ALIGN(addr) ALIGN(addr, PAGE_SIZE)
/* asm-generic/getorder.h */
static inline int get_order(unsigned long size)
{
	if (size <= PAGE_SIZE)
		return 0;
	return 64 - __builtin_clzl((size - 1) >> PAGE_SHIFT);
}
#endif
