/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The slice of linux/mm.h mm files here reach: the real folio helpers
 * (kgen/mm.h) over the real struct page/folio and page flags, and the
 * memory map of the simulated machine (pfn <-> struct page).
 */
#ifndef _KSHIM_LINUX_MM_H
#define _KSHIM_LINUX_MM_H
#include <linux/kernel.h>
#include <linux/gfp.h>
#include <linux/slab.h>
#include <linux/mmzone.h>
#include <linux/bitops.h>
#include <linux/math64.h>
#include <linux/atomic.h>
#include <linux/rcupdate.h>
#include <linux/percpu.h>
#include <linux/mm_types.h>
#include <linux/page-flags.h>
#include <linux/page_ref.h>
#include <asm/page.h>

/* FLATMEM: one memmap for the whole machine, pfn 0 first */
extern struct page *mem_map;
#define page_to_pfn(page) ((unsigned long)((page) - mem_map))
#define pfn_to_page(pfn) (mem_map + (pfn))
/* asm-generic/memory_model.h, FLATMEM */
extern unsigned long max_mapnr;
static inline int pfn_valid(unsigned long pfn)
{
	return pfn < max_mapnr;
}
#include <linux/pgtable.h>
#include <linux/mmap_lock.h>

/* mm/swap.c: the last reference frees the folio */
void __folio_put(struct folio *folio);
#include <linux/fs.h>	/* vma_is_dax() */
/* no ZONE_DEVICE memory (the world's RAM is all ZONE_NORMAL) */
static inline bool folio_is_device_private(const struct folio *folio)
{
	return false;
}
static inline void zone_device_private_split_cb(struct folio *original_folio,
						struct folio *new_folio)
{
}
#include <kgen/mm.h>

/*
 * 7.x: whether a user folio must be zeroed after its allocation: yes, no
 * init_on_alloc (Debian's default) and no aliasing caches; the world's
 * zeroing is nothing (world/vm.c's folio_zero_user())
 */
static inline bool user_alloc_needs_zeroing(void)
{
	return true;
}

/*
 * A file vma's operations, of which mm code reads whether the file maps
 * huge pages itself (DAX): the world's files do not
 */
struct vm_fault;
struct vm_operations_struct {
	/* a file's read fault: the page cache's folio, locked (the world's filemap_fault()) */
	vm_fault_t (*fault)(struct vm_fault *vmf);
	vm_fault_t (*huge_fault)(struct vm_fault *vmf, unsigned int order);
	/* fault-around: the cached pages of [start_pgoff, end_pgoff] mapped */
	vm_fault_t (*map_pages)(struct vm_fault *vmf, pgoff_t start_pgoff, pgoff_t end_pgoff);
	/* none of the world's mappings has special ptes of its own (vm_normal_page()) */
	struct page *(*find_special_page)(struct vm_area_struct *vma, unsigned long addr);
};

/* mm/filemap.c's ->map_pages of a file mapping (fault-around) */
vm_fault_t filemap_map_pages(struct vm_fault *vmf, pgoff_t start_pgoff, pgoff_t end_pgoff);

/*
 * The world's address spaces (kernel-shim/world/vm.c): its vmas are kept
 * by address on mm->kshim_vmas, which stands in for the maple tree.
 */
struct vm_area_struct *find_vma(struct mm_struct *mm, unsigned long addr);
struct vma_iterator {
	struct mm_struct *mm;
	unsigned long addr;	/* the next vma ends above this */
};
#define VMA_ITERATOR(name, __mm, __addr) \
	struct vma_iterator name = { .mm = (__mm), .addr = (__addr) }
struct vm_area_struct *vma_next(struct vma_iterator *vmi);
#define for_each_vma(__vmi, __vma) while (((__vma) = vma_next(&(__vmi))) != NULL)
static inline void vma_iter_init(struct vma_iterator *vmi, struct mm_struct *mm,
				 unsigned long addr)
{
	vmi->mm = mm;
	vmi->addr = addr;
}
/* no vsyscall page in the world's address spaces */
static inline struct vm_area_struct *get_gate_vma(struct mm_struct *mm)
{
	return NULL;
}

/* the pages an mm maps, by kind: the world's rmap counts them */
static inline unsigned long get_mm_counter(struct mm_struct *mm, int member)
{
	return atomic_long_read(&mm->kshim_rss[member]);
}
static inline void add_mm_counter(struct mm_struct *mm, int member, long value)
{
	atomic_long_add(value, &mm->kshim_rss[member]);
}
/*
 * the world's rss counters are the mm's own, with no per-task cache to
 * fold in (SPLIT_RSS_COUNTING, before 6.2)
 */
static inline void sync_mm_rss(struct mm_struct *mm)
{
}
/* the world keeps no peak of an mm's resident pages (/proc's VmHWM) */
static inline void update_hiwater_rss(struct mm_struct *mm)
{
}

/* as linux/mm.h has it: THP's helpers, folio_unqueue_deferred_split() */
#include <linux/huge_mm.h>

/* kernel-shim/world/node.c: a fresh folio of nr_pages on node nid */
void kshim_folio_prep(struct folio *folio, unsigned long nr_pages, int nid);
#endif
