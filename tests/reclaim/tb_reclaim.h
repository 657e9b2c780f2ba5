/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Fixture of the reclaim suites: a world with the real memcontrol.c and
 * mm/vmscan.c over simulated memory (tb_mem, set per suite or per test),
 * torn down and checked after each test: every task and file gone, every
 * page back in the allocator, every swap slot released, LRU lists equal
 * to their counters.
 */
#ifndef _TB_RECLAIM_H
#define _TB_RECLAIM_H
#include "tb_test.h"
#include <kshim/memcg_tb.h>
#include <kshim/mem_tb.h>

/*
 * A case written to 6.12's mm/vmscan.c where the 6.1 tree's rules differ
 * and are not followed yet: skipped there, saying so (the tree's version
 * read through a feature of 6.4, lru_note_cost_refault(), which 7.3 drops
 * with lru_note_cost() itself).
 */
#define TB_BEFORE_6_4 (!TB_HAVE_lru_note_cost_refault && TB_HAVE_lru_note_cost)
#if !TB_BEFORE_6_4
#define tb_skip_before_6_4(what) do { } while (0)
#else
#define tb_skip_before_6_4(what) \
	tb_skip("asserts 6.12's " what "; the 6.1 tree's differs and is not followed yet")
#endif

/* before the flag's split, kswapd's node-level congestion was LRUVEC_CONGESTED */
#if !TB_HAVE_lruvec_node_congested
#define LRUVEC_NODE_CONGESTED LRUVEC_CONGESTED
#endif

/*
 * an lruvec's reclaim cost of anon and file pages: lru_note_cost()'s
 * anon_cost and file_cost; 7.3: struct lru_cost's count, which
 * prepare_scan_control() updates from the lruvec's stats
 */
#if TB_HAVE_lru_note_cost
#define tb_anon_cost(l) ((l)->anon_cost)
#define tb_file_cost(l) ((l)->file_cost)
#else
#define tb_anon_cost(l) ((l)->cost[WORKINGSET_ANON].count)
#define tb_file_cost(l) ((l)->cost[WORKINGSET_FILE].count)
#endif

/* a node's kswapd_failures (an atomic_t since 7.2) */
#if TB_HAVE_kswapd_failures_atomic
#define tb_kswapd_failures(pgdat) atomic_read(&(pgdat)->kswapd_failures)
#define tb_set_kswapd_failures(pgdat, n) atomic_set(&(pgdat)->kswapd_failures, (n))
#else
#define tb_kswapd_failures(pgdat) ((pgdat)->kswapd_failures)
#define tb_set_kswapd_failures(pgdat, n) ((pgdat)->kswapd_failures = (n))
#endif

/*
 * what memory.reclaim's scans and steals count as: proactive reclaim's own
 * items since 7.2 (reclaim_stat_proactive; before: direct reclaim's)
 */
#if TB_HAVE_reclaim_stat_proactive
#define TB_PGSCAN_PROACTIVE PGSCAN_PROACTIVE
#define TB_PGSTEAL_PROACTIVE PGSTEAL_PROACTIVE
#define TB_PGDEMOTE_PROACTIVE PGDEMOTE_PROACTIVE
#define TB_PROACTIVE_KEY(item) item "_proactive"
#else
#define TB_PGSCAN_PROACTIVE PGSCAN_DIRECT
#define TB_PGSTEAL_PROACTIVE PGSTEAL_DIRECT
#define TB_PGDEMOTE_PROACTIVE PGDEMOTE_DIRECT
#define TB_PROACTIVE_KEY(item) item "_direct"
#endif

#define MB (1024UL * 1024)
#define PAGES(bytes) ((bytes) / 4096)

