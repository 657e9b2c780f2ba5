// SPDX-License-Identifier: GPL-2.0-only
/*
 * What mm/vmscan.c decides about individual folios and lists, seen
 * through memcg reclaim: second chances, workingset refaults, the
 * anon/file balance of get_scan_count() (swappiness, no swap, swap full),
 * and memory.stat agreeing with the LRU lists.
 */
#include <linux/kernel.h>
#include <linux/delay.h>
#include <linux/workqueue.h>
#include <linux/mm.h>
#include <linux/mm_inline.h>
#include <linux/swap.h>
#include <linux/pagemap.h>
#include <linux/vmstat.h>
#include <kshim/reclaim.h>
#include <kshim/trace.h>
#include <kshim/memcg_tb.h>
#include <stdio.h>
#include <sys/mman.h>
#include "tb_reclaim.h"

static int setup_small_swap(void **state)
{
	tb_mem = (struct tb_mem_config){ .swap_pages = 64 };
	return tb_reclaim_setup(state);
}

static void reread(struct tb_file *f, unsigned long n)
{
	tb_read_range(f, n);
}

/*
 * folio_check_references(): a mapped page whose pte was young again since
 * the last scan is activated; a page read once through read() is reclaimed
 * on its first scan. Rounds of reclaim with the mapped file touched between
 * them take the use-once file; of the mapped one, only pages scanned twice
 * within one round (their first chance used up) can go, and the touch
 * faults them back.
 */
static void use_once_page_cache_goes_before_mapped_pages_in_use(void **state)
{
	struct tb_file *mapped = tb_file_create(256), *once = tb_file_create(256);
	struct tb_vma *vma;
	int round;

	TB_CLASSIC_LRU_ONLY("active/inactive balance of use-once cache");
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	vma = tb_map_file(mapped);
	tb_touch_range(vma, 256, false);
	tb_read_range(once, 256);
	for (round = 0; round < 4; round++) {
		assert_write_ok("a", "memory.reclaim", "256K");
		tb_touch_range(vma, 256, false);
	}
	assert_int_equal(tb_file_cached(once), 0);
	assert_int_equal(tb_vma_resident(vma), 256);
	assert_true(tb_stat("a", "pgactivate") >= 256);
	lru_add_drain();
	/* shrink_active_list() moved part back to keep inactive:active balanced */
	assert_true(tb_stat("a", "active_file") > 0);
	assert_int_equal(tb_stat("a", "active_file") + tb_stat("a", "inactive_file"), 256 * 4096);
	tb_unmap(vma);
}

/*
 * workingset_refault(): a page evicted and read again within the size of
 * the workingset (the active file list here) is activated at once. The
 * reclaim also deactivated part of the hot file (the inactive list was
 * low) and, in its last batch, took a few of those.
 */
static void refault_within_workingset_is_activated(void **state)
{
	struct tb_file *hot = tb_file_create(512), *cold = tb_file_create(64);

	TB_CLASSIC_LRU_ONLY("workingset_refault() activation on the classic lists");
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	/* read twice: folio_mark_accessed() activates the hot file */
	reread(hot, 512);
	reread(hot, 512);
	lru_add_drain();
	assert_int_equal(tb_stat("a", "active_file"), 512 * 4096);
	reread(cold, 64);
	assert_write_ok("a", "memory.reclaim", "256K");
	assert_int_equal(tb_file_cached(cold), 0);
	assert_true(tb_file_cached(hot) >= 448);

	reread(cold, 64);
	assert_int_equal(tb_stat("a", "workingset_refault_file"), 64);
	assert_int_equal(tb_stat("a", "workingset_activate_file"), 64);
}

/* with no workingset to compare against, a refault is not activated */
static void refault_beyond_workingset_stays_inactive(void **state)
{
	struct tb_file *f = tb_file_create(64);

	TB_CLASSIC_LRU_ONLY("workingset_refault() distance test on the classic lists");
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	reread(f, 64);
	assert_write_ok("a", "memory.reclaim", "256K");
	assert_int_equal(tb_file_cached(f), 0);
	reread(f, 64);
	assert_int_equal(tb_stat("a", "workingset_refault_file"), 64);
	assert_int_equal(tb_stat("a", "workingset_activate_file"), 0);
	assert_int_equal(tb_stat("a", "active_file"), 0);
}

/* anon and page cache in one memcg, all pages in use once */
static struct tb_vma *anon_and_file(struct tb_file *f, unsigned long pages)
{
	struct tb_vma *vma;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	vma = tb_map_anon(pages);
	tb_touch_range(vma, pages, true);
	tb_read_range(f, pages);
	return vma;
}

/* get_scan_count(): memcg reclaim with swappiness 0 scans file only */
static void swappiness_0_reclaims_only_page_cache(void **state)
{
	struct tb_file *f = tb_file_create(1024);
	struct tb_vma *vma = anon_and_file(f, 1024);

	tb_reclaim_swappiness("a", "2M", 0);
	assert_true(tb_file_cached(f) <= 512);
	assert_int_equal(tb_vma_swapped(vma), 0);
	assert_int_equal(kshim_reclaim_event_read(PGSCAN_ANON), 0);
	assert_true(kshim_reclaim_event_read(PGSCAN_FILE) >= 512);
}

