// SPDX-License-Identifier: GPL-2.0-only
/*
 * The multi-gen LRU of mm/vmscan.c (CONFIG_LRU_GEN), switched on at run
 * time through its sysfs knob, and driven through its debugfs interface
 * and memory.reclaim: generations and their bounds, aging by the page
 * table walk, eviction of the oldest generation, the switch moving every
 * folio between the classic lists and the generations, the handlers' own
 * errors, the memcg LRU. Each world starts with MGLRU off, as a fresh
 * kernel without CONFIG_LRU_GEN_ENABLED.
 */
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/mm_inline.h>
#include <linux/memcontrol.h>
#include <kshim/testbed.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include "tb_mglru.h"

#define ENABLED LRU_GEN_ENABLED

static bool classic_lists_empty(struct lruvec *lruvec)
{
	enum lru_list lru;

	for_each_evictable_lru(lru)
		if (!list_empty(&lruvec->lists[lru]))
			return false;
	return true;
}

/* ---- the sysfs switch ---- */

/*
 * enabled_show() prints the caps: LRU_GEN_CORE, and the page-table walk
 * and non-leaf young bits where the hardware has them (x86-64: both).
 * enabled_store() takes y, n or a number; anything else is -EINVAL.
 */
static void enabled_reads_back_the_caps_written(void **state)
{
	char buf[32];

	assert_int_equal(tb_sysfs_read(ENABLED, buf, sizeof(buf)), 7);
	assert_string_equal(buf, "0x0000\n");
	assert_false(lru_gen_enabled());
	tb_mglru_switch_on();
	tb_sysfs_read(ENABLED, buf, sizeof(buf));
#if TB_HAVE_nonleaf_pmd_young_no_pfn
	assert_string_equal(buf, "0x0007\n");
#else	/* no non-leaf accessed bits in the world before 6.2 (kshim/kconfig.h) */
	assert_string_equal(buf, "0x0003\n");
#endif
	assert_true(lru_gen_enabled());
	assert_int_equal(tb_sysfs_write(ENABLED, "0x0001"), 6);
	tb_sysfs_read(ENABLED, buf, sizeof(buf));
	assert_string_equal(buf, "0x0001\n");
	assert_int_equal(tb_sysfs_write(ENABLED, "maybe"), -EINVAL);
	tb_sysfs_read(ENABLED, buf, sizeof(buf));
	assert_string_equal(buf, "0x0001\n");
	assert_int_equal(tb_sysfs_write(ENABLED, "n"), 1);
	assert_false(lru_gen_enabled());
}

/*
 * lru_gen_change_state(): fill_evictable() moves every folio of the
 * classic lists onto the generations, drain_evictable() moves them back;
 * the counts per type are kept and no folio is lost either way.
 */
static void switching_moves_every_folio_and_loses_none(void **state)
{
	struct tb_file *f = tb_file_create(256);
	struct lruvec *lruvec;
	struct tb_vma *vma;
	unsigned long i;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	vma = tb_map_anon(128);
	tb_touch_range(vma, 128, true);
	tb_read_range(f, 256);
	lru_add_drain();
	lruvec = tb_lruvec_of("a");
	assert_int_equal(tb_gen_pages(lruvec, LRU_GEN_ANON) + tb_gen_pages(lruvec, LRU_GEN_FILE), 0);
	assert_false(classic_lists_empty(lruvec));

	tb_mglru_switch_on();
	assert_true(lruvec->lrugen.enabled);
	assert_true(classic_lists_empty(lruvec));
	assert_int_equal(tb_gen_pages(lruvec, LRU_GEN_ANON), 128);
	assert_int_equal(tb_gen_pages(lruvec, LRU_GEN_FILE), 256);
	for (i = 0; i < 128; i++)
		assert_true(folio_lru_gen(tb_vma_folio(vma, i)) >= 0);
	assert_int_equal(tb_stat("a", "active_anon") + tb_stat("a", "inactive_anon"), 128 * 4096);
	assert_int_equal(tb_stat("a", "active_file") + tb_stat("a", "inactive_file"), 256 * 4096);
	tb_assert_lrus_consistent();

	assert_int_equal(tb_sysfs_write(ENABLED, "n"), 1);
	assert_false(lruvec->lrugen.enabled);
	assert_int_equal(tb_gen_pages(lruvec, LRU_GEN_ANON) + tb_gen_pages(lruvec, LRU_GEN_FILE), 0);
	for (i = 0; i < 128; i++)
		assert_int_equal(folio_lru_gen(tb_vma_folio(vma, i)), -1);
	assert_int_equal(tb_stat("a", "active_anon") + tb_stat("a", "inactive_anon"), 128 * 4096);
	assert_int_equal(tb_stat("a", "active_file") + tb_stat("a", "inactive_file"), 256 * 4096);
	tb_assert_lrus_consistent();
}