/* the machine of the next setup; teardown sets it back to the default */
extern struct tb_mem_config tb_mem;
/* the kernel command line tb_reclaim_setup() boots with (NULL: none) */
extern const char *tb_reclaim_cmdline;
int tb_reclaim_setup(void **state);
/* the default machine with a 64 MiB swap device */
int tb_reclaim_setup_swap(void **state);
int tb_reclaim_teardown(void **state);
#define TB_RECLAIM_TEST(fn) cmocka_unit_test_setup_teardown(fn, tb_reclaim_setup, tb_reclaim_teardown)
#define TB_RECLAIM_SWAP_TEST(fn) \
	cmocka_unit_test_setup_teardown(fn, tb_reclaim_setup_swap, tb_reclaim_teardown)
/* a case on a machine of its own: setup sets tb_mem, then calls tb_reclaim_setup */
#define TB_RECLAIM_TEST_ON(fn, setup) cmocka_unit_test_setup_teardown(fn, setup, tb_reclaim_teardown)

/* the nodes of the suite's machine: 1, or TB_NODES (ctest *_2nodes, *_4nodes) */
unsigned int tb_nodes(void);
/* the suite runs with the multi-gen LRU on (TB_LRU_GEN=y) */
bool tb_lru_gen_on(void);
/*
 * A case asserting the classic active/inactive LRU's own policy (list
 * placement, get_scan_count()): skipped, with the reason, when the suite
 * runs with the multi-gen LRU on; test_reclaim_mglru_classic asserts
 * what the multi-gen LRU does in the same situation.
 */
#define TB_CLASSIC_LRU_ONLY(why)						\
	do {								\
		if (tb_lru_gen_on()) {					\
			print_message("skipped with MGLRU on: %s\n", why);	\
			skip();						\
		}							\
	} while (0)
/*
 * A case asserting what one node's reclaim does with the whole machine's
 * memory: skipped, with the reason, when the suite runs on several nodes
 * (TB_NODES), where each node is reclaimed on its own terms.
 */
#define TB_ONE_NODE_ONLY(why)						\
	do {								\
		if (tb_nodes() > 1) {					\
			print_message("skipped on %u nodes: %s\n", tb_nodes(), why);	\
			skip();						\
		}							\
	} while (0)
/* a task spawned in path, switched in; asserts success */
struct tb_task *tb_run_in(const char *path);
/* read pages [0, n) of file through the page cache, asserting success */
void tb_read_range(struct tb_file *file, unsigned long n);
/* touch pages [0, n) of vma, asserting success */
void tb_touch_range(struct tb_vma *vma, unsigned long n, bool write);
/* path's memory.max set to its memory.current now, stocks drained: its next charge reclaims */
void tb_limit_to_current(const char *path);
/* a memory.stat key of path, every CPU's counters flushed first */
long long tb_stat(const char *path, const char *key);
/*
 * memory.current of a leaf memcg less the charges its CPUs' stocks hold:
 * the bytes in use (a kernel page's uncharge, a page table's, goes to the
 * stock, and an allocation's charge may leave a batch's rest there)
 */
long long tb_usage(const char *path);
/* GFP_ATOMIC pages (no reclaim, no kswapd wake) taken onto held until free is at target */
void tb_take_free_pages_down_to(unsigned long target, struct list_head *held);
/* the pages on held put back */
void tb_put_folios(struct list_head *held);
/* assert the LRUs match their counters now */
void tb_assert_lrus_consistent(void);
/*
 * SHM_UNLOCK of a and b, whose nr pages reclaim culled to path's
 * unevictable list, rescues (scans) every one; then late, locked with
 * one page read and unlocked at once, is scanned but, still on the
 * per-CPU batch, not rescued; drained, path has no unevictable page left
 */
void tb_assert_shm_unlock_rescues(const char *path, struct tb_file *a, struct tb_file *b,
				  unsigned long nr, struct tb_file *late);

/*
 * memory.reclaim of amount from path at swappiness: "amount swappiness=N",
 * or before 6.8 (no such option) vm.swappiness set to N for the write
 */
void tb_reclaim_swappiness(const char *path, const char *amount, int swappiness);

#define assert_write(path, file, s, expect) \
	assert_int_equal(tb_cgroup_write_str(path, file, s), (expect))
#define assert_write_ok(path, file, s) assert_write(path, file, s, (ssize_t)strlen(s))
#endif
