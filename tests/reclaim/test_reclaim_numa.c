// SPDX-License-Identifier: GPL-2.0-only
/*
 * A machine of several nodes: each virtual CPU on a node (4 CPUs on 2
 * nodes: 0-1 on node 0, 2-3 on node 1), a task's pages from its CPU's
 * node first, then along the zonelists the real build_zonelists() made;
 * watermarks and a kswapd per node; memcg reclaim over every node; the
 * per-node counts of memory.numa_stat through the kernel's handler.
 */
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/mmzone.h>
#include <linux/swap.h>
#include <linux/vmstat.h>
#include <kshim/trace.h>
#include <stdio.h>
#include <string.h>
#include "tb_reclaim.h"

#define MAX_RECLAIM_RETRIES 16	/* mm/internal.h */

static int setup_nodes(void **state, unsigned int nodes)
{
	tb_world.nr_nodes = nodes;
	tb_mem.ram_pages = PAGES(16 * MB);
	return tb_reclaim_setup(state);
}

static int setup_2_nodes(void **state)
{
	return setup_nodes(state, 2);
}

static int setup_4_nodes(void **state)
{
	return setup_nodes(state, 4);
}

static int setup_2_nodes_64m(void **state)
{
	tb_world.nr_nodes = 2;
	tb_mem.ram_pages = PAGES(64 * MB);
	return tb_reclaim_setup(state);
}

static int setup_2_nodes_swap_0(void **state)
{
	tb_mem.swap_pages = PAGES(64 * MB);
	tb_mem.swappiness = 0;
	tb_mem.swappiness_set = true;
	return setup_nodes(state, 2);
}

static int setup_2_nodes_min_free(void **state)
{
	tb_mem.min_free_kbytes = 4096;
	return setup_nodes(state, 2);
}

/* a task of cgroup path on virtual CPU cpu, switched in */
static struct tb_task *run_on(const char *path, int cpu)
{
	struct tb_task *t = tb_run_in(path);

	assert_int_equal(tb_task_set_cpu(t, cpu), 0);
	return t;
}

/* a task of cgroup path bound to node nid (its cpuset), switched in */
static struct tb_task *run_bound(const char *path, int nid)
{
	struct tb_task *t = tb_run_in(path);

	assert_int_equal(tb_task_bind_node(t, nid), 0);
	return t;
}

/*
 * key's bytes on node nid in path's memory.numa_stat ("file N0=... N1=..."),
 * every CPU's counters flushed first (the handler's own flush is ratelimited)
 */
static long long numa_stat(const char *path, const char *key, int nid)
{
	char buf[8192], want[16], *line;
	long long v;

	tb_memcg_flush_stats(tb_memcg(path));
	assert_true(tb_cgroup_read(path, "memory.numa_stat", buf, sizeof(buf) - 1) > 0);
	snprintf(want, sizeof(want), "N%d=", nid);
	for (line = strtok(buf, "\n"); line; line = strtok(NULL, "\n")) {
		size_t n = strlen(key);
		char *at;

		if (strncmp(line, key, n) || line[n] != ' ')
			continue;
		at = strstr(line, want);
		assert_non_null(at);
		assert_int_equal(sscanf(at + strlen(want), "%lld", &v), 1);
		return v;
	}
	fail_msg("no %s in %s's memory.numa_stat", key, path);
	return -1;
}

static int zonelist_node(int nid, int i)
{
	return zone_to_nid(NODE_DATA(nid)->node_zonelists[ZONELIST_FALLBACK]._zonerefs[i].zone);
}

/*
 * Every node at the same distance from every other, every node with CPUs:
 * find_next_best_node() prefers a node above the local one ("prefer the
 * next node") and build_zonelists() charges node_load to the first remote
 * node it picks, so node n falls back to n+1, n+2, ... in turn.
 */
static void each_nodes_fallback_runs_through_the_next_nodes_in_turn(void **state)
{
	int nid, i;

	for (nid = 0; nid < 4; nid++)
		for (i = 0; i < 4; i++)
			assert_int_equal(zonelist_node(nid, i), (nid + i) % 4);
	assert_null(NODE_DATA(0)->node_zonelists[ZONELIST_FALLBACK]._zonerefs[4].zone);
}