/*
 * lru_gen_change_state() moves the folios between the classic lists and
 * the generations MAX_LRU_BATCH (4096) at a time, dropping the LRU lock
 * between batches (fill_evictable(), drain_evictable() return false at
 * the batch's end): 5000 pages of page cache and 128 of anon go over and
 * back, none lost, the counters matching.
 */
static void switching_moves_more_than_a_batch_in_several_rounds(void **state)
{
	struct tb_file *f = tb_file_create(5000);
	struct lruvec *lruvec;
	struct tb_vma *vma;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	vma = tb_map_anon(128);
	tb_touch_range(vma, 128, true);
	tb_read_range(f, 5000);
	lru_add_drain();
	lruvec = tb_lruvec_of("a");

	tb_mglru_switch_on();
	assert_true(classic_lists_empty(lruvec));
	assert_int_equal(tb_gen_pages(lruvec, LRU_GEN_FILE), 5000);
	assert_int_equal(tb_gen_pages(lruvec, LRU_GEN_ANON), 128);
	tb_assert_lrus_consistent();

	assert_int_equal(tb_sysfs_write(ENABLED, "n"), 1);
	assert_int_equal(tb_gen_pages(lruvec, LRU_GEN_ANON) + tb_gen_pages(lruvec, LRU_GEN_FILE), 0);
	assert_int_equal(tb_stat("a", "active_file") + tb_stat("a", "inactive_file"), 5000 * 4096);
	assert_int_equal(tb_stat("a", "active_anon") + tb_stat("a", "inactive_anon"), 128 * 4096);
	tb_assert_lrus_consistent();
}

/*
 * fill_evictable() hands each folio to lru_gen_add_folio() as a folio
 * coming back, not from reclaim (reclaiming false), into a new lruvec
 * (max_seq 3, min_seq 0): an active folio goes to the youngest
 * generation (7.2, lru_gen_folio_seq: the second youngest, not being
 * PG_workingset), an inactive anon one (not in the swap cache) to the
 * second youngest, inactive page cache to the second oldest (min_seq + 1,
 * as min_seq + MIN_NR_GENS < max_seq; 7.2: max_seq - MAX_NR_GENS + 2, a
 * page read once being PG_referenced), each list's oldest folio at the
 * generation's tail. Switched off again, the folios of the two youngest
 * generations go to the active lists, the others to the inactive ones.
 */
static void switching_on_places_each_classic_list_in_its_generation(void **state)
{
	struct tb_file *once = tb_file_create(128), *twice = tb_file_create(32);
	struct lruvec *lruvec;
	struct tb_vma *vma;
	long active_anon;
	/* where an active folio goes */
	unsigned long active_seq = MIN_NR_GENS + 1 - TB_HAVE_lru_gen_folio_seq;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	vma = tb_map_anon(64);
	tb_touch_range(vma, 64, true);
	tb_read_range(once, 128);
	tb_read_range(twice, 32);
	tb_read_range(twice, 32);
	lru_add_drain();
	assert_int_equal(tb_stat("a", "inactive_file"), 128 * 4096);
	assert_int_equal(tb_stat("a", "active_file"), 32 * 4096);
	active_anon = tb_stat("a", "active_anon") / 4096;
	assert_int_equal(tb_stat("a", "inactive_anon") / 4096 + active_anon, 64);

	tb_mglru_switch_on();
	lruvec = tb_lruvec_of("a");
	assert_int_equal(tb_gen_seq_pages(lruvec, 0, LRU_GEN_FILE), 0);
	assert_int_equal(tb_gen_seq_pages(lruvec, 1, LRU_GEN_FILE), 128);
	assert_int_equal(tb_gen_seq_pages(lruvec, active_seq, LRU_GEN_FILE), 32);
	assert_int_equal(tb_gen_seq_pages(lruvec, 2, LRU_GEN_FILE) +
			 tb_gen_seq_pages(lruvec, 3, LRU_GEN_FILE), 32);
	assert_int_equal(tb_gen_seq_pages(lruvec, 0, LRU_GEN_ANON) +
			 tb_gen_seq_pages(lruvec, 1, LRU_GEN_ANON), 0);
	assert_int_equal(tb_gen_seq_pages(lruvec, 3, LRU_GEN_ANON),
			 TB_HAVE_lru_gen_folio_seq ? 0 : active_anon);
	assert_int_equal(tb_gen_seq_pages(lruvec, 2, LRU_GEN_ANON),
			 64 - tb_gen_seq_pages(lruvec, 3, LRU_GEN_ANON));
	/* the first page read is the oldest: at the tail of its generation */
	assert_ptr_equal(lru_to_folio(&lruvec->lrugen.folios[1][LRU_GEN_FILE][ZONE_NORMAL]),
			 tb_file_folio(once, 0));
	tb_assert_lrus_consistent();

	/*
	 * drain_evictable(): lru_gen_del_folio() not reclaiming gives the
	 * folios of the two youngest generations PG_active
	 */
	assert_int_equal(tb_sysfs_write(ENABLED, "n"), 1);
	assert_int_equal(tb_stat("a", "active_anon"), 64 * 4096);
	assert_int_equal(tb_stat("a", "inactive_anon"), 0);
	assert_int_equal(tb_stat("a", "active_file"), 32 * 4096);
	assert_int_equal(tb_stat("a", "inactive_file"), 128 * 4096);
	tb_assert_lrus_consistent();
}

