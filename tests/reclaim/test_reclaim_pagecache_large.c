// SPDX-License-Identifier: GPL-2.0-only
/*
 * Large page-cache folios and the kernel's readahead: a file that opts in
 * (tb_file_set_readahead(), tb_file_set_large_folios()) is read through
 * mm/readahead.c, whose windows and folio orders are the tree's, and its
 * folios enter and leave the page cache through mm/filemap.c: one
 * multi-index entry each, counted by pages, evicted whole into one shadow
 * entry, written back whole; a fault maps them through mm/memory.c's
 * do_read_fault(): fault-around's ptes, or a PMD-sized folio by its pmd.
 */
#include <linux/kernel.h>
#include <linux/errno.h>
#include <linux/mm.h>
#include <linux/vmstat.h>
#include <linux/swap.h>
#include <linux/pagemap.h>
#include <linux/rmap.h>
#include <linux/writeback.h>
#include <sys/mman.h>
#include "tb_reclaim.h"

/* the block layer's default window: VM_READAHEAD_PAGES (128 KiB) */
#define RA_PAGES 32

/* a file of nr pages read ahead by the default window, with large folios or not */
static struct tb_file *ra_file(unsigned long nr, bool large)
{
	struct tb_file *f = tb_file_create(nr);

	assert_non_null(f);
	assert_int_equal(tb_file_set_readahead(f, RA_PAGES), 0);
	if (large)
		assert_int_equal(tb_file_set_large_folios(f), 0);
	return f;
}

/* "index:order" of each folio cached in [0, n), in index order */
static const char *layout(struct tb_file *f, unsigned long n)
{
	static char buf[1024];
	size_t len = 0;
	unsigned long i = 0;

	buf[0] = '\0';
	while (i < n && len < sizeof(buf) - 16) {
		struct folio *folio = tb_file_folio(f, i);

		if (!folio) {
			i++;
			continue;
		}
		len += snprintf(buf + len, sizeof(buf) - len, "%s%lu:%u", len ? " " : "",
				folio->index, folio_order(folio));
		i = folio->index + folio_nr_pages(folio);
	}
	return buf;
}

static void read_pages_seq(struct tb_file *f, unsigned long from, unsigned long to)
{
	unsigned long i;

	for (i = from; i < to; i++)
		assert_int_equal(tb_file_read(f, i), 0);
}

/* the folio of index, which must be cached */
static struct folio *cached(struct tb_file *f, unsigned long index)
{
	struct folio *folio = tb_file_folio(f, index);

	assert_non_null(folio);
	return folio;
}

/* the smallest order of the folios cached in [from, to) */
static unsigned int smallest_order(struct tb_file *f, unsigned long from, unsigned long to)
{
	unsigned int order = MAX_PAGECACHE_ORDER;
	unsigned long i = from;

	while (i < to) {
		struct folio *folio = tb_file_folio(f, i);

		if (!folio) {
			i++;
			continue;
		}
		order = min(order, folio_order(folio));
		i = folio->index + folio_nr_pages(folio);
	}
	return order;
}

/*
 * A sequential read: each asynchronous window starts as the reader
 * reaches the folio marked PG_readahead, and page_cache_ra_order() raises
 * the order by 2 a window, each folio aligned to its order and none
 * beyond the window (so the window's last folios are smaller)
 */
static void sequential_read_grows_folio_orders(void **state)
{
	struct tb_file *f = ra_file(256, true);
	struct tb_mem_stats st;

	tb_run_in("/");
	read_pages_seq(f, 0, 64);
#if TB_HAVE_ra_order_in_state
	/*
	 * the first window at order 0 (ra->order reset by the synchronous
	 * read); each later one 2 orders up, its end cut to that alignment
	 */
	assert_string_equal(layout(f, 256),
			    "0:0 1:0 2:0 3:0 4:2 8:2 12:2 16:3 24:3 32:4 48:4 64:5");
#else
	/* the first window already at order 2 (0 + 2, at most ilog2 of its size) */
	assert_string_equal(layout(f, 256),
			    "0:2 4:2 8:2 12:2 16:3 24:2 28:2 32:4 48:3 56:2 60:2 "
			    "64:4 80:3 88:2 92:2 96:4 112:3 120:2");
#endif
	/* one read waited for the disk: the rest was read ahead */
	tb_mem_stats(&st);
	assert_int_equal(st.major_file, 1);
}