/* A task's pages come from the node of the CPU it runs on; numa_stat says where. */
static void a_task_takes_its_pages_from_its_cpus_node(void **state)
{
	struct tb_vma *vma;
	unsigned long i;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	run_on("a", 2);
	vma = tb_map_anon(256);
	tb_touch_range(vma, 256, true);
	for (i = 0; i < 256; i++)
		assert_int_equal(folio_nid(tb_vma_folio(vma, i)), 1);
	run_on("a", 0);
	vma = tb_map_anon(64);
	tb_touch_range(vma, 64, true);
	assert_int_equal(folio_nid(tb_vma_folio(vma, 0)), 0);
	assert_int_equal(numa_stat("a", "anon", 0), 64 * PAGE_SIZE);
	assert_int_equal(numa_stat("a", "anon", 1), 256 * PAGE_SIZE);
}

/*
 * The fast path takes a page from the first zone of the zonelist above
 * its low watermark: when node 0 reaches it, node 1 serves, and no
 * kswapd is woken (that happens only when every node of the zonelist is
 * below low).
 */
static void a_node_at_its_low_watermark_falls_back_without_waking_kswapd(void **state)
{
	unsigned long spill = 256, fill = tb_free_pages(0) - tb_wmark(0, WMARK_LOW);
	unsigned long free1 = tb_free_pages(1);
	struct tb_file *f = tb_file_create(fill + spill);

	run_on("", 0);
	tb_read_range(f, fill + spill);
	assert_true(tb_free_pages(0) >= tb_wmark(0, WMARK_LOW));
	assert_true(free1 - tb_free_pages(1) >= spill);
	assert_int_equal(folio_nid(tb_file_folio(f, fill + spill - 1)), 1);
	assert_int_equal(kshim_trace.wakeup_kswapd_count, 0);
	assert_int_equal(kshim_reclaim_event_read(PGSTEAL_KSWAPD) + kshim_reclaim_event_read(PGSTEAL_DIRECT), 0);
}

/*
 * A task bound to node 1 reading twice the node's RAM: its allocations
 * are confined to node 1 (prepare_alloc_pages()' cpuset nodemask), so
 * node 1 runs short, its kswapd is woken and reclaims it, direct reclaim
 * walks node 1 only; node 0 is never touched and its kswapd never runs.
 */
static void a_task_bound_to_a_node_reclaims_that_node_only(void **state)
{
	unsigned long free0 = tb_free_pages(0);
	struct tb_file *f = tb_file_create(PAGES(32 * MB));
	unsigned long i;

	run_bound("", 1);
	tb_read_range(f, PAGES(32 * MB));
	assert_int_equal(tb_free_pages(0), free0);
	for (i = 0; i < PAGES(32 * MB); i++)
		if (tb_file_folio(f, i))
			assert_int_equal(folio_nid(tb_file_folio(f, i)), 1);
	assert_true(tb_file_cached(f) < PAGES(16 * MB));
	tb_kthreads_settle();
	assert_true(tb_kswapd_trace(1)->kswapd_wake_count > 0);
	assert_int_equal(tb_kswapd_trace(0)->kswapd_wake_count, 0);
}

/*
 * shrink_node() revives a hopeless node's kswapd only for what it
 * reclaimed there: node 1 full of anon (no swap), its kswapd woken at
 * low and failing MAX_RECLAIM_RETRIES runs; node 0 with page cache. A
 * direct reclaim over both nodes (node 0's zonelist) frees page cache on
 * node 0 at each priority and nothing on node 1, whose kswapd_failures
 * stays (node 0's progress is not node 1's).
 */
static void direct_reclaim_progress_on_one_node_leaves_another_hopeless(void **state)
{
	struct tb_file *f = tb_file_create(PAGES(8 * MB));
	struct tb_vma *vma;
	unsigned long i;

	run_bound("", 1);
	vma = tb_map_anon(PAGES(16 * MB));
	for (i = 0; tb_kswapd_failures(NODE_DATA(1)) < MAX_RECLAIM_RETRIES; i++) {
		assert_true(i < PAGES(16 * MB));
		assert_int_equal(tb_touch(vma, i, true), 0);
		tb_kthreads_settle();
	}
	run_on("", 0);
	tb_read_range(f, PAGES(8 * MB));
	lru_add_drain();
	assert_true(try_to_free_pages(node_zonelist(0, GFP_KERNEL), 0, GFP_KERNEL, NULL) >= 32);
	assert_int_equal(tb_kswapd_failures(NODE_DATA(1)), MAX_RECLAIM_RETRIES);
	assert_int_equal(tb_kswapd_failures(NODE_DATA(0)), 0);
}

