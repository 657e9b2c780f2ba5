/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_PAGE_FLAGS_H
#define _KSHIM_LINUX_PAGE_FLAGS_H
/* The folio flags mm code here tests, as bits of folio->flags. */
#include <linux/mm_types.h>
#include <linux/bitops.h>
enum pageflags {
	PG_locked,
	PG_referenced,
	PG_uptodate,
	PG_dirty,
	PG_lru,
	PG_active,
	PG_workingset,
	PG_swapbacked,
	PG_unevictable,
	PG_slab,
	PG_swapcache,
	PG_writeback,
	PG_reclaim,
	__NR_PAGEFLAGS
};
#define KSHIM_FOLIO_FLAG(name, bit)						\
static inline bool folio_test_##name(const struct folio *f)			\
{ return test_bit(bit, &f->flags); }						\
static inline void folio_set_##name(struct folio *f)				\
{ set_bit(bit, &f->flags); }							\
static inline void folio_clear_##name(struct folio *f)				\
{ clear_bit(bit, &f->flags); }
KSHIM_FOLIO_FLAG(lru, PG_lru)
KSHIM_FOLIO_FLAG(active, PG_active)
KSHIM_FOLIO_FLAG(referenced, PG_referenced)
KSHIM_FOLIO_FLAG(dirty, PG_dirty)
KSHIM_FOLIO_FLAG(swapbacked, PG_swapbacked)
KSHIM_FOLIO_FLAG(unevictable, PG_unevictable)
KSHIM_FOLIO_FLAG(slab, PG_slab)
KSHIM_FOLIO_FLAG(swapcache, PG_swapcache)
KSHIM_FOLIO_FLAG(writeback, PG_writeback)
KSHIM_FOLIO_FLAG(workingset, PG_workingset)
KSHIM_FOLIO_FLAG(locked, PG_locked)
static inline bool folio_test_anon(const struct folio *f)
{
	return folio_test_swapbacked(f);
}
static inline bool folio_test_hugetlb(const struct folio *f)
{
	return false;
}
#define PageTail(p) 0
#endif