/* ---- the debugfs interface ---- */

/*
 * lru_gen_init_lruvec() starts a lruvec at max_seq MIN_NR_GENS + 1 with
 * min_seq 0: lru_gen_seq_show() prints the memcg (id, cgroup path), the
 * node, and one line per generation from min_seq[anon] to max_seq.
 */
static void debugfs_lists_each_memcg_with_its_generations(void **state)
{
	char buf[8192], head[64], *p;
	unsigned long seq;
	int lines = 0;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_mglru_switch_on();
	assert_true(tb_debugfs_read("lru_gen", buf, sizeof(buf)) > 0);
	snprintf(head, sizeof(head), TB_LRU_GEN_HEAD, TB_LRU_GEN_HEAD_ID(tb_memcg("a")), "a");
	p = strstr(buf, head);
	assert_non_null(p);
	p += strlen(head);
	for (seq = 0; seq <= MIN_NR_GENS + 1; seq++) {
		unsigned long s, anon, file;
		unsigned int age;

		assert_int_equal(sscanf(p, " %lu %u %lu %lu", &s, &age, &anon, &file), 4);
		assert_int_equal(s, seq);
		assert_int_equal(anon + file, 0);
		p = strchr(p, '\n') + 1;
		lines++;
	}
	assert_int_equal(lines, 4);
	assert_int_equal(tb_lruvec_of("a")->lrugen.max_seq, MIN_NR_GENS + 1);
}

/*
 * lru_gen_seq_write() parses "cmd memcg_id node_id seq ..." with sscanf
 * and stops at the first bad command with its error: fewer than four
 * fields or trailing text, an unknown command, a memcg id or node that
 * does not exist, are -EINVAL; run_aging() refuses a seq ahead of
 * max_seq (-EINVAL) and, with MAX_NR_GENS generations already,
 * aging without force_scan (-ERANGE). An omitted force_scan is not 0:
 * opt defaults to -1, and the aging is forced. (7.2, lru_gen_aging_eexist:
 * inc_max_seq() retires the oldest generation itself, so MAX_NR_GENS
 * generations age too, and any seq up to max_seq ages at max_seq.)
 */
static void debugfs_rejects_malformed_commands_with_the_handlers_errors(void **state)
{
	unsigned short id;
	char cmd[32];

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_mglru_switch_on();
	id = tb_memcg_id("a");
	assert_int_equal(tb_lru_gen_cmd("+ %u 0", id), -EINVAL);
	assert_int_equal(tb_lru_gen_cmd("+ %u 0 3 1 0 junk", id), -EINVAL);
	assert_int_equal(tb_lru_gen_cmd("* %u 0 3", id), -EINVAL);
	assert_int_equal(tb_lru_gen_cmd("+ 999 0 3"), -EINVAL);
	assert_int_equal(tb_lru_gen_cmd("+ %u 7 3", id), -EINVAL);
	assert_int_equal(tb_lru_gen_cmd("+ %u 0 4", id), -EINVAL);
#if TB_HAVE_lru_gen_aging_eexist
	snprintf(cmd, sizeof(cmd), "+ %u 0 3 0 0", id);
	assert_int_equal(tb_debugfs_write("lru_gen", cmd), (ssize_t)strlen(cmd));
	assert_int_equal(tb_lruvec_of("a")->lrugen.max_seq, MIN_NR_GENS + 2);
	/* a seq behind max_seq ages at max_seq */
	snprintf(cmd, sizeof(cmd), "+ %u 0 2", id);
	assert_int_equal(tb_debugfs_write("lru_gen", cmd), (ssize_t)strlen(cmd));
	assert_int_equal(tb_lruvec_of("a")->lrugen.max_seq, MIN_NR_GENS + 3);
#else
	/* without swap get_swappiness() is 0: can_swap 0, the file min_seq counts */
	assert_int_equal(tb_lru_gen_cmd("+ %u 0 3 0 0", id), -ERANGE);
	/* a seq behind max_seq is done already: the whole write is taken */
	snprintf(cmd, sizeof(cmd), "+ %u 0 2", id);
	assert_int_equal(tb_debugfs_write("lru_gen", cmd), (ssize_t)strlen(cmd));
	assert_int_equal(tb_lruvec_of("a")->lrugen.max_seq, MIN_NR_GENS + 1);
	snprintf(cmd, sizeof(cmd), "+ %u 0 3", id);
	assert_int_equal(tb_debugfs_write("lru_gen", cmd), (ssize_t)strlen(cmd));
	assert_int_equal(tb_lruvec_of("a")->lrugen.max_seq, MIN_NR_GENS + 2);
#endif
}

