/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What mm code under test gets from the mm files the test bed does not
 * compile: mm/swap.h (swap cache, kernel-shim/world/swap.c), the page
 * allocator's free path and watermark test (kernel-shim/world/), mlock
 * (no VM_LOCKED mappings in the world). Declared here with the kernel's
 * signatures; each definition says which kernel file it stands for.
 */
#ifndef _KSHIM_RECLAIM_H
#define _KSHIM_RECLAIM_H
#include <linux/types.h>
#include <linux/mm_types.h>
#include <linux/gfp.h>

struct folio_batch;
struct swap_iocb;
struct zone;
struct page;

/* mm/swap.h */
#if TB_HAVE_swap_table
/*
 * 7.2: the swap table's clusters, locked around a change of a slot's swap
 * cache entry or memcg record (the world's device: kernel-shim/world/swap.c)
 */
struct swap_cluster_info;
struct swap_cluster_info *swap_cluster_get_and_lock(const struct folio *folio);
struct swap_cluster_info *swap_cluster_get_and_lock_irq(const struct folio *folio);
void swap_cluster_unlock(struct swap_cluster_info *ci);
void swap_cluster_unlock_irq(struct swap_cluster_info *ci);
/* a split's folios take over their slots' swap cache entries */
void __swap_cache_replace_folio(struct swap_cluster_info *ci, struct folio *old,
				struct folio *new);
#if TB_HAVE_swap_cache_del_swapout
void __swap_cache_del_folio(struct swap_cluster_info *ci, struct folio *folio,
			    swp_entry_t entry, void *shadow, bool swapout);
#else
void __swap_cache_del_folio(struct swap_cluster_info *ci, struct folio *folio,
			    swp_entry_t entry, void *shadow);
#endif
void __swap_cgroup_set(struct swap_cluster_info *ci, unsigned int ci_off, unsigned int nr,
		       unsigned short id);
int folio_alloc_swap(struct folio *folio);
#endif
#if TB_HAVE_swap_ops
struct swap_io_ctx;
struct swap_info_struct *__swap_entry_to_info(swp_entry_t entry);
int swap_writeout(struct swap_io_ctx *ctx, struct folio *folio);
void swap_write_submit(struct swap_io_ctx *ctx);
/* the world's, never reached: no tmpfs (world/swap.c) */
int shmem_writeout(struct swap_io_ctx *ctx, struct folio *folio, struct list_head *folio_list);
#elif TB_HAVE_swap_writeout
int swap_writeout(struct folio *folio, struct swap_iocb **swap_plug);
int shmem_writeout(struct folio *folio, struct swap_iocb **plug, struct list_head *folio_list);
#endif
/*
 * MADV_WILLNEED's swap-in of an anonymous range: a slot read into the swap
 * cache, the reads submitted (the world's complete at once: world/vm.c,
 * world/swap.c)
 */
struct vm_area_struct;
#if TB_HAVE_swap_ops
struct folio *read_swap_cache_async(struct swap_io_ctx *ctx, swp_entry_t entry, gfp_t gfp_mask,
				    struct vm_area_struct *vma, unsigned long addr);
void swap_read_submit(struct swap_io_ctx *ctx);
#else
#if TB_HAVE_thp_folio_split
struct folio *read_swap_cache_async(swp_entry_t entry, gfp_t gfp_mask,
				    struct vm_area_struct *vma, unsigned long addr,
				    struct swap_iocb **plug);
#else
struct page *read_swap_cache_async(swp_entry_t entry, gfp_t gfp_mask,
				   struct vm_area_struct *vma, unsigned long addr,
				   bool do_poll, struct swap_iocb **plug);
#endif
void swap_read_unplug(struct swap_iocb *plug);
#endif
bool add_to_swap(struct folio *folio);
void __delete_from_swap_cache(struct folio *folio, swp_entry_t entry, void *shadow);
void swap_write_unplug(struct swap_iocb *sio);
int folio_swap_flags(struct folio *folio);
void *get_shadow_from_swap_cache(swp_entry_t entry);

/* mm/swap_cgroup.c: the memcg id recorded per swap slot */
unsigned short swap_cgroup_record(swp_entry_t ent, unsigned short id, unsigned int nr_ents);
unsigned short lookup_swap_cgroup_id(swp_entry_t ent);
/* mm/swap.h: the swap cache of the world's device */
struct address_space *swap_address_space(swp_entry_t entry);
pgoff_t swap_cache_index(swp_entry_t entry);

