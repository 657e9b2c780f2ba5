/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_PAGEBLOCK_FLAGS_H
#define _KSHIM_LINUX_PAGEBLOCK_FLAGS_H
/* !CONFIG_HUGETLB_PAGE: a pageblock is the largest buddy order */
#include <linux/mmzone.h>
#if TB_HAVE_max_page_order
#define pageblock_order MAX_PAGE_ORDER
#else
#define pageblock_order (MAX_ORDER - 1)	/* MAX_ORDER was one more */
#endif
#define pageblock_nr_pages (1UL << pageblock_order)
#endif
