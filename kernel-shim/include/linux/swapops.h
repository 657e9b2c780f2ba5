/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_SWAPOPS_H
#define _KSHIM_LINUX_SWAPOPS_H
/* The swap-entry helpers page-table code tests (kgen/swapops.h). */
#include <linux/mm_types.h>
#include <linux/pgtable.h>
#include <linux/xarray.h>	/* BITS_PER_XA_VALUE: swp_offset()'s bits */
#include <linux/swap.h>	/* MAX_SWAPFILES: the migration entries' types */
#include <asm-generic/pgtable_uffd.h>	/* no userfaultfd: its pte bits are stubs */
/* linux/swapfile.h: set by swapfile_init() (kernel-shim/world/swap.c) */
extern bool swap_migration_ad_supported;
#include <kgen/swapops.h>
#endif
