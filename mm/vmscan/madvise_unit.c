// SPDX-License-Identifier: GPL-2.0-only
/*
 * mm/madvise.c's MADV_COLD, MADV_PAGEOUT, MADV_FREE and MADV_WILLNEED over the reclaim
 * environment: the kernel's walks of a vma's page tables (mm/pagewalk.c),
 * their young, dirty and exclusive tests, the split of a large folio the
 * range covers in part, reclaim_pages() and folio_mark_lazyfree(). The
 * world calls them for tb_madvise() and
 * tb_madvise_range() as madvise_walk_vmas() calls it: the mmap_lock held
 * for read, one vma at a time.
 */
#include "vmscan/reclaim_env.h"
#include <linux/fs.h>
#include <linux/swapops.h>
#if TB_HAVE_leafops_h
#include <linux/leafops.h>	/* 7.x: a huge pmd's migration entry */
#endif
#include <asm-generic/tlb.h>
/* madvise()'s MADV_ values: the uapi's, as the world's tb_madvise() passes them */
#include <sys/mman.h>
#include <linux/fadvise.h>	/* POSIX_FADV_WILLNEED, which madvise_willneed() passes */

#if !TB_HAVE_thp_folio_split
/*
 * 6.1: mm/memory.c's vm_normal_page(), which reports a pte of no page of
 * the memmap; the world never writes one
 */
/* x86's, before linux/pgtable.h's generic set_ptes() (6.4) */
#ifndef set_pte_at
#define set_pte_at(mm, addr, ptep, pte) set_pte(ptep, pte)
#endif
static void print_bad_pte(struct vm_area_struct *vma, unsigned long addr, pte_t pte,
			  struct page *page)
{
	WARN(1, "tb: bad pte %lx at %lx", (unsigned long)pte_val(pte), addr);
}
#include KMEMORY_NORMAL_EXTRACT
/* mm/folio-compat.c's isolate_lru_page() and putback_lru_page(); a WARN fails a test anyway */
#ifndef WARN_RATELIMIT
#define WARN_RATELIMIT(condition, format...) WARN(condition, format)
#endif
#include KFOLIO_COMPAT_EXTRACT

/* the world has no tmpfs (shmem_mapping() is false): never called */
static void force_shm_swapin_readahead(struct vm_area_struct *vma, unsigned long start,
				       unsigned long end, struct address_space *mapping)
{
	WARN(1, "tb: the world has no tmpfs");
}

/* without THP linux/pgtable.h's pmd_trans_huge() is 0: the walk never calls it */
bool madvise_free_huge_pmd(struct mmu_gather *tlb, struct vm_area_struct *vma, pmd_t *pmd,
			   unsigned long addr, unsigned long next)
{
	WARN(1, "tb: a huge pmd without THP");
	return false;
}
#endif

#if TB_HAVE_swapin_thp
#include <kgen/mm_internal_swapin.h>	/* swap_pte_batch() */
#endif

#if !TB_HAVE_file_owner_or_capable
/*
 * Older stable trees ask fs/inode.c's owner test themselves, in the
 * initial user namespace (6.1) or through the no-op idmap (6.12): the
 * world's tasks own the files they map, as linux/fs.h's
 * file_owner_or_capable() says for the trees that have it
 */
#define inode_owner_or_capable(ns, inode) ((void)(inode), true)
#endif

#include KMADVISE_EXTRACT

int tb_kmadvise_cold(struct vm_area_struct *vma, unsigned long start, unsigned long end,
		     bool pageout)
{
#if TB_HAVE_madvise_behavior_arg
	struct madvise_behavior madv_behavior = {
		.mm = vma->vm_mm,
		.behavior = pageout ? MADV_PAGEOUT : MADV_COLD,
		.lock_mode = MADVISE_MMAP_READ_LOCK,
		.range = { .start = start, .end = end },
		.vma = vma,
	};

	return pageout ? madvise_pageout(&madv_behavior) : madvise_cold(&madv_behavior);
#else
	struct vm_area_struct *prev;

	return pageout ? madvise_pageout(vma, &prev, start, end) :
			 madvise_cold(vma, &prev, start, end);
#endif
}

int tb_kmadvise_free(struct vm_area_struct *vma, unsigned long start, unsigned long end)
{
#if TB_HAVE_madvise_behavior_arg
	struct mmu_gather tlb;
	struct madvise_behavior madv_behavior = {
		.mm = vma->vm_mm,
		.behavior = MADV_FREE,
		.tlb = &tlb,
		.lock_mode = MADVISE_MMAP_READ_LOCK,
		.range = { .start = start, .end = end },
		.vma = vma,
	};
	int ret;

	/* madvise_do_behavior(): a discard gathers its TLB flushes over the call */
	tlb_gather_mmu(&tlb, vma->vm_mm);
	ret = madvise_free_single_vma(&madv_behavior);
	tlb_finish_mmu(&tlb);
	return ret;
#else
	return madvise_free_single_vma(vma, start, end);
#endif
}

int tb_kmadvise_willneed(struct vm_area_struct *vma, unsigned long start, unsigned long end)
{
#if TB_HAVE_madvise_behavior_arg
	struct madvise_behavior madv_behavior = {
		.mm = vma->vm_mm,
		.behavior = MADV_WILLNEED,
		.lock_mode = MADVISE_MMAP_READ_LOCK,
		.range = { .start = start, .end = end },
		.vma = vma,
	};

	return madvise_willneed(&madv_behavior);
#else
	struct vm_area_struct *prev;

	return madvise_willneed(vma, &prev, start, end);
#endif
}
