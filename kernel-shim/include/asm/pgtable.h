/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_ASM_PGTABLE_H
#define _KSHIM_ASM_PGTABLE_H
/*
 * arch/x86's entry accessors for the four-level tables of
 * asm/pgtable_types.h. A present pmd points to a pte table or, with
 * _PAGE_PSE, maps a PMD-sized folio. The accessed-bit tests clear
 * atomically, as x86's do, because the world's MMU sets bits from other
 * threads meanwhile.
 */
#include <asm/pgtable_types.h>
#include <linux/bug.h>

#define pgd_ERROR(e)	pr_err("bad pgd %016lx\n", pgd_val(e))
#include <asm-generic/pgtable-nop4d.h>

static inline int pte_none(pte_t pte)		{ return !pte.pte; }
static inline int pte_present(pte_t pte)	{ return pte.pte & _PAGE_PRESENT; }
static inline int pte_young(pte_t pte)		{ return !!(pte.pte & _PAGE_ACCESSED); }
static inline int pte_dirty(pte_t pte)		{ return !!(pte.pte & _PAGE_DIRTY); }
static inline int pte_write(pte_t pte)		{ return !!(pte.pte & _PAGE_RW); }
static inline int pte_special(pte_t pte)	{ return !!(pte.pte & _PAGE_SPECIAL); }
static inline int pte_devmap(pte_t pte)		{ return 0; }
static inline unsigned long pte_pfn(pte_t pte)	{ return (pte.pte & PTE_PFN_MASK) >> PAGE_SHIFT; }
static inline pte_t pte_mkold(pte_t pte)	{ return __pte(pte.pte & ~_PAGE_ACCESSED); }
static inline pte_t pte_mkyoung(pte_t pte)	{ return __pte(pte.pte | _PAGE_ACCESSED); }
static inline pte_t pte_wrprotect(pte_t pte)	{ return __pte(pte.pte & ~_PAGE_RW); }
static inline pte_t pte_mkwrite_novma(pte_t pte) { return __pte(pte.pte | _PAGE_RW); }
static inline pte_t pte_mkclean(pte_t pte)	{ return __pte(pte.pte & ~_PAGE_DIRTY); }
static inline pte_t pte_mkdirty(pte_t pte)	{ return __pte(pte.pte | _PAGE_DIRTY); }
/* new protection bits for a pte, its pfn and accessed/dirty/special bits kept */
#define _PAGE_CHG_MASK	(PTE_PFN_MASK | _PAGE_ACCESSED | _PAGE_DIRTY | _PAGE_SPECIAL)
static inline pte_t pte_modify(pte_t pte, pgprot_t newprot)
{
	return __pte((pte.pte & _PAGE_CHG_MASK) | (pgprot_val(newprot) & ~_PAGE_CHG_MASK));
}
static inline pte_t pfn_pte(unsigned long pfn, pgprot_t prot)
{
	return __pte((pfn << PAGE_SHIFT) | pgprot_val(prot));
}
static inline void set_pte(pte_t *ptep, pte_t pte)
{
	__atomic_store_n(&ptep->pte, pte.pte, __ATOMIC_RELAXED);
}
#define pte_clear(mm, addr, ptep) set_pte(ptep, __pte(0))
/* a pte's pfn starts at bit PAGE_SHIFT (linux/pgtable.h's pte_advance_pfn()) */
#define PFN_PTE_SHIFT PAGE_SHIFT
/* x86 keeps no cache of ptes to update after a new one is set */
struct vm_area_struct;
static inline void update_mmu_cache(struct vm_area_struct *vma, unsigned long addr, pte_t *ptep)
{
}
#define update_mmu_cache_range(vmf, vma, addr, ptep, nr) do { } while (0)
static inline pte_t ptep_get(pte_t *ptep)
{
	return (pte_t){ __atomic_load_n(&ptep->pte, __ATOMIC_RELAXED) };
}
#define ptep_get ptep_get
#define __HAVE_ARCH_PTEP_GET	/* the name linux/pgtable.h tested before 6.5 */

