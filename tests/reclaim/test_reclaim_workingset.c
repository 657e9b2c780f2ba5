// SPDX-License-Identifier: GPL-2.0-only
/*
 * mm/workingset.c on the classic active/inactive LRU: what the shadow
 * entry of an evicted page remembers (node, memcg, the lruvec's
 * nonresident age, whether the page was in the workingset) and how
 * workingset_test_recent() weighs a refault against the lists that make
 * up the workingset (active file; inactive file for anon; anon while swap
 * is free). Each case reads the memcg's counters and lists after the
 * refault: workingset_refault/activate/restore, the lruvec's nonresident
 * age and its reclaim cost.
 */
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/mm_inline.h>
#include <linux/memcontrol.h>
#include <linux/swap.h>
#include <linux/vmstat.h>
#include "tb_reclaim.h"

static struct lruvec *lruvec_on(const char *path, int nid)
{
	return mem_cgroup_lruvec(tb_memcg(path), NODE_DATA(nid));
}

static long nonresident_age(const char *path, int nid)
{
	return atomic_long_read(&lruvec_on(path, nid)->nonresident_age);
}

/* read twice: folio_mark_accessed() activates each page (and ages the lruvec) */
static void read_twice(struct tb_file *f, unsigned long n)
{
	tb_read_range(f, n);
	tb_read_range(f, n);
	lru_add_drain();
}

/* read again, once, every page of f [0, n) that is not in the cache; how many */
static unsigned long reread_evicted(struct tb_file *f, unsigned long n)
{
	unsigned long i, nr = 0;

	for (i = 0; i < n; i++) {
		if (tb_file_folio(f, i))
			continue;
		assert_int_equal(tb_file_read(f, i), 0);
		nr++;
	}
	lru_add_drain();
	return nr;
}

/*
 * path holds hot (512 pages, active) and cold (64 pages read once);
 * memory.reclaim of 256K takes cold, the inactive tail. The case of
 * test_reclaim_lru's refault_within_workingset_is_activated.
 */
static void evict_cold_beside_hot(const char *path, struct tb_file *hot, struct tb_file *cold)
{
	read_twice(hot, 512);
	assert_int_equal(tb_stat(path, "active_file"), 512 * 4096);
	tb_read_range(cold, 64);
	assert_write_ok(path, "memory.reclaim", "256K");
	assert_int_equal(tb_file_cached(cold), 0);
}

/*
 * A page evicted from the inactive list without ever being active is no
 * workingset page: its refault within the active list's size activates
 * it (workingset_activate) but restores nothing, and the activation ages
 * the lruvec by the refaulted pages, as any activation does.
 */
static void refault_of_a_page_never_active_is_activated_but_not_restored(void **state)
{
	struct tb_file *hot = tb_file_create(512), *cold = tb_file_create(64);
	long age;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	evict_cold_beside_hot("a", hot, cold);
	age = nonresident_age("a", 0);
	assert_int_equal(reread_evicted(cold, 64), 64);
	assert_int_equal(tb_stat("a", "workingset_refault_file"), 64);
	assert_int_equal(tb_stat("a", "workingset_activate_file"), 64);
	assert_int_equal(tb_stat("a", "workingset_restore_file"), 0);
	assert_int_equal(nonresident_age("a", 0), age + 64);
	assert_true(folio_test_active(tb_file_folio(cold, 0)));
	assert_false(folio_test_workingset(tb_file_folio(cold, 0)));
}

/*
 * Reclaim of a memcg whose page cache is all active deactivates part of
 * it (shrink_active_list() sets PG_workingset on each page it moves) and
 * evicts those: their shadows say "workingset". Read again within the
 * workingset, each is activated and restored (workingset_restore), and
 * workingset_refault() charges the refault to the file list's reclaim
 * cost (lru_note_cost_refault(): SWAP_CLUSTER_MAX per page; 7.3: the
 * next reclaim does, from the restores counted).
 */
