// SPDX-License-Identifier: GPL-2.0-only
/* mm/pagewalk.c's and mm/pgtable-generic.c's extracts (#line markers into the tree). */
#include <linux/mm.h>
#include <linux/pagewalk.h>
#include <linux/pgtable.h>
#include <linux/hugetlb_inline.h>
#include <linux/sched/mm.h>
#include <linux/rwsem.h>
#include <linux/huge_mm.h>
#include <linux/swapops.h>
#if TB_HAVE_pagewalk_hugepd
#include <kgen/hugetlb_hugepd.h>
#endif

#include KPGTABLE_EXTRACT
#include KPAGEWALK_EXTRACT