/*
 * One write holds several commands (separated by ',', ';' or a newline):
 * lru_gen_seq_write() runs them in order and stops at the first that
 * fails, returning its error, so nothing after it runs; a malformed
 * command after a good one is -EINVAL, not the good one's 0.
 */
static void debugfs_runs_commands_in_order_up_to_the_first_that_fails(void **state)
{
	tb_lrugen_t *lrugen;
	unsigned short id;
	char cmd[64];

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_mglru_switch_on();
	id = tb_memcg_id("a");
	lrugen = &tb_lruvec_of("a")->lrugen;
	assert_int_equal(lrugen->max_seq, MIN_NR_GENS + 1);

	snprintf(cmd, sizeof(cmd), "+ %u 0 3 0 1, + %u 0 4 0 1\n+ %u 0 5 0 1", id, id, id);
	assert_int_equal(tb_debugfs_write("lru_gen", cmd), (ssize_t)strlen(cmd));
	assert_int_equal(lrugen->max_seq, MIN_NR_GENS + 4);

	/* seq 9 is ahead of max_seq: -EINVAL, and the aging after it never runs */
	assert_int_equal(tb_lru_gen_cmd("+ %u 0 9 0 1; + %u 0 6 0 1", id, id), -EINVAL);
	assert_int_equal(lrugen->max_seq, MIN_NR_GENS + 4);

	/* the good one runs, the malformed one after it fails the write */
	assert_int_equal(tb_lru_gen_cmd("+ %u 0 6 0 1; + %u", id, id), -EINVAL);
	assert_int_equal(lrugen->max_seq, MIN_NR_GENS + 5);
}

/*
 * The handlers' allocations failing: lru_gen_seq_write()'s copy of the
 * command (kvmalloc) and its walk (set_mm_walk()'s kzalloc) make the
 * write -ENOMEM, lru_gen_seq_start()'s path buffer the read; nothing is
 * aged. Then both work again.
 */
static void debugfs_returns_enomem_when_its_allocations_fail(void **state)
{
	unsigned short id;
	char buf[4096];

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_mglru_switch_on();
	id = tb_memcg_id("a");

	kshim_fault_filter("lru_gen_seq_write", NULL);
	kshim_fault_nth(1);
	assert_int_equal(tb_lru_gen_cmd("+ %u 0 %d", id, MIN_NR_GENS + 1), -ENOMEM);
	assert_int_equal(kshim_fault_injected(), 1);
	kshim_fault_reset();
	kshim_fault_filter("set_mm_walk", NULL);
	kshim_fault_nth(1);
	assert_int_equal(tb_lru_gen_cmd("+ %u 0 %d", id, MIN_NR_GENS + 1), -ENOMEM);
	assert_int_equal(kshim_fault_injected(), 1);
	kshim_fault_reset();
	kshim_fault_filter("lru_gen_seq_start", NULL);
	kshim_fault_nth(1);
	assert_int_equal(tb_debugfs_read("lru_gen", buf, sizeof(buf)), -ENOMEM);
	assert_int_equal(kshim_fault_injected(), 1);
	kshim_fault_reset();
	assert_int_equal(tb_lruvec_of("a")->lrugen.max_seq, MIN_NR_GENS + 1);

	assert_true(tb_lru_gen_cmd("+ %u 0 %d", id, MIN_NR_GENS + 1) > 0);
	assert_int_equal(tb_lruvec_of("a")->lrugen.max_seq, MIN_NR_GENS + 2);
	assert_true(tb_debugfs_read("lru_gen", buf, sizeof(buf)) > 0);
}

/*
 * Aging ("+ memcg node seq can_swap force_scan"): try_to_inc_max_seq()
 * walks the task's x86-64 page tables (walk_mm(), mm/pagewalk.c) and
 * moves the folios whose ptes are young to the youngest generation,
 * clearing the bits, then inc_max_seq() opens a new one.
 */