/*
 * swappiness 200: the file side's share is (200 - 200) = 0, anon only --
 * once the page cache is in use (active); see the next case for why.
 */
static void swappiness_200_spares_page_cache_in_use(void **state)
{
	struct tb_file *f = tb_file_create(1024);
	struct tb_vma *vma = anon_and_file(f, 1024);

	TB_CLASSIC_LRU_ONLY("get_scan_count()'s anon/file split");
	reread(f, 1024);
	tb_reclaim_swappiness("a", "2M", 200);
	assert_int_equal(tb_file_cached(f), 1024);
	assert_true(tb_vma_swapped(vma) >= 512);
	assert_int_equal(kshim_reclaim_event_read(PGSCAN_FILE), 0);
	assert_int_equal(kshim_reclaim_event_read(PGSTEAL_FILE), 0);
}

/* 4 MiB of anon, then 32 MiB of page cache read once */
static struct tb_vma *anon_and_much_file(struct tb_file *f)
{
	struct tb_vma *vma;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	vma = tb_map_anon(1024);
	tb_touch_range(vma, 1024, true);
	tb_read_range(f, 8192);
	return vma;
}

/*
 * prepare_scan_control()'s cache_trim_mode: plenty of inactive page cache
 * that is not thrashing is trimmed first, and get_scan_count() returns
 * SCAN_FILE before it looks at swappiness: even 200 does not swap. (The
 * memcg's LRU sizes are read from its rstat counters: flushed here, as
 * the periodic flush every 2 s would have.)
 */
static void inactive_page_cache_is_trimmed_before_anon_at_any_swappiness(void **state)
{
	struct tb_file *f = tb_file_create(8192);
	struct tb_vma *vma = anon_and_much_file(f);

	tb_memcg_flush_stats(tb_memcg("a"));
	tb_reclaim_swappiness("a", "2M", 200);
	assert_true(tb_file_cached(f) <= 8192 - 512);
	assert_int_equal(tb_vma_swapped(vma), 0);
	assert_int_equal(kshim_reclaim_event_read(PGSCAN_ANON), 0);
}

/*
 * The same reclaim right after the reads, before any rstat flush: the
 * memcg's NR_INACTIVE_FILE still reads (close to) zero in
 * prepare_scan_control() -- mem_cgroup_flush_stats_ratelimited() only
 * flushes when the periodic flusher is a full cycle late -- so there is
 * no cache_trim_mode, swappiness 200 rules and anon is swapped while
 * 32 MiB of use-once page cache stay. The machine has been up past the
 * first periodic flush (2 s): right after boot flush_last_time is still
 * 0 and the first ratelimited flush does flush.
 */
static void stale_memcg_lru_sizes_miss_cache_trim_mode(void **state)
{
	struct tb_file *f = tb_file_create(8192);
	struct tb_vma *vma;

	TB_CLASSIC_LRU_ONLY("prepare_scan_control()'s cache_trim_mode");
	TB_ONE_NODE_ONLY("the 2 MiB are taken node by node, each node's lruvec with "
			 "its own (smaller) share of the cache and the anon");
	msleep(2100);
	/* the periodic flush is a work on another CPU: let it finish first */
	flush_workqueue(system_unbound_wq);
	vma = anon_and_much_file(f);

	tb_reclaim_swappiness("a", "2M", 200);
#if !TB_HAVE_mem_cgroup_flush_stats_ratelimited
	/*
	 * Before 6.2 shrink_node() calls mem_cgroup_flush_stats(), which
	 * flushes once enough updates are pending (the 32 MiB just read):
	 * the sizes are fresh, cache_trim_mode trims the page cache.
	 */
	assert_int_equal(tb_vma_swapped(vma), 0);
	assert_int_equal(kshim_reclaim_event_read(PGSCAN_ANON), 0);
	assert_true(tb_file_cached(f) <= 8192 - 512);
	return;
#endif
	assert_true(tb_vma_swapped(vma) >= 256);
	assert_true(kshim_reclaim_event_read(PGSCAN_ANON) > 0);
	assert_true(tb_file_cached(f) > 8192 - 512);
}

/* can_reclaim_anon_pages(): no swap device, no anon scanning at all */
static void no_swap_device_means_no_anon_scan(void **state)
{
	struct tb_file *f = tb_file_create(1024);
	struct tb_vma *vma = anon_and_file(f, 1024);

	tb_reclaim_swappiness("a", "2M", 200);
	assert_int_equal(tb_vma_resident(vma), 1024);
	assert_int_equal(kshim_reclaim_event_read(PGSCAN_ANON), 0);
	assert_true(tb_file_cached(f) <= 512);
}

/* a full swap device: the slots are used up, the rest of anon stays */
static void full_swap_stops_anon_reclaim(void **state)
{
	struct tb_vma *vma;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	vma = tb_map_anon(256);
	tb_touch_range(vma, 256, true);
	assert_write("a", "memory.reclaim", "1M", -EAGAIN);
	assert_int_equal(tb_swap_used(), 64);
	assert_int_equal(tb_vma_swapped(vma), 64);
	assert_int_equal(tb_vma_resident(vma), 192);
}

