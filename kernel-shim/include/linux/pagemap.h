/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_PAGEMAP_H
#define _KSHIM_LINUX_PAGEMAP_H
/* Folio helpers the page cache would give; folios here are simulated. */
#include <linux/mm_types.h>
#include <linux/page-flags.h>
struct folio_batch {
	unsigned char nr;
	struct folio *folios[31];
};
static inline unsigned int folio_batch_count(struct folio_batch *fbatch)
{
	return fbatch->nr;
}
/* no THP in the test bed: nothing is ever queued for deferred split */
static inline bool folio_unqueue_deferred_split(struct folio *folio)
{
	return false;
}
#endif
