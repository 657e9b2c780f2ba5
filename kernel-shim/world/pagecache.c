// SPDX-License-Identifier: GPL-2.0-only
/*
 * Files and their page cache: an inode and address_space per file, whose
 * i_pages hold folios or the shadow entries workingset_eviction() left
 * (mm/filemap.c's layout); the folio lock, dirtying and the removal
 * reclaim asks for. A read of a page not cached costs a major fault;
 * a write() dirties the cached page (writeback.c writes it back).
 */
#include <linux/mm.h>
#include <linux/pagemap.h>
#include <linux/swap.h>
#include <linux/memcontrol.h>
#include <linux/mm_inline.h>
#include <linux/writeback.h>
#include <linux/xarray.h>
#include <linux/slab.h>
#include <linux/vmstat.h>
#include <linux/oom.h>
#include <linux/fadvise.h>
#include <linux/buffer_head.h>
#include <linux/list_lru.h>
#include <linux/backing-dev.h>
#include <kshim/reclaim.h>
#include <kgen/mm_internal_reclaim.h>
#include "world.h"

int laptop_mode;

#ifdef CONFIG_TRANSPARENT_HUGEPAGE
/*
 * tmpfs is not modelled (shmem_file() and shmem_mapping() are false):
 * mm/huge_memory.c never calls these, but a build that keeps dead calls
 * (-O0, coverage) links against them
 */
unsigned long shmem_allowable_huge_orders(struct inode *inode, struct vm_area_struct *vma,
					  pgoff_t index, loff_t write_end, bool shmem_huge_force)
{
	WARN_ONCE(1, "tb: the world has no tmpfs");
	return 0;
}

void shmem_uncharge(struct inode *inode, long pages)
{
	WARN_ONCE(1, "tb: the world has no tmpfs");
}

/*
 * mm/workingset.c's tracking of page-cache nodes that hold only shadow
 * entries, for its shadow-node shrinker, which the world leaves out
 * (mm/vmscan/workingset.manifest): such a node stays until its file goes
 */
struct list_lru shadow_nodes;

void workingset_update_node(struct xa_node *node)
{
}
#endif

struct tb_file {
	struct inode inode;
	struct super_block sb;
	unsigned long nr_pages;
	int write_error;		/* what every writepage returns; 0: success */
	enum tb_file_fs fs;		/* its file system's kind */
	bool buffers_io;		/* TB_FS_BUFFERS: every page's buffers locked */
	bool readahead;			/* reads go through mm/readahead.c */
	struct backing_dev_info bdi;	/* its device: readahead window, writeback */
	struct file file;		/* the reader's open file: its readahead state */
	struct list_head vmas;		/* tb_vma that map it */
	struct list_head node;		/* files */
};

/*
 * Buffers the journal's I/O still held when their file was truncated:
 * truncate_cleanup_folio() could not invalidate the folio, which left the
 * page cache with them (mapping NULL) and stays on the LRU until reclaim
 * frees the buffers, then the folio. Their ->private is &orphans.
 */
static struct {
	bool io;		/* their I/O in flight */
	struct xarray folios;	/* the orphaned folios, by pfn */
} orphans = { .folios = XARRAY_INIT(orphans.folios, 0) };

static LIST_HEAD(files);
static DEFINE_SPINLOCK(files_lock);
static unsigned long next_ino = 1;

/* the disk read behind a page-cache miss: the world's fault path charges it */
static int tb_file_read_folio(struct file *file, struct folio *folio)
{
	folio_mark_uptodate(folio);
	folio_unlock(folio);
	return 0;
}

/*
 * A new folio read: up to date, with the buffer heads
 * block_read_full_folio() attaches on a block device, unlocked
 */
static void read_done(struct tb_file *file, struct folio *folio)
{
	folio_mark_uptodate(folio);
	if (file->fs == TB_FS_BUFFERS)
		folio_attach_private(folio, file);
	folio_unlock(folio);
}

