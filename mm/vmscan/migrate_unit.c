// SPDX-License-Identifier: GPL-2.0-only
/*
 * mm/migrate.c's try_to_map_unused_to_zeropage() over the reclaim
 * environment, for the world's remove_migration_ptes() (world/vm.c),
 * which walks the migration entries of a split folio as the kernel's
 * remove_migration_pte() does and asks this for each page.
 */
#include "vmscan/reclaim_env.h"
#include <asm-generic/pgtable_uffd.h>	/* no userfaultfd: its pte bits are stubs */
#include <linux/userfaultfd_k.h>	/* and its vma tests */

/* the mm's page counters the world keeps (mm->kshim_rss) */
static inline void dec_mm_counter(struct mm_struct *mm, int member)
{
	add_mm_counter(mm, member, -1);
}

static inline int mm_counter(struct folio *folio)
{
	return folio_test_anon(folio) ? MM_ANONPAGES : MM_FILEPAGES;
}

#include KMIGRATE_EXTRACT

#if TB_HAVE_map_unused_to_zeropage_old_pte
bool tb_map_unused_to_zeropage(struct page_vma_mapped_walk *pvmw, struct folio *folio,
			       pte_t old_pte, unsigned long idx)
{
	return try_to_map_unused_to_zeropage(pvmw, folio, old_pte, idx);
}
#else
bool tb_map_unused_to_zeropage(struct page_vma_mapped_walk *pvmw, struct folio *folio,
			       pte_t old_pte, unsigned long idx)
{
	return try_to_map_unused_to_zeropage(pvmw, folio, idx);
}
#endif
