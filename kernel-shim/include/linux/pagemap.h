/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_PAGEMAP_H
#define _KSHIM_LINUX_PAGEMAP_H
/*
 * Mapping flags and the folio lock are the kernel's (kgen/pagemap.h); the
 * page cache operations behind them are the world's
 * (kernel-shim/world/pagecache.c).
 */
#include <linux/mm.h>
#include <linux/fs.h>
#include <linux/pagevec.h>
#include <linux/page-flags.h>

void __folio_lock(struct folio *folio);
void folio_unlock(struct folio *folio);
/* mm/swapfile.c (the world's swap): folio_index() of a swap cache folio before 6.10 */
pgoff_t __page_file_index(struct page *page);
#include <kgen/pagemap.h>
/* no allocation profiling (CONFIG_MEM_ALLOC_PROFILING off) */
#define filemap_alloc_folio(...)	filemap_alloc_folio_noprof(__VA_ARGS__)

void folio_wait_writeback(struct folio *folio);
void __filemap_remove_folio(struct folio *folio, void *shadow);
bool filemap_release_folio(struct folio *folio, gfp_t gfp);
bool folio_clear_dirty_for_io(struct folio *folio);
bool folio_mark_dirty(struct folio *folio);
void __filemap_set_wb_err(struct address_space *mapping, int err);
#endif