#ifdef CONFIG_TRANSPARENT_HUGEPAGE
/*
 * ->readahead: the disk reads the batch read_pages() hands over at once,
 * each page at a file read's cost
 */
static void file_aop_readahead(struct readahead_control *rac)
{
	struct tb_file *file = tb_mapping_file(rac->mapping);
	struct folio *folio;

	while ((folio = readahead_folio(rac))) {
		tb_charge_time(tb_cost_file_read() * folio_nr_pages(folio));
		read_done(file, folio);
	}
}
#define TB_AOPS_READAHEAD .readahead = file_aop_readahead,
#else
#define TB_AOPS_READAHEAD
#endif

/* pageout()'s write of a file folio, before 7.2 (aops_writepage) */
#if TB_HAVE_aops_writepage
#define TB_AOPS_WRITEPAGE .writepage = tb_file_writepage,
#else
#define TB_AOPS_WRITEPAGE
#endif

static const struct address_space_operations tb_file_aops = {
	.read_folio = tb_file_read_folio,
	TB_AOPS_READAHEAD
	.dirty_folio = tb_file_dirty_folio,
	TB_AOPS_WRITEPAGE
};

/* xfs, btrfs: written back by ->writepages only (the flushers) */
static const struct address_space_operations tb_file_aops_no_writepage = {
	.read_folio = tb_file_read_folio,
	TB_AOPS_READAHEAD
	.dirty_folio = tb_file_dirty_folio,
};

/*
 * fs/buffer.c's buffer_check_dirty_writeback(): a buffer dirty makes the
 * folio dirty, a buffer locked for I/O under writeback; a dirty folio's
 * buffers are dirty (the world's write() dirties them all)
 */
static void tb_buffers_dirty_writeback(struct folio *folio, bool *dirty, bool *writeback)
{
	*dirty = folio_test_dirty(folio);
	*writeback = READ_ONCE(tb_mapping_file(folio->mapping)->buffers_io);
}

static const struct address_space_operations tb_blkdev_aops = {
	.read_folio = tb_file_read_folio,
	TB_AOPS_READAHEAD
	.dirty_folio = tb_file_dirty_folio,
	TB_AOPS_WRITEPAGE
	.is_dirty_writeback = tb_buffers_dirty_writeback,
};

static unsigned long free_folio_calls;

/* what the file system keeps per cached page goes with the folio: counted */
static void tb_file_free_folio(struct folio *folio)
{
	WRITE_ONCE(free_folio_calls, free_folio_calls + 1);
}

/* NFS directories (nfs_readdir_clear_array()), orangefs: ->free_folio */
static const struct address_space_operations tb_file_aops_free_folio = {
	.read_folio = tb_file_read_folio,
	TB_AOPS_READAHEAD
	.dirty_folio = tb_file_dirty_folio,
	TB_AOPS_WRITEPAGE
	.free_folio = tb_file_free_folio,
};

unsigned long tb_free_folio_calls(void)
{
	return READ_ONCE(free_folio_calls);
}

int tb_file_set_fs(struct tb_file *file, enum tb_file_fs fs)
{
	struct address_space *mapping = &file->inode.i_data;

	if (mapping->nrpages)
		return -EBUSY;
	file->fs = fs;
	if (fs == TB_FS_NO_WRITEPAGE)
		mapping->a_ops = &tb_file_aops_no_writepage;
	else if (fs == TB_FS_BUFFERS)
		mapping->a_ops = &tb_blkdev_aops;
	else if (fs == TB_FS_FREE_FOLIO)
		mapping->a_ops = &tb_file_aops_free_folio;
	else
		mapping->a_ops = &tb_file_aops;
	return 0;
}

enum tb_file_fs tb_file_fs(struct tb_file *file)
{
	return file->fs;
}

void tb_file_set_buffers_io(struct tb_file *file, bool on)
{
	WRITE_ONCE(file->buffers_io, on);
}

bool tb_file_readahead_on(struct tb_file *file)
{
	return file->readahead;
}

