/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_PGTABLE_H
#define _KSHIM_LINUX_PGTABLE_H
/*
 * The kernel's generic page-table helpers (kgen/pgtable.h: index and
 * offset helpers, *_addr_end, *_none_or_clear_bad, the !THP stubs) over
 * x86-64's entries (asm/pgtable.h).
 */
#include <linux/types.h>
#include <linux/mm_types.h>
#include <linux/bug.h>
#include <linux/rcupdate.h>
#include <asm/pgtable.h>

#define PMD_ORDER	(PMD_SHIFT - PAGE_SHIFT)
#define PUD_ORDER	(PUD_SHIFT - PAGE_SHIFT)
/* mm/pgtable-generic.c */
void pgd_clear_bad(pgd_t *pgd);
void pmd_clear_bad(pmd_t *pmd);
/* set_ptes()'s check, a no-op without CONFIG_PAGE_TABLE_CHECK: the tree's */
#include <linux/page_table_check.h>
/* the pte table a PMD mapping deposits for its split (kernel-shim/world/vm.c) */
#define __HAVE_ARCH_PGTABLE_DEPOSIT
#define __HAVE_ARCH_PGTABLE_WITHDRAW
void pgtable_trans_huge_deposit(struct mm_struct *mm, pmd_t *pmdp, pgtable_t pgtable);
pgtable_t pgtable_trans_huge_withdraw(struct mm_struct *mm, pmd_t *pmdp);
#include <kgen/pgtable.h>
#endif
