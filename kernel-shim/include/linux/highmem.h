/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_HIGHMEM_H
#define _KSHIM_LINUX_HIGHMEM_H
/*
 * A user page's contents as the world keeps them (kernel-shim/world/vm.c):
 * only whether the page holds a byte other than zero. Clearing one
 * makes it zero-filled; a copy gives the destination the source's.
 */
#include <linux/mm_types.h>

struct vm_area_struct;
void clear_user_highpage(struct page *page, unsigned long vaddr);
/* 0: copied (no machine check in the world) */
int copy_mc_user_highpage(struct page *to, struct page *from, unsigned long vaddr,
			  struct vm_area_struct *vma);
#endif