/*
 * A window charged over memory.max reclaims room for its folios: they are
 * charged with the mapping's gfp mask (readahead_gfp_mask(): the inode's
 * GFP_HIGHUSER_MOVABLE, __GFP_NORETRY), which may block, so the older
 * folios go and the window stays whole at its order. Every read after the
 * first is served from a window (one miss); a failed charge would have cut
 * the window short and read on in order 0, each miss starting over at
 * order 0.
 */
static void readahead_over_memory_max_reclaims_and_keeps_its_folios_large(void **state)
{
	struct tb_file *f = ra_file(1024, true);
	struct tb_mem_stats st;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	assert_write_ok("a", "memory.max", "512K");
	tb_run_in("a");
	read_pages_seq(f, 0, 1024);
	assert_true(tb_cgroup_read_key("a", "memory.events", "max") > 0);
	assert_true(tb_file_cached(f) <= 128);
	/*
	 * what is left past the first windows (order 0 on trees that restart
	 * a synchronous read at order 0) is the last windows, whole
	 */
	assert_true(smallest_order(f, 64, 1024) >= 2);
	tb_mem_stats(&st);
	assert_int_equal(st.major_file, 1);
}

/* a file without large folios: page_cache_ra_order() falls back to order 0 */
static void file_without_large_folios_reads_the_window_in_order_0(void **state)
{
	struct tb_file *f = ra_file(256, false);
	struct tb_mem_stats st;

	tb_run_in("/");
	/* get_init_ra_size(1, 32): 4 pages, the second marked for readahead */
	read_pages_seq(f, 0, 1);
	assert_string_equal(layout(f, 256), "0:0 1:0 2:0 3:0");
	assert_true(folio_test_readahead(cached(f, 1)));
	/* reaching it reads the next window, twice as large */
	read_pages_seq(f, 1, 2);
	assert_int_equal(tb_file_cached(f), 12);
	assert_false(folio_test_readahead(cached(f, 1)));
	read_pages_seq(f, 2, 256);
	assert_int_equal(tb_file_cached(f), 256);
	assert_int_equal(folio_order(cached(f, 255)), 0);
	tb_mem_stats(&st);
	assert_int_equal(st.major_file, 1);
}

/* a file left alone reads one page a miss, as before readahead was modelled */
static void file_without_readahead_reads_one_page_a_miss(void **state)
{
	struct tb_file *f = tb_file_create(64);
	struct tb_mem_stats st;

	tb_run_in("/");
	read_pages_seq(f, 0, 8);
	assert_int_equal(tb_file_cached(f), 8);
	tb_mem_stats(&st);
	assert_int_equal(st.major_file, 8);
}

/* the largest folio cached in [0, n) */
static struct folio *largest(struct tb_file *f, unsigned long n)
{
	struct folio *best = NULL;
	unsigned long i;

	for (i = 0; i < n; i++) {
		struct folio *folio = tb_file_folio(f, i);

		if (folio && (!best || folio_order(folio) > folio_order(best)))
			best = folio;
	}
	assert_non_null(best);
	return best;
}

/*
 * memory.stat's file counts pages (NR_FILE_PAGES by folio_nr_pages());
 * reclaim takes a large folio whole and leaves one shadow entry over its
 * range (page_cache_delete()); reading it again is a refault of all its
 * pages (workingset_refault())
 */
static void reclaim_evicts_a_large_folio_whole_and_a_read_refaults_it(void **state)
{
	struct tb_file *f = ra_file(256, true);
	struct folio *folio;
	unsigned long index, nr, i;
	char amount[32];

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	read_pages_seq(f, 0, 128);
	assert_int_equal(tb_stat("a", "file"), tb_file_cached(f) * 4096);
	folio = largest(f, 128);
	index = folio->index;
	nr = folio_nr_pages(folio);
	assert_true(nr >= 16);
	snprintf(amount, sizeof(amount), "%lu", tb_file_cached(f) * 4096);
	assert_write_ok("a", "memory.reclaim", amount);
	assert_int_equal(tb_file_cached(f), 0);
	assert_int_equal(tb_stat("a", "file"), 0);
	for (i = index; i < index + nr; i++)
		assert_true(xa_is_value(xa_load(&tb_file_mapping(f)->i_pages, i)));
	assert_int_equal(tb_stat("a", "workingset_refault_file"), 0);
	assert_int_equal(tb_file_read(f, index), 0);
	/* the new window from index: the refaulting pages counted as refaults */
	assert_true(tb_stat("a", "workingset_refault_file") >= 1);
	assert_int_equal(tb_stat("a", "file"), tb_file_cached(f) * 4096);
}