/* memory.stat's anon and file equal the LRU lists that hold them */
static void memory_stat_matches_the_lru_lists(void **state)
{
	struct tb_file *f = tb_file_create(768);
	struct tb_vma *vma = anon_and_file(f, 512);

	reread(f, 768);
	assert_write_ok("a", "memory.reclaim", "1M");
	lru_add_drain();
	assert_int_equal(tb_stat("a", "anon"),
			 tb_stat("a", "active_anon") + tb_stat("a", "inactive_anon"));
	assert_int_equal(tb_stat("a", "file"),
			 tb_stat("a", "active_file") + tb_stat("a", "inactive_file"));
	assert_int_equal(tb_stat("a", "anon"), tb_vma_resident(vma) * 4096);
	assert_int_equal(tb_stat("a", "file"), tb_file_cached(f) * 4096);
	assert_int_equal(tb_stat("a", "swapcached") + tb_stat("a", "anon") +
			 tb_stat("a", "file") + tb_stat("a", "kernel"), tb_usage("a"));
	tb_assert_lrus_consistent();
}

/*
 * An unevictable mapping (SHM_LOCK): folio_evictable() is false, so its
 * page cache goes to the unevictable LRU and reclaim cannot touch it; on
 * unlock check_move_unevictable_folios() moves it back and reclaim can.
 */
static void unevictable_page_cache_is_rescued_on_unlock(void **state)
{
	struct tb_file *f = tb_file_create(256);

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	tb_file_set_unevictable(f, true);
	tb_read_range(f, 256);
	lru_add_drain();
	assert_int_equal(tb_stat("a", "unevictable"), 256 * 4096);
	assert_write("a", "memory.reclaim", "512K", -EAGAIN);
	assert_int_equal(tb_file_cached(f), 256);

	tb_file_set_unevictable(f, false);
	assert_int_equal(kshim_vm_event_read(UNEVICTABLE_PGRESCUED), 256);
	assert_int_equal(tb_stat("a", "unevictable"), 0);
	assert_write_ok("a", "memory.reclaim", "512K");
	assert_true(tb_file_cached(f) <= 128);
	tb_assert_lrus_consistent();
}

/*
 * Page cache cached before SHM_LOCK stays on its list until reclaim
 * culls it: locked and unlocked again with no reclaim in between, none
 * of it is on the unevictable list, and the unlock rescues nothing
 * (check_move_unevictable_folios() moves only folios marked unevictable).
 */
static void page_cache_never_culled_is_not_rescued_on_unlock(void **state)
{
	struct tb_file *f = tb_file_create(256);

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	tb_read_range(f, 256);
	lru_add_drain();
	tb_file_set_unevictable(f, true);
	assert_int_equal(tb_stat("a", "unevictable"), 0);
	tb_file_set_unevictable(f, false);
	assert_int_equal(kshim_vm_event_read(UNEVICTABLE_PGRESCUED), 0);
	assert_int_equal(tb_stat("a", "inactive_file"), 256 * 4096);
	tb_assert_lrus_consistent();
}

/* folio_isolate_lru() takes a folio off its LRU (with a reference); putback returns it */
static void isolated_folio_leaves_its_lru_until_put_back(void **state)
{
	struct tb_file *f = tb_file_create(1);
	struct folio *folio;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	tb_read_range(f, 1);
	lru_add_drain();
	folio = tb_file_folio(f, 0);
	assert_int_equal(tb_stat("a", "inactive_file"), 4096);
#if TB_HAVE_folio_isolate_lru_bool
	assert_true(folio_isolate_lru(folio));
#else	/* 6.1: 0 when taken, -EBUSY when not on an LRU */
	assert_int_equal(folio_isolate_lru(folio), 0);
#endif
	assert_false(folio_test_lru(folio));
#if TB_HAVE_folio_isolate_lru_bool
	assert_false(folio_isolate_lru(folio));
#else
	assert_int_equal(folio_isolate_lru(folio), -EBUSY);
#endif
	assert_int_equal(tb_stat("a", "inactive_file"), 0);
	assert_int_equal(node_page_state(NODE_DATA(0), NR_ISOLATED_FILE), 0);
	/* it goes back through this CPU's lru_add batch */
	folio_putback_lru(folio);
	assert_false(folio_test_lru(folio));
	lru_add_drain();
	assert_true(folio_test_lru(folio));
	assert_int_equal(tb_stat("a", "inactive_file"), 4096);
}

static int setup_swap_of_48(void **state)
{
	tb_mem = (struct tb_mem_config){ .swap_pages = 48 };
	return tb_reclaim_setup(state);
}

/*
 * A swap device of 48 slots under 256 anon pages. The classic LRU swaps
 * until the device is full: batches of SWAP_CLUSTER_MAX (32) folios, the
 * second of which add_to_swap() finds room for only 16 (the others are
 * activated: activate_locked_split), then get_scan_count() stops scanning
 * anon. The multi-gen LRU swaps nothing: get_swappiness() is 0 while
 * fewer than MIN_LRU_BATCH (64) swap slots are free, so only page cache
 * would be evicted and memory.reclaim fails.
 */