static void refault_of_a_deactivated_workingset_page_is_restored(void **state)
{
	struct tb_file *hot = tb_file_create(512);
	struct lruvec *lruvec;
	unsigned long evicted, first;
	long age;

#if TB_BEFORE_6_4
	tb_skip("asserts 6.12's refault rules; the 6.1 tree's differ and are not followed yet");
#endif
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	read_twice(hot, 512);
	assert_write_ok("a", "memory.reclaim", "512K");
	evicted = 512 - tb_file_cached(hot);
	assert_true(evicted >= 128);
	lruvec = lruvec_on("a", 0);
	age = nonresident_age("a", 0);
	/* no IO and no rotation in that reclaim: the costs are 0 */
	assert_int_equal(tb_file_cost(lruvec) + tb_anon_cost(lruvec), 0);
	tb_stat("a", "file");
	assert_true(lruvec_page_state(lruvec, NR_ACTIVE_FILE) +
		    lruvec_page_state(lruvec, NR_INACTIVE_FILE) > 4 * SWAP_CLUSTER_MAX);

	/* the first refault: one page of IO, below a quarter of the LRU, no decay */
	for (first = 0; tb_file_folio(hot, first); first++)
		;
	assert_int_equal(tb_file_read(hot, first), 0);
#if TB_HAVE_lru_note_cost
	assert_int_equal(tb_file_cost(lruvec), SWAP_CLUSTER_MAX);
#else
	/*
	 * 7.3 (!lru_note_cost): the refault is counted as a restore only;
	 * the next reclaim's prepare_scan_control() charges the file cost
	 * SWAP_CLUSTER_MAX for each restore since its last look
	 */
	assert_int_equal(tb_file_cost(lruvec), 0);
#endif
	assert_int_equal(tb_anon_cost(lruvec), 0);
	assert_int_equal(tb_stat("a", "workingset_restore_file"), 1);
#if !TB_HAVE_lru_note_cost
	/* (flushed by tb_stat()) the count the next reclaim reads */
	assert_int_equal(lruvec_page_state(lruvec, WORKINGSET_RESTORE_FILE), 1);
#endif

	assert_int_equal(reread_evicted(hot, 512), evicted - 1);
	assert_int_equal(tb_stat("a", "workingset_refault_file"), evicted);
	assert_int_equal(tb_stat("a", "workingset_activate_file"), evicted);
	assert_int_equal(tb_stat("a", "workingset_restore_file"), evicted);
	assert_true(folio_test_workingset(tb_file_folio(hot, first)));
	assert_true(folio_test_active(tb_file_folio(hot, first)));
	assert_int_equal(nonresident_age("a", 0), age + evicted);
}

/*
 * Activations count in a refault's distance: pages activated between an
 * eviction and its refault (another file read twice, then deleted, so the
 * active list is back to its size) push the refault beyond the
 * workingset, and it is not activated.
 */
static void activations_after_an_eviction_push_its_refault_beyond_the_workingset(void **state)
{
	struct tb_file *hot = tb_file_create(512), *cold = tb_file_create(64);
	struct tb_file *other = tb_file_create(1024);
	long age;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	evict_cold_beside_hot("a", hot, cold);
	age = nonresident_age("a", 0);
	read_twice(other, 1024);
	assert_int_equal(nonresident_age("a", 0), age + 1024);
	tb_file_destroy(other);

	assert_int_equal(reread_evicted(cold, 64), 64);
	assert_int_equal(tb_stat("a", "workingset_refault_file"), 64);
	assert_int_equal(tb_stat("a", "workingset_activate_file"), 0);
}

/*
 * The shadow names the node: a refault on node 1 is measured against
 * node 1's lruvec of the memcg (node 0's has seen nothing), and a page
 * that was never active comes back activated but not restored.
 */
static int setup_2_nodes(void **state)
{
	tb_world.nr_nodes = 2;
	tb_mem.ram_pages = PAGES(32 * MB);
	return tb_reclaim_setup(state);
}

static void refault_on_another_node_is_measured_on_that_nodes_lruvec(void **state)
{
	struct tb_file *hot = tb_file_create(512), *cold = tb_file_create(64);
	struct tb_task *t;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	t = tb_run_in("a");
	assert_int_equal(tb_task_bind_node(t, 1), 0);
	evict_cold_beside_hot("a", hot, cold);
	assert_int_equal(nonresident_age("a", 0), 0);

	assert_int_equal(reread_evicted(cold, 64), 64);
	assert_int_equal(folio_nid(tb_file_folio(cold, 0)), 1);
	assert_int_equal(tb_stat("a", "workingset_refault_file"), 64);
	assert_int_equal(tb_stat("a", "workingset_activate_file"), 64);
	assert_int_equal(tb_stat("a", "workingset_restore_file"), 0);
	assert_int_equal(nonresident_age("a", 0), 0);
}

/*
 * The shadow names the memcg that evicted the page: "b" (the second memcg
 * made, an odd id) refaults within its own workingset and is activated,
 * whatever "a" (empty) holds.
 */
