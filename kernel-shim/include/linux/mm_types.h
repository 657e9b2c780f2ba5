/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_MM_TYPES_H
#define _KSHIM_LINUX_MM_TYPES_H
/*
 * struct page, struct folio and struct vm_area_struct are the real ones
 * (kgen/mm_types.h); the world's memmap and address spaces hold them.
 * struct mm_struct is the slice the world's tasks and the kernel code
 * under test use: page tables, their locks, and the multi-gen LRU's list.
 */
#include <linux/types.h>
#include <linux/list.h>
#include <linux/llist.h>
#include <linux/atomic.h>
#include <linux/rcupdate.h>
#include <linux/rbtree_types.h>
#include <linux/spinlock.h>
#include <linux/rwsem.h>
#include <asm/pgtable_types.h>

typedef struct {
	unsigned long val;
} swp_entry_t;

#define _struct_page_alignment __aligned(2 * sizeof(unsigned long))
struct task_struct;
/* the rss counters' indices (include/linux/mm_types_task.h) */
enum {
	MM_FILEPAGES,
	MM_ANONPAGES,
	MM_SWAPENTS,
	MM_SHMEMPAGES,
	NR_MM_COUNTERS
};
struct mm_struct {
#if TB_HAVE_mm_flags_bitmap
	/* MMF_*: 7.2's mm_flags_t, read with mm_flags_test() */
	struct {
		unsigned long __mm_flags[1];
	} flags;
#define TB_MM_FLAGS(mm) ((mm)->flags.__mm_flags)
#else
	unsigned long flags;	/* MMF_* */
#define TB_MM_FLAGS(mm) (&(mm)->flags)
#endif
	pgd_t *pgd;
	atomic_t mm_users;
	atomic_t mm_count;	/* the users' one reference, and mmgrab()'s */
	spinlock_t page_table_lock;	/* no split pte/pmd locks */
	struct rw_semaphore mmap_lock;
	/* CONFIG_MEMCG: the task whose memcg this mm is charged to */
	struct task_struct *owner;
	/* the world's vmas of this address space, by address (world/vm.c) */
	struct list_head kshim_vmas;
	/* pages mapped, per MM_* counter (the world's rmap keeps them) */
	atomic_long_t kshim_rss[NR_MM_COUNTERS];
	atomic_long_t pgtables_bytes;	/* mm_inc_nr_ptes(): the pte tables' bytes */
	pgtable_t pmd_huge_pte;		/* PMD mappings' deposited pte tables */
#ifdef CONFIG_LRU_GEN_WALKS_MMU
	struct {
		struct list_head list;	/* on the memcg's lru_gen_mm_list */
		unsigned long bitmap;	/* per node: used since the last walk */
		struct mem_cgroup *memcg;
	} lru_gen;
#endif
#ifdef CONFIG_MM_ID
	unsigned int mm_id;	/* mm_id_t: which mm maps a large folio (rmap.h) */
#endif
};

extern struct mm_struct init_mm;	/* the kernel's, with no user vmas */
#include <kgen/mm_types.h>

/* a page's or folio's flags word (page->flags; 7.2: page->flags.f) */
#if TB_HAVE_memdesc_flags
#define TB_FLAGS(p) ((p)->flags.f)
#else
#define TB_FLAGS(p) ((p)->flags)
#endif

/*
 * the world sets a vma's flags (vm_flags is read-only since 6.3, a view of
 * the first word of the bitmap vma->flags in 7.2)
 */
#if TB_HAVE_vma_flags_bitmap
#define TB_VMA_FLAGS(vma) ((vma)->flags.__vma_flags[0])
#elif TB_HAVE_vma_flags_union
#define TB_VMA_FLAGS(vma) ((vma)->__vm_flags)
#else
#define TB_VMA_FLAGS(vma) ((vma)->vm_flags)
#endif

#endif
