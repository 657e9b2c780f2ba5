/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_PAGEBLOCK_FLAGS_H
#define _KSHIM_LINUX_PAGEBLOCK_FLAGS_H
/* !CONFIG_HUGETLB_PAGE: a pageblock is the largest buddy order */
#include <linux/mmzone.h>
#define pageblock_order MAX_PAGE_ORDER
#define pageblock_nr_pages (1UL << pageblock_order)
#endif