/* a dirty large folio: one write() dirties it whole, the flushers write it whole */
static void dirty_large_folio_is_written_back_whole(void **state)
{
	struct tb_file *f = ra_file(256, true);
	struct pglist_data *pgdat = NODE_DATA(0);
	struct folio *folio;
	unsigned long nr;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	read_pages_seq(f, 0, 64);
	folio = largest(f, 64);
	nr = folio_nr_pages(folio);
	assert_int_equal(tb_file_write(f, folio->index + 1), 0);
	assert_int_equal(tb_file_dirty(f), 1);
	assert_int_equal(node_page_state(pgdat, NR_FILE_DIRTY), nr);
	assert_int_equal(tb_stat("a", "file_dirty"), nr * 4096);
	wakeup_flusher_threads(WB_REASON_SYNC);
	assert_int_equal(node_page_state(pgdat, NR_FILE_DIRTY), 0);
	assert_int_equal(node_page_state(pgdat, NR_WRITEBACK), nr);
	assert_int_equal(tb_writeback_inflight(), 1);
	schedule_timeout(HZ);
	assert_int_equal(tb_writeback_inflight(), 0);
	assert_int_equal(node_page_state(pgdat, NR_WRITTEN), nr);
}

/* truncate: every folio, of every order, leaves the cache and its charge */
static void truncating_frees_every_folio(void **state)
{
	struct tb_file *f = ra_file(256, true);
	struct pglist_data *pgdat = NODE_DATA(0);

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	read_pages_seq(f, 0, 256);
	assert_int_equal(tb_file_cached(f), 256);
	assert_int_equal(node_page_state(pgdat, NR_FILE_PAGES), 256);
	tb_file_destroy(f);
	assert_int_equal(node_page_state(pgdat, NR_FILE_PAGES), 0);
	assert_int_equal(tb_stat("a", "file"), 0);
	assert_int_equal(tb_usage("a"), 0);
}

/*
 * A fault in a VM_HUGEPAGE mapping reads PMD-sized folios
 * (do_sync_mmap_readahead(): the aligned PMD and, the mapping not
 * MADV_RANDOM, the next one): NR_FILE_THPS and memory.stat file_thp count
 * them. finish_fault() maps the faulting one by its pmd (do_set_pmd(): the
 * pmd had no pte table), old as x86 installs it and made young by the
 * MMU's access: one mapping of the folio, 512 pages of the task's file
 * rss, THP_FILE_MAPPED and NR_FILE_PMDMAPPED. The rmap finds the young
 * pmd (folio_referenced()); the unmap zaps it (zap_huge_pmd()).
 */
static void huge_mapping_fault_maps_a_pmd_folio_by_its_pmd(void **state)
{
	struct tb_file *f = ra_file(2048, true);
	struct pglist_data *pgdat = NODE_DATA(0);
	unsigned long mapped = kshim_vm_event_read(THP_FILE_MAPPED);
	struct tb_vma *vma;
	struct folio *folio;
	unsigned long vm_flags;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	vma = tb_map_file(f);
	assert_non_null(vma);
	assert_int_equal(tb_madvise(vma, MADV_HUGEPAGE), 0);
	assert_int_equal(tb_touch(vma, 700, false), 0);
	folio = cached(f, 700);
	assert_int_equal(folio_order(folio), HPAGE_PMD_ORDER);
	assert_int_equal(folio->index, 512);
	assert_int_equal(folio_order(cached(f, 1024)), HPAGE_PMD_ORDER);
	assert_int_equal(tb_file_cached(f), 2 * HPAGE_PMD_NR);
	assert_int_equal(node_page_state(pgdat, NR_FILE_THPS), 2 * HPAGE_PMD_NR);
	assert_int_equal(tb_stat("a", "file_thp"), 4 * MB);
	/* one pmd maps all of it */
	assert_int_equal(folio_mapcount(folio), 1);
	assert_int_equal(kshim_vm_event_read(THP_FILE_MAPPED) - mapped, 1);
	assert_int_equal(node_page_state(pgdat, NR_FILE_PMDMAPPED), HPAGE_PMD_NR);
	assert_int_equal(tb_vma_resident(vma), HPAGE_PMD_NR);
	assert_true(tb_vma_pte_young(vma, 1023));
	/* the rest of it is mapped: no other fault */
	assert_int_equal(tb_touch(vma, 1023, false), 0);
	assert_int_equal(tb_stat("a", "pgfault"), 1);
	/* as reclaim asks it: of a folio it has taken off the LRU */
	lru_add_drain();
	assert_true(folio_isolate_lru(folio));
	folio_lock(folio);
	assert_int_equal(folio_referenced(folio, 1, NULL, &vm_flags), 1);
	assert_false(tb_vma_pte_young(vma, 700));
	assert_int_equal(folio_referenced(folio, 1, NULL, &vm_flags), 0);
	folio_unlock(folio);
	folio_putback_lru(folio);
	tb_unmap(vma);
	assert_int_equal(node_page_state(pgdat, NR_FILE_PMDMAPPED), 0);
	assert_false(folio_mapped(folio));
	assert_int_equal(tb_file_cached(f), 2 * HPAGE_PMD_NR);
}