static void refault_is_measured_on_the_lruvec_of_the_memcg_that_evicted_it(void **state)
{
	struct tb_file *hot = tb_file_create(512), *cold = tb_file_create(64);

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	assert_int_equal(tb_cgroup_mkdir("b"), 0);
	assert_int_equal(tb_memcg_private_id(tb_memcg("b")) & 1, 1);
	tb_run_in("b");
	evict_cold_beside_hot("b", hot, cold);
	assert_int_equal(reread_evicted(cold, 64), 64);
	assert_int_equal(tb_stat("b", "workingset_refault_file"), 64);
	assert_int_equal(tb_stat("b", "workingset_activate_file"), 64);
	assert_int_equal(nonresident_age("a", 0), 0);
}

/*
 * The memcg that evicted a page may be gone when it refaults: its id no
 * longer finds it (tb_memcg_from_private_id()), and the refault counts as one
 * (in the memcg it is charged to now) but is never activated, though the
 * deleted memcg's lists, still in its parent's, would have held it.
 */
static void refault_of_a_page_evicted_by_a_deleted_memcg_is_not_activated(void **state)
{
	struct tb_file *hot = tb_file_create(512), *cold = tb_file_create(64);
	struct tb_task *t;

#if TB_BEFORE_6_4
	tb_skip("asserts 6.12's refault rules; the 6.1 tree's differ and are not followed yet");
#endif
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	assert_int_equal(tb_cgroup_mkdir("b"), 0);
	t = tb_run_in("a");
	evict_cold_beside_hot("a", hot, cold);
	assert_int_equal(tb_task_move(t, "b"), 0);
	assert_int_equal(tb_cgroup_rmdir("a"), 0);
	/*
	 * the root's counters hold the deleted memcg's (as the periodic flush
	 * leaves them): more active pages than the 64 evictions' distances
	 */
	tb_memcg_flush_stats(NULL);
	assert_true(lruvec_page_state(lruvec_on("", 0), NR_ACTIVE_FILE) > 64);

	assert_int_equal(reread_evicted(cold, 64), 64);
	assert_int_equal(tb_stat("b", "workingset_refault_file"), 64);
	assert_int_equal(tb_stat("b", "workingset_activate_file"), 0);
	assert_int_equal(tb_stat("b", "active_file"), 0);
}

/* anon of path: n pages touched once (inactive anon) */
static struct tb_vma *anon(unsigned long n)
{
	struct tb_vma *vma = tb_map_anon(n);

	tb_touch_range(vma, n, true);
	lru_add_drain();
	return vma;
}

/*
 * Without swap, anon is no part of a file refault's workingset: a page
 * cache refault next to a thousand anon pages, with no active page cache,
 * is not activated.
 */
static void file_refault_without_swap_leaves_anon_out_of_the_workingset(void **state)
{
	struct tb_file *cold = tb_file_create(64);
	struct tb_vma *vma;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	vma = anon(1024);
	tb_read_range(cold, 64);
	assert_write_ok("a", "memory.reclaim", "256K");
	assert_int_equal(tb_file_cached(cold), 0);
	assert_int_equal(tb_vma_resident(vma), 1024);

	assert_int_equal(reread_evicted(cold, 64), 64);
	assert_int_equal(tb_stat("a", "workingset_refault_file"), 64);
	assert_int_equal(tb_stat("a", "workingset_activate_file"), 0);
	tb_unmap(vma);
}

/*
 * While the memcg may swap (here one slot: memory.swap.max 4K), anon,
 * inactive too, is part of a file refault's workingset: the same refault
 * next to a thousand inactive anon pages is activated.
 */
static void file_refault_counts_inactive_anon_while_one_swap_slot_is_left(void **state)
{
	struct tb_file *cold = tb_file_create(64);
	struct tb_vma *vma;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	assert_write_ok("a", "memory.swap.max", "4K");
	tb_run_in("a");
	vma = anon(1024);
	tb_read_range(cold, 64);
	tb_reclaim_swappiness("a", "256K", 0);
	assert_int_equal(tb_file_cached(cold), 0);
	assert_int_equal(tb_vma_resident(vma), 1024);
	assert_int_equal(tb_swap_used(), 0);
	assert_int_equal(mem_cgroup_get_nr_swap_pages(tb_memcg("a")), 1);
	assert_int_equal(tb_stat("a", "active_anon"), 0);

	assert_int_equal(reread_evicted(cold, 64), 64);
	assert_int_equal(tb_stat("a", "workingset_refault_file"), 64);
	assert_int_equal(tb_stat("a", "workingset_activate_file"), 64);
	tb_unmap(vma);
}

/*
 * An anon refault's workingset includes the inactive page cache: anon
 * swapped out, then a file read once (inactive), then the anon touched
 * again: each swap-in is activated.
 */