/* an open file of file (a read()'s, a mapping's): file_ra_state_init() */
void tb_file_ra_init(struct tb_file *file, struct file *open)
{
	memset(&open->f_ra, 0, sizeof(open->f_ra));
#ifdef CONFIG_TRANSPARENT_HUGEPAGE
	if (file->readahead)
		file_ra_state_init(&open->f_ra, &file->inode.i_data);
#endif
}

#ifdef CONFIG_TRANSPARENT_HUGEPAGE
/*
 * The file's device reads ahead up to ra_pages (its bdi's ra_pages and
 * io_pages, as a block device's queue limits set them); the open file's
 * state starts as file_ra_state_init() makes it. 0: one page a read, the
 * world's files as they were.
 */
int tb_file_set_readahead(struct tb_file *file, unsigned long ra_pages)
{
	if (file->inode.i_data.nrpages)
		return -EBUSY;
	file->bdi.ra_pages = ra_pages;
	file->bdi.io_pages = ra_pages;
	file->readahead = ra_pages != 0;
	tb_file_ra_init(file, &file->file);
	return 0;
}

/* a file system that supports large folios says so as it sets up the inode */
int tb_file_set_large_folios(struct tb_file *file)
{
	if (file->inode.i_data.nrpages)
		return -EBUSY;
	mapping_set_large_folios(&file->inode.i_data);
	return 0;
}

int tb_file_set_folio_orders(struct tb_file *file, unsigned int max_order)
{
	if (file->inode.i_data.nrpages)
		return -EBUSY;
	if (max_order > MAX_PAGECACHE_ORDER)
		return -EINVAL;
	mapping_set_folio_order_range(&file->inode.i_data, 0, max_order);
	return 0;
}
#else
int tb_file_set_readahead(struct tb_file *file, unsigned long ra_pages)
{
	return -EOPNOTSUPP;
}

int tb_file_set_large_folios(struct tb_file *file)
{
	return -EOPNOTSUPP;
}

int tb_file_set_folio_orders(struct tb_file *file, unsigned int max_order)
{
	return -EOPNOTSUPP;
}
#endif

/* readahead(2): ksys_readahead() of the reader's open file */
int tb_file_readahead(struct tb_file *file, loff_t offset, size_t count)
{
	return vfs_fadvise(&file->file, offset, count, POSIX_FADV_WILLNEED);
}

struct tb_file *tb_file_create(unsigned long nr_pages)
{
	struct tb_file *f = kzalloc(sizeof(*f), GFP_KERNEL);

	if (!f)
		return NULL;
	f->nr_pages = nr_pages;
	f->inode.i_size = (loff_t)nr_pages << PAGE_SHIFT;
	f->inode.i_mode = S_IFREG | 0644;
	f->inode.i_sb = &f->sb;
	f->sb.s_bdi = &f->bdi;
	f->bdi.capabilities = BDI_CAP_WRITEBACK;
	f->file.f_mapping = &f->inode.i_data;
	f->file.f_inode = &f->inode;
	f->inode.i_mapping = &f->inode.i_data;
	f->inode.i_data.host = &f->inode;
	f->inode.i_data.a_ops = &tb_file_aops;
	/*
	 * inode_init_always()'s: readahead's folios are allocated and charged
	 * with it (readahead_gfp_mask()); without __GFP_DIRECT_RECLAIM a charge
	 * over the limit fails at once instead of reclaiming
	 */
	mapping_set_gfp_mask(&f->inode.i_data, GFP_HIGHUSER_MOVABLE);
	spin_lock_init(&f->inode.i_lock);
	xa_init_flags(&f->inode.i_data.i_pages, XA_FLAGS_LOCK_IRQ);
	INIT_LIST_HEAD(&f->vmas);
	spin_lock(&files_lock);
	f->inode.i_ino = next_ino++;
	list_add_tail(&f->node, &files);
	spin_unlock(&files_lock);
	return f;
}

struct tb_file *tb_mapping_file(struct address_space *mapping)
{
	return container_of(mapping, struct tb_file, inode.i_data);
}

