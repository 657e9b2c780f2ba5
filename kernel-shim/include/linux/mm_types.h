/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_MM_TYPES_H
#define _KSHIM_LINUX_MM_TYPES_H
/*
 * struct page and struct folio are the real ones (kgen/mm_types.h); the
 * world's memmap holds them. struct mm_struct is the slice the test bed's
 * tasks need: the kernel's is mostly VMA and page-table machinery.
 */
#include <linux/types.h>
#include <linux/list.h>
#include <linux/atomic.h>
#include <linux/rcupdate.h>

typedef struct {
	unsigned long val;
} swp_entry_t;

#define _struct_page_alignment __aligned(2 * sizeof(unsigned long))
#include <kgen/mm_types.h>

struct task_struct;
struct mm_struct {
	unsigned long flags;	/* MMF_* */
	/* CONFIG_MEMCG: the task whose memcg this mm is charged to */
	struct task_struct *owner;
	/* the world's vmas of this address space (kernel-shim/world/vm.c) */
	struct list_head kshim_vmas;
};
#endif
