// SPDX-License-Identifier: GPL-2.0-only
/*
 * Dirty page cache and its writeback, as the block layer and the rest of
 * the kernel do it around reclaim: a write() dirties a cached folio
 * (accounted as folio_account_dirtied() does: NR_FILE_DIRTY,
 * NR_ZONE_WRITE_PENDING, NR_DIRTIED); a writepage (from kswapd's pageout()
 * or from the flusher threads wakeup_flusher_threads() wakes) starts
 * writeback (NR_WRITEBACK) and the disk completes it a write's cost of
 * virtual time later: folio_end_writeback() then rotates a folio reclaim
 * marked PG_reclaim to the inactive tail (the real folio_rotate_reclaimable)
 * and accounts it to throttled reclaimers (the real __acct_reclaim_writeback).
 * Completions run when virtual time passes (a task's access, a sleep).
 * The flushers run on other CPUs: woken by a task, their work is done
 * before it goes on; woken by kswapd, it is done when kswapd yields its
 * CPU, so kswapd may meet the dirty folios again first (and write them
 * itself, as the kernel lets it when the flushers lag). Writers are
 * throttled only when the world is booted with a dirty_ratio
 * (tb_balance_dirty_pages(): balance_dirty_pages()'s effect, reduced).
 */
#include <linux/mm.h>
#include <linux/pagemap.h>
#include <linux/swap.h>
#include <linux/writeback.h>
#include <linux/vmstat.h>
#include <linux/slab.h>
#include <linux/xarray.h>
#include <kshim/reclaim.h>
#include <kgen/mm_internal_reclaim.h>
#include "world.h"

struct wb_io {
	struct folio *folio;
	u64 done_ns;
	struct list_head node;
};

static LIST_HEAD(inflight);		/* in completion order */
static DEFINE_SPINLOCK(inflight_lock);
static unsigned long nr_inflight;
/*
 * the first write's completion time, U64_MAX with none in flight: read
 * without the lock by tb_writeback_complete(), which virtual time calls
 * at nearly every access
 */
static u64 first_done_ns = U64_MAX;

/* under inflight_lock */
static void first_done_update(void)
{
	struct wb_io *io = list_first_entry_or_null(&inflight, struct wb_io, node);

	WRITE_ONCE(first_done_ns, io ? io->done_ns : U64_MAX);
}

/* filemap_dirty_folio() + folio_account_dirtied() */
bool tb_file_dirty_folio(struct address_space *mapping, struct folio *folio)
{
	long nr = folio_nr_pages(folio);

	if (folio_test_set_dirty(folio))
		return false;
	tb_lruvec_stat_mod_folio(folio, NR_FILE_DIRTY, nr);
	__zone_stat_mod_folio(folio, NR_ZONE_WRITE_PENDING, nr);
	__node_stat_mod_folio(folio, NR_DIRTIED, nr);
	return true;
}

/* folio_clear_dirty_for_io() of a folio whose dirtying was accounted */
bool folio_clear_dirty_for_io(struct folio *folio)
{
	if (!folio_test_clear_dirty(folio))
		return false;
	if (!folio_test_swapcache(folio) && folio_mapping(folio)) {
		lruvec_stat_mod_folio(folio, NR_FILE_DIRTY, -folio_nr_pages(folio));
		zone_stat_mod_folio(folio, NR_ZONE_WRITE_PENDING, -folio_nr_pages(folio));
	}
	return true;
}

/*
 * folio_account_cleaned(): a dirty folio that will never be written (a
 * split's tail beyond the end of its file) leaves the dirty counts
 */
void folio_account_cleaned(struct folio *folio, struct bdi_writeback *wb)
{
	long nr = folio_nr_pages(folio);

	lruvec_stat_mod_folio(folio, NR_FILE_DIRTY, -nr);
	zone_stat_mod_folio(folio, NR_ZONE_WRITE_PENDING, -nr);
}