void tb_file_set_write_error(struct tb_file *file, int err)
{
	WRITE_ONCE(file->write_error, err);
}

int tb_file_write_error(struct tb_file *file)
{
	return READ_ONCE(file->write_error);
}

unsigned long tb_file_pages(struct tb_file *file)
{
	return file->nr_pages;
}

struct address_space *tb_file_mapping(struct tb_file *file)
{
	return &file->inode.i_data;
}

struct list_head *tb_file_vmas(struct tb_file *file)
{
	return &file->vmas;
}

unsigned long tb_file_cached(struct tb_file *file)
{
	return READ_ONCE(file->inode.i_data.nrpages);
}

/*
 * block_invalidate_folio(): the buffers go with the page cache, unless
 * the journal's I/O holds them: then the folio keeps them, orphaned
 */
static void truncate_buffers(struct tb_file *f, struct folio *folio)
{
	folio_detach_private(folio);
	if (!READ_ONCE(f->buffers_io))
		return;
	folio_attach_private(folio, &orphans);
	WRITE_ONCE(orphans.io, true);
	xa_store(&orphans.folios, folio_pfn(folio), folio, GFP_KERNEL | __GFP_NOFAIL);
}

void tb_truncated_buffers_io_done(void)
{
	WRITE_ONCE(orphans.io, false);
}

/* the orphans reclaim left: their buffers' reference was the last, freed */
static void orphans_drop(void)
{
	struct folio *folio;
	unsigned long pfn;

	lru_add_drain_all();
	xa_for_each(&orphans.folios, pfn, folio) {
		xa_erase(&orphans.folios, pfn);
		folio_detach_private(folio);
	}
	WRITE_ONCE(orphans.io, false);
}

/*
 * Teardown's truncate takes each folio's lock as truncate_inode_pages()
 * does. By then every task has exited; once kswapd has settled (it may
 * have stopped in reclaim with a folio locked), a folio still locked was
 * left so by the test itself: a case that failed between folio_trylock()
 * and folio_unlock(). The kernel's truncate would sleep in folio_lock()
 * for good (the hung-task detector's report); the world's would wait
 * until the watchdog aborted the suite, and the case's own assertion
 * would never be printed. Teardown takes such a lock over and counts it
 * (tb_files_destroy_all() reports them), so the case fails with its own
 * reason and the next case runs.
 */
static bool files_tearing_down;
static unsigned long left_locked;	/* folios found locked by teardown */
static char left_locked_msg[96];

static void truncate_lock(struct folio *folio)
{
	if (!files_tearing_down) {
		folio_lock(folio);
		return;
	}
	if (folio_trylock(folio))
		return;
	tb_kthreads_settle();
	if (!folio_trylock(folio))
		left_locked++;	/* PG_locked stays set: teardown holds it now */
}

/* truncate_inode_pages_final(): every cached folio leaves, shadows too */
void tb_file_destroy(struct tb_file *f)
{
	struct address_space *mapping = &f->inode.i_data;
	unsigned long index;
	void *entry;

	WARN_ON(!list_empty(&f->vmas));
	/* truncate waits for writeback; a dirty folio is simply dropped */
	tb_writeback_complete(U64_MAX);
	lru_add_drain_all();
	xa_for_each(&mapping->i_pages, index, entry) {
		struct folio *folio = entry;

		if (xa_is_value(entry)) {
			xa_erase(&mapping->i_pages, index);
			continue;
		}
		truncate_lock(folio);
		folio_get(folio);
		if (folio_test_dirty(folio))
			folio_clear_dirty_for_io(folio);
		if (folio_test_private(folio))
			truncate_buffers(f, folio);
		filemap_remove_folio(folio);
		folio_unlock(folio);
		folio_put(folio);
	}
	xa_destroy(&mapping->i_pages);
	spin_lock(&files_lock);
	list_del(&f->node);
	spin_unlock(&files_lock);
	kfree(f);
}

