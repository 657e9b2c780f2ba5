/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_ASM_PGALLOC_H
#define _KSHIM_ASM_PGALLOC_H
/*
 * x86's page-table allocation over the world's tables
 * (kernel-shim/world/vm.c): a pte table for a pmd entry, and its release;
 * each is a page of the world's RAM.
 */
#include <asm/pgtable_types.h>
#include <linux/gfp_types.h>

/* asm-generic/pgalloc.h's: a user table is charged to its memcg */
#define GFP_PGTABLE_KERNEL	(GFP_KERNEL | __GFP_ZERO)
#define GFP_PGTABLE_USER	(GFP_PGTABLE_KERNEL | __GFP_ACCOUNT)

struct mm_struct;
pgtable_t pte_alloc_one(struct mm_struct *mm);
void pte_free(struct mm_struct *mm, pgtable_t pte);
void pmd_populate(struct mm_struct *mm, pmd_t *pmd, pgtable_t pte);
/* the pte table a pmd entry points to (x86's pmd_pgtable(): its page) */
#define pmd_pgtable(pmd) ((pgtable_t)(pmd_val(pmd) & PTE_PFN_MASK))
#endif