static void aging_moves_folios_with_young_ptes_to_the_new_generation(void **state)
{
	struct lruvec *lruvec;
	struct tb_vma *vma;
	unsigned long i, max_seq;
	unsigned short id;
	int young_gen;

	tb_mglru_run_in_new("a");
	vma = tb_map_anon(256);
	tb_touch_range(vma, 256, true);
	lru_add_drain();
	id = tb_memcg_id("a");
	lruvec = tb_lruvec_of("a");
	max_seq = lruvec->lrugen.max_seq;
	/*
	 * faulted in: the youngest generation (folio_add_lru() in a fault;
	 * 7.2, lru_gen_fault_referenced: PG_referenced, the second youngest)
	 */
	for (i = 0; i < 256; i++)
		assert_int_equal(folio_lru_gen(tb_vma_folio(vma, i)),
				 lru_gen_from_seq(max_seq - TB_HAVE_lru_gen_fault_referenced));

	/*
	 * The walk runs before inc_max_seq(): young folios go to the then
	 * youngest generation, and the new one starts empty. The faults'
	 * accessed bits are all cleared on the way.
	 */
	assert_true(tb_lru_gen_cmd("+ %u 0 %lu 1 1", id, max_seq) > 0);
	assert_int_equal(lruvec->lrugen.max_seq, max_seq + 1);
	for (i = 0; i < 256; i++)
		assert_int_equal(folio_lru_gen(tb_vma_folio(vma, i)), lru_gen_from_seq(max_seq));

	/* only the first half is touched again: only it moves up next time */
	for (i = 0; i < 128; i++)
		assert_int_equal(tb_touch(vma, i, false), 0);
	assert_true(tb_lru_gen_cmd("+ %u 0 %lu 1 1", id, max_seq + 1) > 0);
	young_gen = lru_gen_from_seq(max_seq + 1);
	for (i = 0; i < 256; i++) {
		int gen = folio_lru_gen(tb_vma_folio(vma, i));

		if (i < 128)
			assert_int_equal(gen, young_gen);
		else
			assert_int_equal(gen, lru_gen_from_seq(max_seq));
	}
	tb_assert_lrus_consistent();
}

/*
 * A command without swappiness (the field omitted, read as -1) takes
 * get_swappiness() of the lruvec: with 64 MiB of swap the memcg's 60, so
 * "+ memcg node seq" ages at can_swap 1 (and force_scan, the omitted opt
 * being -1 too) and the walk clears the anon ptes' accessed bits. At
 * swappiness 0 it would skip the anon vma (should_skip_vma()).
 */
static void aging_command_without_swappiness_walks_anon_when_swap_is_there(void **state)
{
	struct lruvec *lruvec;
	struct tb_vma *vma;
	unsigned long i, max_seq;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	vma = tb_map_anon(64);
	tb_touch_range(vma, 64, true);
	lru_add_drain();
	lruvec = tb_lruvec_of("a");
	max_seq = lruvec->lrugen.max_seq;
	for (i = 0; i < 64; i++)
		assert_true(tb_vma_pte_young(vma, i));

	assert_true(tb_lru_gen_cmd("+ %u 0 %lu", tb_memcg_id("a"), max_seq) > 0);
	assert_int_equal(lruvec->lrugen.max_seq, max_seq + 1);
	for (i = 0; i < 64; i++)
		assert_false(tb_vma_pte_young(vma, i));
	tb_assert_lrus_consistent();
}

/*
 * The same command without swap: get_swappiness() is 0 (no swap to
 * evict anon to), the aging is at can_swap 0 and the walk leaves the anon
 * vma alone; the omitted swappiness is not taken as it is (-1, which
 * as a bool would be can_swap 1).
 */
static void aging_command_without_swappiness_skips_anon_without_swap(void **state)
{
	struct lruvec *lruvec;
	struct tb_vma *vma;
	unsigned long max_seq;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	vma = tb_map_anon(64);
	tb_touch_range(vma, 64, true);
	lru_add_drain();
	lruvec = tb_lruvec_of("a");
	max_seq = lruvec->lrugen.max_seq;

	assert_true(tb_lru_gen_cmd("+ %u 0 %lu", tb_memcg_id("a"), max_seq) > 0);
	assert_int_equal(lruvec->lrugen.max_seq, max_seq + 1);
	assert_true(tb_vma_pte_young(vma, 0));
	assert_true(tb_vma_pte_young(vma, 63));
	tb_assert_lrus_consistent();
}

/* MGLRU on, memcg "a" holding f's pages read once; a's memcg id */
static unsigned short a_reads_once(struct tb_file *f, unsigned long pages)
{
	tb_mglru_run_in_new("a");
	tb_read_range(f, pages);
	lru_add_drain();
	return tb_memcg_id("a");
}

/*
 * "- memcg node seq swappiness nr_to_reclaim" runs evict_folios() until
 * the oldest generation of the type is past seq: page cache read once
 * sits in min_seq + 1 (lru_gen_add_folio()'s case 4) and goes, with the
 * evictions counted as the memcg's pgsteal.
 */
static void eviction_command_evicts_the_oldest_generations(void **state)
{
	struct tb_file *f = tb_file_create(512);
	unsigned short id = a_reads_once(f, 512);
	struct lruvec *lruvec = tb_lruvec_of("a");

	assert_int_equal(tb_gen_pages(lruvec, LRU_GEN_FILE), 512);
	assert_int_equal(tb_lru_gen_cmd("- %u 0 2 0 0", id), -EINVAL);	/* seq + MIN_NR_GENS > max_seq */
	assert_true(tb_lru_gen_cmd("- %u 0 1 0 1000", id) > 0);
	assert_int_equal(tb_file_cached(f), 0);
	assert_int_equal(tb_stat("a", "pgsteal"), 512);
	assert_true(lruvec->lrugen.min_seq[LRU_GEN_FILE] >= 2);
	tb_assert_lrus_consistent();
}