const char *tb_files_destroy_all(void)
{
	struct tb_file *f, *tmp;

	files_tearing_down = true;
	left_locked = 0;
	list_for_each_entry_safe(f, tmp, &files, node)
		tb_file_destroy(f);
	files_tearing_down = false;
	orphans_drop();
	if (!left_locked)
		return NULL;
	snprintf(left_locked_msg, sizeof(left_locked_msg),
		 "%lu page cache folio(s) left locked by the test (taken over by truncate)",
		 left_locked);
	return left_locked_msg;
}

struct folio *tb_file_folio(struct tb_file *file, unsigned long index)
{
	return tb_cache_lookup(file, index);
}

struct folio *tb_cache_lookup(struct tb_file *file, unsigned long index)
{
	void *p = xa_load(&file->inode.i_data.i_pages, index);

	return p && !xa_is_value(p) ? p : NULL;
}

#ifdef CONFIG_TRANSPARENT_HUGEPAGE
/* a folio read in at index: the kernel's filemap_add_folio(), then the read */
int tb_pagecache_add(struct tb_file *file, struct folio *folio, unsigned long index, gfp_t gfp)
{
	int err = filemap_add_folio(&file->inode.i_data, folio, index, gfp);

	if (!err)
		read_done(file, folio);
	return err;
}
#else
/* filemap_add_folio() for order 0 (6.1): charge, insert, refault check, onto the LRU */
int tb_pagecache_add(struct tb_file *file, struct folio *folio, unsigned long index, gfp_t gfp)
{
	struct address_space *mapping = &file->inode.i_data;
	void *shadow;
	int err;

	err = mem_cgroup_charge(folio, NULL, gfp);
	if (err)
		return err;
	__folio_set_locked(folio);
	folio->mapping = mapping;
	folio->index = index;
	folio_ref_add(folio, 1);
	xa_lock_irq(&mapping->i_pages);
	shadow = __xa_store(&mapping->i_pages, index, folio, GFP_ATOMIC);
	mapping->nrpages++;
	tb_lruvec_stat_mod_folio(folio, NR_FILE_PAGES, 1);
	xa_unlock_irq(&mapping->i_pages);
	WARN_ON_ONCE(shadow && !xa_is_value(shadow));
	if (shadow)
		workingset_refault(folio, shadow);
	folio_add_lru(folio);
	read_done(file, folio);
	return 0;
}
#endif

/*
 * SHM_LOCK / SHM_UNLOCK of a file (shmem_lock(), shmem_unlock_mapping()):
 * the mapping's unevictable flag; on unlock every cached folio goes
 * through the real check_move_unevictable_folios() in batches.
 */
void tb_file_set_unevictable(struct tb_file *file, bool on)
{
	struct address_space *mapping = &file->inode.i_data;
	struct folio_batch fbatch;
	unsigned long index;
	void *entry;

	if (on) {
		mapping_set_unevictable(mapping);
		return;
	}
	mapping_clear_unevictable(mapping);
	folio_batch_init(&fbatch);
	xa_for_each(&mapping->i_pages, index, entry) {
		if (xa_is_value(entry))
			continue;
		if (!folio_batch_add(&fbatch, entry)) {
			check_move_unevictable_folios(&fbatch);
			folio_batch_init(&fbatch);
		}
	}
	if (folio_batch_count(&fbatch))
		check_move_unevictable_folios(&fbatch);
}

/* the dirty folios of every file, each handed to fn (which may unlock...) */
void tb_files_for_each_dirty(void (*fn)(struct folio *folio))
{
	struct tb_file *f;
	unsigned long index;
	void *entry;

	list_for_each_entry(f, &files, node)
		xa_for_each(&f->inode.i_data.i_pages, index, entry)
			if (!xa_is_value(entry) && folio_test_dirty((struct folio *)entry))
				fn(entry);
}