static void anon_refault_counts_inactive_page_cache_in_the_workingset(void **state)
{
	struct tb_file *f = tb_file_create(1024);
	struct tb_vma *vma;
	unsigned long i;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	vma = anon(64);
	tb_reclaim_swappiness("a", "256K", 200);
	assert_int_equal(tb_vma_swapped(vma), 64);
	assert_int_equal(tb_stat("a", "active_anon"), 0);
	tb_read_range(f, 1024);
	lru_add_drain();
	assert_int_equal(tb_stat("a", "active_file"), 0);

	for (i = 0; i < 64; i++)
		assert_int_equal(tb_touch(vma, i, false), 0);
	assert_int_equal(tb_stat("a", "workingset_refault_anon"), 64);
	assert_int_equal(tb_stat("a", "workingset_activate_anon"), 64);
	tb_unmap(vma);
}

/*
 * With swap free, a file refault's workingset is the active page cache
 * and all the anon, active and inactive: 64 pages of each (the active
 * ones swapped out and activated by their refault; as many inactive, so
 * that reclaim does not deactivate them), no page cache left. 96 pages
 * read once and evicted come back at a distance of 96 each, within the
 * 128 anon pages, more than either list alone: each is activated.
 */
static void file_refault_counts_active_and_inactive_anon_while_swap_is_free(void **state)
{
	struct tb_file *cold = tb_file_create(96), *f = tb_file_create(1024);
	struct lruvec *lruvec;
	struct tb_vma *hot, *once;
	unsigned long i;

#if TB_BEFORE_6_4
	tb_skip("asserts 6.12's refault rules; the 6.1 tree's differ and are not followed yet");
#endif
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	hot = anon(64);
	tb_reclaim_swappiness("a", "256K", 200);
	assert_int_equal(tb_vma_swapped(hot), 64);
	tb_read_range(cold, 96);
	tb_read_range(f, 1024);
	for (i = 0; i < 64; i++)
		assert_int_equal(tb_touch(hot, i, false), 0);
	assert_int_equal(tb_stat("a", "workingset_activate_anon"), 64);
	tb_file_destroy(f);
	once = anon(64);

	tb_reclaim_swappiness("a", "384K", 0);
	assert_int_equal(tb_file_cached(cold), 0);
	tb_memcg_flush_stats(tb_memcg("a"));
	lruvec = lruvec_on("a", 0);
	assert_int_equal(lruvec_page_state(lruvec, NR_ACTIVE_ANON), 64);
	assert_int_equal(lruvec_page_state(lruvec, NR_INACTIVE_ANON), 64);
	assert_int_equal(lruvec_page_state(lruvec, NR_ACTIVE_FILE) +
			 lruvec_page_state(lruvec, NR_INACTIVE_FILE), 0);
	assert_int_equal(reread_evicted(cold, 96), 96);
	assert_int_equal(tb_stat("a", "workingset_refault_file"), 96);
	assert_int_equal(tb_stat("a", "workingset_activate_file"), 96);
	tb_unmap(once);
	tb_unmap(hot);
}

/*
 * The refault flushes the evicting memcg's statistics first
 * (mem_cgroup_flush_stats_ratelimited(): the periodic flush has not run
 * yet in this young world, so it does flush once enough updates are
 * pending): anon touched after the eviction, and not yet in any flushed
 * counter, is part of the workingset the refault is measured against.
 */
static void refault_flushes_the_memcg_statistics_it_measures_against(void **state)
{
	struct tb_file *cold = tb_file_create(64);
	struct tb_vma *vma;

#if TB_BEFORE_6_4
	tb_skip("asserts 6.12's refault rules; the 6.1 tree's differ and are not followed yet");
#endif
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	tb_read_range(cold, 64);
	tb_reclaim_swappiness("a", "256K", 0);
	assert_int_equal(tb_file_cached(cold), 0);
	vma = anon(1024);
	assert_true(lruvec_page_state(lruvec_on("a", 0), NR_INACTIVE_ANON) < 1024);

	assert_int_equal(reread_evicted(cold, 64), 64);
	assert_int_equal(lruvec_page_state(lruvec_on("a", 0), NR_INACTIVE_ANON), 1024);
	assert_int_equal(tb_stat("a", "workingset_activate_file"), 64);
	tb_unmap(vma);
}

/*
 * The refault distance may equal the workingset: 64 pages read once and
 * evicted (the lruvec ages 64), beside 64 pages of inactive anon (swap
 * free, so they count), come back at a distance of 64 each (each refault
 * before ages the lruvec by one, each shadow is one younger) and each is
 * activated.
 */
