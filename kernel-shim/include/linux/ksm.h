/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_KSM_H
#define _KSHIM_LINUX_KSM_H
/* No KSM (CONFIG_KSM off): no KSM zero page to account when a pte goes */
#include <linux/mm_types.h>

static inline void ksm_might_unmap_zero_page(struct mm_struct *mm, pte_t pte)
{
}
#endif