static void swap_of_fewer_slots_than_a_batch_is_filled_by_the_classic_lru_only(void **state)
{
	struct tb_vma *vma;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	vma = tb_map_anon(256);
	tb_touch_range(vma, 256, true);
	lru_add_drain();
	assert_write("a", "memory.reclaim", "1M", -EAGAIN);
	if (tb_lru_gen_on()) {
		assert_int_equal(tb_swap_used(), 0);
		assert_int_equal(tb_vma_resident(vma), 256);
		assert_int_equal(tb_stat("a", "pgscan"), 0);
	} else {
		assert_int_equal(tb_swap_used(), 48);
		assert_int_equal(tb_vma_swapped(vma), 48);
		assert_int_equal(tb_vma_resident(vma), 208);
		assert_int_equal(tb_stat("a", "pgsteal"), 48);
	}
	tb_assert_lrus_consistent();
}

/*
 * An anon folio someone else holds a reference to (get_user_pages())
 * while reclaim takes it: add_to_swap() and try_to_unmap() go ahead (its
 * pte becomes a swap entry like its neighbours'), but pageout() finds
 * more references than the swap cache's and the isolation's
 * (is_page_cache_freeable()) and keeps it, unwritten: still dirty, in the
 * swap cache, back on the LRU. With the reference dropped, the next
 * reclaim writes and frees it.
 */
static void anon_folio_with_a_reference_is_unmapped_but_not_written(void **state)
{
	struct tb_vma *vma;
	struct folio *folio;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	vma = tb_map_anon(64);
	tb_touch_range(vma, 64, true);
	lru_add_drain();
	folio = tb_vma_folio(vma, 5);
	tb_folio_get(folio);

	assert_write("a", "memory.reclaim", "256K", -EAGAIN);
	assert_int_equal(tb_vma_swapped(vma), 64);
	assert_int_equal(tb_swap_used(), 64);
	assert_int_equal(tb_stat("a", "pgsteal"), 63);
	assert_false(folio_mapped(folio));
	assert_true(folio_test_swapcache(folio));
	assert_true(folio_test_dirty(folio));
	assert_true(folio_test_lru(folio));
	assert_int_equal(folio_ref_count(folio), 2);	/* the swap cache's and ours */
	tb_assert_lrus_consistent();

	tb_folio_put(folio);
	assert_write_ok("a", "memory.reclaim", "4K");
	assert_int_equal(tb_stat("a", "pgsteal"), 64);
	assert_int_equal(tb_stat("a", "anon"), 0);
	assert_int_equal(tb_swap_used(), 64);
}

static int setup_swap_disk(void **state)
{
	tb_mem = (struct tb_mem_config){ .swap_pages = PAGES(64 * MB), .swap_disk = true };
	return tb_reclaim_setup(state);
}

/*
 * memory.reclaim of "a" until all n pages of vma are out: swapped, their
 * folios freed (on a disk a later pass frees what an earlier one wrote)
 */
static void reclaim_all_of(struct tb_vma *vma, unsigned long n)
{
	int round;

	lru_add_drain();
	for (round = 0; round < 8 && (tb_vma_swapped(vma) < n || tb_stat("a", "anon")); round++) {
		tb_cgroup_write_str("a", "memory.reclaim", "256K");
		msleep(1);
	}
	assert_int_equal(tb_vma_swapped(vma), n);
	assert_int_equal(tb_stat("a", "anon"), 0);
}

/* n pages of a new vma in "a", written, then swapped out */
static struct tb_vma *swapped_out_anon(unsigned long n)
{
	struct tb_vma *vma;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	vma = tb_map_anon(n);
	tb_touch_range(vma, n, true);
	reclaim_all_of(vma, n);
	assert_int_equal(tb_swap_used(), n);
	assert_int_equal(tb_cgroup_read_u64("a", "memory.swap.current"), n * 4096);
	return vma;
}

/*
 * do_swap_page() on a SWP_SYNCHRONOUS_IO device (zram, the world's
 * default) for a slot only its pte holds keeps no copy on the device,
 * by a different road per tree: 6.1 and 6.12 read the page into a new
 * folio outside the swap cache (swapcache_prepare(), the read,
 * swap_free(), swapcache_clear(): mm/memory.c's "skip swapcache"), 7.x
 * reads it into the swap cache and should_try_to_free_swap() frees that
 * copy at once. Either way a read fault frees the slot and its swap
 * charge, nothing is swapcached, and reclaim must write the page again.
 */
static void swapin_by_a_read_from_zram_frees_the_slot(void **state)
{
	struct tb_vma *vma = swapped_out_anon(64);
	unsigned long i, pswpout;

	for (i = 0; i < 64; i++)
		assert_int_equal(tb_touch(vma, i, false), 0);
	assert_int_equal(tb_vma_resident(vma), 64);
	for (i = 0; i < 64; i++)
		assert_false(folio_test_swapcache(tb_vma_folio(vma, i)));
	assert_int_equal(tb_swap_used(), 0);
	assert_int_equal(tb_cgroup_read_u64("a", "memory.swap.current"), 0);
	lru_add_drain();
	assert_int_equal(tb_stat("a", "swapcached"), 0);
	assert_int_equal(tb_stat("a", "anon"), 64 * 4096);

	pswpout = kshim_vm_event_read(PSWPOUT);
	reclaim_all_of(vma, 64);
	assert_int_equal(kshim_vm_event_read(PSWPOUT) - pswpout, 64);
	assert_int_equal(tb_swap_used(), 64);
	tb_assert_lrus_consistent();
}