static void refault_at_a_distance_equal_to_the_workingset_is_activated(void **state)
{
	struct tb_file *cold = tb_file_create(64);
	struct tb_vma *vma;
	long age;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	vma = anon(64);
	tb_read_range(cold, 64);
	lru_add_drain();
	age = nonresident_age("a", 0);
	tb_reclaim_swappiness("a", "256K", 0);
	assert_int_equal(tb_file_cached(cold), 0);
	assert_int_equal(nonresident_age("a", 0), age + 64);
	assert_int_equal(tb_stat("a", "inactive_anon"), 64 * 4096);
	assert_int_equal(tb_stat("a", "active_anon") + tb_stat("a", "active_file"), 0);

	assert_int_equal(tb_file_read(cold, 0), 0);
	assert_int_equal(tb_stat("a", "workingset_activate_file"), 1);
	assert_int_equal(reread_evicted(cold, 64), 63);
	assert_int_equal(tb_stat("a", "workingset_activate_file"), 64);
	tb_unmap(vma);
}

/* a 16 MiB machine booted with cgroup_disable=memory: no memcg, one lruvec per node */
static int setup_memcg_disabled(void **state)
{
	tb_mem.ram_pages = PAGES(16 * MB);
	tb_setup(state);
	if (tb_boot_cmdline("cgroup_disable=memory") || tb_memcg_boot() || tb_mem_boot(&tb_mem))
		return -1;
	return 0;
}

/*
 * Without memcg the node's lruvec keeps the nonresident age: activations
 * age it (folios without a memcg are fine when memcg is off) and refaults
 * are measured against it. A file read twice stays active while a stream
 * twice the machine's size is read once; the stream's pages evicted last
 * refault within the active list and are activated.
 */
static void without_memcg_refaults_are_measured_on_the_nodes_lruvec(void **state)
{
	struct tb_file *hot = tb_file_create(1024), *stream = tb_file_create(PAGES(32 * MB));
	struct pglist_data *pgdat = NODE_DATA(0);
	struct lruvec *lruvec = &pgdat->__lruvec;
	unsigned long i, n = 0, refaults;
	long age;

	assert_true(mem_cgroup_disabled());
	tb_run_in("");
	age = atomic_long_read(&lruvec->nonresident_age);
	read_twice(hot, 1024);
	assert_int_equal(atomic_long_read(&lruvec->nonresident_age), age + 1024);

	tb_read_range(stream, PAGES(32 * MB));
	lru_add_drain();
	assert_true(tb_file_cached(stream) < PAGES(16 * MB));
	refaults = node_page_state(pgdat, WORKINGSET_REFAULT_FILE);
	assert_int_equal(node_page_state(pgdat, WORKINGSET_ACTIVATE_FILE), 0);
	for (i = PAGES(32 * MB); i-- > 0 && n < 32;) {
		if (tb_file_folio(stream, i))
			continue;
		assert_int_equal(tb_file_read(stream, i), 0);
		n++;
	}
	assert_int_equal(node_page_state(pgdat, WORKINGSET_REFAULT_FILE), refaults + 32);
	assert_int_equal(node_page_state(pgdat, WORKINGSET_ACTIVATE_FILE), 32);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		TB_RECLAIM_TEST(refault_of_a_page_never_active_is_activated_but_not_restored),
		TB_RECLAIM_TEST(refault_of_a_deactivated_workingset_page_is_restored),
		TB_RECLAIM_TEST(activations_after_an_eviction_push_its_refault_beyond_the_workingset),
		TB_RECLAIM_TEST_ON(refault_on_another_node_is_measured_on_that_nodes_lruvec,
				   setup_2_nodes),
		TB_RECLAIM_TEST(refault_is_measured_on_the_lruvec_of_the_memcg_that_evicted_it),
		TB_RECLAIM_TEST(refault_of_a_page_evicted_by_a_deleted_memcg_is_not_activated),
		TB_RECLAIM_TEST(file_refault_without_swap_leaves_anon_out_of_the_workingset),
		TB_RECLAIM_SWAP_TEST(file_refault_counts_inactive_anon_while_one_swap_slot_is_left),
		TB_RECLAIM_SWAP_TEST(anon_refault_counts_inactive_page_cache_in_the_workingset),
		TB_RECLAIM_SWAP_TEST(file_refault_counts_active_and_inactive_anon_while_swap_is_free),
		TB_RECLAIM_SWAP_TEST(refault_flushes_the_memcg_statistics_it_measures_against),
		TB_RECLAIM_SWAP_TEST(refault_at_a_distance_equal_to_the_workingset_is_activated),
		TB_RECLAIM_TEST_ON(without_memcg_refaults_are_measured_on_the_nodes_lruvec,
				   setup_memcg_disabled),
	};

	return TB_RUN(tests);
}
