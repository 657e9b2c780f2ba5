// SPDX-License-Identifier: GPL-2.0-only
/*
 * mm/memory.c's anonymous fault of a pte (do_anonymous_page() and
 * alloc_anon_folio(): a small folio or an mTHP), the order a swap
 * fault reads its folio at (6.12: alloc_swap_folio(); 7.x:
 * thp_swapin_suitable_orders()) and a file's read fault (do_read_fault():
 * fault-around, finish_fault(), do_set_pmd()), over the reclaim
 * environment, the world's page tables, page cache and swap device.
 */
#include "vmscan/reclaim_env.h"
#include <linux/userfaultfd_k.h>
#include <linux/swapops.h>
#if TB_HAVE_leafops_h
#include <linux/leafops.h>
#endif
#include <asm-generic/pgtable_uffd.h>
#include <asm/pgalloc.h>
#include <linux/zswap.h>
#include <linux/cacheflush.h>
#if TB_HAVE_swapin_thp
#include <kgen/mm_internal_swapin.h>	/* swap_pte_batch() */
#endif
#if TB_HAVE_swapin_reads_swap_map
#include <kgen/mm_swap_reclaim.h>	/* swap_zeromap_batch() */
#endif

/* vm_normal_page()'s report of an entry it cannot take: the world never writes one */
#if TB_HAVE_print_bad_page_map_bytes
static void print_bad_page_map(struct vm_area_struct *vma, unsigned long addr,
			       const void *entry, size_t entry_size, struct page *page,
			       enum pgtable_level level)
{
	WARN(1, "tb: bad page map at %lx", addr);
}
#elif TB_HAVE_print_bad_page_map
static void print_bad_page_map(struct vm_area_struct *vma, unsigned long addr,
			       unsigned long long entry, struct page *page,
			       enum pgtable_level level)
{
	WARN(1, "tb: bad page map %llx at %lx", entry, addr);
}
#else
static void print_bad_pte(struct vm_area_struct *vma, unsigned long addr, pte_t pte,
			  struct page *page)
{
	WARN(1, "tb: bad pte %lx at %lx", (unsigned long)pte_val(pte), addr);
}
#endif

/*
 * mm/memory.c's (declared in mm/internal.h): the unmap of a folio ->fault
 * found hardware-poisoned; the world poisons no page
 */
void unmap_mapping_folio(struct folio *folio)
{
	WARN(1, "tb: a poisoned page in the page cache");
}

/* mm/truncate.c's eviction of that poisoned folio: never reached either */
long mapping_evict_folio(struct address_space *mapping, struct folio *folio)
{
	WARN(1, "tb: a poisoned page in the page cache");
	return 0;
}

#include KMEMORY_EXTRACT