/*
 * A fault where a PMD-sized folio is already cached maps it by its pmd
 * through fault-around (filemap_map_pages()'s filemap_map_pmd()), a minor
 * fault; a mapping that is not VM_HUGEPAGE maps it the same way, the file's
 * large folios being the page cache's and not the fault's
 */
static void fault_on_a_cached_pmd_folio_maps_it_by_its_pmd(void **state)
{
	struct tb_file *f = ra_file(2048, true);
	unsigned long mapped = kshim_vm_event_read(THP_FILE_MAPPED);
	struct tb_vma *vma, *plain;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	vma = tb_map_file(f);
	assert_int_equal(tb_madvise(vma, MADV_HUGEPAGE), 0);
	assert_int_equal(tb_touch(vma, 0, false), 0);
	/* read ahead with it: the next PMD's folio */
	assert_int_equal(folio_order(cached(f, HPAGE_PMD_NR)), HPAGE_PMD_ORDER);
	assert_int_equal(tb_touch(vma, HPAGE_PMD_NR + 3, false), 0);
	assert_int_equal(tb_stat("a", "pgmajfault"), 1);
	assert_int_equal(tb_stat("a", "pgfault"), 2);
	assert_int_equal(kshim_vm_event_read(THP_FILE_MAPPED) - mapped, 2);
	plain = tb_map_file(f);
	assert_int_equal(tb_touch(plain, 5, false), 0);
	assert_int_equal(tb_vma_resident(plain), HPAGE_PMD_NR);
	assert_int_equal(folio_mapcount(cached(f, 0)), 2);
	assert_int_equal(tb_stat("a", "pgmajfault"), 1);
	tb_unmap(plain);
	tb_unmap(vma);
}

/*
 * MADV_PAGEOUT of part of a large file folio mapped by ptes splits it
 * (madvise_cold_or_pageout_pte_range()'s split_folio(), the page cache's
 * multi-index entry split with it), and the split unmaps every page of a
 * file folio without mapping them again (unmap_folio(): "file pages can
 * simply be left unmapped, then faulted back on demand"). The walk then
 * resumes at the same address, finds its ptes none, and isolates nothing:
 * the call splits and unmaps the folio, and pages none of it out. The
 * next access maps the small folios again, a minor fault.
 */
static void madv_pageout_of_part_of_a_large_file_folio_only_splits_and_unmaps_it(void **state)
{
	struct tb_file *f = ra_file(256, true);
	unsigned long start, nr, i, cached_before;
	struct folio *folio;
	struct tb_vma *vma;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	read_pages_seq(f, 0, 64);
	folio = cached(f, 16);
	start = folio->index;
	nr = folio_nr_pages(folio);
	assert_true(nr >= 4 && nr <= 16);
	vma = tb_map_file(f);
	assert_int_equal(tb_touch(vma, start, false), 0);
	assert_int_equal(folio_mapcount(folio), nr);
	cached_before = tb_file_cached(f);
	lru_add_drain();
	assert_int_equal(tb_madvise_range(vma, start, nr / 2, MADV_PAGEOUT), 0);
	for (i = start; i < start + nr; i++) {
		assert_int_equal(folio_order(cached(f, i)), 0);
		assert_false(folio_mapped(cached(f, i)));
	}
	assert_int_equal(tb_file_cached(f), cached_before);
	assert_int_equal(tb_stat("a", "pgsteal"), 0);
	assert_int_equal(tb_stat("a", "pgmajfault"), 0);
	assert_int_equal(tb_touch(vma, start, false), 0);
	assert_int_equal(tb_stat("a", "pgmajfault"), 0);
	assert_true(folio_mapped(cached(f, start)));
	tb_unmap(vma);
}

