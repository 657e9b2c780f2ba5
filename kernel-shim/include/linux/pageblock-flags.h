/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_PAGEBLOCK_FLAGS_H
#define _KSHIM_LINUX_PAGEBLOCK_FLAGS_H
/*
 * A pageblock is a PMD-sized huge page (CONFIG_TRANSPARENT_HUGEPAGE, and
 * Debian's CONFIG_HUGETLB_PAGE alike), at most the largest buddy order
 */
#include <linux/mmzone.h>
#include <asm/pgtable_types.h>
#if TB_HAVE_max_page_order
#define pageblock_order min_t(unsigned int, PMD_SHIFT - PAGE_SHIFT, MAX_PAGE_ORDER)
#else
#define pageblock_order min_t(unsigned int, PMD_SHIFT - PAGE_SHIFT, MAX_ORDER - 1)
#endif
#define pageblock_nr_pages (1UL << pageblock_order)
#endif
