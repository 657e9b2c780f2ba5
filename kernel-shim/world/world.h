/* SPDX-License-Identifier: GPL-2.0-only */
/* Internals shared by the files of the simulated memory world. */
#ifndef _KSHIM_WORLD_WORLD_H
#define _KSHIM_WORLD_WORLD_H
#include <linux/mm.h>
#include <kshim/mem_tb.h>

#define TB_MAX_SWAP_PAGES (64UL << (30 - PAGE_SHIFT))	/* 64 GiB */

/*
 * The page cache, swap cache and rmap count their folios in the node and
 * memcg stats: with the __ variants under the callers' disabled irqs, or
 * (7.2, lruvec_stat_mod_folio) the variants that are irq-safe themselves
 */
/* an anon folio's mapping names its anon_vma with the low bit set */
#if TB_HAVE_folio_mapping_anon
#define TB_MAPPING_ANON FOLIO_MAPPING_ANON
#define TB_MAPPING_FLAGS FOLIO_MAPPING_FLAGS
#else
#define TB_MAPPING_ANON PAGE_MAPPING_ANON
#define TB_MAPPING_FLAGS PAGE_MAPPING_FLAGS
#endif

#if TB_HAVE_lruvec_stat_mod_folio
#define tb_lruvec_stat_mod_folio lruvec_stat_mod_folio
#define tb_mod_lruvec_state mod_lruvec_state
#else
#define tb_lruvec_stat_mod_folio __lruvec_stat_mod_folio
#define tb_mod_lruvec_state __mod_lruvec_state
#endif

/* mem.c */
bool tb_page_in_memmap(const struct page *page);
/* the contents of a page: whether it holds a byte other than zero (mem.c) */
void tb_page_set_data(const struct page *page, bool data);
/* the zero page's struct page at boot, NULL at shutdown (vm.c) */
void tb_zero_page_boot(struct page *page);
/* mm/page_alloc.c's buddy free lists (mm/page_alloc/page_alloc_unit.c), under zone->lock */
struct page *tb_buddy_take(struct zone *zone, unsigned int order);
void tb_buddy_free(struct zone *zone, struct page *page, unsigned int order);
void tb_set_buddy_order(struct page *page, unsigned int order);
int tb_free_tail_page_prepare(struct page *head, struct page *page);

/* swap.c: entries are slot offsets 1..N of the one device (type 0) */
int tb_swap_boot(unsigned long pages, bool disk, bool fs);
/* the disk's writes done, swap cache copies no pte refers to dropped */
void tb_swap_drop_unreferenced(void);
void tb_swap_shutdown(void);
void tb_swap_dup(swp_entry_t entry);		/* a pte now holds the entry */
void tb_swap_put_entry(swp_entry_t entry);	/* a pte dropped the entry */
struct folio *tb_swap_cache_lookup(swp_entry_t entry);
int tb_swap_cache_add(struct folio *folio, swp_entry_t entry);
void tb_swap_writeout_done(struct folio *folio);
void tb_swap_cache_replace(struct folio *old, struct folio *new);
/* the memcg a slot's swap is charged to (its swap cgroup record) */
unsigned short tb_swap_memcg_id(swp_entry_t entry);
int tb_swap_count(swp_entry_t entry);		/* __swap_count(): the ptes holding it */
bool tb_swap_entry_valid(swp_entry_t entry);	/* get_swap_device(): of the device */
bool tb_swap_synchronous(void);		/* SWP_SYNCHRONOUS_IO: zram, not a disk */
void tb_swap_free_nr(swp_entry_t entry, int nr);	/* nr ptes dropped their entries */
#if TB_HAVE_swapin_thp
struct swap_info_struct *tb_swap_device(void);	/* the one device: its flags */
#endif
/* the nr slots from entry hold zero-filled pages (the zeromap, 6.12 on): no read */
bool tb_swap_zero(swp_entry_t entry, long nr);
/* slots held for a swap-in that skips the swap cache, or a read into it */
int tb_swapcache_prepare(swp_entry_t entry, int nr);
void tb_swapcache_clear(swp_entry_t entry, int nr);
#if TB_HAVE_swapin_sync
/* 7.x's swap-in of a large folio, in the swap cache */
int tb_swap_cache_add_check(swp_entry_t targ, unsigned long nr);
void tb_swap_cache_del_added(struct folio *folio, void *shadow);
#endif