/*
 * __setup_per_zone_wmarks() shares min_free_kbytes among the zones by
 * their managed pages: two nodes of 16 MiB, 4096 KiB of reserve, 512
 * pages of min each, and low and high above it by the same margin.
 */
static void min_free_kbytes_is_shared_among_the_nodes_by_size(void **state)
{
	int nid;

	for (nid = 0; nid < 2; nid++) {
		assert_int_equal(tb_wmark(nid, WMARK_MIN), 4096 / 4 / 2);
		assert_int_equal(tb_wmark(nid, WMARK_LOW) - tb_wmark(nid, WMARK_MIN),
				 tb_wmark(1 - nid, WMARK_LOW) - tb_wmark(1 - nid, WMARK_MIN));
	}
}

/*
 * memory.reclaim walks the zonelist of the writer's node through every
 * node ("equal pressure on all the nodes"): a memcg whose page cache
 * sits half on each node gives back pages from both, and numa_stat's
 * per-node file counts fall by what each node gave.
 */
static void memory_reclaim_of_a_cache_on_both_nodes(bool writer_bound)
{
	struct tb_file *f0 = tb_file_create(2048), *f1 = tb_file_create(2048);
	unsigned long free0, free1;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	run_on("a", 0);
	tb_read_range(f0, 2048);
	run_on("a", 2);
	tb_read_range(f1, 2048);
	assert_int_equal(numa_stat("a", "file", 0), 2048 * PAGE_SIZE);
	assert_int_equal(numa_stat("a", "file", 1), 2048 * PAGE_SIZE);
	free0 = tb_free_pages(0);
	free1 = tb_free_pages(1);

	if (writer_bound)
		run_bound("", 0);
	else
		tb_run_in("");
	assert_write_ok("a", "memory.reclaim", "4M");
	assert_true(tb_free_pages(0) > free0);
	assert_true(tb_free_pages(1) > free1);
	assert_true(tb_free_pages(0) - free0 + tb_free_pages(1) - free1 >= PAGES(4 * MB));
	assert_int_equal(numa_stat("a", "file", 0), (2048 - (tb_free_pages(0) - free0)) * PAGE_SIZE);
	assert_int_equal(numa_stat("a", "file", 1), (2048 - (tb_free_pages(1) - free1)) * PAGE_SIZE);
}

static void memory_reclaim_takes_pages_from_every_node(void **state)
{
	memory_reclaim_of_a_cache_on_both_nodes(false);
}

/*
 * The same written by a task bound to node 0: memcg reclaim does not ask
 * the writer's cpuset (shrink_zones() checks cpuset_zone_allowed() for
 * global reclaim only), so node 1 gives pages too.
 */
static void memory_reclaim_by_a_task_bound_to_a_node_takes_pages_from_every_node(void **state)
{
	memory_reclaim_of_a_cache_on_both_nodes(true);
}

/*
 * Eight memcgs on each node, then the same write to the root's
 * memory.reclaim from a CPU of node 0 and of node 1: each call walks the
 * writer's zonelist, and a root reclaim stops once the call's goal is
 * met (the multi-gen LRU's should_abort_scan(), the classic LRU's partial
 * memcg walk); the write asks a quarter of what is left per call, so
 * most calls end within a pass, and the writer's node, walked first,
 * gives more than the other (here 61% with the classic LRU, 70% with the
 * multi-gen LRU). The comment above the zonelist
 * in try_to_free_mem_cgroup_pages() assumes no such bail-out ("equal
 * pressure on all the nodes").
 */
static void root_memory_reclaim_takes_most_from_the_writers_node(void **state)
{
	unsigned long free0, free1, got0, got1;
	char path[8];
	int i, writer;

	for (i = 0; i < 16; i++) {
		snprintf(path, sizeof(path), "m%d", i);
		assert_int_equal(tb_cgroup_mkdir(path), 0);
		run_on(path, i < 8 ? 0 : 2);
		tb_read_range(tb_file_create(PAGES(6 * MB)), PAGES(6 * MB));
	}
	for (writer = 0; writer < 2; writer++) {
		run_on("", writer * 2);
		free0 = tb_free_pages(0);
		free1 = tb_free_pages(1);
		assert_write_ok("", "memory.reclaim", "16M");
		got0 = tb_free_pages(0) - free0;
		got1 = tb_free_pages(1) - free1;
		print_message("writer on node %d: node 0 gave %lu, node 1 %lu\n", writer, got0, got1);
		assert_true(got0 + got1 >= PAGES(16 * MB));
#if TB_HAVE_reclaim_quarter_batches
		assert_true(writer ? got1 > got0 : got0 > got1);
#else
		/*
		 * 6.1: memory_reclaim() asks for all that is left in
		 * one call: its priority passes cover both nodes alike
		 */
		assert_int_equal(got0, got1);
#endif
	}
}

