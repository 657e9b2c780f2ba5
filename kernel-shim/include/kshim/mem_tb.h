/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The simulated memory of the test bed (kernel-shim/world/): RAM as a
 * memmap of real struct pages on N nodes (one ZONE_NORMAL each, watermarks
 * set by the kernel's own page_alloc.c code), a swap device, files in a
 * page cache, and tasks whose address spaces map anonymous memory and
 * files. Touching a page is what the hardware and the fault path do;
 * everything reclaim decides is the real mm/vmscan.c.
 */
#ifndef _KSHIM_MEM_TB_H
#define _KSHIM_MEM_TB_H
#include <linux/types.h>
#include <linux/gfp.h>

struct folio;
struct page;
struct address_space;
struct kshim_trace;
struct tb_file;
struct tb_vma;
struct tb_task;

struct tb_mem_config {
	unsigned long ram_pages;	/* per node; 0: 64 MiB */
	unsigned long swap_pages;	/* 0: no swap device */
	/*
	 * the swap device is a disk: a write completes a write's latency
	 * later, the folio under writeback meanwhile; else zram, whose
	 * writes complete before swap_writepage() returns
	 */
	bool swap_disk;
	/*
	 * the swap device is a swap file on a file system with ->swap_rw
	 * (NFS: SWP_FS_OPS): swap_writepage_fs() gathers the pages of one
	 * reclaim pass into an iocb (its plug) written when the pass
	 * unplugs; each page under writeback until the disk completes it,
	 * as swap_disk
	 */
	bool swap_fs;
	int min_free_kbytes;		/* vm.min_free_kbytes; 0: the kernel's formula */
	int watermark_scale_factor;	/* vm.watermark_scale_factor; 0: 10 */
	int swappiness;			/* vm.swappiness; -1 or 0..200 */
	bool swappiness_set;		/* swappiness given (0 is a value) */
	bool no_kswapd;			/* boot without kswapd threads */
	/* pages the rest of the system holds (kernel, other processes): never freed */
	unsigned long reserved_pages;
	/*
	 * nodes of slow memory (bit n: node n), CXL or PMEM as firmware
	 * describes them and the dax/kmem driver brings them online: a
	 * lower memory tier, the demotion target of the others (trees
	 * whose mm/memory-tiers.c the world builds; else ignored)
	 */
	unsigned long slow_nodes;
	/*
	 * vm.dirty_ratio as balance_dirty_pages() keeps writers to it: a
	 * write that leaves the dirty and writeback page cache above this
	 * percentage of the dirtyable memory (free pages and page cache)
	 * wakes the flushers and sleeps until the disk brings it back
	 * under; 0: writers are not throttled
	 */
	int dirty_ratio;
};

/* after kshim_world_boot() and tb_memcg_boot(); 0 or -errno (one line on stderr) */
int tb_mem_boot(const struct tb_mem_config *cfg);
void tb_mem_shutdown(void);
bool tb_mem_booted(void);
/* invariants: NULL if they hold, else what is wrong */
const char *tb_mem_check(void);
/* at teardown, every task and file gone: all pages free, no swap in use */
const char *tb_mem_check_empty(void);
/*
 * the end of a world with memory: every task exits and every file goes,
 * the memory is checked empty, then the memory and memcg worlds shut down
 * (whatever the check said); NULL, or what the check found
 */
const char *tb_mem_teardown(void);

/* ---- the page allocator ---- */
/* a page the way the fault path gets one: watermarks, kswapd, direct reclaim, OOM */
struct folio *tb_alloc_folio(gfp_t gfp, int nid);
/*
 * a folio of 2^order pages, naturally aligned, from the buddy free lists:
 * the same slow path at that order, but for order > 0 the gfp decides
 * whether it reclaims or retries (__GFP_NORETRY, __GFP_RETRY_MAYFAIL), a
 * costly order (> PAGE_ALLOC_COSTLY_ORDER) never OOM-kills; NULL on
 * failure. Order > 0 needs large folios (thp_folio_split trees): a
 * compound, large rmappable folio, as folio_alloc() gives
 */
struct folio *tb_alloc_folio_order(gfp_t gfp, unsigned int order, int nid);
/*
 * __free_pages(): the last reference of 2^order pages the kernel allocated
 * for itself (tb_alloc_folio_order() with __GFP_ACCOUNT: a page table,
 * kmalloc_large(), a pgd) goes; free_pages_prepare() uncharges a kernel
 * page (__memcg_kmem_uncharge_page())
 */
void tb_page_free(struct page *page, unsigned int order);
unsigned long tb_free_pages(int nid);		/* NR_FREE_PAGES of the node's zone */
unsigned long tb_wmark(int nid, int which);	/* WMARK_MIN/LOW/HIGH pages */
/*
 * An allocation fell back to another migratetype and stole a pageblock:
 * the real boost_watermark() raises the zone's watermark_boost, and the
 * allocation wakes kswapd for it, as rmqueue() does
 */
void tb_mem_steal_pageblock(int nid);
/*
 * Free memory as fragmented as a long-running machine's: every free page
 * of the node taken, then pages of even pfn freed until target pages are
 * free (or all of them are): each free page's buddy is on held, so no free
 * block is above order 0. The caller puts held's folios (tb_put_folios()).
 */
void tb_mem_fragment(int nid, unsigned long target, struct list_head *held);

/*
 * An allocation of 2^order pages wakes kswapd: wakeup_kswapd() for each
 * node of nid's zonelist, as the allocator's slow path does, kswapd left
 * to run at the next yield point (tb_kthreads_settle())
 */
void tb_wake_kswapd(gfp_t gfp, unsigned int order, int nid);

/*
 * ---- kcompactd ----
 * The world's kcompactd is woken (wakeup_kcompactd()), never runs: free
 * blocks are only ever made larger by freed buddies merging, so on
 * fragmented memory (tb_mem_fragment()) a watermark test of order > 0 fails.
 */
struct tb_kcompactd_wakeups {
	unsigned long count;		/* wakeup_kcompactd() calls for the node */
	int last_order, last_highest_zoneidx;	/* the last call's */
	int max_order;			/* the highest order asked since boot */
};
struct tb_kcompactd_wakeups tb_kcompactd_wakeups(int nid);

/* ---- files and page cache ---- */
struct tb_file *tb_file_create(unsigned long nr_pages);
void tb_file_destroy(struct tb_file *file);	/* drops its page cache */
/* teardown: every file; a message when a folio was left locked, else NULL */
const char *tb_files_destroy_all(void);
/* read one page through the page cache (no mapping): 0, or -errno */
int tb_file_read(struct tb_file *file, unsigned long index);
unsigned long tb_file_cached(struct tb_file *file);	/* pages in the cache */
/* write() one page: cached (read first if not), then dirty; 0 or -errno */
int tb_file_write(struct tb_file *file, unsigned long index);
unsigned long tb_file_dirty(struct tb_file *file);	/* dirty folios cached */
/* the folio cached at index, or NULL (no reference taken) */
struct folio *tb_file_folio(struct tb_file *file, unsigned long index);
/* SHM_LOCK (on) / SHM_UNLOCK (off): unevictable page cache, rescued on unlock */
void tb_file_set_unevictable(struct tb_file *file, bool on);
unsigned long tb_writeback_inflight(void);		/* pages the disk is writing */
/* the file's address_space: its flags (AS_EIO, ...) and wb_err */
struct address_space *tb_file_mapping(struct tb_file *file);
/*
 * Every write of the file's pages fails with err (-EIO, -ENOSPC; 0: they
 * succeed again), as hostfs_writepage() does when the host's write fails:
 * the error recorded in the mapping, the folio left clean and unlocked.
 */
void tb_file_set_write_error(struct tb_file *file, int err);

/*
 * The file system a file is on, as its address_space_operations make it
 * (set before a page of the file is cached: 0, or -EBUSY):
 * TB_FS_WRITEPAGE: ->writepage writes the folio (the default);
 * TB_FS_NO_WRITEPAGE: no ->writepage, as xfs and btrfs have none: only
 *   the flushers (->writepages) write its pages;
 * TB_FS_WRITEPAGE_ACTIVATE: ->writepage from reclaim redirties the folio
 *   and returns AOP_WRITEPAGE_ACTIVATE, as shmem_writepage() does when it
 *   gets no swap slot;
 * TB_FS_WRITEPAGE_REDIRTY: ->writepage from reclaim redirties the folio
 *   (folio_redirty_for_writepage()) and returns 0, as a file system does
 *   that cannot allocate blocks there (ext4's delalloc pages did);
 * TB_FS_BUFFERS: a block device's page cache (def_blk_aops): buffer heads
 *   on every cached folio (PG_private), ->is_dirty_writeback, no
 *   ->release_folio (fs/buffer.c's try_to_free_buffers() frees them);
 * TB_FS_FREE_FOLIO: ->free_folio, called once a folio has left the page
 *   cache (NFS's directories, orangefs): tb_free_folio_calls() counts them.
 * The flushers write every kind.
 */
enum tb_file_fs {
	TB_FS_WRITEPAGE,
	TB_FS_NO_WRITEPAGE,
	TB_FS_WRITEPAGE_ACTIVATE,
	TB_FS_WRITEPAGE_REDIRTY,
	TB_FS_BUFFERS,
	TB_FS_FREE_FOLIO,
};
int tb_file_set_fs(struct tb_file *file, enum tb_file_fs fs);
unsigned long tb_free_folio_calls(void);	/* of every TB_FS_FREE_FOLIO file */
/*
 * TB_FS_BUFFERS: the buffers of every cached page are under I/O (on),
 * locked by submit_bh() as a journal writes metadata, the folio neither
 * dirty nor under writeback: busy, so try_to_free_buffers() fails; off:
 * the I/O completed
 */
void tb_file_set_buffers_io(struct tb_file *file, bool on);
/*
 * Readahead and large folios, set before a page is cached (-EBUSY after;
 * -EOPNOTSUPP on trees the world builds without THP): with ra_pages > 0
 * a read miss and a file fault go through the tree's mm/readahead.c, the
 * device reading up to ra_pages at a time; tb_file_set_large_folios() is
 * mapping_set_large_folios(), so readahead may allocate folios of any
 * order up to the mapping's maximum; tb_file_set_folio_orders() is
 * mapping_set_folio_order_range(0, max_order), as a file system whose
 * block size caps its folios sets it. Files left alone read one page a
 * miss, as they always did.
 */
int tb_file_set_readahead(struct tb_file *file, unsigned long ra_pages);
int tb_file_set_large_folios(struct tb_file *file);
int tb_file_set_folio_orders(struct tb_file *file, unsigned int max_order);
/*
 * readahead(2) of count bytes from offset (ksys_readahead(): for a regular
 * file open for reading, vfs_fadvise()'s POSIX_FADV_WILLNEED, the tree's
 * force_page_cache_ra(), at most the device's window); 0, -EINVAL for a
 * negative offset or no bytes, -EOPNOTSUPP where the world has no
 * readahead (6.1)
 */
int tb_file_readahead(struct tb_file *file, loff_t offset, size_t count);
/*
 * A TB_FS_BUFFERS file destroyed (truncated) while its buffers are under
 * I/O leaves its folios on the LRU with their buffers, out of the page
 * cache (block_invalidate_folio() could not free them), still charged;
 * this completes that I/O, so reclaim can free them
 */
void tb_truncated_buffers_io_done(void);

/* ---- tasks: a task in a cgroup, with an address space ---- */
/* a new task in cgroup path, not yet running; NULL on error (*err) */
struct tb_task *tb_task_spawn(const char *path, int *err);
/* run t on this thread (current is t) until the next switch; NULL: back */
void tb_task_switch(struct tb_task *t);
void tb_task_exit(struct tb_task *t);		/* unmaps everything, frees t */
/*
 * t runs on virtual CPU cpu from now on (its thread moves there while t
 * is switched in), so its pages come from cpu_to_node(cpu) first, then
 * along that node's zonelist: 0 or -EINVAL
 */
int tb_task_set_cpu(struct tb_task *t, int cpu);
/*
 * a cpuset of one node for t (cpuset.cpus and cpuset.mems): t runs on
 * the node's first CPU (if it has one) and its user pages come from nid
 * only, reclaiming there when it is short; 0 or -EINVAL
 */
int tb_task_bind_node(struct tb_task *t, int nid);
/*
 * t's pid written to path's cgroup.procs: its later charges go to path,
 * the folios it has stay charged where they are (cgroup v2), and the
 * memory controller's attach runs; 0, -ENOENT or -ENODEV (removed)
 */
int tb_task_move(struct tb_task *t, const char *path);
void tb_task_exit_all(void);			/* every task, the thread's own too */

/* in current's mm, each vma at a PMD boundary of its own (a page table of its own) */
struct tb_vma *tb_map_anon(unsigned long nr_pages);
/* a page after the last vma, as mmap() places a neighbour: they may share a page table */
struct tb_vma *tb_map_anon_near(unsigned long nr_pages);
struct tb_vma *tb_map_file(struct tb_file *file);	/* the whole file */
/* the whole file, PROT_EXEC (VM_EXEC, as text of a program or library is mapped) */
struct tb_vma *tb_map_file_exec(struct tb_file *file);
void tb_unmap(struct tb_vma *vma);
/*
 * madvise() of the whole vma: MADV_NORMAL, MADV_RANDOM, MADV_SEQUENTIAL
 * set its read-ahead hints (VM_RAND_READ, VM_SEQ_READ), as
 * madvise_behavior() does; MADV_HUGEPAGE and MADV_NOHUGEPAGE (where THP
 * is built, else -EINVAL as the kernel's madvise_behavior_valid()) set
 * VM_HUGEPAGE or VM_NOHUGEPAGE through the kernel's hugepage_madvise();
 * MADV_FREE (anonymous only) drops its swapped
 * pages and makes its folios lazyfree (clean, not swap-backed, on the
 * inactive file list: reclaim frees them unwritten unless written again),
 * as madvise_free_pte_range() does; MADV_COLD deactivates the folios
 * the vma alone maps, MADV_PAGEOUT reclaims them through the kernel's
 * reclaim_pages() (as madvise_cold_or_pageout_pte_range() does);
 * MADV_WILLNEED reads each swapped page of an anonymous vma into the swap
 * cache, order 0 (the kernel's swap-in walk), and reads a file's pages
 * ahead (force_page_cache_ra(); -EOPNOTSUPP on 6.1, where the world has
 * no readahead); 0 or -EINVAL
 */
int tb_madvise(struct tb_vma *vma, int advice);
/* uapi asm-generic/mman-common.h's, which the host's C library may predate */
#ifndef MADV_COLLAPSE
#define MADV_COLLAPSE 25
#endif
/*
 * madvise() of pages [start, start + n) of a vma: MADV_COLD, MADV_PAGEOUT,
 * MADV_FREE, MADV_WILLNEED; of an anonymous vma, MADV_DONTNEED and
 * MADV_COLLAPSE (trees with THP)
 */
int tb_madvise_range(struct tb_vma *vma, unsigned long start, unsigned long n, int advice);
/*
 * mprotect(): PROT_NONE or PROT_READ [| PROT_WRITE] [| PROT_EXEC] for the
 * whole vma (no PROT_WRITE for a file mapping); 0 or -EINVAL
 */
int tb_mprotect(struct tb_vma *vma, int prot);
/*
 * touch one page as the CPU does: 0, -ENOMEM (OOM or killed), -EFAULT
 * (SIGSEGV: an access the vma does not allow)
 */
int tb_touch(struct tb_vma *vma, unsigned long index, bool write);
/*
 * a write of a zero byte (tb_touch() writes data): the page keeps the
 * contents it has, zero-filled if it was (a fresh anonymous page is), so
 * the split of a THP can map it to the zero page as the kernel does
 */
int tb_touch_write_zero(struct tb_vma *vma, unsigned long index);
/*
 * one pass of khugepaged's scan and collapse (trees with THP), between two
 * accesses; its thread makes one every scan_sleep_millisecs of virtual time
 */
void tb_khugepaged_scan(void);
/* whether a page of the world holds a byte other than zero */
bool tb_page_has_data(const struct page *page);
/*
 * a hint with no effect on the world: the host fetches what a touch of
 * index will read, so a caller that knows its next accesses (a random
 * workload drawing them ahead) hides the host's cache misses
 */
void tb_touch_prefetch(struct tb_vma *vma, unsigned long index);
/* pages of the vma that are present / swapped out */
unsigned long tb_vma_resident(struct tb_vma *vma);
unsigned long tb_vma_swapped(struct tb_vma *vma);
/* both counts in one walk of the page tables */
void tb_vma_counts(struct tb_vma *vma, unsigned long *resident, unsigned long *swapped);
/*
 * the accessed bit of page index's pte, and of the pmd above it (x86 sets
 * it in every entry a walk of the MMU goes through); false: no pte table
 */
bool tb_vma_pte_young(struct tb_vma *vma, unsigned long index);
bool tb_vma_pmd_young(struct tb_vma *vma, unsigned long index);
/* the pmd entry over page index (a pmd_t *), NULL where no table was made */
void *tb_vma_pmdp(struct tb_vma *vma, unsigned long index);
/* the folio mapped at index of vma, or NULL (no reference taken) */
struct folio *tb_vma_folio(struct tb_vma *vma, unsigned long index);

/*
 * ---- references the rest of the kernel holds ----
 * A reference (find_get_page(), get_user_pages(): folio_get) or a DMA pin
 * (pin_user_pages(): GUP_PIN_COUNTING_BIAS references on an order-0 folio,
 * what folio_maybe_dma_pinned() sees) on a folio of tb_file_folio() or
 * tb_vma_folio(). Each is dropped by its put/unpin before the test ends.
 */
void tb_folio_get(struct folio *folio);
void tb_folio_put(struct folio *folio);
void tb_folio_pin(struct folio *folio);
void tb_folio_unpin(struct folio *folio);

/* ---- swap ---- */
unsigned long tb_swap_used(void);		/* slots in use */
/* swap_fs: the ->swap_rw() calls (iocbs written) and the pages they wrote */
void tb_swap_fs_writes(unsigned long *iocbs, unsigned long *pages);

/* ---- kswapd ---- */
/* the vmscan tracepoints node nid's kswapd recorded (its thread's kshim_trace) */
const struct kshim_trace *tb_kswapd_trace(int nid);
/* run the kernel threads until each sleeps, whatever their clocks (a quiet world) */
void tb_kthreads_settle(void);
/* host CPU time node nid's kswapd thread has used (ns; 0: no kswapd) */
u64 tb_kswapd_cpu_ns(int nid);

/*
 * ---- virtual time ----
 * A touch costs the task virtual time by what it took: a resident hit, a
 * minor fault (a new anon page or a page still in a cache), a major fault
 * (swap-in, file read); a page its own direct reclaim wrote to zram costs
 * it the write (swapout_ns), a page it freed or wrote to a swap disk the
 * reclaim work (the disk completes the write swapout_ns later). kswapd pays the same on
 * a clock of its own (another CPU) and cannot run ahead of the world: at
 * each cond_resched() past world time it waits. World time is the
 * furthest task clock; jiffies follow it (HZ per second).
 */
struct tb_mem_costs {
	u64 hit_ns, minor_ns, swapin_ns, file_read_ns, swapout_ns;
	u64 file_write_ns;	/* writeback of a dirty file page completes after it */
	u64 reclaim_ns;		/* CPU time of reclaim per page it frees or writes to a disk */
};
void tb_mem_set_costs(const struct tb_mem_costs *costs);	/* NULL: defaults */
void tb_mem_get_costs(struct tb_mem_costs *costs);		/* the costs in force */
u64 tb_task_vclock_ns(struct tb_task *t);
u64 tb_world_ns(void);

/* ---- fault counters of the world (what the hardware saw) ---- */
struct tb_mem_stats {
	unsigned long hits, minor, major_anon, major_file, swapouts, fileouts;
};
void tb_mem_stats(struct tb_mem_stats *st);
#endif