/* pagecache.c */
int tb_pagecache_add(struct tb_file *file, struct folio *folio, unsigned long index, gfp_t gfp);
struct folio *tb_cache_lookup(struct tb_file *file, unsigned long index);
struct list_head *tb_file_vmas(struct tb_file *file);
unsigned long tb_file_pages(struct tb_file *file);
struct tb_file *tb_mapping_file(struct address_space *mapping);
int tb_file_write_error(struct tb_file *file);	/* what its writepage returns */
enum tb_file_fs tb_file_fs(struct tb_file *file);
void tb_pagecache_replace(struct folio *old, struct folio *new);
/* readahead (mm/readahead.c): whether the file reads ahead; an open file's state */
bool tb_file_readahead_on(struct tb_file *file);
void tb_file_ra_init(struct tb_file *file, struct file *open);
#ifdef CONFIG_TRANSPARENT_HUGEPAGE
/* mm/filemap.c's readahead of a file fault (extracted, made global) */
struct file *do_sync_mmap_readahead(struct vm_fault *vmf);
struct file *do_async_mmap_readahead(struct vm_fault *vmf, struct folio *folio);
#endif

void tb_files_for_each_dirty(void (*fn)(struct folio *folio));

/* writeback.c */
struct writeback_control;
bool tb_file_dirty_folio(struct address_space *mapping, struct folio *folio);
int tb_file_writepage(struct page *page, struct writeback_control *wbc);
void tb_writeback_complete(u64 now_ns);
void tb_writeback_submit(struct folio *folio, u64 done_ns);
bool tb_writeback_wait(struct folio *folio);	/* false: no write in flight */
/* balance_dirty_pages(): a writer over the dirty limit waits for the disk */
void tb_dirty_ratio_set(int ratio);
void tb_balance_dirty_pages(void);
void tb_flushers_run(void);	/* the flusher work kswapd queued */
void tb_flushers_reset(void);

/* vm.c: tasks' address spaces and the reverse map */
void tb_mm_init(struct mm_struct *mm, struct task_struct *owner);	/* fork's part */
void tb_task_mm_reap(struct mm_struct *mm);	/* OOM reaper: zap all pages */
void tb_task_mm_exit(struct mm_struct *mm);	/* exit_mmap(): unmap all, wait for walkers, free tables */
unsigned long tb_mm_rss(struct mm_struct *mm);	/* resident + swapped pages */
unsigned long tb_page_tables_live(void);	/* page-table pages of all mms */
bool tb_global_oom(gfp_t gfp);			/* out_of_memory(), global */
/* migration: src's rmap taken from each of its ptes, then the ptes map dst */
void tb_rmap_migrate_begin(struct folio *src);
void tb_rmap_migrate_end(struct folio *src, struct folio *dst);

/* mem.c: __alloc_pages() for a caller that cannot block (order 0) */
struct folio *tb_alloc_folio_nowait(gfp_t gfp, int nid, nodemask_t *nodemask);

/* tiers.c: memory tiers (slow nodes: a bit each), at mem boot and shutdown */
void tb_tiers_boot(unsigned long slow_nodes);
void tb_tiers_shutdown(void);

/* kcompactd.c: every node's wake-ups forgotten (a new machine) */
void tb_kcompactd_reset(void);

/* kswapd.c */
int tb_kswapd_start_all(void);
void tb_kswapd_stop_all(void);
void tb_kthreads_run(void);		/* the test thread's yield point */

/* virtual time (vm.c) */
void tb_charge_time(u64 ns);
void tb_charge_swapout(void);
void tb_charge_reclaimed(unsigned long nr);
u64 tb_cost_hit(void);
u64 tb_cost_file_read(void);
u64 tb_cost_file_write(void);
u64 tb_cost_swapout(void);
struct task_struct *tb_task_struct(struct tb_task *t);	/* memcg_task.c */

/* counters of what the hardware saw */
extern struct tb_mem_stats tb_stats;
void tb_world_stats_reset(void);
#endif
