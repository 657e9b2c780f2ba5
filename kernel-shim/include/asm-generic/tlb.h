/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_ASM_GENERIC_TLB_H
#define _KSHIM_ASM_GENERIC_TLB_H
/*
 * The TLB of the world's MMU holds nothing a table's free could leave
 * behind: no lockless walker to wait for (CONFIG_MMU_GATHER_RCU_TABLE_FREE
 * off)
 */
static inline void tlb_remove_table_sync_one(void)
{
}

/*
 * mmu_gather: the world's MMU caches no translation (a pte's accessed and
 * dirty bits are set in the table itself at each access), so a gather
 * only records its mm and every flush it batches is done already
 */
struct mm_struct;
struct vm_area_struct;

struct mmu_gather {
	struct mm_struct *mm;
	unsigned int fullmm : 1;
};

static inline void tlb_gather_mmu(struct mmu_gather *tlb, struct mm_struct *mm)
{
	tlb->mm = mm;
	tlb->fullmm = 0;
}

static inline void tlb_finish_mmu(struct mmu_gather *tlb)
{
}

static inline void tlb_start_vma(struct mmu_gather *tlb, struct vm_area_struct *vma)
{
}

static inline void tlb_end_vma(struct mmu_gather *tlb, struct vm_area_struct *vma)
{
}

static inline void tlb_change_page_size(struct mmu_gather *tlb, unsigned int page_size)
{
}

/*
 * A page the gather would free once the TLB is flushed: the flush is done,
 * so it goes now, as free_pages_and_swap_cache() would (its swap cache
 * copy dropped if nothing maps it, then its reference)
 */
struct page;
void tlb_remove_page_size(struct mmu_gather *tlb, struct page *page, int page_size);

#define tlb_remove_tlb_entries(tlb, ptep, nr, address) do { } while (0)
#define tlb_remove_tlb_entry(tlb, ptep, address) do { } while (0)
#define tlb_remove_pmd_tlb_entry(tlb, pmdp, address) do { } while (0)
#endif
