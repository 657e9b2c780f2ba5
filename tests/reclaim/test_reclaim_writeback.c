// SPDX-License-Identifier: GPL-2.0-only
/*
 * Dirty page cache under reclaim: direct reclaim leaves dirty file pages
 * to the flusher threads and waits for the disk instead of writing them
 * itself; kswapd writes the dirty pages it finds marked for reclaim.
 * Anon pages written to a swap disk are freed after their write.
 */
#include <linux/kernel.h>
#include <linux/errno.h>
#include <linux/mm.h>
#include <linux/vmstat.h>
#include <linux/swap.h>
#include <linux/pagemap.h>
#include <linux/writeback.h>
#include <linux/workqueue.h>
#include <kshim/trace.h>
#include <sys/mman.h>
#include "tb_reclaim.h"

/* mm/internal.h: an invalidation of a folio it cannot drop (mm/swap.c) */
void deactivate_file_folio(struct folio *folio);

/*
 * The multi-gen LRU of trees without mglru_sort_lets_dirty_through (6.1,
 * 6.12 before 6.12.115): sort_folio() moves each dirty or writeback file
 * folio to the next generation with PG_reclaim, so none reaches
 * shrink_folio_list() (no NR_VMSCAN_IMMEDIATE, no pageout(), no wait on
 * a write). Without lru_gen_wakes_flushers (6.1, 6.12 before 6.12.107)
 * nothing on its reclaim path calls wakeup_flusher_threads(); with it
 * the eviction that took only dirty pages wakes them, and they write
 * every page, but the reclaim that woke them neither waits nor
 * throttles: the writes complete as virtual time passes, after the
 * charge has given up. The world writes only what reclaim asks for (the
 * flushers balance_dirty_pages() and the periodic writeback would start
 * are not modelled): writing f fills the memory with dirty pages and a
 * write fails with -ENOMEM before n, every page before it dirty, or
 * written if the flushers were woken. Returns the index of the write
 * that failed.
 */
static unsigned long lru_gen_fails_the_writer_of_dirty_page_cache(struct tb_file *f,
								  unsigned long n)
{
	struct pglist_data *pgdat = NODE_DATA(0);
	unsigned long i;
	int err = 0;

	for (i = 0; i < n && !err; i++)
		err = tb_file_write(f, i);
	assert_int_equal(err, -ENOMEM);
	i--;
	assert_int_equal(tb_file_dirty(f), TB_HAVE_lru_gen_wakes_flushers ? 0 : i);
	assert_int_equal(node_page_state(pgdat, NR_WRITTEN), TB_HAVE_lru_gen_wakes_flushers ? i : 0);
	assert_int_equal(node_page_state(pgdat, NR_VMSCAN_IMMEDIATE), 0);
	assert_int_equal(node_page_state(pgdat, NR_VMSCAN_WRITE), 0);
	assert_int_equal(kshim_trace.throttled_count, 0);
	return i;
}

/* a memcg writing 4x its memory.max of file data */
static void memcg_reclaim_leaves_dirty_pages_to_the_flushers(void **state)
{
	struct tb_file *f = tb_file_create(PAGES(16 * MB));
	struct pglist_data *pgdat = NODE_DATA(0);
	unsigned long i;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	assert_write_ok("a", "memory.max", "4M");
	tb_run_in("a");
	if (tb_lru_gen_on() && !TB_HAVE_mglru_sort_lets_dirty_through) {
		assert_int_equal(lru_gen_fails_the_writer_of_dirty_page_cache(f, PAGES(16 * MB)),
				 PAGES(4 * MB));
		assert_int_equal(tb_cgroup_read_key("a", "memory.events", "oom"), 1);
		assert_int_equal(tb_stat("a", "pgsteal"), 0);
		return;
	}
	for (i = 0; i < PAGES(16 * MB); i++)
		assert_int_equal(tb_file_write(f, i), 0);
	assert_true(tb_cgroup_read_u64("a", "memory.current") <= (long long)(4 * MB));
	assert_int_equal(tb_cgroup_read_key("a", "memory.events", "oom_kill"), 0);
	/* pageout() never ran from memcg reclaim: the flushers wrote them */
	assert_int_equal(node_page_state(pgdat, NR_VMSCAN_WRITE), 0);
	assert_true(node_page_state(pgdat, NR_WRITTEN) >= PAGES(8 * MB));
	assert_true(node_page_state(pgdat, NR_VMSCAN_IMMEDIATE) > 0);
	/*
	 * reclaim_throttle() waited for the disk (congested or writeback).
	 * The multi-gen LRU of trees without mglru_v1_writeback_throttle
	 * never throttles this memcg reclaim: evict_folios() only wakes the
	 * flushers, and shrink_node()'s congestion throttle needs reclaim
	 * that is writeback_throttling_sane() (the test bed has no
	 * CONFIG_CGROUP_WRITEBACK, so memcg reclaim is as cgroup v1's).
	 */
	if (tb_lru_gen_on() && !TB_HAVE_mglru_v1_writeback_throttle)
		assert_int_equal(kshim_trace.throttled_count, 0);
	else
		assert_true(kshim_trace.throttled_count > 0);
	assert_true(tb_stat("a", "pgsteal") >= PAGES(8 * MB));
	tb_assert_lrus_consistent();
}

/* dirty pages counted as the kernel counts them, and gone after writeback */
static void dirty_and_writeback_counters_follow_the_pages(void **state)
{
	struct tb_file *f = tb_file_create(256);
	struct pglist_data *pgdat = NODE_DATA(0);
	unsigned long i;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	for (i = 0; i < 256; i++)
		assert_int_equal(tb_file_write(f, i), 0);
	assert_int_equal(tb_file_dirty(f), 256);
	assert_int_equal(node_page_state(pgdat, NR_FILE_DIRTY), 256);
	assert_int_equal(tb_stat("a", "file_dirty"), 256 * 4096);
	wakeup_flusher_threads(WB_REASON_SYNC);
	assert_int_equal(node_page_state(pgdat, NR_FILE_DIRTY), 0);
	assert_int_equal(node_page_state(pgdat, NR_WRITEBACK), 256);
	assert_int_equal(tb_writeback_inflight(), 256);
	/* the disk finishes as virtual time passes */
	tb_read_range(f, 256);
	schedule_timeout(HZ);
	assert_int_equal(tb_writeback_inflight(), 0);
	assert_int_equal(node_page_state(pgdat, NR_WRITEBACK), 0);
	assert_int_equal(node_page_state(pgdat, NR_WRITTEN), 256);
}

/*
 * Writing 1.5x the RAM with no memcg limit: kswapd meets dirty pages,
 * wakes the flushers and reclaims them once written; nothing is killed.
 */
