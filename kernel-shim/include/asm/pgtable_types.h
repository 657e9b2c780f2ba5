/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_ASM_PGTABLE_TYPES_H
#define _KSHIM_ASM_PGTABLE_TYPES_H
/*
 * x86-64 four-level paging (the p4d folded, as without LA57): the entry
 * formats the MMU of the simulated world reads and sets, and the kernel's
 * page-table walkers (mm/pagewalk.c, the multi-gen LRU) decode. A table
 * is a page-aligned array of 512 entries; an upper entry holds its next
 * table's address, which in user space is its own "physical" address.
 */
#include <linux/types.h>
#include <asm/page.h>

typedef unsigned long pteval_t;
typedef unsigned long pmdval_t;
typedef unsigned long pudval_t;
typedef unsigned long p4dval_t;
typedef unsigned long pgdval_t;
typedef unsigned long pgprotval_t;

typedef struct { pteval_t pte; } pte_t;
typedef struct { pmdval_t pmd; } pmd_t;
typedef struct { pudval_t pud; } pud_t;
typedef struct { pgdval_t pgd; } pgd_t;
typedef struct { pgprotval_t pgprot; } pgprot_t;
/* a pte table: the world's memory, not a struct page (as s390's pgtable_t) */
typedef pte_t *pgtable_t;

/* x86-64's physical address bits: 52 at most (LA57), 46 with four levels */
#define MAX_POSSIBLE_PHYSMEM_BITS	52
#define MAX_PHYSMEM_BITS		46

#define PGDIR_SHIFT	39
#define PTRS_PER_PGD	512
#define PUD_SHIFT	30
#define PTRS_PER_PUD	512
#define PMD_SHIFT	21
#define PTRS_PER_PMD	512
#define PTRS_PER_PTE	512
#define MAX_PTRS_PER_PTE PTRS_PER_PTE
#define PGDIR_SIZE	(1UL << PGDIR_SHIFT)
#define PGDIR_MASK	(~(PGDIR_SIZE - 1))
#define PUD_SIZE	(1UL << PUD_SHIFT)
#define PUD_MASK	(~(PUD_SIZE - 1))
#define PMD_SIZE	(1UL << PMD_SHIFT)
#define PMD_MASK	(~(PMD_SIZE - 1))
#define TASK_SIZE_MAX	((1UL << 47) - PAGE_SIZE)
#define TASK_SIZE	TASK_SIZE_MAX

#define _PAGE_BIT_PRESENT	0
#define _PAGE_BIT_RW		1
#define _PAGE_BIT_USER		2
#define _PAGE_BIT_ACCESSED	5
#define _PAGE_BIT_DIRTY		6
#define _PAGE_BIT_PSE		7
#define _PAGE_BIT_SPECIAL	9
#define _PAGE_PRESENT	(1UL << _PAGE_BIT_PRESENT)
#define _PAGE_RW	(1UL << _PAGE_BIT_RW)
#define _PAGE_USER	(1UL << _PAGE_BIT_USER)
#define _PAGE_ACCESSED	(1UL << _PAGE_BIT_ACCESSED)
#define _PAGE_DIRTY	(1UL << _PAGE_BIT_DIRTY)
#define _PAGE_PSE	(1UL << _PAGE_BIT_PSE)
#define _PAGE_SPECIAL	(1UL << _PAGE_BIT_SPECIAL)
#define _PAGE_TABLE	(_PAGE_PRESENT | _PAGE_RW | _PAGE_USER | _PAGE_ACCESSED | _PAGE_DIRTY)
#define PTE_PFN_MASK	(((1UL << 52) - 1) & PAGE_MASK)

#define __pte(x)	((pte_t){ (x) })
#define __pmd(x)	((pmd_t){ (x) })
#define __pud(x)	((pud_t){ (x) })
#define __pgd(x)	((pgd_t){ (x) })
#define __pgprot(x)	((pgprot_t){ (x) })
#define pte_val(x)	((x).pte)
#define pmd_val(x)	((x).pmd)
#define pud_val(x)	((x).pud)
#define pgd_val(x)	((x).pgd)
#define pgprot_val(x)	((x).pgprot)
#define PAGE_NONE	__pgprot(0)
#define PAGE_SHARED	__pgprot(_PAGE_PRESENT | _PAGE_RW | _PAGE_USER | _PAGE_ACCESSED)
#define PAGE_READONLY	__pgprot(_PAGE_PRESENT | _PAGE_USER | _PAGE_ACCESSED)
#endif