/*
 * a page the disk finishes writing at world time done_ns; the list is
 * kept in completion order, which is not submission order: a swap-out
 * may complete before an earlier, slower page cache write
 */
void tb_writeback_submit(struct folio *folio, u64 done_ns)
{
	struct wb_io *io = kmalloc(sizeof(*io), GFP_NOIO | __GFP_NOFAIL), *pos;

	folio_get(folio);
	set_bit(PG_writeback, folio_flags(folio, 0));
	lruvec_stat_mod_folio(folio, NR_WRITEBACK, folio_nr_pages(folio));
	zone_stat_mod_folio(folio, NR_ZONE_WRITE_PENDING, folio_nr_pages(folio));
	io->folio = folio;
	io->done_ns = done_ns;
	spin_lock(&inflight_lock);
	/* after the last write due no later (at the tail, mostly) */
	list_for_each_entry_reverse(pos, &inflight, node)
		if (pos->done_ns <= done_ns)
			break;
	list_add(&io->node, &pos->node);
	nr_inflight++;
	first_done_update();
	spin_unlock(&inflight_lock);
}

void folio_end_writeback(struct folio *folio)
{
	if (folio_test_reclaim(folio)) {
		folio_clear_reclaim(folio);
		folio_rotate_reclaimable(folio);
	}
	clear_bit(PG_writeback, folio_flags(folio, 0));
	lruvec_stat_mod_folio(folio, NR_WRITEBACK, -folio_nr_pages(folio));
	zone_stat_mod_folio(folio, NR_ZONE_WRITE_PENDING, -folio_nr_pages(folio));
	node_stat_mod_folio(folio, NR_WRITTEN, folio_nr_pages(folio));
	acct_reclaim_writeback(folio);
}

/* complete every write the disk has finished by now */
void tb_writeback_complete(u64 now_ns)
{
	struct wb_io *io;

	for (;;) {
		if (READ_ONCE(first_done_ns) > now_ns)
			return;
		spin_lock(&inflight_lock);
		io = list_first_entry_or_null(&inflight, struct wb_io, node);
		if (io && io->done_ns > now_ns)
			io = NULL;
		if (io) {
			list_del(&io->node);
			nr_inflight--;
			first_done_update();
		}
		spin_unlock(&inflight_lock);
		if (!io)
			return;
		folio_end_writeback(io->folio);
		folio_put(io->folio);
		kfree(io);
	}
}

/*
 * folio_wait_writeback(): current sleeps until the disk completes folio's
 * write, its clock moved on to that time (which completes the writes due
 * by then). A kernel thread's clock is its own and does not move the
 * world's: its wait completes the writes due by then itself.
 */
bool tb_writeback_wait(struct folio *folio)
{
	struct wb_io *io;
	u64 done = 0;

	spin_lock(&inflight_lock);
	list_for_each_entry(io, &inflight, node) {
		if (io->folio == folio) {
			done = io->done_ns;
			break;
		}
	}
	spin_unlock(&inflight_lock);
	if (!done)
		return false;
	if (done > current->kshim_vclock_ns)
		tb_charge_time(done - current->kshim_vclock_ns);
	tb_writeback_complete(current->kshim_kthread ? done : tb_world_ns());
	return true;
}

static int dirty_ratio;	/* tb_mem_config's: 0, writers not throttled */

void tb_dirty_ratio_set(int ratio)
{
	WRITE_ONCE(dirty_ratio, ratio);
}

/*
 * balance_dirty_pages() as reclaim sees it: a writer that leaves the
 * dirty and writeback page cache above dirty_ratio percent of the
 * dirtyable memory (free pages and page cache, global_dirtyable_memory()
 * without its reserves) wakes the flushers, which write every dirty
 * folio, and sleeps until the disk completes writes: its clock moves on
 * to the first completion, again while it is over the limit.
 */
