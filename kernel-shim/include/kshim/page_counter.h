/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_PAGE_COUNTER_H
#define _KSHIM_PAGE_COUNTER_H
#include <linux/page_counter.h>

/*
 * page_counter_init() across trees: since 6.10 a counter tracks protected
 * usage only with protection_support, its third argument; before, every
 * counter did (tools/tb_features.py: page_counter_protection_support).
 */
static inline void kshim_page_counter_init(struct page_counter *c,
					struct page_counter *parent, bool prot)
{
#if TB_HAVE_page_counter_protection_support
	page_counter_init(c, parent, prot);
#else
	page_counter_init(c, parent);
#endif
}
#endif