static void writing_beyond_ram_is_reclaimed_after_writeback(void **state)
{
	unsigned long ram = PAGES(64 * MB), i;
	struct tb_file *f = tb_file_create(ram + ram / 2);
	struct pglist_data *pgdat = NODE_DATA(0);

	tb_run_in("");
	if (tb_lru_gen_on() && !TB_HAVE_lru_gen_wakes_flushers) {
		i = lru_gen_fails_the_writer_of_dirty_page_cache(f, ram + ram / 2);
		assert_true(i > ram / 2 && i < ram);
		assert_int_equal(kshim_reclaim_event_read(PGSTEAL_KSWAPD), 0);
		assert_int_equal(kshim_reclaim_event_read(PGSTEAL_DIRECT), 0);
		return;
	}
	for (i = 0; i < ram + ram / 2; i++)
		assert_int_equal(tb_file_write(f, i), 0);
	assert_int_equal(kshim_vm_event_read(OOM_KILL), 0);
	assert_true(kshim_reclaim_event_read(PGSTEAL_KSWAPD) + kshim_reclaim_event_read(PGSTEAL_DIRECT) >=
		    ram / 2);
	assert_true(node_page_state(pgdat, NR_WRITTEN) >= ram / 2);
	assert_true(tb_file_cached(f) < ram);
	tb_assert_lrus_consistent();
}

/* a swap disk, whose writes complete a write's latency later */
static int setup_swap_disk(void **state)
{
	tb_mem.swap_pages = PAGES(64 * MB);
	tb_mem.swap_disk = true;
	return tb_reclaim_setup(state);
}

static int setup_swap_file_on_nfs(void **state)
{
	tb_mem.swap_pages = PAGES(64 * MB);
	tb_mem.swap_fs = true;
	return tb_reclaim_setup(state);
}

/* a memcg's 4M of anon memory, 1M of it reclaimed by memory.reclaim */
static struct tb_vma *reclaim_1m_of_4m_anon(void)
{
	struct tb_vma *vma;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	vma = tb_map_anon(PAGES(4 * MB));
	tb_touch_range(vma, PAGES(4 * MB), true);
	assert_write_ok("a", "memory.reclaim", "1M");
	assert_true(tb_stat("a", "pgsteal") >= PAGES(1 * MB));
	return vma;
}

/*
 * A task forked after the world's clock moved on starts at the world's
 * time, not at zero: what it waits for (the disk's writes its reclaim
 * started, the end of a sleep) comes after its own work from then on. A
 * task behind the world reclaimed a whole memcg to swap at its first
 * limit before the disk completed any write (the cgroup selftest's
 * alloc_anon_50M_check_swap, after its first OOM-killed task).
 */
static void task_spawned_late_starts_at_the_worlds_time(void **state)
{
	struct tb_task *t;

	reclaim_1m_of_4m_anon();
	assert_true(tb_world_ns() > 0);
	t = tb_run_in("a");
	assert_int_equal(tb_task_vclock_ns(t), tb_world_ns());
}

/*
 * zram: swap_writepage() completes the write before it returns, so
 * shrink_folio_list() frees each page in the pass that wrote it
 * ("a synchronous write - probably a ramdisk"): nothing is rotated
 */
static void zram_frees_each_page_in_the_pass_that_wrote_it(void **state)
{
	reclaim_1m_of_4m_anon();
	assert_int_equal(kshim_vm_event_read(PSWPOUT), tb_stat("a", "pgsteal"));
	assert_int_equal(kshim_vm_event_read(PGROTATED), 0);
}

/*
 * A disk: a page written is under writeback when pageout() returns and
 * is kept (PG_reclaim); when the write completes, folio_end_writeback()
 * rotates it to the tail (folio_rotate_reclaimable()) for a later pass
 * to free. So memory.reclaim writes more than it frees, and what it
 * wrote and did not free stays charged, in the swap cache, until then.
 */
static void a_disk_frees_written_pages_after_their_write(void **state)
{
	struct tb_vma *vma = reclaim_1m_of_4m_anon();
	long long steal = tb_stat("a", "pgsteal");
	unsigned long written = kshim_vm_event_read(PSWPOUT);

	assert_true(written > (unsigned long)steal);
	assert_true(kshim_vm_event_read(PGROTATED) > 0);
	assert_int_equal(tb_vma_swapped(vma), written);
	msleep(10);
	assert_int_equal(node_page_state(NODE_DATA(0), NR_WRITEBACK), 0);
	assert_int_equal(tb_usage("a"), (PAGES(4 * MB) - steal) * 4096 + tb_stat("a", "kernel"));
	assert_int_equal(tb_swap_used(), written);
	tb_assert_lrus_consistent();
}

/*
 * mem_cgroup_css_offline() sets a removed memcg's memory.swap.high to max.
 * p/c's pages written to the disk and not yet freed stay in the swap
 * cache, charged to p/c, with their slots charged to its swap; its task,
 * moved to p, reads them back once p/c is removed: a read swap-in frees
 * the slot only while swap counts as full (mem_cgroup_swap_full(), from
 * the folio's memcg up), and p/c's swap.high of 0, which made it full,
 * went with the memcg: every slot stays.
 */
static void a_removed_memcg_s_swap_high_frees_no_slot_on_swapin(void **state)
{
	unsigned long written;
	struct tb_vma *vma;
	struct tb_task *t;
	long long steal;

	if (!TB_HAVE_memcg_offline_resets_high)
		tb_skip("this tree's mem_cgroup_css_offline() keeps memory.swap.high (6.1, 7.3)");
	assert_int_equal(tb_cgroup_mkdir("p"), 0);
	assert_int_equal(tb_cgroup_mkdir("p/c"), 0);
	t = tb_run_in("p/c");
	vma = tb_map_anon(PAGES(4 * MB));
	tb_touch_range(vma, PAGES(4 * MB), true);
	assert_write_ok("p/c", "memory.reclaim", "1M");
	steal = tb_stat("p/c", "pgsteal");
	written = kshim_vm_event_read(PSWPOUT);
	assert_true(written > (unsigned long)steal);
	assert_write_ok("p/c", "memory.swap.high", "0");
	assert_int_equal(tb_task_move(t, "p"), 0);
	assert_int_equal(tb_cgroup_rmdir("p/c"), 0);
	msleep(10);
	assert_int_equal(node_page_state(NODE_DATA(0), NR_WRITEBACK), 0);

	tb_touch_range(vma, PAGES(4 * MB), false);
	assert_int_equal(tb_vma_swapped(vma), 0);
	assert_int_equal(tb_swap_used(), written);
	assert_int_equal(tb_cgroup_read_u64("p", "memory.swap.current"), written * 4096);
}

/*
 * A swap-out (here 10 ms) submitted after a page cache write (1 s) still
 * in flight completes first: folio_wait_writeback() of the swapped folio
 * returns at its own completion, the file's write still in flight. (The
 * in-flight list was kept in submission order and completed from its
 * head: the wait found its folio done by world time, but the file's
 * write ahead of it was not, and it waited for ever. Found by
 * fuzz_reclaim.)
 */
static void a_swap_write_completes_before_an_earlier_slower_file_write(void **state)
{
	struct tb_file *f = tb_file_create(1);
	struct tb_mem_costs costs;
	struct folio *folio;
	struct tb_vma *vma;
	u64 start;

	tb_mem_get_costs(&costs);
	costs.file_write_ns = 1000000000ULL;
	costs.swapout_ns = 10000000ULL;
	tb_mem_set_costs(&costs);
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	assert_int_equal(tb_file_write(f, 0), 0);
	wakeup_flusher_threads(WB_REASON_SYNC);
	assert_int_equal(tb_writeback_inflight(), 1);
	vma = tb_map_anon(1);
	assert_int_equal(tb_touch(vma, 0, true), 0);
	/* no reference of the test's: pageout() writes only a folio reclaim alone holds */
	folio = tb_vma_folio(vma, 0);
	start = tb_world_ns();
	assert_int_equal(tb_madvise(vma, MADV_PAGEOUT), 0);
	assert_int_equal(tb_vma_swapped(vma), 1);
	/* in the swap cache under writeback: the write's reference keeps it */
	assert_true(folio_test_writeback(folio));
	assert_int_equal(tb_writeback_inflight(), 2);
	folio_wait_writeback(folio);
	assert_false(folio_test_writeback(folio));
	assert_true(tb_world_ns() < start + 1000000000ULL);
	assert_int_equal(tb_writeback_inflight(), 1);
}