static inline int pmd_none(pmd_t pmd)		{ return !pmd.pmd; }
/* x86's: an invalidated huge pmd (pmd_mkinvalid()) is still present */
static inline int pmd_present(pmd_t pmd)	{ return !!(pmd.pmd & (_PAGE_PRESENT | _PAGE_PSE)); }
static inline int pmd_bad(pmd_t pmd)		{ return (pmd.pmd & ~PTE_PFN_MASK) != _PAGE_TABLE &&
							 (pmd.pmd & ~(PTE_PFN_MASK | _PAGE_ACCESSED)) !=
							 (_PAGE_TABLE & ~_PAGE_ACCESSED); }
static inline int pmd_young(pmd_t pmd)		{ return !!(pmd.pmd & _PAGE_ACCESSED); }
#define pmd_young pmd_young
#if !TB_HAVE_hw_pte_young_config
/* x86 sets the accessed bit itself; linux/pgtable.h's stub said no until 6.8 */
#define arch_has_hw_pte_young arch_has_hw_pte_young
static inline bool arch_has_hw_pte_young(void)	{ return true; }
#endif
static inline int pmd_dirty(pmd_t pmd)		{ return !!(pmd.pmd & _PAGE_DIRTY); }
#define pmd_dirty pmd_dirty
static inline unsigned long pmd_pfn(pmd_t pmd)	{ return (pmd.pmd & PTE_PFN_MASK) >> PAGE_SHIFT; }
static inline unsigned long pmd_page_vaddr(pmd_t pmd) { return pmd.pmd & PTE_PFN_MASK; }
static inline void set_pmd(pmd_t *pmdp, pmd_t pmd)
{
	__atomic_store_n(&pmdp->pmd, pmd.pmd, __ATOMIC_RELAXED);
}
#define pmd_clear(pmdp) set_pmd(pmdp, __pmd(0))
static inline pmd_t pmdp_get(pmd_t *pmdp)
{
	return (pmd_t){ __atomic_load_n(&pmdp->pmd, __ATOMIC_RELAXED) };
}
#define pmdp_get pmdp_get
/*
 * A leaf pmd maps a PMD-sized folio (_PAGE_PSE, x86's pmd_trans_huge()
 * without DAX's devmap); its pfn and bits share the pte's layout.
 * Without CONFIG_TRANSPARENT_HUGEPAGE linux/pgtable.h says no leaf.
 */
#ifdef CONFIG_TRANSPARENT_HUGEPAGE
static inline int pmd_trans_huge(pmd_t pmd)	{ return (pmd.pmd & _PAGE_PSE) != 0; }
static inline int pmd_leaf(pmd_t pmd)		{ return pmd_trans_huge(pmd); }
#define pmd_leaf pmd_leaf
#endif
static inline int pmd_write(pmd_t pmd)		{ return !!(pmd.pmd & _PAGE_RW); }
#define pmd_write pmd_write
static inline pmd_t pmd_mkhuge(pmd_t pmd)	{ return __pmd(pmd.pmd | _PAGE_PSE); }
static inline pmd_t pmd_mkold(pmd_t pmd)	{ return __pmd(pmd.pmd & ~_PAGE_ACCESSED); }
static inline pmd_t pmd_mkyoung(pmd_t pmd)	{ return __pmd(pmd.pmd | _PAGE_ACCESSED); }
static inline pmd_t pmd_mkclean(pmd_t pmd)	{ return __pmd(pmd.pmd & ~_PAGE_DIRTY); }
static inline pmd_t pmd_mkdirty(pmd_t pmd)	{ return __pmd(pmd.pmd | _PAGE_DIRTY); }
static inline pmd_t pmd_wrprotect(pmd_t pmd)	{ return __pmd(pmd.pmd & ~_PAGE_RW); }
static inline pmd_t pfn_pmd(unsigned long pfn, pgprot_t prot)
{
	return __pmd((pfn << PAGE_SHIFT) | pgprot_val(prot));
}
/* x86's: a pte of a page (linux/mm.h's since 7.2), the page of a leaf pmd */
#if !TB_HAVE_mk_pte_generic
#define mk_pte(page, pgprot)	pfn_pte(page_to_pfn(page), (pgprot))
#endif
#define pmd_page(pmd)		pfn_to_page(pmd_pfn(pmd))
#define pte_page(pte)		pfn_to_page(pte_pfn(pte))
#define mk_pmd(page, prot)	pfn_pmd(page_to_pfn(page), (prot))
static inline pmd_t pmd_mkspecial(pmd_t pmd)	{ return __pmd(pmd.pmd | _PAGE_SPECIAL); }
static inline bool pmd_special(pmd_t pmd)	{ return !!(pmd.pmd & _PAGE_SPECIAL); }
static inline pmd_t pmd_mkwrite_novma(pmd_t pmd) { return __pmd(pmd.pmd | _PAGE_RW); }
#define pmd_mkwrite(pmd, vma)	pmd_mkwrite_novma(pmd)
#define set_pmd_at(mm, addr, pmdp, pmd)	set_pmd(pmdp, pmd)
#define update_mmu_cache_pmd(vma, addr, pmd)	do { } while (0)
/* every x86-64 CPU maps 2 MiB pages (X86_FEATURE_PSE) */
#define has_transparent_hugepage() 1
/*
 * the zero page: a struct page past the memmap's end (world/vm.c; 7.2:
 * linux/pgtable.h's ZERO_PAGE() over the same __zero_page)
 */
