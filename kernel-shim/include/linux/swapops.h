/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_SWAPOPS_H
#define _KSHIM_LINUX_SWAPOPS_H
/* The swap-entry helpers page-table code tests (kgen/swapops.h). */
#include <linux/mm_types.h>
#include <linux/pgtable.h>
#include <kgen/swapops.h>
#endif