/* writes of the page cache (file) or to the swap disk (anon) take ns */
static void slow_writes(bool anon, u64 ns)
{
	struct tb_mem_costs costs;

	tb_mem_get_costs(&costs);
	if (anon)
		costs.swapout_ns = ns;
	else
		costs.file_write_ns = ns;
	tb_mem_set_costs(&costs);
}

#define SECOND 1000000000ULL

/*
 * What shrink_folio_list() counts of the dirty page cache it meets
 * (struct reclaim_stat, summed over shrink_inactive_list()'s calls),
 * on a disk whose writes take 10 s. The test bed builds without
 * CONFIG_CGROUP_WRITEBACK, so memcg reclaim is not
 * writeback_throttling_sane(): it behaves as cgroup v1's does.
 *
 * memory.reclaim first takes one page (256 >> 8): dirty, not under
 * writeback (nr_unqueued_dirty, nr_dirty), marked for immediate reclaim
 * (NR_VMSCAN_IMMEDIATE) and activated. A batch all unqueued dirty wakes
 * the flushers, which queue every page, and (not sane) throttles on
 * writeback for HZ/10. The 255 others are then met under writeback
 * without PG_reclaim: marked and activated (nr_writeback, nr_dirty). The
 * first page, deactivated again, is met under writeback with PG_reclaim
 * (nr_congested, nr_dirty): case 3, reclaim waits the 10 s for its
 * write, then frees it and others written meanwhile. Reclaim writes
 * nothing itself.
 */
/* 256 pages of a file written by a's task, on a disk whose writes take 10 s */
static struct tb_file *a_writes_256_pages_to_a_slow_disk(void)
{
	struct tb_file *f = tb_file_create(256);
	unsigned long i;

	slow_writes(false, 10 * SECOND);
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	for (i = 0; i < 256; i++)
		assert_int_equal(tb_file_write(f, i), 0);
	tb_task_switch(NULL);
	lru_add_drain();
	return f;
}

static void memcg_reclaim_counts_the_dirty_page_cache_it_meets(void **state)
{
	const struct kshim_trace_reclaim_stat *st = &kshim_trace.inactive_stat;

	TB_CLASSIC_LRU_ONLY("shrink_folio_list()'s reclaim_stat of the inactive list");
	a_writes_256_pages_to_a_slow_disk();
	kshim_trace_reset();

	assert_write_ok("a", "memory.reclaim", "128K");
	assert_int_equal(st->nr_unqueued_dirty, 1);
	assert_int_equal(node_page_state(NODE_DATA(0), NR_VMSCAN_IMMEDIATE), 1);
	assert_int_equal(st->nr_writeback, 255);
	assert_int_equal(st->nr_congested, 1);
	assert_int_equal(st->nr_dirty, 1 + 255 + 1);
	assert_int_equal(st->nr_immediate, 0);
	assert_int_equal(st->nr_pageout, 0);
	assert_int_equal(kshim_trace.throttled_count, 1);
	assert_int_equal(kshim_trace.throttled[VMSCAN_THROTTLE_WRITEBACK], 1);
	assert_true(tb_world_ns() >= 10 * SECOND);
	assert_true(tb_stat("a", "pgsteal") >= 32);
}

static struct tb_file *to_truncate;

/* another task's truncate(), on CPU 1 */
static void truncate_to_truncate(struct work_struct *work)
{
	tb_file_destroy(to_truncate);
}

static DECLARE_DELAYED_WORK(truncate_work, truncate_to_truncate);

/*
 * The same memory.reclaim, the file truncated by another task 1 s into
 * the 10 s write reclaim waits for (case 3; truncation waits for no
 * write here, the disk's writes end): every folio leaves the page cache,
 * those reclaim holds isolated with the isolation's reference their
 * last. Reclaim finds them without a mapping and keeps them, and
 * move_folios_to_lru() frees them instead of putting them back: nothing
 * is left charged to a, though reclaim counts none of it reclaimed.
 */
static void memcg_reclaim_frees_folios_truncated_while_it_waits(void **state)
{
	TB_CLASSIC_LRU_ONLY("shrink_folio_list()'s case 3 wait of the classic LRU");
	to_truncate = a_writes_256_pages_to_a_slow_disk();
	queue_delayed_work_on(1, system_wq, &truncate_work, HZ);

	assert_write("a", "memory.reclaim", "128K", -EAGAIN);
	assert_int_equal(tb_stat("a", "pgsteal"), 0);
	assert_int_equal(tb_cgroup_read_u64("a", "memory.current"), 0);
}

/* 1 GiB of RAM: room for 496 MiB of page cache */
static int setup_1g(void **state)
{
	tb_mem.ram_pages = PAGES(1024 * MB);
	return tb_reclaim_setup(state);
}

/* a folio batch's size (PAGEVEC_SIZE; 7.0: FOLIO_BATCH_SIZE) */
#define BATCH_SIZE (sizeof(((struct folio_batch *)0)->folios) / sizeof(struct folio *))
#define BATCH_AT_DEF_PRIORITY (BATCH_SIZE << DEF_PRIORITY)

/*
 * The same truncate while a's reclaim holds a whole batch: 31 << 12
 * pages written by a, invalidated while dirty (deactivate_file_folio():
 * PG_reclaim), all under writeback for 10 s. memory.reclaim's first
 * pass, at DEF_PRIORITY, takes 31 of them and waits on the first (case
 * 3). Truncated meanwhile, all 31 come back to move_folios_to_lru() with
 * the isolation's reference their last: freed there, a whole
 * folio_batch of them.
 */
static void memcg_reclaim_frees_a_whole_batch_truncated_while_it_waits(void **state)
{
	struct tb_file *f = tb_file_create(BATCH_AT_DEF_PRIORITY);
	unsigned long i;

	TB_CLASSIC_LRU_ONLY("the classic LRU's scan per priority");
	slow_writes(false, 10 * SECOND);
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	for (i = 0; i < BATCH_AT_DEF_PRIORITY; i++)
		assert_int_equal(tb_file_write(f, i), 0);
	lru_add_drain();
	for (i = 0; i < BATCH_AT_DEF_PRIORITY; i++)
		deactivate_file_folio(tb_file_folio(f, i));
	lru_add_drain();
	wakeup_flusher_threads(WB_REASON_SYNC);
	tb_task_switch(NULL);
	to_truncate = f;
	kshim_trace_reset();
	queue_delayed_work_on(1, system_wq, &truncate_work, HZ);

	assert_write("a", "memory.reclaim", "128K", -EAGAIN);
	assert_int_equal(kshim_trace.inactive_scanned[1][DEF_PRIORITY], BATCH_SIZE);
	assert_int_equal(tb_stat("a", "pgsteal"), 0);
	assert_int_equal(tb_cgroup_read_u64("a", "memory.current"), 0);
}

