/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_HUGE_MM_H
#define _KSHIM_LINUX_HUGE_MM_H
/* !CONFIG_TRANSPARENT_HUGEPAGE: the kernel's stubs (kgen/huge_mm.h). */
#include <linux/types.h>
#include <linux/mm_types.h>
#include <kgen/huge_mm.h>
#endif
