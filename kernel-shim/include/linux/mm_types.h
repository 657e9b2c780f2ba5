/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_MM_TYPES_H
#define _KSHIM_LINUX_MM_TYPES_H
/*
 * Pages and folios of the simulated memory: only the fields mm code here
 * reads. A folio is its own head page; nr_pages and nid replace what the
 * kernel derives from the struct page array.
 */
#include <linux/types.h>
#include <linux/list.h>

struct task_struct;
struct mm_struct {
	unsigned long flags;	/* MMF_* */
	/* CONFIG_MEMCG: the task whose memcg this mm is charged to */
	struct task_struct *owner;
};

struct page {
	unsigned long flags;
};

struct folio {
	union {
		struct page page;
		unsigned long flags;
	};
	struct list_head lru;
	unsigned long memcg_data;
	unsigned int nr_pages;
	int nid;
	void *kshim_owner;
};

#define page_folio(p) ((struct folio *)(p))
#define folio_page(folio, n) (&(folio)->page)
static inline long folio_nr_pages(const struct folio *folio)
{
	return folio->nr_pages;
}
static inline int folio_nid(const struct folio *folio)
{
	return folio->nid;
}
static inline unsigned int folio_order(const struct folio *folio)
{
	return __builtin_ctz(folio->nr_pages);
}
static inline bool folio_test_large(const struct folio *folio)
{
	return folio->nr_pages > 1;
}
#endif