/*
 * Anon folios never count as dirty or under writeback for the stalls
 * ("not handled by flushers"), though here each is: memory.reclaim
 * writes 256 anon pages to a swap disk whose writes take 1 s, meets
 * them again under writeback with PG_reclaim and (not sane, as above)
 * waits for one; nr_dirty and nr_congested stay 0. Each page, touched
 * once, was young at its first scan: kept for another trip
 * (FOLIOREF_KEEP, nr_ref_keep).
 */
static void memcg_reclaim_counts_no_anon_as_dirty_or_congested(void **state)
{
	const struct kshim_trace_reclaim_stat *st = &kshim_trace.inactive_stat;
	struct tb_vma *vma;

	TB_CLASSIC_LRU_ONLY("shrink_folio_list()'s reclaim_stat of the inactive list");
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	vma = tb_map_anon(256);
	tb_touch_range(vma, 256, true);
	tb_task_switch(NULL);
	lru_add_drain();
	slow_writes(true, SECOND);
	kshim_trace_reset();

	assert_write_ok("a", "memory.reclaim", "512K");
#if TB_HAVE_reclaim_stat_pageout
	assert_int_equal(st->nr_pageout, 256);
#else
	/* 7.3: the event reports no writes; pageout() counts NR_VMSCAN_WRITE */
	assert_int_equal(st->nr_pageout, 0);
	assert_int_equal(global_node_page_state(NR_VMSCAN_WRITE), 256);
#endif
	assert_int_equal(tb_vma_swapped(vma), 256);
	assert_true(tb_world_ns() >= SECOND);
	assert_int_equal(st->nr_dirty, 0);
	assert_int_equal(st->nr_unqueued_dirty, 0);
	assert_int_equal(st->nr_congested, 0);
	assert_int_equal(st->nr_ref_keep, 256);
	tb_unmap(vma);
}

static int setup_no_kswapd(void **state)
{
	tb_mem.no_kswapd = true;
	return tb_reclaim_setup(state);
}

/*
 * Direct reclaim never writes page cache itself, even a dirty folio
 * marked for immediate reclaim on a node kswapd flagged PGDAT_DIRTY (the
 * flag kswapd sets after a pass whose file folios were all unqueued
 * dirty, and clears when it sleeps balanced): it marks and activates
 * it, and wakes the flushers. 10 pages written, then invalidated while
 * dirty (deactivate_file_folio(): PG_reclaim, on the inactive list, not
 * referenced); a write takes the disk 10 s. The direct reclaim takes the
 * first at priority 3 (10 >> 3): activated; the flushers then queue all
 * 10; the rest are met under writeback (case 2) and activated too.
 */
static void direct_reclaim_never_writes_page_cache_on_a_dirty_node(void **state)
{
	const struct kshim_trace_reclaim_stat *st = &kshim_trace.inactive_stat;
	struct tb_file *f = tb_file_create(10);
	int i;

	TB_CLASSIC_LRU_ONLY("shrink_folio_list() of the classic LRU");
	slow_writes(false, 10 * SECOND);
	tb_run_in("");
	for (i = 0; i < 10; i++)
		assert_int_equal(tb_file_write(f, i), 0);
	lru_add_drain();
	for (i = 0; i < 10; i++)
		deactivate_file_folio(tb_file_folio(f, i));
	lru_add_drain();
	for (i = 0; i < 10; i++) {
		assert_true(folio_test_reclaim(tb_file_folio(f, i)));
		assert_true(folio_test_dirty(tb_file_folio(f, i)));
	}
#if TB_HAVE_pgdat_dirty
	set_bit(PGDAT_DIRTY, &NODE_DATA(0)->flags);
#endif
	kshim_trace_reset();
	assert_int_equal(try_to_free_pages(node_zonelist(0, GFP_KERNEL), 0, GFP_KERNEL, NULL), 0);
	assert_int_equal(st->nr_pageout, 0);
	assert_int_equal(kshim_trace.write_folio_count, 0);
	assert_int_equal(st->nr_unqueued_dirty, 1);
	assert_int_equal(node_page_state(NODE_DATA(0), NR_VMSCAN_IMMEDIATE), 1);
	assert_int_equal(tb_writeback_inflight(), 10);
}

/*
 * The task in "a" writes n pages of a file on a disk that takes 1 s a
 * write; each is queued by the flushers and invalidated
 * (deactivate_file_folio(): inactive, PG_reclaim), 100 ms after the one
 * before: folios under writeback, marked for reclaim.
 */
static struct tb_file *a_with_folios_under_writeback(int n)
{
	struct tb_file *f = tb_file_create(n);
	int i;

	slow_writes(false, SECOND);
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	for (i = 0; i < n; i++) {
		assert_int_equal(tb_file_write(f, i), 0);
		lru_add_drain();
		wakeup_flusher_threads(WB_REASON_SYNC);
		deactivate_file_folio(tb_file_folio(f, i));
		lru_add_drain();
		schedule_timeout(HZ / 10);
	}
	return f;
}

/*
 * memcg reclaim that meets only folios under writeback marked PG_reclaim
 * (each of 8 pages written, queued by the flushers and invalidated:
 * deactivate_file_folio(), 100 ms after the one before; a write takes
 * the disk 1 s) waits for each (case 3: not writeback_throttling_sane()
 * without CONFIG_CGROUP_WRITEBACK) and frees it. Every dirty folio of
 * each pass was congested (nr_dirty == nr_congested), the later ones
 * still in flight, yet the memcg is not flagged congested
 * (LRUVEC_CGROUP_CONGESTED needs sane writeback throttling,
 * LRUVEC_NODE_CONGESTED is kswapd's): no congestion throttle.
 */
static void memcg_reclaim_of_congested_folios_waits_on_them_but_does_not_throttle(void **state)
{
	const struct kshim_trace_reclaim_stat *st = &kshim_trace.inactive_stat;
	struct tb_file *f;

	TB_CLASSIC_LRU_ONLY("shrink_folio_list() of the classic LRU");
	f = a_with_folios_under_writeback(8);
	assert_int_equal(tb_writeback_inflight(), 8);
	kshim_trace_reset();
	assert_write_ok("a", "memory.reclaim", "32K");
	assert_int_equal(st->nr_dirty, 8);
	assert_int_equal(st->nr_congested, 8);
	assert_int_equal(st->nr_writeback, 0);
	assert_int_equal(kshim_trace.throttled_count, 0);
	assert_int_equal(tb_stat("a", "pgsteal"), 8);
	assert_int_equal(tb_file_cached(f), 0);
}

/*
 * A folio written to again while its write is in flight is dirty and
 * under writeback: reclaim counts it dirty (nr_dirty) and under
 * writeback, but not as unqueued dirty, whose writeback the flushers
 * have yet to start. 4 pages written, queued by the flushers (the disk
 * takes 10 s), written again (and so activated, read twice) and
 * invalidated (deactivate_file_folio(): inactive, PG_reclaim); a direct
 * reclaim meets some of them, each counted under writeback (case 2:
 * activated) and none unqueued.
 */