#if !TB_HAVE_zero_pfn_func
extern struct page *__zero_page;
#define ZERO_PAGE(vaddr)	((void)(vaddr), __zero_page)
#endif
#ifdef CONFIG_TRANSPARENT_HUGEPAGE
#define __HAVE_ARCH_PMDP_HUGE_GET_AND_CLEAR
static inline pmd_t pmdp_huge_get_and_clear(struct mm_struct *mm, unsigned long addr,
					    pmd_t *pmdp)
{
	return __pmd(__atomic_exchange_n(&pmdp->pmd, 0, __ATOMIC_RELAXED));
}
/* a new entry for a live pmd, the old one returned (x86: an exchange) */
static inline pmd_t pmdp_establish(struct vm_area_struct *vma, unsigned long address,
				   pmd_t *pmdp, pmd_t pmd)
{
	return __pmd(__atomic_exchange_n(&pmdp->pmd, pmd.pmd, __ATOMIC_RELAXED));
}
/*
 * An invalidated leaf pmd: not present to the MMU, still pmd_present()
 * and pmd_trans_huge() to the kernel, as x86 keeps _PAGE_PSE for it
 */
static inline pmd_t pmd_mkinvalid(pmd_t pmd)	{ return __pmd(pmd.pmd & ~_PAGE_PRESENT); }
#endif
/* the world's MMU keeps no TLB */
#define flush_pmd_tlb_range(vma, addr, end)	do { } while (0)
#define flush_tlb_range(vma, start, end)	do { } while (0)

static inline int pud_none(pud_t pud)		{ return !pud.pud; }
static inline int pud_present(pud_t pud)	{ return pud.pud & _PAGE_PRESENT; }
static inline int pud_bad(pud_t pud)		{ return (pud.pud & ~(PTE_PFN_MASK | _PAGE_ACCESSED |
								     _PAGE_DIRTY | _PAGE_RW | _PAGE_USER)) !=
							 _PAGE_PRESENT; }
static inline pmd_t *pud_pgtable(pud_t pud)	{ return (pmd_t *)(pud.pud & PTE_PFN_MASK); }
static inline void pud_clear(pud_t *pudp)	{ pudp->pud = 0; }
static inline pud_t pudp_get(pud_t *pudp)
{
	return (pud_t){ __atomic_load_n(&pudp->pud, __ATOMIC_RELAXED) };
}
#define pudp_get pudp_get

static inline int p4d_none(p4d_t p4d)		{ return !p4d_val(p4d); }
static inline int p4d_present(p4d_t p4d)	{ return p4d_val(p4d) & _PAGE_PRESENT; }
static inline int p4d_bad(p4d_t p4d)		{ return (p4d_val(p4d) & ~(PTE_PFN_MASK | _PAGE_ACCESSED |
								       _PAGE_DIRTY | _PAGE_RW | _PAGE_USER)) !=
							 _PAGE_PRESENT; }
static inline pud_t *p4d_pgtable(p4d_t p4d)	{ return (pud_t *)(p4d_val(p4d) & PTE_PFN_MASK); }
static inline void p4d_clear(p4d_t *p4dp)	{ p4dp->pgd.pgd = 0; }
#define pud_ERROR(e)	pr_err("bad pud %016lx\n", pud_val(e))
/*
 * x86 lets every mm map the zero page. The world's own read fault of
 * anonymous memory still allocates (world/vm.c), and THP's huge zero
 * page is switched off at boot (use_zero_page: world/huge_memory_unit.c):
 * the zero page is mapped where the kernel's split of an anonymous THP
 * maps a zero-filled page to it (try_to_map_unused_to_zeropage())
 */