/*
 * get_scan_count() decides per node: vm.swappiness=0 keeps global
 * reclaim off anon only while the node has page cache to give.
 * prepare_scan_control()'s file_is_tiny looks at the node being
 * reclaimed: node 0 full of a bound task's anon swaps, though node 1
 * holds 8 MiB of page cache that nobody touches.
 */
static void swappiness_0_swaps_a_node_whose_page_cache_is_tiny(void **state)
{
	struct tb_file *f = tb_file_create(PAGES(8 * MB));
	struct tb_vma *vma;

	TB_CLASSIC_LRU_ONLY("get_scan_count()'s file_is_tiny (MGLRU at swappiness 0 "
			    "evicts file only)");
	run_bound("", 1);
	tb_read_range(f, PAGES(8 * MB));
	run_bound("", 0);
	vma = tb_map_anon(PAGES(20 * MB));
	tb_touch_range(vma, PAGES(20 * MB), true);
	assert_true(tb_swap_used() > 0);
	assert_int_equal(tb_file_cached(f), PAGES(8 * MB));
}

/*
 * An allocation with a nodemask of its own wider than its task's cpuset
 * (an MPOL_BIND policy of nodes 0 and 1, the task's cpuset node 0:
 * prepare_alloc_pages() keeps the policy's mask), under pressure: its
 * direct reclaim (try_to_free_pages() with that mask, as
 * __alloc_pages_direct_reclaim() calls it) walks node 1's zone too, but
 * shrink_zones() passes it over (cpuset_zone_allowed() of a
 * __GFP_HARDWALL allocation): node 0's page cache is reclaimed, node 1's
 * stays whole.
 */
static void direct_reclaim_passes_over_nodes_outside_the_tasks_cpuset(void **state)
{
	struct tb_file *f0 = tb_file_create(1024), *f1 = tb_file_create(1024);
	nodemask_t both = NODE_MASK_NONE;
	gfp_t gfp = GFP_KERNEL | __GFP_HARDWALL;

	run_bound("", 1);
	tb_read_range(f1, 1024);
	run_bound("", 0);
	tb_read_range(f0, 1024);
	lru_add_drain_all();
	node_set(0, both);
	node_set(1, both);
	assert_true(try_to_free_pages(node_zonelist(0, gfp), 0, gfp, &both) >= SWAP_CLUSTER_MAX);
	assert_true(tb_file_cached(f0) <= 1024 - SWAP_CLUSTER_MAX);
	assert_int_equal(tb_file_cached(f1), 1024);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		TB_RECLAIM_TEST_ON(each_nodes_fallback_runs_through_the_next_nodes_in_turn,
				   setup_4_nodes),
		TB_RECLAIM_TEST_ON(a_task_takes_its_pages_from_its_cpus_node, setup_2_nodes),
		TB_RECLAIM_TEST_ON(a_node_at_its_low_watermark_falls_back_without_waking_kswapd,
				   setup_2_nodes),
		TB_RECLAIM_TEST_ON(a_task_bound_to_a_node_reclaims_that_node_only, setup_2_nodes),
		TB_RECLAIM_TEST_ON(direct_reclaim_passes_over_nodes_outside_the_tasks_cpuset,
				   setup_2_nodes),
		TB_RECLAIM_TEST_ON(direct_reclaim_progress_on_one_node_leaves_another_hopeless,
				   setup_2_nodes),
		TB_RECLAIM_TEST_ON(min_free_kbytes_is_shared_among_the_nodes_by_size,
				   setup_2_nodes_min_free),
		TB_RECLAIM_TEST_ON(memory_reclaim_takes_pages_from_every_node, setup_2_nodes),
		TB_RECLAIM_TEST_ON(memory_reclaim_by_a_task_bound_to_a_node_takes_pages_from_every_node,
				   setup_2_nodes),
		TB_RECLAIM_TEST_ON(root_memory_reclaim_takes_most_from_the_writers_node,
				   setup_2_nodes_64m),
		TB_RECLAIM_TEST_ON(swappiness_0_swaps_a_node_whose_page_cache_is_tiny,
				   setup_2_nodes_swap_0),
	};

	return TB_RUN(tests);
}