/* mm/vmscan.c (declared in linux/swap.h) */
struct folio_batch;
void check_move_unevictable_folios(struct folio_batch *fbatch);
/* mm/vmscan.c (declared in mm/internal.h) */
/* MADV_PAGEOUT's reclaim of isolated folios */
unsigned long reclaim_pages(struct list_head *folio_list);
/* mm/madvise.c's MADV_COLD or MADV_PAGEOUT of [start, end) of a vma (madvise_unit.c) */
struct vm_area_struct;
int tb_kmadvise_cold(struct vm_area_struct *vma, unsigned long start, unsigned long end,
		     bool pageout);
/* mm/madvise.c's MADV_FREE of [start, end) of an anonymous vma (madvise_unit.c) */
int tb_kmadvise_free(struct vm_area_struct *vma, unsigned long start, unsigned long end);
/* mm/madvise.c's MADV_WILLNEED of [start, end) of a vma (madvise_unit.c) */
int tb_kmadvise_willneed(struct vm_area_struct *vma, unsigned long start, unsigned long end);
/* mm/swapfile.c's: swap ptes let go of their slots (the world's swap.c) */
#if TB_HAVE_swap_put_entries_direct
void swap_put_entries_direct(swp_entry_t entry, int nr);
#elif TB_HAVE_free_swap_and_cache_nr
void free_swap_and_cache_nr(swp_entry_t entry, int nr);
#else
int free_swap_and_cache(swp_entry_t entry);
#endif
#if TB_HAVE_folio_isolate_lru_bool
bool folio_isolate_lru(struct folio *folio);
#else
int folio_isolate_lru(struct folio *folio);
#endif
void folio_putback_lru(struct folio *folio);

#if !TB_HAVE_fmode_noreuse
/*
 * before 6.3 zap_pte_range() and folio_referenced_one() test VM_SEQ_READ
 * where later trees call vma_has_recency() (the world calls it on both)
 */
static inline bool vma_has_recency(struct vm_area_struct *vma)
{
	return !(vma->vm_flags & VM_SEQ_READ);
}
#endif

/* where a swap cache folio keeps its swap entry */
static inline swp_entry_t *tb_folio_swap(struct folio *folio)
{
#if TB_HAVE_folio_swap_member
	return &folio->swap;
#else
	return (swp_entry_t *)&folio->private;	/* folio_swap_entry() */
#endif
}
void folio_putback_lru(struct folio *folio);

/* mm/swap.c (declared in mm/internal.h) */
void folio_rotate_reclaimable(struct folio *folio);

/* mm/page_alloc.c */
void free_unref_folios(struct folio_batch *fbatch);
void free_unref_page(struct page *page, unsigned int order);
#if !TB_HAVE_folios_put_refs
/* before 6.8: reclaim and release_pages() free lists of pages */
void free_unref_page_list(struct list_head *list);
void destroy_large_folio(struct folio *folio);
static inline void mlock_page_drain_local(void)
{
}
static inline bool need_mlock_page_drain(int cpu)
{
	return false;
}
static inline void free_zone_device_page(struct page *page)
{
}
/* put_devmap_managed_page(): linux/mm.h's, with put_page() (mm_h.manifest) */
#endif

/* mm/mlock.c: the world maps nothing VM_LOCKED */
static inline void mlock_new_folio(struct folio *folio)
{
}
static inline void mlock_drain_local(void)
{
}
static inline bool need_mlock_drain(int cpu)
{
	return false;
}

/* mm/hugetlb.c, mm/memremap.c: no hugetlb or ZONE_DEVICE folios */
static inline void free_huge_folio(struct folio *folio)
{
}
static inline void free_zone_device_folio(struct folio *folio)
{
}
static inline bool folio_is_zone_device(const struct folio *folio)
{
	return false;
}

/* fs/buffer.c: no buffer heads */
static inline bool has_bh_in_lru(int cpu, void *dummy)
{
	return false;
}
static inline void invalidate_bh_lrus_cpu(void)
{
}
/* mm/vmscan.c's initcall of the multi-gen LRU (globalized by kextract) */
int init_lru_gen(void);

/*
 * Transparent huge pages (mm/vmscan/huge_memory_unit.c): a boot option of
 * mm/huge_memory.c's (-ENOENT: not one of them; apply false only checks
 * the name), its initcall at boot, and what the next boot starts from
 */
#ifdef CONFIG_TRANSPARENT_HUGEPAGE
int tb_thp_boot_option(char *opt, bool apply);
void tb_thp_boot(void);
void tb_thp_shutdown(void);
/* count_mthp_stat() from outside the library that holds the counters */
void tb_count_mthp_stat(int order, enum mthp_stat_item item);
#else
/* a tree the world's THP is not ported to: built without it */
static inline int tb_thp_boot_option(char *opt, bool apply)
{
	return -ENOENT;
}
static inline void tb_thp_boot(void)
{
}
static inline void tb_thp_shutdown(void)
{
}
#endif
#endif