static void redirtied_folio_under_writeback_is_not_unqueued_dirty(void **state)
{
	const struct kshim_trace_reclaim_stat *st = &kshim_trace.inactive_stat;
	struct tb_file *f = tb_file_create(4);
	int i;

	TB_CLASSIC_LRU_ONLY("shrink_folio_list() of the classic LRU");
	slow_writes(false, 10 * SECOND);
	tb_run_in("");
	for (i = 0; i < 4; i++)
		assert_int_equal(tb_file_write(f, i), 0);
	lru_add_drain();
	wakeup_flusher_threads(WB_REASON_SYNC);
	for (i = 0; i < 4; i++) {
		assert_int_equal(tb_file_write(f, i), 0);
		assert_true(folio_test_dirty(tb_file_folio(f, i)));
		assert_true(folio_test_writeback(tb_file_folio(f, i)));
		/* read twice: active; invalidated: back on the inactive list */
		deactivate_file_folio(tb_file_folio(f, i));
	}
	lru_add_drain();
	kshim_trace_reset();
	assert_int_equal(try_to_free_pages(node_zonelist(0, GFP_KERNEL), 0, GFP_KERNEL, NULL), 0);
	assert_true(st->nr_dirty > 0);
	assert_int_equal(st->nr_writeback, st->nr_dirty);
	assert_int_equal(st->nr_unqueued_dirty, 0);
	/* congested (under writeback, PG_reclaim), but global reclaim flags no memcg */
	assert_int_equal(st->nr_congested, st->nr_dirty);
	assert_int_equal(kshim_trace.throttled[VMSCAN_THROTTLE_CONGESTED], 0);
}

/*
 * The same congested folios met by the reclaim of a GFP_NOIO charge: a
 * reclaimer that may not enter the filesystem does not wait on their
 * writeback (case 2, not 3: marked and activated), which could need the
 * very locks it holds. "a" limited to what it has, 72 GFP_NOIO pages
 * charged: once the charge stock is used, each charge's reclaim meets
 * only folios under writeback, frees nothing and does not wait (no
 * virtual time passes), and the charge fails.
 */
static void noio_memcg_reclaim_does_not_wait_on_writeback(void **state)
{
	const struct kshim_trace_reclaim_stat *st = &kshim_trace.inactive_stat;
	struct folio *folios[72];
	int err = 0, n;
	u64 now;

	TB_CLASSIC_LRU_ONLY("shrink_folio_list() of the classic LRU");
	a_with_folios_under_writeback(8);
	tb_limit_to_current("a");
	kshim_trace_reset();
	now = tb_world_ns();
	for (n = 0; n < 72; n++) {
		folios[n] = tb_folio_charge(1, GFP_NOIO, &err);
		if (err)
			break;
	}
	assert_int_equal(err, -ENOMEM);
	assert_true(st->nr_writeback > 0);
	assert_int_equal(st->nr_writeback, st->nr_dirty);
	assert_int_equal(st->nr_congested, st->nr_dirty);
	assert_int_equal(tb_stat("a", "pgsteal"), 0);
	assert_int_equal(tb_writeback_inflight(), 8);
	assert_true(tb_world_ns() == now);
	while (n-- > 0)
		tb_folio_uncharge(folios[n]);
}

/* ---- kswapd's own writeback of dirty page cache (pageout()) ---- */


enum kswapd_wake { AT_LOW, BY_BOOST };

/*
 * The inactive file list's tail is 3 dirty pages marked PG_reclaim
 * (written, then invalidated while dirty: deactivate_file_folio()),
 * referenced again by a read() if referenced; 12288 pages of clean page
 * cache read once after them. PGDAT_DIRTY set (as kswapd leaves it after
 * a pass whose file folios were all unqueued dirty) if pgdat_dirty; then
 * kswapd is woken by a watermark boost, or at the low watermark by more
 * page cache read once. Either way its first pass, at DEF_PRIORITY,
 * takes the inactive list >> 12 = 3 pages from its tail: the dirty ones.
 * Returns NR_VMSCAN_WRITE, the pages kswapd wrote itself.
 */
static unsigned long kswapd_meets_dirty_folios_on(enum tb_file_fs fs, bool pgdat_dirty,
						  bool referenced, enum kswapd_wake wake,
						  unsigned long clean_tail)
{
	unsigned long clean = 12288, i;
	struct tb_file *dirty = tb_file_create(3), *f = tb_file_create(clean);
	struct tb_file *more = tb_file_create(PAGES(64 * MB)), *tail = tb_file_create(16);
	struct pglist_data *pgdat = NODE_DATA(0);

	if (pgdat_dirty && !TB_HAVE_pgdat_dirty)
		tb_skip("7.2 has no PGDAT_DIRTY: kswapd writes back no page cache (pgdat_dirty)");
	assert_int_equal(tb_file_set_fs(dirty, fs), 0);
	tb_run_in("");
	tb_read_range(tail, clean_tail);
	for (i = 0; i < 3; i++)
		assert_int_equal(tb_file_write(dirty, i), 0);
	lru_add_drain();
	for (i = 0; i < 3; i++)
		deactivate_file_folio(tb_file_folio(dirty, i));
	lru_add_drain();
	for (i = 0; referenced && i < 3; i++)
		assert_int_equal(tb_file_read(dirty, i), 0);
	tb_read_range(f, clean);
	lru_add_drain();
	tb_kthreads_settle();
	assert_int_equal(kshim_vm_event_read(PAGEOUTRUN), 0);
	for (i = 0; i < 3; i++) {
		assert_true(folio_test_reclaim(tb_file_folio(dirty, i)));
		assert_true(folio_test_dirty(tb_file_folio(dirty, i)));
		assert_int_equal(folio_test_referenced(tb_file_folio(dirty, i)), referenced);
	}
#if TB_HAVE_pgdat_dirty
	if (pgdat_dirty)
		set_bit(PGDAT_DIRTY, &pgdat->flags);
#endif
	if (wake == BY_BOOST) {
		tb_mem_steal_pageblock(0);
		tb_mem_steal_pageblock(0);
	} else {
		for (i = 0; !kshim_vm_event_read(PAGEOUTRUN); i++)
			assert_int_equal(tb_file_read(more, i), 0);
	}
	tb_kthreads_settle();
	assert_true(kshim_vm_event_read(PAGEOUTRUN) > 0);
	assert_int_equal(tb_kswapd_trace(0)->inactive_scanned[1][DEF_PRIORITY], 3);
	return node_page_state(pgdat, NR_VMSCAN_WRITE);
}

static unsigned long kswapd_meets_dirty_folios(bool pgdat_dirty, bool referenced,
					       enum kswapd_wake wake, unsigned long clean_tail)
{
	return kswapd_meets_dirty_folios_on(TB_FS_WRITEPAGE, pgdat_dirty, referenced, wake,
					    clean_tail);
}

static unsigned long kswapd_meets_dirty_tail(bool pgdat_dirty, bool referenced,
					     enum kswapd_wake wake)
{
	return kswapd_meets_dirty_folios(pgdat_dirty, referenced, wake, 0);
}

/* the 3 dirty folios of kswapd_meets_dirty_folios(), on a file system of kind fs */
static unsigned long kswapd_writes_dirty_tail_on(enum tb_file_fs fs)
{
	return kswapd_meets_dirty_folios_on(fs, true, false, AT_LOW, 0);
}

/*
 * kswapd writes a dirty page cache folio itself when it meets it again
 * marked PG_reclaim on a node flagged PGDAT_DIRTY (the flushers lag):
 * pageout() starts the write and the folio stays on the inactive list.
 */
