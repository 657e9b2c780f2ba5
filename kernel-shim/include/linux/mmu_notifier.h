/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_MMU_NOTIFIER_H
#define _KSHIM_LINUX_MMU_NOTIFIER_H
/* No secondary MMUs (CONFIG_MMU_NOTIFIER off): the kernel's stubs. */
#include <linux/mm_types.h>
#include <linux/pgtable.h>
#include <kgen/mmu_notifier.h>
#endif