/*
 * A kernel bug (6.12): run_eviction() rejects a seq past max_seq -
 * MIN_NR_GENS with "seq + MIN_NR_GENS > max_seq", in unsigned arithmetic,
 * so ULONG_MAX - 1 wraps to 0 and passes: the command a user meant as out
 * of range evicts everything it can (as seq max_seq - 2 would), where
 * seq 2 on the same lruvec is -EINVAL.
 */
static void eviction_command_accepts_a_seq_that_wraps_past_max_seq(void **state)
{
	struct tb_file *f = tb_file_create(512);
	unsigned short id = a_reads_once(f, 512);

	assert_int_equal(tb_lru_gen_cmd("- %u 0 2 0 1000", id), -EINVAL);
	assert_int_equal(tb_file_cached(f), 512);
	assert_true(tb_lru_gen_cmd("- %u 0 %lu 0 1000", id, ULONG_MAX - 1) > 0);
	assert_int_equal(tb_file_cached(f), 0);
	assert_int_equal(tb_stat("a", "pgsteal"), 512);
	tb_assert_lrus_consistent();
}

/*
 * run_eviction() evicts until the oldest generation is past seq, while
 * no signal is pending: with one pending (SIGKILL to the writer) the
 * command is -EINTR before evicting anything.
 */
static void eviction_command_is_interrupted_by_a_pending_signal(void **state)
{
	struct tb_file *f = tb_file_create(512);
	unsigned short id;
	struct tb_task *t;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_mglru_switch_on();
	t = tb_run_in("a");
	tb_read_range(f, 512);
	lru_add_drain();
	id = tb_memcg_id("a");
	tb_task_signal(t, SIGKILL);
	assert_int_equal(tb_lru_gen_cmd("- %u 0 1 0 1000", id), -EINTR);
	assert_int_equal(tb_file_cached(f), 512);
	assert_int_equal(tb_stat("a", "pgsteal"), 0);
}

/* ---- reclaim ---- */

/*
 * memory.reclaim with MGLRU on goes through lru_gen_shrink_lruvec(): the
 * older page cache (read, then aged past) is evicted before the newer.
 */
static void memory_reclaim_evicts_older_generations_first(void **state)
{
	struct tb_file *old = tb_file_create(1024), *new = tb_file_create(1024);
	unsigned short id;

	tb_mglru_run_in_new("a");
	id = tb_memcg_id("a");
	tb_read_range(old, 1024);
	lru_add_drain();
	assert_true(tb_lru_gen_cmd("- %u 0 0 0 0", id) > 0);
	assert_true(tb_lru_gen_cmd("+ %u 0 3 0 1", id) > 0);
	tb_read_range(new, 1024);
	lru_add_drain();
	assert_write_ok("a", "memory.reclaim", "2M");
#if TB_HAVE_mglru_evict_budget
	/*
	 * Each call evicts evictable >> priority at each priority (from 11,
	 * then from 10 with fewer than 2048 pages left) until it has its
	 * quarter of what is left, at least SWAP_CLUSTER_MAX: 184, 109, 103,
	 * 47, 46 and 46 pages, 535 (the unreferenced new page of each lru_add
	 * batch, in the old generation too, is at its head: not reached).
	 */
	assert_int_equal(tb_file_cached(old), 1024 - 535);
#elif TB_HAVE_reclaim_quarter_batches
	assert_int_equal(tb_file_cached(old), 1024 - 512);
#else
	/*
	 * One call for all 512 pages; memcg eviction stops at nr_to_scan,
	 * not at nr_to_reclaim (should_abort_scan()): 2048 >> priority is 0
	 * at priority 12, then whole batches: 1 at each of priorities 11..5,
	 * 2 at priority 4, 576 pages.
	 */
	assert_int_equal(tb_file_cached(old), 1024 - 9 * MIN_LRU_BATCH);
#endif
	assert_int_equal(tb_file_cached(new), 1024);
	tb_assert_lrus_consistent();
}

/*
 * Eviction that finds a folio's pte young keeps the folio, and its
 * neighbours too: the rmap walk (folio_referenced()) hands the young pte
 * to lru_gen_look_around(), which clears the young ptes around it in the
 * same page table, within the vma, and moves their folios to the youngest
 * generation; their own rmap walks then find their ptes old. Anonymous
 * folios aged twice to the oldest generation, then touched again: an
 * eviction command for that generation swaps none of them out.
 */
