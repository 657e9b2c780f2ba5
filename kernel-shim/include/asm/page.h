/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_ASM_PAGE_H
#define _KSHIM_ASM_PAGE_H
#include <linux/const.h>
#include <linux/types.h>
#define PAGE_SHIFT CONFIG_PAGE_SHIFT
#define PAGE_SIZE (_AC(1, UL) << PAGE_SHIFT)
#define PAGE_MASK (~(PAGE_SIZE - 1))
#define PAGE_ALIGN(addr) ALIGN(addr, PAGE_SIZE)
/*
 * The kernel's direct map (x86's virt_addr_valid(), virt_to_page()): user
 * space has none. Declared for the debug checks that name them
 * (VM_WARN_ON without CONFIG_DEBUG_VM: never evaluated); no body
 */
struct page;
bool __virt_addr_valid(unsigned long kaddr);
#define virt_addr_valid(kaddr) __virt_addr_valid((unsigned long)(kaddr))
struct page *(virt_to_page)(const void *kaddr);
/* x86's zeroed user page: the allocator zeroes it (the world's pages hold no data) */
#if TB_HAVE_vma_alloc_folio_hugepage
#define vma_alloc_zeroed_movable_folio(vma, vaddr) \
	vma_alloc_folio(GFP_HIGHUSER_MOVABLE | __GFP_ZERO, 0, vma, vaddr, false)
#else
#define vma_alloc_zeroed_movable_folio(vma, vaddr) \
	vma_alloc_folio(GFP_HIGHUSER_MOVABLE | __GFP_ZERO, 0, vma, vaddr)
#endif
/* asm-generic/getorder.h: fls64((size - 1) >> PAGE_SHIFT), so 0 is order 52 */
static inline int get_order(unsigned long size)
{
	size = (size - 1) >> PAGE_SHIFT;
	return size ? 64 - __builtin_clzl(size) : 0;
}
#endif