/*
 * Reclaim of a PMD-mapped file folio: try_to_unmap()'s TTU_SPLIT_HUGE_PMD
 * zaps the file pmd (__split_huge_pmd() of a file vma maps no ptes in its
 * place), then the clean folio is evicted whole; the next fault reads it
 * again and maps it by its pmd again
 */
static void reclaim_unmaps_a_pmd_mapped_file_folio_and_evicts_it(void **state)
{
	struct tb_file *f = ra_file(2048, true);
	struct pglist_data *pgdat = NODE_DATA(0);
	struct tb_vma *vma;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	vma = tb_map_file(f);
	assert_int_equal(tb_madvise(vma, MADV_HUGEPAGE), 0);
	assert_int_equal(tb_touch(vma, 700, false), 0);
	assert_int_equal(node_page_state(pgdat, NR_FILE_PMDMAPPED), HPAGE_PMD_NR);
	tb_cgroup_write_str("a", "memory.reclaim", "4M");
	assert_int_equal(node_page_state(pgdat, NR_FILE_PMDMAPPED), 0);
	assert_int_equal(tb_vma_resident(vma), 0);
	assert_null(tb_file_folio(f, 700));
	assert_int_equal(tb_stat("a", "file_mapped"), 0);
	assert_int_equal(tb_touch(vma, 700, false), 0);
	assert_int_equal(tb_stat("a", "pgmajfault"), 2);
	assert_int_equal(node_page_state(pgdat, NR_FILE_PMDMAPPED), HPAGE_PMD_NR);
	tb_unmap(vma);
}

/*
 * Fault-around (do_fault_around(), fault_around_bytes 64K): a read fault
 * maps every cached, uptodate page of the faulting page's aligned 16-page
 * window, each by its pte, old but the faulting one; a fault in the window
 * after it is no fault at all, a page not cached is left for its own fault
 */
static void read_fault_maps_the_cached_pages_of_its_window(void **state)
{
	struct tb_file *f = tb_file_create(64);
	struct tb_vma *vma;
	unsigned long i;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	for (i = 0; i < 64; i++)
		if (i != 9)
			assert_int_equal(tb_file_read(f, i), 0);
	vma = tb_map_file(f);
	assert_int_equal(tb_touch(vma, 5, false), 0);
	assert_int_equal(tb_vma_resident(vma), 15);
	assert_true(tb_vma_pte_young(vma, 5));
	assert_false(tb_vma_pte_young(vma, 4));
	assert_false(tb_vma_pte_young(vma, 15));
	assert_int_equal(tb_stat("a", "pgfault"), 1);
	assert_int_equal(tb_stat("a", "pgmajfault"), 0);
	assert_int_equal(tb_touch(vma, 15, false), 0);
	assert_int_equal(tb_stat("a", "pgfault"), 1);
	/* page 9 was not cached: its own fault reads it */
	assert_int_equal(tb_touch(vma, 9, false), 0);
	assert_int_equal(tb_stat("a", "pgfault"), 2);
	assert_int_equal(tb_stat("a", "pgmajfault"), 1);
	assert_int_equal(tb_vma_resident(vma), 16);
	/* the next window */
	assert_int_equal(tb_touch(vma, 40, false), 0);
	assert_int_equal(tb_vma_resident(vma), 32);
	tb_unmap(vma);
}

/*
 * Fault-around maps a large folio's pages in the window by their ptes
 * (filemap_map_folio_range()): one mapping of the folio per pte
 */
static void fault_around_maps_a_large_folio_by_its_ptes(void **state)
{
	struct tb_file *f = ra_file(256, true);
	struct folio *folio;
	struct tb_vma *vma;

	tb_run_in("/");
	read_pages_seq(f, 0, 64);
	folio = cached(f, 16);
	assert_true(folio_test_large(folio));
	vma = tb_map_file(f);
	assert_int_equal(tb_touch(vma, folio->index, false), 0);
	assert_int_equal(folio_mapcount(folio), min_t(long, folio_nr_pages(folio), 16));
	tb_unmap(vma);
	assert_false(folio_mapped(folio));
}