static void eviction_keeps_folios_whose_ptes_are_young(void **state)
{
	struct lruvec *lruvec;
	unsigned long max_seq;
	struct tb_vma *vma;
	unsigned short id;

	tb_mglru_run_in_new("a");
	vma = tb_map_anon(16);
	tb_touch_range(vma, 16, true);
	lru_add_drain();
	id = tb_memcg_id("a");
	lruvec = tb_lruvec_of("a");
	max_seq = lruvec->lrugen.max_seq;
	/* the walk clears the faults' accessed bits; nothing touches them between */
	assert_true(tb_lru_gen_cmd("+ %u 0 %lu 1 1", id, max_seq) > 0);
	assert_true(tb_lru_gen_cmd("+ %u 0 %lu 1 1", id, max_seq + 1) > 0);
	tb_touch_range(vma, 16, false);
	assert_true(tb_lru_gen_cmd("- %u 0 %lu 200 16", id, max_seq) > 0);
	assert_int_equal(tb_vma_resident(vma), 16);
	assert_int_equal(tb_swap_used(), 0);
	tb_assert_lrus_consistent();
}

/* ---- the memcg LRU ---- */

/*
 * lru_gen_online_memcg() puts each node's lruvec of a new memcg at the
 * tail of a random bin of the node's old generation (memcg_lru.seq);
 * lru_gen_offline_memcg() moves it to the old generation's head
 * (MEMCG_LRU_OLD), and lru_gen_release_memcg() takes it off.
 */
#if TB_HAVE_mglru_memcg
static void memcgs_join_and_leave_the_node_memcg_lru(void **state)
{
	struct lru_gen_memcg *lru = &NODE_DATA(0)->memcg_lru;
	unsigned long nr, old;
	struct lruvec *lruvec;

	tb_mglru_switch_on();
	old = READ_ONCE(lru->seq) % MEMCG_NR_GENS;
	nr = lru->nr_memcgs[old];
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	lruvec = tb_lruvec_of("a");
	assert_int_equal(lru->nr_memcgs[old], nr + 1);
	assert_int_equal(lruvec->lrugen.gen, READ_ONCE(lru->seq) % MEMCG_NR_GENS);
	assert_int_equal(lruvec->lrugen.seg, 0);
	assert_int_equal(tb_cgroup_rmdir("a"), 0);
	kshim_rcu_quiesce();
	assert_int_equal(lru->nr_memcgs[old], nr);
}
#else
static void memcgs_join_and_leave_the_node_memcg_lru(void **state)
{
	tb_skip("no memcg LRU before 6.3 (struct lru_gen_memcg, lru_gen_online_memcg())");
}
#endif

/* ---- memory.low ---- */

/*
 * Global reclaim with MGLRU on goes through lru_gen_shrink_node() and the
 * memcg LRU: shrink_one() meets p below its memory.low, and the first
 * time moves it to the tail of its bin (MEMCG_LRU_TAIL) instead; the next
 * time its lruvec's seg is the tail, it counts a "low" event and reclaims
 * it. So while u still streams page cache, p loses some of its protected
 * cache, which the classic shrink_node_memcgs() spares until nothing else
 * is left (test_reclaim_scan's
 * global_reclaim_spares_memory_low_until_nothing_else_is_left).
 */
static void global_reclaim_reclaims_a_memcg_below_low_on_its_second_visit(void **state)
{
	struct tb_file *f = tb_file_create(1024), *stream = tb_file_create(PAGES(96 * MB));
#if !TB_HAVE_mglru_memcg
	tb_skip("no memcg LRU before 6.3: global reclaim walks memcgs with mem_cgroup_iter()");
#endif

	assert_int_equal(tb_cgroup_mkdir("p"), 0);
	assert_int_equal(tb_cgroup_mkdir("u"), 0);
	assert_write_ok("p", "memory.low", "8M");
	tb_mglru_switch_on();
	tb_run_in("p");
	tb_read_range(f, 1024);
	tb_run_in("u");
	tb_read_range(stream, PAGES(96 * MB));
	assert_true(tb_file_cached(stream) > 0);
	assert_true(tb_cgroup_read_key("p", "memory.events", "low") > 0);
	assert_true(tb_stat("p", "pgsteal") > 0);
	assert_true(tb_file_cached(f) < 1024);
	tb_assert_lrus_consistent();
}

/*
 * A charge that may not start I/O (GFP_NOIO), at memory.max, where the
 * oldest generation is anon's (its page cache read once was evicted,
 * then 128 pages more were read): isolate_folios() picks anon,
 * isolate_folio() refuses every anon folio not yet in the swap cache
 * ("swap constrained": add_to_swap() would start I/O) and scan_folios()
 * isolates none; the page cache has only MIN_NR_GENS generations, so
 * scan_folios() does not scan it, and should_run_aging() sees anon's
 * cold generations and does not age. Nothing is reclaimed: after
 * MAX_RECLAIM_RETRIES the charge OOM-kills the task, with 128 pages of
 * clean page cache in the memcg. (The classic LRU reclaims them:
 * test_reclaim_memcg's noio case.)
 * 7.2 (lru_tier_workingset): the anon folios the walk promoted are
 * PG_workingset, the last tier, and sort_folio() protects them into the
 * next generation, none isolated; anon's cold generations emptied,
 * should_run_aging() ages at priority 1, the page cache has a third
 * generation and one batch of it is evicted: the charges succeed.
 */