/* write() of one page: cached (or read in first, a partial write), dirtied */
int tb_file_write(struct tb_file *file, unsigned long index)
{
	struct folio *folio;
	int err;

	err = tb_file_read(file, index);
	if (err)
		return err;
	folio = tb_cache_lookup(file, index);
	folio_lock(folio);
	folio_mark_dirty(folio);
	folio_unlock(folio);
	tb_balance_dirty_pages();
	return 0;
}

unsigned long tb_file_dirty(struct tb_file *file)
{
	unsigned long index, n = 0;
	void *entry;

	xa_for_each(&file->inode.i_data.i_pages, index, entry)
		n += !xa_is_value(entry) && folio_test_dirty((struct folio *)entry);
	return n;
}

/* filemap_create_folio(): a new folio, read at a file read's cost */
static int read_one(struct tb_file *file, struct folio *folio, unsigned long index)
{
	int err = tb_pagecache_add(file, folio, index, GFP_KERNEL);

	tb_charge_time(tb_cost_file_read());
	return err;
}

#ifdef CONFIG_TRANSPARENT_HUGEPAGE
static inline bool pos_same_folio(loff_t pos1, loff_t pos2, struct folio *folio)
{
	return pos1 >> folio_shift(folio) == pos2 >> folio_shift(folio);
}

/*
 * filemap_read() of one page of a file with readahead: a miss starts the
 * kernel's synchronous readahead (then, if that read nothing, the page
 * alone); a folio marked PG_readahead starts the asynchronous one; the
 * folio is marked accessed once however many of its pages are read in a
 * row, and the open file remembers where the read ended (ra->prev_pos)
 */
static int file_read_ra(struct tb_file *file, unsigned long index)
{
	struct address_space *mapping = &file->inode.i_data;
	struct file_ra_state *ra = &file->file.f_ra;
	loff_t pos = (loff_t)index << PAGE_SHIFT;
	struct folio *folio = tb_cache_lookup(file, index);
	int err = 0;

	if (folio) {
		tb_stats.hits++;
		tb_charge_time(tb_cost_hit());
		folio_get(folio);
	} else {
		tb_stats.major_file++;
		page_cache_sync_readahead(mapping, ra, &file->file, index, 1);
		folio = tb_cache_lookup(file, index);
		if (folio) {
			folio_get(folio);
		} else {
			folio = tb_alloc_folio(GFP_HIGHUSER_MOVABLE, numa_node_id());
			if (!folio)
				return -ENOMEM;
			err = read_one(file, folio, index);
			if (err) {
				folio_put(folio);
				return err;
			}
		}
	}
	if (folio_test_readahead(folio))
		page_cache_async_readahead(mapping, ra, &file->file, folio, 1);
	if (!pos_same_folio(pos, ra->prev_pos - 1, folio))
		folio_mark_accessed(folio);
	ra->prev_pos = pos + PAGE_SIZE;
	folio_put(folio);
	return 0;
}
#endif

int tb_file_read(struct tb_file *file, unsigned long index)
{
	struct folio *folio;
	int err;

	if (index >= file->nr_pages)
		return -EINVAL;
	/* the other CPUs' kthreads (kswapd) run while this one reads, as at a touch */
	tb_kthreads_run();
	/* a task the OOM killer chose has a fatal signal: its read fails */
	if (tsk_is_oom_victim(current))
		return -EINTR;
#ifdef CONFIG_TRANSPARENT_HUGEPAGE
	if (file->readahead)
		return file_read_ra(file, index);
#endif
	folio = tb_cache_lookup(file, index);
	if (folio) {
		tb_stats.hits++;
		tb_charge_time(tb_cost_hit());
		folio_mark_accessed(folio);
		return 0;
	}
	folio = tb_alloc_folio(GFP_HIGHUSER_MOVABLE, numa_node_id());
	if (!folio)
		return -ENOMEM;
	err = read_one(file, folio, index);
	tb_stats.major_file++;
	/* filemap_read() marks every folio it copies from, the new ones too */
	if (!err)
		folio_mark_accessed(folio);
	folio_put(folio);
	return err;
}