/*
 * A disk is not SWP_SYNCHRONOUS_IO: on every tree do_swap_page() reads
 * the page into the swap cache (swapin_readahead()) and a read fault
 * keeps that copy (should_try_to_free_swap(): no write, swap not short),
 * so the slot stays charged and, the page untouched since, the next
 * reclaim unmaps and frees the clean swap cache folio without writing it.
 */
static void swapin_by_a_read_from_a_disk_keeps_the_swap_cache_copy(void **state)
{
	struct tb_vma *vma = swapped_out_anon(64);
	unsigned long i, pswpout;

	for (i = 0; i < 64; i++)
		assert_int_equal(tb_touch(vma, i, false), 0);
	assert_int_equal(tb_vma_resident(vma), 64);
	for (i = 0; i < 64; i++)
		assert_true(folio_test_swapcache(tb_vma_folio(vma, i)));
	assert_int_equal(tb_swap_used(), 64);
	assert_int_equal(tb_cgroup_read_u64("a", "memory.swap.current"), 64 * 4096);
	lru_add_drain();
	assert_int_equal(tb_stat("a", "swapcached"), 64 * 4096);

	pswpout = kshim_vm_event_read(PSWPOUT);
	reclaim_all_of(vma, 64);
	assert_int_equal(kshim_vm_event_read(PSWPOUT) - pswpout, 0);
	assert_int_equal(tb_swap_used(), 64);
	assert_int_equal(tb_stat("a", "swapcached"), 0);
	tb_assert_lrus_consistent();
}

/*
 * A page of zram still in the swap cache when its pte faults: reclaim
 * unmapped it but could not write it while a reference held it (as in
 * anon_folio_with_a_reference_is_unmapped_but_not_written), so the fault
 * finds it there. 6.1 and 6.12 map it and, on a read, keep the copy
 * (should_try_to_free_swap(): only a write by the sole user, or swap
 * short, frees it); 7.x frees a synchronous device's swap cache copy on
 * every swap-in, read or write.
 */
static void read_of_a_zram_page_found_in_the_swap_cache_keeps_the_copy_until_7x(void **state)
{
	struct tb_vma *vma;
	struct folio *folio;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	vma = tb_map_anon(64);
	tb_touch_range(vma, 64, true);
	lru_add_drain();
	folio = tb_vma_folio(vma, 5);
	tb_folio_get(folio);
	assert_write("a", "memory.reclaim", "256K", -EAGAIN);
	assert_int_equal(tb_vma_swapped(vma), 64);
	assert_true(folio_test_swapcache(folio));
	tb_folio_put(folio);

	assert_int_equal(tb_touch(vma, 5, false), 0);
	assert_ptr_equal(tb_vma_folio(vma, 5), folio);
	lru_add_drain();
	if (TB_HAVE_swapin_frees_sync_swapcache) {
		assert_false(folio_test_swapcache(folio));
		assert_int_equal(tb_swap_used(), 63);
		assert_int_equal(tb_stat("a", "swapcached"), 0);
	} else {
		assert_true(folio_test_swapcache(folio));
		assert_int_equal(tb_swap_used(), 64);
		assert_int_equal(tb_stat("a", "swapcached"), 4096);
	}
	assert_int_equal(tb_cgroup_read_u64("a", "memory.swap.current"), tb_swap_used() * 4096);
	tb_assert_lrus_consistent();
}

/*
 * do_swap_page() on pages reclaim swapped out, read back from a disk
 * into new folios that wait in this CPU's LRU add batch: a read leaves the
 * folio in the swap cache, its slot still holding a copy; a write makes
 * the task the folio's one user, which the refcount tells once the batch
 * has let go of it (lru_add_drain()), so should_try_to_free_swap() drops
 * the swap cache copy and its slot. (On zram a read frees it too:
 * swapin_by_a_read_from_zram_frees_the_slot.)
 */
static void swapin_by_a_write_leaves_the_swap_cache(void **state)
{
	struct tb_vma *vma = swapped_out_anon(64);
	unsigned long i;

	for (i = 0; i < 64; i++)
		assert_int_equal(tb_touch(vma, i, i % 2), 0);
	assert_int_equal(tb_vma_resident(vma), 64);
	for (i = 0; i < 64; i++)
		assert_int_equal(folio_test_swapcache(tb_vma_folio(vma, i)), !(i % 2));
	assert_int_equal(tb_swap_used(), 32);
	lru_add_drain();
	assert_int_equal(tb_stat("a", "swapcached"), 32 * 4096);
	tb_assert_lrus_consistent();
}

/*
 * A page cache folio locked by someone else (a filesystem reading or
 * writing it) is passed over: shrink_folio_list()'s folio_trylock()
 * fails and the folio goes back to the LRU, neither activated nor
 * evicted. Unlocked, the next reclaim evicts it.
 */
static void locked_page_cache_folio_is_kept(void **state)
{
	struct tb_file *f = tb_file_create(64);
	struct folio *folio;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	tb_read_range(f, 64);
	lru_add_drain();
	folio = tb_file_folio(f, 3);
	assert_true(folio_trylock(folio));

	assert_write("a", "memory.reclaim", "256K", -EAGAIN);
	assert_int_equal(tb_file_cached(f), 1);
	assert_ptr_equal(tb_file_folio(f, 3), folio);
	assert_true(folio_test_lru(folio));
	assert_false(folio_test_active(folio));
	assert_int_equal(tb_stat("a", "pgsteal"), 63);
	tb_assert_lrus_consistent();

	folio_unlock(folio);
	assert_write_ok("a", "memory.reclaim", "4K");
	assert_int_equal(tb_file_cached(f), 0);
}

