/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The slice of linux/mm.h mm files here reach: the real folio helpers
 * (kgen/mm.h) over the real struct page/folio and page flags, and the
 * memory map of the simulated machine (pfn <-> struct page).
 */
#ifndef _KSHIM_LINUX_MM_H
#define _KSHIM_LINUX_MM_H
#include <linux/kernel.h>
#include <linux/gfp.h>
#include <linux/slab.h>
#include <linux/mmzone.h>
#include <linux/bitops.h>
#include <linux/math64.h>
#include <linux/atomic.h>
#include <linux/rcupdate.h>
#include <linux/percpu.h>
#include <linux/mm_types.h>
#include <linux/page-flags.h>
#include <linux/page_ref.h>
#include <asm/page.h>

/* FLATMEM: one memmap for the whole machine, pfn 0 first */
extern struct page *mem_map;
#define page_to_pfn(page) ((unsigned long)((page) - mem_map))
#define pfn_to_page(pfn) (mem_map + (pfn))

/* mm/swap.c: the last reference frees the folio */
void __folio_put(struct folio *folio);
#include <kgen/mm.h>

/* kernel-shim/world/node.c: a fresh folio of nr_pages on node nid */
void kshim_folio_prep(struct folio *folio, unsigned long nr_pages, int nid);
#endif