static void kswapd_writes_dirty_folios_marked_for_reclaim_on_a_dirty_node(void **state)
{
	TB_CLASSIC_LRU_ONLY("shrink_folio_list() of the classic LRU");
	assert_int_equal(kswapd_meets_dirty_tail(true, false, AT_LOW), 3);
	assert_int_equal(tb_kswapd_trace(0)->inactive_stat.nr_pageout, 3);
	assert_int_equal(node_page_state(NODE_DATA(0), NR_VMSCAN_IMMEDIATE), 0);
}

/* without PGDAT_DIRTY it activates them (marked again) and wakes the flushers */
static void kswapd_leaves_dirty_folios_to_the_flushers_on_a_node_not_dirty(void **state)
{
	TB_CLASSIC_LRU_ONLY("shrink_folio_list() of the classic LRU");
	assert_int_equal(kswapd_meets_dirty_tail(false, false, AT_LOW), 0);
	assert_int_equal(node_page_state(NODE_DATA(0), NR_VMSCAN_IMMEDIATE), 3);
	assert_int_equal(tb_kswapd_trace(0)->inactive_stat.nr_activate_file, 3);
}

/*
 * a folio referenced since it was marked is "reclaim if clean"
 * (folio_check_references(): FOLIOREF_RECLAIM_CLEAN): kept, not written
 */
static void kswapd_does_not_write_dirty_folios_referenced_again(void **state)
{
	TB_CLASSIC_LRU_ONLY("shrink_folio_list() of the classic LRU");
	assert_int_equal(kswapd_meets_dirty_tail(true, true, AT_LOW), 0);
	assert_int_equal(node_page_state(NODE_DATA(0), NR_VMSCAN_IMMEDIATE), 0);
}

/*
 * Boosted reclaim writes nothing (balance_pgdat(): no may_writepage while
 * boosting, at DEF_PRIORITY - 2 and above): the marked folios are kept,
 * the pass frees nothing, and the boost is given up.
 */
static void kswapd_does_not_write_dirty_folios_for_a_boost(void **state)
{
	struct zone *zone = &NODE_DATA(0)->node_zones[ZONE_NORMAL];

	TB_CLASSIC_LRU_ONLY("shrink_folio_list() of the classic LRU");
	assert_int_equal(kswapd_meets_dirty_tail(true, false, BY_BOOST), 0);
	assert_int_equal(kshim_reclaim_event_read(PGSTEAL_KSWAPD), 0);
	assert_int_equal(zone->watermark_boost, 0);
}

/*
 * On a node flagged PGDAT_WRITEBACK kswapd counts for immediate reclaim
 * (case 1, and a throttle) only folios under writeback that it marked
 * PG_reclaim before: 3 pages written and queued by the flushers (the disk
 * takes 10 s), not marked, at the inactive tail; kswapd's first pass
 * meets them under writeback and marks them (case 2: nr_writeback).
 */
static void kswapd_marks_unmarked_writeback_folios_on_a_writeback_node(void **state)
{
	unsigned long clean = 12288, i;
	struct tb_file *wb = tb_file_create(3), *f = tb_file_create(clean);
	struct tb_file *more = tb_file_create(PAGES(64 * MB));
	const struct kshim_trace *k = tb_kswapd_trace(0);

	TB_CLASSIC_LRU_ONLY("shrink_folio_list() of the classic LRU");
	slow_writes(false, 10 * SECOND);
	tb_run_in("");
	for (i = 0; i < 3; i++)
		assert_int_equal(tb_file_write(wb, i), 0);
	lru_add_drain();
	wakeup_flusher_threads(WB_REASON_SYNC);
	tb_read_range(f, clean);
	lru_add_drain();
	tb_kthreads_settle();
	assert_int_equal(tb_writeback_inflight(), 3);
	set_bit(PGDAT_WRITEBACK, &NODE_DATA(0)->flags);
	for (i = 0; !kshim_vm_event_read(PAGEOUTRUN); i++)
		assert_int_equal(tb_file_read(more, i), 0);
	tb_kthreads_settle();
	assert_int_equal(k->inactive_scanned[1][DEF_PRIORITY], 3);
	assert_int_equal(k->inactive_stat.nr_immediate, 0);
	assert_true(k->inactive_stat.nr_writeback >= 3);
	assert_int_equal(k->throttled[VMSCAN_THROTTLE_WRITEBACK], 0);
}

/*
 * The same boost with 9 clean pages behind the dirty ones: priority 12
 * frees 3 of them (12300 >> 12), priority 11 the 6 others (12297 >> 11),
 * and boosted reclaim, held at DEF_PRIORITY - 2, meets the dirty folios
 * at priority 10 (12 pages taken): still no writeback while boosting.
 */
static void kswapd_does_not_write_dirty_folios_for_a_boost_at_def_priority_minus_2(void **state)
{
	const struct kshim_trace *k = tb_kswapd_trace(0);

	TB_CLASSIC_LRU_ONLY("shrink_folio_list() of the classic LRU");
	assert_int_equal(kswapd_meets_dirty_folios(true, false, BY_BOOST, 9), 0);
	assert_int_equal(k->inactive_scanned[1][DEF_PRIORITY - 1], 6);
	assert_true(k->inactive_scanned[1][DEF_PRIORITY - 2] >= 12);
	assert_int_equal(k->min_priority, DEF_PRIORITY - 2);
}

/* ---- pageout() on file systems whose ->writepage does not write ---- */

/* the dirty folios the helpers' file left on node 0's lists: active, still dirty */
static void assert_dirty_tail_activated(void)
{
	const struct kshim_trace *k = tb_kswapd_trace(0);

	assert_int_equal(k->inactive_stat.nr_pageout, 0);
	assert_int_equal(k->inactive_stat.nr_activate_file, 3);
	assert_int_equal(tb_writeback_inflight(), 0);
}

/*
 * A file system without ->writepage (xfs, btrfs): pageout() does not
 * write the folio and returns PAGE_ACTIVATE; kswapd activates the 3
 * marked dirty folios (they wait for the flushers on the active list).
 */
static void kswapd_activates_dirty_folios_of_a_file_system_without_writepage(void **state)
{
	TB_CLASSIC_LRU_ONLY("shrink_folio_list() of the classic LRU");
	assert_int_equal(kswapd_writes_dirty_tail_on(TB_FS_NO_WRITEPAGE), 0);
	assert_dirty_tail_activated();
}

/*
 * ->writepage that redirties and returns AOP_WRITEPAGE_ACTIVATE (shmem
 * without a swap slot): pageout() clears PG_reclaim and returns
 * PAGE_ACTIVATE before counting a write: the folios are activated, dirty
 */
static void kswapd_activates_dirty_folios_whose_writepage_asks_for_it(void **state)
{
	TB_CLASSIC_LRU_ONLY("shrink_folio_list() of the classic LRU");
	assert_int_equal(kswapd_writes_dirty_tail_on(TB_FS_WRITEPAGE_ACTIVATE), 0);
	assert_dirty_tail_activated();
}

/*
 * ->writepage that redirties the folio and returns 0 (it cannot write
 * from reclaim): pageout() has no way to tell, so it counts a write
 * (NR_VMSCAN_WRITE, nr_pageout) and PAGE_SUCCESS; shrink_folio_list()
 * finds the folio dirty again and keeps it on the inactive list, not
 * activated. The pass found them all unqueued dirty, so kswapd woke the
 * flushers, whose ->writepages wrote each one once.
 */