void tb_balance_dirty_pages(void)
{
	int ratio = READ_ONCE(dirty_ratio);

	if (!ratio || current->kshim_kthread)
		return;
	for (;;) {
		unsigned long dirty = global_node_page_state(NR_FILE_DIRTY) +
				      global_node_page_state(NR_WRITEBACK);
		unsigned long avail = global_node_page_state(NR_INACTIVE_FILE) +
				      global_node_page_state(NR_ACTIVE_FILE);
		u64 done = READ_ONCE(first_done_ns);
		int nid;

		for_each_online_node(nid)
			avail += tb_free_pages(nid);

		if (dirty * 100 <= avail * ratio)
			return;
		if (global_node_page_state(NR_FILE_DIRTY)) {
			wakeup_flusher_threads(WB_REASON_BACKGROUND);
			done = READ_ONCE(first_done_ns);
		}
		if (done == U64_MAX)
			return;
		if (done > current->kshim_vclock_ns)
			tb_charge_time(done - current->kshim_vclock_ns);
		tb_writeback_complete(tb_world_ns());
		/* the world's time did not reach it: no sleep ends the wait */
		if (READ_ONCE(first_done_ns) == done)
			return;
	}
}

unsigned long tb_writeback_inflight(void)
{
	return READ_ONCE(nr_inflight);
}

/*
 * the file system's writepage: the folio is locked and no longer dirty.
 * A file given a write error fails as hostfs_writepage() does when the
 * host's write fails: the error goes into the mapping, the folio is
 * unlocked and left clean, no writeback is started.
 */
int tb_file_writepage(struct page *page, struct writeback_control *wbc)
{
#if TB_HAVE_aops_writepage
	bool for_reclaim = wbc->for_reclaim;
#else
	bool for_reclaim = false;	/* 7.2: reclaim writes back no file folio itself */
#endif
	struct folio *folio = page_folio(page);
	struct tb_file *file = tb_mapping_file(folio->mapping);
	int err = tb_file_write_error(file);

	if (for_reclaim && tb_file_fs(file) == TB_FS_WRITEPAGE_ACTIVATE) {
		/* shmem_writepage() without a swap slot: locked, dirty again */
		folio_mark_dirty(folio);
		return AOP_WRITEPAGE_ACTIVATE;
	}
	if (for_reclaim && tb_file_fs(file) == TB_FS_WRITEPAGE_REDIRTY) {
		/* folio_redirty_for_writepage(): skipped, not written */
		wbc->pages_skipped++;
		folio_mark_dirty(folio);
		folio_unlock(folio);
		return 0;
	}
	if (err) {
		mapping_set_error(folio->mapping, err);
		folio_unlock(folio);
		return err;
	}
	tb_stats.fileouts++;
	tb_writeback_submit(folio, tb_world_ns() + tb_cost_file_write());
	folio_unlock(folio);
	return 0;
}

/* write one dirty folio back, as a flusher does (writeback_single_inode) */
static void flush_one(struct folio *folio)
{
	struct writeback_control wbc = { .sync_mode = WB_SYNC_NONE, .nr_to_write = 1 };

	folio_lock(folio);
	if (folio->mapping && folio_test_dirty(folio) && !folio_test_writeback(folio) &&
	    folio_clear_dirty_for_io(folio)) {
		/* ->writepages, which a file system without ->writepage has too */
		tb_file_writepage(&folio->page, &wbc);
		return;
	}
	folio_unlock(folio);
}

static bool flush_pending;	/* work kswapd queued for the flushers */

/* the flusher threads: every dirty folio of every file goes to the disk */
void wakeup_flusher_threads(enum wb_reason reason)
{
	if (current->kshim_kthread) {
		WRITE_ONCE(flush_pending, true);
		return;
	}
	tb_files_for_each_dirty(flush_one);
}

/* a new world: no work queued by a previous world's kswapd */
void tb_flushers_reset(void)
{
	WRITE_ONCE(flush_pending, false);
}

void tb_flushers_run(void)
{
	if (!READ_ONCE(flush_pending))
		return;
	WRITE_ONCE(flush_pending, false);
	tb_files_for_each_dirty(flush_one);
}