/*
 * MADV_WILLNEED of a file mapping is force_page_cache_ra() over the
 * vma's pages: at most the device's window (max of io_pages and
 * ra_pages), in 2 MiB chunks, each by page_cache_ra_unbounded() in the
 * mapping's smallest order, with no readahead mark; a later fault in the
 * range finds its page
 */
static void madv_willneed_reads_the_devices_window_in_order_0(void **state)
{
	struct tb_file *f = ra_file(256, true);
	struct tb_mem_stats st;
	struct tb_vma *vma;
	unsigned long i;

	tb_run_in("/");
	vma = tb_map_file(f);
	assert_non_null(vma);
	assert_int_equal(tb_madvise(vma, MADV_WILLNEED), 0);
	assert_int_equal(tb_file_cached(f), RA_PAGES);
	for (i = 0; i < RA_PAGES; i++) {
		assert_int_equal(folio_order(cached(f, i)), 0);
		assert_false(folio_test_readahead(cached(f, i)));
	}
	assert_null(tb_file_folio(f, RA_PAGES));
	assert_int_equal(tb_touch(vma, RA_PAGES - 1, false), 0);
	tb_mem_stats(&st);
	assert_int_equal(st.major_file, 0);
	/* of part of the vma: the pages of that part, fewer than the window */
	assert_int_equal(tb_madvise_range(vma, 100, 4, MADV_WILLNEED), 0);
	assert_int_equal(tb_file_cached(f), RA_PAGES + 4);
	assert_non_null(tb_file_folio(f, 103));
	assert_null(tb_file_folio(f, 104));
	tb_unmap(vma);
}

/*
 * readahead(2) is vfs_fadvise()'s POSIX_FADV_WILLNEED of the byte range
 * (ksys_readahead()): the pages it touches, at most the device's window,
 * in the mapping's smallest order, with no readahead mark; a read of one
 * of them then hits
 */
static void readahead_syscall_reads_the_range_up_to_the_window(void **state)
{
	struct tb_file *f = ra_file(256, true);

	tb_run_in("/");
	assert_int_equal(tb_file_readahead(f, 10 * PAGE_SIZE + 100, 4 * PAGE_SIZE), 0);
	assert_int_equal(tb_file_cached(f), 5);
	assert_non_null(tb_file_folio(f, 10));
	assert_non_null(tb_file_folio(f, 14));
	assert_null(tb_file_folio(f, 15));
	assert_false(folio_test_readahead(cached(f, 12)));
	assert_int_equal(tb_file_readahead(f, 64 * PAGE_SIZE, 128 * PAGE_SIZE), 0);
	assert_int_equal(tb_file_cached(f), 5 + RA_PAGES);
	assert_int_equal(tb_file_readahead(f, -1, PAGE_SIZE), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		TB_RECLAIM_TEST(sequential_read_grows_folio_orders),
		TB_RECLAIM_TEST(file_without_large_folios_reads_the_window_in_order_0),
		TB_RECLAIM_TEST(file_without_readahead_reads_one_page_a_miss),
		TB_RECLAIM_TEST(reclaim_evicts_a_large_folio_whole_and_a_read_refaults_it),
		TB_RECLAIM_TEST(dirty_large_folio_is_written_back_whole),
		TB_RECLAIM_TEST(truncating_frees_every_folio),
		TB_RECLAIM_TEST(huge_mapping_fault_maps_a_pmd_folio_by_its_pmd),
		TB_RECLAIM_TEST(fault_on_a_cached_pmd_folio_maps_it_by_its_pmd),
		TB_RECLAIM_TEST(reclaim_unmaps_a_pmd_mapped_file_folio_and_evicts_it),
		TB_RECLAIM_TEST(madv_pageout_of_part_of_a_large_file_folio_only_splits_and_unmaps_it),
		TB_RECLAIM_TEST(read_fault_maps_the_cached_pages_of_its_window),
		TB_RECLAIM_TEST(fault_around_maps_a_large_folio_by_its_ptes),
		TB_RECLAIM_TEST(readahead_over_memory_max_reclaims_and_keeps_its_folios_large),
		TB_RECLAIM_TEST(madv_willneed_reads_the_devices_window_in_order_0),
		TB_RECLAIM_TEST(readahead_syscall_reads_the_range_up_to_the_window),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