static void kswapd_counts_a_redirtied_folio_as_written_and_keeps_it(void **state)
{
	const struct kshim_trace *k = tb_kswapd_trace(0);

	TB_CLASSIC_LRU_ONLY("shrink_folio_list() of the classic LRU");
	assert_int_equal(kswapd_writes_dirty_tail_on(TB_FS_WRITEPAGE_REDIRTY), 3);
	assert_int_equal(k->inactive_stat.nr_pageout, 3);
	assert_int_equal(k->inactive_stat.nr_activate_file, 0);
	assert_int_equal(tb_writeback_inflight(), 0);
	assert_int_equal(node_page_state(NODE_DATA(0), NR_WRITTEN), 3);
}

/* ---- buffer heads (a block device's page cache) ---- */

/* n pages of a file on a file system of kind fs, read once by cgroup a's task */
static struct tb_file *a_reads_a_file_on(enum tb_file_fs fs, unsigned long n)
{
	struct tb_file *f = tb_file_create(n);

	assert_int_equal(tb_file_set_fs(f, fs), 0);
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	tb_read_range(f, n);
	tb_task_switch(NULL);
	lru_add_drain();
	return f;
}

/*
 * 256 pages of a block device's page cache read once by cgroup a, their
 * buffers under the journal's I/O (locked by submit_bh(), the folios
 * neither dirty nor under writeback). folio_check_dirty_writeback() asks
 * ->is_dirty_writeback, which reports them under writeback: each folio
 * met counts in nr_dirty (not in nr_writeback: PG_writeback is clear).
 * Clean and referenced once (FOLIOREF_RECLAIM_CLEAN), each reaches
 * filemap_release_folio(), whose try_to_free_buffers() fails on the busy
 * buffers: activated, nothing freed, memory.reclaim fails. The I/O done,
 * the buffers go and the folios with them.
 */
static void memcg_reclaim_activates_folios_whose_buffers_are_busy(void **state)
{
	const struct kshim_trace_reclaim_stat *st = &kshim_trace.inactive_stat;
	struct tb_file *f;

	TB_CLASSIC_LRU_ONLY("shrink_folio_list()'s reclaim_stat of the inactive list");
	f = a_reads_a_file_on(TB_FS_BUFFERS, 256);
	tb_file_set_buffers_io(f, true);
	kshim_trace_reset();

	assert_write("a", "memory.reclaim", "128K", -EAGAIN);
	assert_true(st->nr_dirty > 0);
	assert_int_equal(st->nr_activate_file, st->nr_dirty);
	assert_int_equal(st->nr_writeback, 0);
	assert_int_equal(st->nr_unqueued_dirty, 0);
	assert_int_equal(tb_stat("a", "pgsteal"), 0);
	assert_int_equal(tb_file_cached(f), 256);

	tb_file_set_buffers_io(f, false);
	kshim_trace_reset();
	assert_write_ok("a", "memory.reclaim", "128K");
	assert_int_equal(st->nr_dirty, 0);
	assert_true(tb_stat("a", "pgsteal") >= 32);
	assert_int_equal(tb_file_cached(f), 256 - tb_stat("a", "pgsteal"));
}

/*
 * A block device's file truncated while the journal's I/O holds the
 * buffers of its 64 pages: block_invalidate_folio() cannot free them, so
 * the folios leave the page cache with their buffers and stay on the
 * LRU, mapping-less, charged to a. memory.reclaim activates them while
 * the buffers are busy; once the I/O is done, try_to_free_buffers() lets
 * them go and each folio, with only the isolation's reference left, is
 * freed there and then (no __remove_mapping(): it has no mapping).
 */
static void reclaim_frees_truncated_folios_once_their_buffers_are_released(void **state)
{
	const struct kshim_trace_reclaim_stat *st = &kshim_trace.inactive_stat;
	struct tb_file *f;

	TB_CLASSIC_LRU_ONLY("shrink_folio_list()'s reclaim_stat of the inactive list");
	f = a_reads_a_file_on(TB_FS_BUFFERS, 64);
	tb_file_set_buffers_io(f, true);
	tb_file_destroy(f);
	assert_int_equal(tb_cgroup_read_u64("a", "memory.current"), 64 * PAGE_SIZE);
	kshim_trace_reset();

	assert_write("a", "memory.reclaim", "256K", -EAGAIN);
	assert_true(st->nr_activate_file > 0);
	assert_int_equal(st->nr_dirty, 0);
	assert_int_equal(tb_stat("a", "pgsteal"), 0);

	tb_truncated_buffers_io_done();
	assert_write_ok("a", "memory.reclaim", "256K");
	assert_int_equal(tb_stat("a", "pgsteal"), 64);
	assert_int_equal(tb_cgroup_read_u64("a", "memory.current"), 0);
}

/*
 * A file system with ->free_folio: __remove_mapping() calls it for each
 * folio reclaim takes out of the page cache, after the cache's lock is
 * dropped; memory.reclaim of 32 pages of 64 read once.
 */
static void reclaim_calls_free_folio_of_each_page_cache_folio_it_frees(void **state)
{
	unsigned long calls = tb_free_folio_calls();
	struct tb_file *f = a_reads_a_file_on(TB_FS_FREE_FOLIO, 64);

	assert_write_ok("a", "memory.reclaim", "128K");
	assert_true(tb_stat("a", "pgsteal") >= 32);
	assert_int_equal(tb_free_folio_calls() - calls, tb_stat("a", "pgsteal"));
	assert_int_equal(tb_file_cached(f), 64 - tb_stat("a", "pgsteal"));
}

/* ---- swap over a file system (SWP_FS_OPS) ---- */

/*
 * shrink_folio_list() hands pageout() a plug: the swap file's
 * swap_writepage_fs() gathers the pages of one call that follow each
 * other on the file into an iocb, and the call writes it at its end
 * (swap_write_unplug()), so memory.reclaim's 1M goes out in iocbs of
 * several pages, at most SWAP_CLUSTER_MAX (one isolation) each.
 */
static void reclaim_writes_to_a_swap_file_in_iocbs_of_several_pages(void **state)
{
	unsigned long iocbs, pages;

	reclaim_1m_of_4m_anon();
	tb_swap_fs_writes(&iocbs, &pages);
	assert_int_equal(pages, kshim_vm_event_read(PSWPOUT));
	assert_true(iocbs > 0);
	assert_true(iocbs < pages);
	assert_true(iocbs * SWAP_CLUSTER_MAX >= pages);
}

/*
 * 256 anon pages of memcg "a" at its limit, then a GFP_NOFS charge there:
 * its reclaim may not write to a swap file, and it fails
 */
static struct tb_vma *nofs_charge_over_256_anon_pages(void)
{
	struct tb_vma *vma;
	int err = 0;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	vma = tb_map_anon(256);
	tb_touch_range(vma, 256, true);
	tb_limit_to_current("a");
	kshim_trace_reset();
	assert_null(tb_folio_charge(1, GFP_NOFS, &err));
	assert_int_equal(err, -ENOMEM);
	return vma;
}