/*
 * MADV_FREE of 64 written anon pages: folio_mark_lazyfree() moves them to
 * the inactive file list (memory.stat's file LRU counts them; they are
 * still anon, mapped), clean and no longer swap-backed. Pages 0..7 are
 * written again. Reclaim then frees the 56 others without writing them
 * (try_to_unmap() discards a clean lazyfree folio: pglazyfreed), and
 * finds the 8 redirtied: they are mapped back and swap-backed again
 * (nr_lazyfree_fail), activated. The classic LRU leaves them on the
 * active anon list, short of its target (-EAGAIN); the multi-gen LRU's
 * next eviction in the same call swaps them out (and so does 6.1's
 * classic LRU, whose memory.reclaim asks for the whole amount in one
 * call and goes on to the active list). A page freed this way
 * reads back as a new page (a minor fault, not a swap-in).
 *
 * The multi-gen LRU of 6.12 before 6.12.115 (neither
 * mglru_sort_lets_dirty_through nor 6.1's mglru_sort_dirty_lazyfree)
 * strands 7 of the 8: the rmap walk of the first one's try_to_unmap()
 * runs lru_gen_look_around(), which moves the dirty bit of each
 * neighbour's pte to its folio (folio_mark_dirty(): a lazyfree folio is
 * anon but not swap-backed), and sort_folio() then holds back every
 * dirty folio of the file type, as page cache waiting for writeback.
 * No flusher can write them (they have no mapping), so no eviction
 * ever isolates them: memory.reclaim fails with them resident, call
 * after call, until their task unmaps them.
 */
/* 64 anon pages of "a" written, then MADV_FREE */
static struct tb_vma *lazyfree_64(void)
{
	struct tb_vma *vma;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	vma = tb_map_anon(64);
	tb_touch_range(vma, 64, true);
	lru_add_drain();
	assert_int_equal(tb_madvise(vma, MADV_FREE), 0);
	lru_add_drain();
	return vma;
}

/*
 * A lazyfree folio someone holds a reference on (get_user_pages()) while
 * its task unmaps the vma: the 63 others go with their mapping, it stays
 * on the LRU, unmapped. Reclaim can neither discard it (its reference
 * count is not the isolation's alone: folio_ref_freeze() fails) nor
 * write it (no swap-backing): kept as it is, on the inactive file list,
 * until the reference goes and with it the folio.
 */
static void lazyfree_folio_with_a_reference_is_kept_unmapped(void **state)
{
	struct tb_vma *vma = lazyfree_64();
	struct folio *folio = tb_vma_folio(vma, 0);

	TB_CLASSIC_LRU_ONLY("asserts the inactive file list the folio is put back on");
	tb_folio_get(folio);
	tb_unmap(vma);
	assert_int_equal(tb_usage("a"), 4096);
	assert_write("a", "memory.reclaim", "4K", -EAGAIN);
	assert_int_equal(tb_stat("a", "pglazyfreed"), 0);
	assert_int_equal(tb_stat("a", "pgsteal"), 0);
	assert_int_equal(tb_stat("a", "inactive_file"), 4096);
	assert_true(folio_test_lru(folio));
	assert_false(folio_test_active(folio));
	assert_int_equal(tb_swap_used(), 0);
	tb_folio_put(folio);
	assert_int_equal(tb_usage("a"), 0);
}

