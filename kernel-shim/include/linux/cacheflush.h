/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_CACHEFLUSH_H
#define _KSHIM_LINUX_CACHEFLUSH_H
/* x86's instruction fetch is coherent with its data caches: a new mapping flushes nothing */
struct vm_area_struct;
struct page;
static inline void flush_icache_pages(struct vm_area_struct *vma, struct page *page,
				      unsigned int nr)
{
}
#endif
