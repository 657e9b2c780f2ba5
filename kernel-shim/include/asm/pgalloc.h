/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_ASM_PGALLOC_H
#define _KSHIM_ASM_PGALLOC_H
/*
 * x86's page-table allocation over the world's tables
 * (kernel-shim/world/vm.c): a pte table for a pmd entry, and its release.
 */
#include <asm/pgtable_types.h>

struct mm_struct;
pgtable_t pte_alloc_one(struct mm_struct *mm);
void pte_free(struct mm_struct *mm, pgtable_t pte);
void pmd_populate(struct mm_struct *mm, pmd_t *pmd, pgtable_t pte);
#endif
