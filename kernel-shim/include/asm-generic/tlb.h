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
#endif