static void lazyfree_folios_are_freed_unwritten_unless_written_again(void **state)
{
	struct tb_vma *vma = lazyfree_64();
	unsigned long i;

	assert_int_equal(tb_stat("a", "pglazyfree"), 64);
	assert_int_equal(tb_stat("a", "anon"), 64 * 4096);
	assert_int_equal(tb_stat("a", "inactive_file"), 64 * 4096);
	for (i = 0; i < 64; i++) {
		struct folio *folio = tb_vma_folio(vma, i);

		assert_false(folio_test_swapbacked(folio));
		assert_false(folio_test_dirty(folio));
		assert_false(tb_vma_pte_young(vma, i));
	}
	for (i = 0; i < 8; i++)
		assert_int_equal(tb_touch(vma, i, true), 0);

	kshim_trace_reset();
	if (tb_lru_gen_on() && !TB_HAVE_mglru_sort_lets_dirty_through &&
	    !TB_HAVE_mglru_sort_dirty_lazyfree) {
		int round;

		for (round = 0; round < 4; round++) {
			assert_write("a", "memory.reclaim", "256K", -EAGAIN);
			assert_int_equal(tb_vma_resident(vma), 7);
			assert_int_equal(tb_vma_swapped(vma), 1);
			assert_int_equal(tb_stat("a", "pgsteal"), 57);
		}
		for (i = 1; i < 8; i++) {
			struct folio *folio = tb_vma_folio(vma, i);

			assert_false(folio_test_swapbacked(folio));
			assert_true(folio_test_dirty(folio));
			assert_true(folio_is_file_lru(folio));
		}
	} else if (tb_lru_gen_on() || !TB_HAVE_reclaim_quarter_batches) {
		if (!tb_lru_gen_on()) {
			/*
			 * 6.1's classic LRU: the 8 written again are activated
			 * in the first pass, but inactive_is_low() reads the
			 * memcg's counts as of the last rstat flush, which
			 * shrink_node() runs only once the CPUs' updates pass
			 * stats_flush_threshold: the activation is not seen,
			 * nothing is deactivated, and memory.reclaim gives up.
			 * With the counts flushed (memory.stat) a second one
			 * swaps them out. (The page tables' NR_PAGETABLE
			 * updates are what moved that flush: without them the
			 * first call flushes in time.)
			 */
			assert_write("a", "memory.reclaim", "256K", -EAGAIN);
			assert_int_equal(tb_stat("a", "active_anon"), 8 * 4096);
			assert_write_ok("a", "memory.reclaim", "32K");
		} else {
			assert_write_ok("a", "memory.reclaim", "256K");
		}
		assert_int_equal(tb_vma_resident(vma), 0);
		assert_int_equal(tb_vma_swapped(vma), 8);
		assert_int_equal(tb_stat("a", "pgsteal"), 64);
	} else {
		assert_write("a", "memory.reclaim", "256K", -EAGAIN);
		assert_int_equal(tb_vma_resident(vma), 8);
		assert_int_equal(tb_swap_used(), 0);
		assert_int_equal(tb_stat("a", "pgsteal"), 56);
		assert_int_equal(tb_stat("a", "active_anon"), 8 * 4096);
		/* try_to_unmap() left each mapped: an unmap failure */
		assert_int_equal(kshim_trace.inactive_stat.nr_unmap_fail, 8);
		for (i = 0; i < 8; i++) {
			struct folio *folio = tb_vma_folio(vma, i);

			assert_true(folio_test_swapbacked(folio));
			assert_true(folio_test_dirty(folio));
			assert_true(folio_test_active(folio));
		}
	}
	assert_int_equal(tb_stat("a", "pglazyfreed"), 56);
	assert_int_equal(kshim_vm_event_read(PGLAZYFREED), 56);
	for (i = 8; i < 64; i++)
		assert_null(tb_vma_folio(vma, i));
	/*
	 * a read of a discarded page maps the zero page (do_anonymous_page();
	 * on 6.1 the world's own fault path, which allocates)
	 */
	assert_int_equal(tb_touch(vma, 20, false), 0);
	assert_int_equal(tb_stat("a", "pgmajfault"), 0);
	if (TB_HAVE_thp_folio_split)
		assert_null(tb_vma_folio(vma, 20));
	assert_int_equal(tb_touch(vma, 20, true), 0);
	assert_non_null(tb_vma_folio(vma, 20));
	tb_assert_lrus_consistent();
}

static int setup_swappiness_200(void **state)
{
	tb_mem = (struct tb_mem_config){ .swap_pages = PAGES(64 * MB), .swappiness = 200,
					 .swappiness_set = true };
	return tb_reclaim_setup(state);
}

/*
 * vm.swappiness=200 gives page cache no share of get_scan_count()'s
 * SCAN_FRACT: a charge's reclaim scans anon until cache_trim_mode or the
 * lowest priorities turn it to the page cache. A first memory.reclaim
 * takes 51 pages of page cache; then GFP_NOIO charges past the CPU's
 * stock, at memory.max, need more than the 77 left, and their reclaim
 * goes down the priorities scanning anon: shrink_folio_list() keeps
 * every anon folio not yet in the swap cache (add_to_swap() would start
 * I/O). All the page cache is reclaimed, nothing is swapped out.
 */
static void noio_charge_at_swappiness_200_keeps_anon_and_takes_page_cache(void **state)
{
	struct tb_file *f = tb_file_create(128);
	struct folio *folios[72];	/* more than MEMCG_CHARGE_BATCH (64) */
	struct tb_vma *vma;
	unsigned int n;
	int err;

	TB_CLASSIC_LRU_ONLY("get_scan_count()'s SCAN_FRACT at swappiness 200");
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	vma = tb_map_anon(256);
	tb_touch_range(vma, 256, true);
	tb_read_range(f, 128);
	lru_add_drain();
	assert_write_ok("a", "memory.reclaim", "4K");
	assert_int_equal(tb_file_cached(f), 77);
	assert_int_equal(tb_swap_used(), 0);
	tb_limit_to_current("a");
	for (n = 0; n < ARRAY_SIZE(folios); n++) {
		folios[n] = tb_folio_charge(1, GFP_NOIO, &err);
		assert_int_equal(err, 0);
	}
	assert_int_equal(tb_swap_used(), 0);
	assert_int_equal(tb_vma_resident(vma), 256);
	assert_int_equal(tb_file_cached(f), 0);
	assert_int_equal(tb_stat("a", "pgsteal"), 128);
	assert_true(tb_stat("a", "pgscan") > 128 + 256);	/* anon scanned, kept */
	for (n = 0; n < ARRAY_SIZE(folios); n++)
		tb_folio_uncharge(folios[n]);
	tb_assert_lrus_consistent();
}

/*
 * Without a swap device the same 8 redirtied folios become active anon
 * pages, the only ones (no anon was ever activated otherwise): the
 * inactive anon list is low, yet reclaim does not age anon it could
 * never swap (can_age_anon_pages(): no swap): they stay active.
 */