/* ---- mm/filemap.c (the tree's own where the world has large folios) ---- */
#ifndef CONFIG_TRANSPARENT_HUGEPAGE
void __filemap_remove_folio(struct folio *folio, void *shadow)
{
	struct address_space *mapping = folio->mapping;
	void *old;

	old = __xa_store(&mapping->i_pages, folio->index, shadow, GFP_ATOMIC);
	WARN_ON_ONCE(old != folio);
	folio->mapping = NULL;
	mapping->nrpages--;
	tb_lruvec_stat_mod_folio(folio, NR_FILE_PAGES, -1);
}

/* filemap_free_folio() follows */
void filemap_remove_folio(struct folio *folio)
{
	struct address_space *mapping = folio->mapping;

	xa_lock_irq(&mapping->i_pages);
	__filemap_remove_folio(folio, NULL);
	xa_unlock_irq(&mapping->i_pages);
	if (mapping->a_ops->free_folio)
		mapping->a_ops->free_folio(folio);
	folio_put(folio);
}
#endif

/*
 * mm/filemap.c: what a folio's private data holds is let go, unless it is
 * under writeback; by the file system's ->release_folio if it has one,
 * else as buffer heads
 */
bool filemap_release_folio(struct folio *folio, gfp_t gfp)
{
	struct address_space *mapping = folio->mapping;

	if (!folio_needs_release(folio))
		return true;
	if (folio_test_writeback(folio))
		return false;
	if (mapping && mapping->a_ops->release_folio)
		return mapping->a_ops->release_folio(folio, gfp);
	return try_to_free_buffers(folio);
}

/*
 * fs/buffer.c: the buffers go unless one is busy (dirty, or locked for
 * I/O); the world's buffer heads are the file's pointer in ->private
 */
bool try_to_free_buffers(struct folio *folio)
{
	void *buffers = folio_get_private(folio);
	bool io = buffers == &orphans ? READ_ONCE(orphans.io) :
		  READ_ONCE(((struct tb_file *)buffers)->buffers_io);

	if (folio_test_writeback(folio) || folio_test_dirty(folio) || io)
		return false;
	if (buffers == &orphans)
		xa_erase(&orphans.folios, folio_pfn(folio));
	folio_detach_private(folio);
	return true;
}

void __folio_lock(struct folio *folio)
{
	might_sleep();
	while (test_and_set_bit_lock(PG_locked, folio_flags(folio, 0)))
		sched_yield();
}

void folio_unlock(struct folio *folio)
{
	VM_BUG_ON_FOLIO(!folio_test_locked(folio), folio);
	clear_bit_unlock(PG_locked, folio_flags(folio, 0));
}

/* the waiter sleeps until the disk has written the folio (writeback.c) */
void folio_wait_writeback(struct folio *folio)
{
	while (folio_test_writeback(folio))
		if (WARN_ON_ONCE(!tb_writeback_wait(folio)))
			break;
}

void __filemap_set_wb_err(struct address_space *mapping, int err)
{
	errseq_set(&mapping->wb_err, err);
}

/* ---- mm/page-writeback.c ---- */
bool folio_mark_dirty(struct folio *folio)
{
	struct address_space *mapping = folio_mapping(folio);

	if (mapping) {
		if (folio_test_reclaim(folio))
			folio_clear_reclaim(folio);
		return mapping->a_ops->dirty_folio(mapping, folio);
	}
	return !folio_test_set_dirty(folio);
}


/* folio_migrate_mapping() for a file: new takes old's index in i_pages */
void tb_pagecache_replace(struct folio *old, struct folio *new)
{
	struct address_space *mapping = old->mapping;
	void *slot;

	new->mapping = mapping;
	new->index = old->index;
	xa_lock_irq(&mapping->i_pages);
	slot = __xa_store(&mapping->i_pages, old->index, new, GFP_ATOMIC);
	xa_unlock_irq(&mapping->i_pages);
	WARN_ON_ONCE(slot != old);
}