/*
 * A GFP_NOFS charge may reclaim through swap on a block device, not
 * through a swap file (may_enter_fs(): SWP_FS_OPS needs __GFP_FS).
 * shrink_folio_list() adds each anon folio to swap (that needs
 * __GFP_IO only) and unmaps it, then keeps it dirty in the swap cache,
 * unwritten: the charge fails after its retries have met every one of
 * the 256 folios, a slot used by each. memory.reclaim (GFP_KERNEL)
 * writes them.
 */
static void nofs_reclaim_adds_anon_to_a_swap_file_but_does_not_write_it(void **state)
{
	const struct kshim_trace_reclaim_stat *st = &kshim_trace.inactive_stat;
	unsigned long iocbs, pages;
	struct tb_vma *vma;

	TB_CLASSIC_LRU_ONLY("shrink_folio_list()'s reclaim_stat of the inactive list");
	vma = nofs_charge_over_256_anon_pages();
	assert_int_equal(st->nr_pageout, 0);
	assert_int_equal(tb_stat("a", "pgsteal"), 0);
	assert_int_equal(tb_swap_used(), 256);
	assert_int_equal(tb_vma_swapped(vma), 256);
	assert_int_equal(kshim_vm_event_read(PSWPOUT), 0);

	/*
	 * the failed charge OOM-killed its task: an administrator writes
	 * (memory.reclaim by a task with SIGKILL pending is -EINTR, 7.2 on
	 * -ERESTARTSYS: proactive_reclaim_restarts)
	 */
	assert_int_equal(tb_cgroup_write_str("a", "memory.reclaim", "128K"),
			 TB_HAVE_proactive_reclaim_restarts ? -ERESTARTSYS : -EINTR);
	tb_run_in("");
	assert_write_ok("a", "memory.max", "max");
	assert_write_ok("a", "memory.reclaim", "128K");
	tb_swap_fs_writes(&iocbs, &pages);
	assert_true(pages > 0);
}

/*
 * The multi-gen LRU's eviction gives shrink_folio_list() a second pass
 * only for what may have missed folio_rotate_reclaimable(): clean,
 * unmapped, inactive folios (evict_folios()). A GFP_NOFS charge's
 * reclaim over a swap file adds each anon folio it takes to the swap
 * cache, unmaps it and keeps it dirty, unwritten: one pass, so one
 * mm_vmscan_lru_shrink_inactive event, per isolation that took folios.
 */
static void nofs_eviction_passes_dirty_swap_cache_over_once(void **state)
{
	struct tb_vma *vma;

	if (!tb_lru_gen_on())
		skip();
	/*
	 * 6.1 (mglru_dying_fake_progress): the charge's OOM kills its own
	 * task, whose reclaim then reports progress it did not make, so the
	 * charge retries until the kernel's oom_reaper reaps the task
	 * OOM_REAPER_DELAY later: the world's loop takes no virtual time and
	 * never gets there (it would hang)
	 */
	if (TB_HAVE_mglru_dying_fake_progress)
		tb_skip("6.1: the OOM-killed charger retries until the oom_reaper, which the world's loop never reaches");
	vma = nofs_charge_over_256_anon_pages();
	assert_int_equal(kshim_vm_event_read(PSWPOUT), 0);
	assert_true(tb_swap_used() > 0);
#if TB_HAVE_lru_gen_evict_trace
	assert_true(kshim_trace.isolate_took_count > 0);
	assert_int_equal(kshim_trace.shrink_inactive_count, kshim_trace.isolate_took_count);
#else
	/* 6.1's scan_folios() and evict_folios() trace neither event */
	assert_int_equal(kshim_trace.shrink_inactive_count, 0);
#endif
	tb_unmap(vma);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		TB_RECLAIM_TEST(memcg_reclaim_leaves_dirty_pages_to_the_flushers),
		TB_RECLAIM_TEST(dirty_and_writeback_counters_follow_the_pages),
		TB_RECLAIM_TEST(writing_beyond_ram_is_reclaimed_after_writeback),
		TB_RECLAIM_TEST_ON(zram_frees_each_page_in_the_pass_that_wrote_it,
				   tb_reclaim_setup_swap),
		TB_RECLAIM_TEST_ON(a_disk_frees_written_pages_after_their_write, setup_swap_disk),
		TB_RECLAIM_TEST_ON(task_spawned_late_starts_at_the_worlds_time, setup_swap_disk),
		TB_RECLAIM_TEST_ON(a_removed_memcg_s_swap_high_frees_no_slot_on_swapin, setup_swap_disk),
		TB_RECLAIM_TEST_ON(a_swap_write_completes_before_an_earlier_slower_file_write,
				   setup_swap_disk),
		TB_RECLAIM_TEST(memcg_reclaim_counts_the_dirty_page_cache_it_meets),
		TB_RECLAIM_TEST(memcg_reclaim_frees_folios_truncated_while_it_waits),
		TB_RECLAIM_TEST_ON(memcg_reclaim_frees_a_whole_batch_truncated_while_it_waits,
				   setup_1g),
		TB_RECLAIM_TEST_ON(direct_reclaim_never_writes_page_cache_on_a_dirty_node,
				   setup_no_kswapd),
		TB_RECLAIM_TEST(memcg_reclaim_of_congested_folios_waits_on_them_but_does_not_throttle),
		TB_RECLAIM_TEST_ON(redirtied_folio_under_writeback_is_not_unqueued_dirty,
				   setup_no_kswapd),
		TB_RECLAIM_TEST(noio_memcg_reclaim_does_not_wait_on_writeback),
		TB_RECLAIM_TEST(kswapd_writes_dirty_folios_marked_for_reclaim_on_a_dirty_node),
		TB_RECLAIM_TEST(kswapd_leaves_dirty_folios_to_the_flushers_on_a_node_not_dirty),
		TB_RECLAIM_TEST(kswapd_does_not_write_dirty_folios_referenced_again),
		TB_RECLAIM_TEST(kswapd_does_not_write_dirty_folios_for_a_boost),
		TB_RECLAIM_TEST(kswapd_marks_unmarked_writeback_folios_on_a_writeback_node),
		TB_RECLAIM_TEST(kswapd_does_not_write_dirty_folios_for_a_boost_at_def_priority_minus_2),
		TB_RECLAIM_TEST_ON(memcg_reclaim_counts_no_anon_as_dirty_or_congested, setup_swap_disk),
		TB_RECLAIM_TEST(kswapd_activates_dirty_folios_of_a_file_system_without_writepage),
		TB_RECLAIM_TEST(kswapd_activates_dirty_folios_whose_writepage_asks_for_it),
		TB_RECLAIM_TEST(kswapd_counts_a_redirtied_folio_as_written_and_keeps_it),
		TB_RECLAIM_TEST(memcg_reclaim_activates_folios_whose_buffers_are_busy),
		TB_RECLAIM_TEST(reclaim_frees_truncated_folios_once_their_buffers_are_released),
		TB_RECLAIM_TEST(reclaim_calls_free_folio_of_each_page_cache_folio_it_frees),
		TB_RECLAIM_TEST_ON(reclaim_writes_to_a_swap_file_in_iocbs_of_several_pages,
				   setup_swap_file_on_nfs),
		TB_RECLAIM_TEST_ON(nofs_eviction_passes_dirty_swap_cache_over_once,
				   setup_swap_file_on_nfs),
		TB_RECLAIM_TEST_ON(nofs_reclaim_adds_anon_to_a_swap_file_but_does_not_write_it,
				   setup_swap_file_on_nfs),
	};

	return TB_RUN(tests);
}