static void without_swap_anon_made_active_by_reclaim_is_not_aged(void **state)
{
	struct tb_vma *vma;
	unsigned long i;
	int p;

	TB_CLASSIC_LRU_ONLY("the classic LRU's anon aging");
	vma = lazyfree_64();
	for (i = 0; i < 8; i++)
		assert_int_equal(tb_touch(vma, i, true), 0);
	assert_write("a", "memory.reclaim", "256K", -EAGAIN);
	assert_int_equal(tb_stat("a", "active_anon"), 8 * 4096);
	kshim_trace_reset();
	assert_write("a", "memory.reclaim", "256K", -EAGAIN);
	for (p = 0; p <= DEF_PRIORITY; p++)
		assert_int_equal(kshim_trace.active_taken[0][p], 0);
	assert_int_equal(tb_stat("a", "active_anon"), 8 * 4096);
	assert_int_equal(tb_stat("a", "inactive_anon"), 0);
}

/*
 * Two pages of "a" read twice, the second time on CPU 1: they stay on the
 * inactive list, queued in CPU 1's batch for activation, which holds a
 * reference to each until it is drained. memory.reclaim from CPU 0
 * drains only its own batches: shrink_inactive_list() takes both pages
 * but cannot free them (__remove_mapping() finds the batch's reference),
 * 4 calls per try (priorities 1 and 0, then again in the full memcg
 * walk's retry), 16 tries. Before the last, memory_reclaim() drains
 * every CPU: the pages are active now, the inactive list is low, one is
 * deactivated at priority 1 and freed at priority 0.
 */
static void reclaim_cannot_free_folios_queued_for_activation_on_another_cpu(void **state)
{
	struct tb_file *f = tb_file_create(2);
	struct tb_task *t;

	tb_skip_before_6_4("per-CPU batches keeping PG_lru");
	TB_CLASSIC_LRU_ONLY("shrink_inactive_list()'s isolation");
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	t = tb_run_in("a");
	tb_read_range(f, 2);
	lru_add_drain();
	assert_int_equal(tb_task_set_cpu(t, 1), 0);
	tb_read_range(f, 2);
	assert_int_equal(tb_task_set_cpu(t, 0), 0);
	kshim_trace_reset();
	assert_write_ok("a", "memory.reclaim", "4K");
	assert_int_equal(kshim_trace.shrink_inactive_count, 16 * 4 + 1);
	assert_int_equal(kshim_trace.inactive_reclaimed[1][0], 1);
	assert_int_equal(tb_stat("a", "pgsteal"), 1);
	assert_int_equal(tb_file_cached(f), 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		TB_RECLAIM_TEST(use_once_page_cache_goes_before_mapped_pages_in_use),
		TB_RECLAIM_TEST(refault_within_workingset_is_activated),
		TB_RECLAIM_TEST(refault_beyond_workingset_stays_inactive),
		TB_RECLAIM_SWAP_TEST(swappiness_0_reclaims_only_page_cache),
		TB_RECLAIM_SWAP_TEST(swappiness_200_spares_page_cache_in_use),
		TB_RECLAIM_SWAP_TEST(inactive_page_cache_is_trimmed_before_anon_at_any_swappiness),
		TB_RECLAIM_SWAP_TEST(stale_memcg_lru_sizes_miss_cache_trim_mode),
		TB_RECLAIM_TEST(no_swap_device_means_no_anon_scan),
		TB_RECLAIM_TEST_ON(full_swap_stops_anon_reclaim, setup_small_swap),
		TB_RECLAIM_TEST(unevictable_page_cache_is_rescued_on_unlock),
		TB_RECLAIM_TEST(page_cache_never_culled_is_not_rescued_on_unlock),
		TB_RECLAIM_TEST(isolated_folio_leaves_its_lru_until_put_back),
		TB_RECLAIM_TEST(reclaim_cannot_free_folios_queued_for_activation_on_another_cpu),
		TB_RECLAIM_TEST(without_swap_anon_made_active_by_reclaim_is_not_aged),
		TB_RECLAIM_SWAP_TEST(memory_stat_matches_the_lru_lists),
		TB_RECLAIM_TEST_ON(swap_of_fewer_slots_than_a_batch_is_filled_by_the_classic_lru_only, setup_swap_of_48),
		TB_RECLAIM_SWAP_TEST(anon_folio_with_a_reference_is_unmapped_but_not_written),
		TB_RECLAIM_TEST_ON(swapin_by_a_write_leaves_the_swap_cache, setup_swap_disk),
		TB_RECLAIM_SWAP_TEST(swapin_by_a_read_from_zram_frees_the_slot),
		TB_RECLAIM_TEST_ON(swapin_by_a_read_from_a_disk_keeps_the_swap_cache_copy, setup_swap_disk),
		TB_RECLAIM_SWAP_TEST(read_of_a_zram_page_found_in_the_swap_cache_keeps_the_copy_until_7x),
		TB_RECLAIM_TEST(locked_page_cache_folio_is_kept),
		TB_RECLAIM_SWAP_TEST(lazyfree_folios_are_freed_unwritten_unless_written_again),
		TB_RECLAIM_SWAP_TEST(lazyfree_folio_with_a_reference_is_kept_unmapped),
		TB_RECLAIM_TEST_ON(noio_charge_at_swappiness_200_keeps_anon_and_takes_page_cache, setup_swappiness_200),
	};

	return TB_RUN(tests);
}