static void noio_charge_oom_kills_unless_workingset_anon_is_sorted_out(void **state)
{
	struct tb_file *once = tb_file_create(16), *f = tb_file_create(128);
	/* one charge batch: the first charge's reclaim serves them all */
	struct folio *folios[MEMCG_CHARGE_BATCH];
	struct lruvec *lruvec;
	struct tb_vma *vma;
	unsigned long seq;
	unsigned int n;
	int err = 0;

	tb_mglru_run_in_new("a");
	vma = tb_map_anon(256);
	tb_touch_range(vma, 256, true);
	tb_read_range(once, 16);
	lru_add_drain();
	lruvec = tb_lruvec_of("a");
	seq = lruvec->lrugen.max_seq;
	assert_true(tb_lru_gen_cmd("+ %u 0 %lu 1 1", tb_memcg_id("a"), seq) > 0);
	assert_true(tb_lru_gen_cmd("+ %u 0 %lu 1 1", tb_memcg_id("a"), seq + 1) > 0);
	assert_true(tb_lru_gen_cmd("- %u 0 %lu 0 1000", tb_memcg_id("a"), seq) > 0);
	assert_int_equal(tb_file_cached(once), 0);
	tb_read_range(f, 128);
	lru_add_drain();
	assert_true(lruvec->lrugen.min_seq[LRU_GEN_ANON] < lruvec->lrugen.min_seq[LRU_GEN_FILE]);
	assert_int_equal(lruvec->lrugen.max_seq - lruvec->lrugen.min_seq[LRU_GEN_FILE] + 1,
			 MIN_NR_GENS);
	tb_limit_to_current("a");

	for (n = 0; n < ARRAY_SIZE(folios); n++) {
		folios[n] = tb_folio_charge(1, GFP_NOIO, &err);
		if (err)
			break;
	}
#if TB_HAVE_lru_tier_workingset
	assert_int_equal(err, 0);
	assert_int_equal(tb_cgroup_read_key("a", "memory.events", "oom_kill"), 0);
	assert_int_equal(tb_file_cached(f), 128 - MIN_LRU_BATCH);
	assert_int_equal(tb_stat("a", "pgsteal"), 16 + MIN_LRU_BATCH);
#else
	assert_int_equal(err, -ENOMEM);
	assert_true(n < ARRAY_SIZE(folios));
	assert_int_equal(tb_cgroup_read_key("a", "memory.events", "oom_kill"), 1);
	assert_int_equal(tb_file_cached(f), 128);
	assert_int_equal(tb_stat("a", "pgsteal"), 16);	/* the debugfs eviction's */
#endif
	assert_int_equal(tb_vma_resident(vma), 256);
	assert_int_equal(tb_swap_used(), 0);
	while (n--)
		tb_folio_uncharge(folios[n]);
	tb_assert_lrus_consistent();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		TB_RECLAIM_TEST(enabled_reads_back_the_caps_written),
		TB_RECLAIM_SWAP_TEST(switching_moves_every_folio_and_loses_none),
		TB_RECLAIM_SWAP_TEST(switching_moves_more_than_a_batch_in_several_rounds),
		TB_RECLAIM_SWAP_TEST(switching_on_places_each_classic_list_in_its_generation),
		TB_RECLAIM_TEST(debugfs_lists_each_memcg_with_its_generations),
		TB_RECLAIM_TEST(debugfs_rejects_malformed_commands_with_the_handlers_errors),
		TB_RECLAIM_TEST(debugfs_runs_commands_in_order_up_to_the_first_that_fails),
		TB_RECLAIM_TEST(debugfs_returns_enomem_when_its_allocations_fail),
		TB_RECLAIM_SWAP_TEST(aging_moves_folios_with_young_ptes_to_the_new_generation),
		TB_MGLRU_SWAP_TEST(aging_command_without_swappiness_walks_anon_when_swap_is_there),
		TB_MGLRU_TEST(aging_command_without_swappiness_skips_anon_without_swap),
		TB_RECLAIM_TEST(eviction_command_evicts_the_oldest_generations),
		TB_RECLAIM_TEST(eviction_command_accepts_a_seq_that_wraps_past_max_seq),
		TB_RECLAIM_TEST(eviction_command_is_interrupted_by_a_pending_signal),
		TB_RECLAIM_SWAP_TEST(noio_charge_oom_kills_unless_workingset_anon_is_sorted_out),
		TB_RECLAIM_TEST(memory_reclaim_evicts_older_generations_first),
		TB_RECLAIM_SWAP_TEST(eviction_keeps_folios_whose_ptes_are_young),
		TB_RECLAIM_TEST(memcgs_join_and_leave_the_node_memcg_lru),
		TB_RECLAIM_TEST(global_reclaim_reclaims_a_memcg_below_low_on_its_second_visit),
	};

	return TB_RUN(tests);
}
