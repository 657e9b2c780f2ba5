/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_SWAPOPS_H
#define _KSHIM_LINUX_SWAPOPS_H
/* The swap-entry helpers page-table code tests (kgen/swapops.h). */
#include <linux/mm_types.h>
#include <linux/pgtable.h>
#include <linux/xarray.h>	/* BITS_PER_XA_VALUE: swp_offset()'s bits */
#include <kgen/swapops.h>
#endif
