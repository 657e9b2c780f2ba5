/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_HUGE_MM_H
#define _KSHIM_LINUX_HUGE_MM_H
/* CONFIG_TRANSPARENT_HUGEPAGE as Debian builds it (kgen/huge_mm.h) */
#include <linux/types.h>
#include <linux/math.h>
#include <linux/kobject.h>
#include <linux/mm_types.h>
#include <linux/sched/coredump.h>
struct vm_area_struct;
#if TB_HAVE_file_thp_enabled_h
/* no CONFIG_READ_ONLY_THP_FOR_FS (nor has Debian): no file THP of khugepaged's */
static inline bool file_thp_enabled(struct vm_area_struct *vma)
{
	return false;
}
#endif
#include <kgen/huge_mm.h>
#endif