#define mm_forbids_zeropage(mm)	((void)(mm), 0)
#define pmd_ERROR(e)	pr_err("bad pmd %016lx\n", pmd_val(e))

/*
 * A swap or migration entry in a non-present pte, as x86-64 keeps it (its
 * swp_entry_t is the pte's value) without the L1TF inversion: the offset
 * at the pfn's place, the type in bits 58-62 and _PAGE_RW set, so that an
 * entry is never pte_none(). swapops.h converts to the generic entry.
 */
#define SWP_TYPE_BITS		5
#define SWP_TYPE_SHIFT_ARCH	(64 - SWP_TYPE_BITS)
#define SWP_OFFSET_BITS_ARCH	(SWP_TYPE_SHIFT_ARCH - PAGE_SHIFT)
#define __swp_type(x)		((unsigned int)((x).val >> SWP_TYPE_SHIFT_ARCH))
#define __swp_offset(x)		(((x).val >> PAGE_SHIFT) & ((1UL << SWP_OFFSET_BITS_ARCH) - 1))
#define __swp_entry(type, offset) ((swp_entry_t){ ((unsigned long)(type) << SWP_TYPE_SHIFT_ARCH) | \
						  ((unsigned long)(offset) << PAGE_SHIFT) | _PAGE_RW })
#define __pte_to_swp_entry(pte)	((swp_entry_t){ pte_val(pte) })
#define __swp_entry_to_pte(x)	__pte((x).val)
/* an anon page's exclusive flag, kept in the entry (x86: the user bit) */
#define _PAGE_SWP_EXCLUSIVE	_PAGE_USER
static inline int pte_swp_exclusive(pte_t pte)	{ return !!(pte.pte & _PAGE_SWP_EXCLUSIVE); }
static inline pte_t pte_swp_mkexclusive(pte_t pte) { return __pte(pte.pte | _PAGE_SWP_EXCLUSIVE); }
static inline pte_t pte_swp_clear_exclusive(pte_t pte) { return __pte(pte.pte & ~_PAGE_SWP_EXCLUSIVE); }
#define __pmd_to_swp_entry(pmd)	((swp_entry_t){ pmd_val(pmd) })
#define __swp_entry_to_pmd(x)	__pmd((x).val)

#define __HAVE_ARCH_PTEP_TEST_AND_CLEAR_YOUNG
static inline int ptep_test_and_clear_young(struct vm_area_struct *vma, unsigned long addr,
					    pte_t *ptep)
{
	return !!(__atomic_fetch_and(&ptep->pte, ~_PAGE_ACCESSED, __ATOMIC_RELAXED) &
		  _PAGE_ACCESSED);
}

/* x86: also for non-leaf entries (ARCH_HAS_NONLEAF_PMD_YOUNG) */
#define __HAVE_ARCH_PMDP_TEST_AND_CLEAR_YOUNG
static inline int pmdp_test_and_clear_young(struct vm_area_struct *vma, unsigned long addr,
					    pmd_t *pmdp)
{
	return !!(__atomic_fetch_and(&pmdp->pmd, ~_PAGE_ACCESSED, __ATOMIC_RELAXED) &
		  _PAGE_ACCESSED);
}

/* x86 does not flush the TLB for a cleared accessed bit */
#define __HAVE_ARCH_PTEP_CLEAR_YOUNG_FLUSH
#define ptep_clear_flush_young(vma, addr, ptep) ptep_test_and_clear_young(vma, addr, ptep)
#define __HAVE_ARCH_PMDP_CLEAR_YOUNG_FLUSH
#define pmdp_clear_flush_young(vma, addr, pmdp) pmdp_test_and_clear_young(vma, addr, pmdp)

#define __HAVE_ARCH_PTEP_GET_AND_CLEAR
static inline pte_t ptep_get_and_clear(struct mm_struct *mm, unsigned long addr, pte_t *ptep)
{
	return __pte(__atomic_exchange_n(&ptep->pte, 0, __ATOMIC_RELAXED));
}
#endif
