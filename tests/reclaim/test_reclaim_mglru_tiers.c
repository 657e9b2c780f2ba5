// SPDX-License-Identifier: GPL-2.0-only
/*
 * Tiers and the refault feedback of the multi-gen LRU (mm/vmscan.c's PID
 * controller), and lru_gen_min_ttl.
 *
 * A folio read N times through a file descriptor is in tier
 * order_base_2(N): folio_inc_refs() (folio_mark_accessed() with MGLRU on)
 * sets PG_referenced, then PG_workingset, then counts in LRU_REFS. The
 * eviction (sort_folio()) protects a folio of a tier above the one
 * get_tier_idx() returns -- the last tier whose refault rate
 * refaulted / (evicted + protected) is not above tier 0's (gain 1:2), or
 * that has fewer than MIN_LRU_BATCH refaults -- by moving it to the next
 * generation, and always protects a folio whose refs are saturated.
 * lru_gen_eviction() counts each eviction in evicted[] of its tier,
 * lru_gen_refault() each refault of a folio evicted from the current
 * oldest generation in refaulted[]; sort_folio() counts protected[].
 *
 * The machine has no swap: get_swappiness() is 0 and only page cache is
 * evicted, its tier chosen by get_tier_idx().
 */
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/mm_inline.h>
#include <linux/memcontrol.h>
#include <linux/vmstat.h>
#include <kshim/testbed.h>
#include <kshim/reclaim.h>
#include <string.h>
#include <sys/mman.h>
#include "tb_mglru.h"

#define F LRU_GEN_FILE

/* the history slot of the oldest file generation (NR_HIST_GENS is 1 here) */
static int file_hist(struct lruvec *lruvec)
{
	return lru_hist_from_seq(READ_ONCE(lruvec->lrugen.min_seq[F]));
}

static unsigned long evicted(struct lruvec *lruvec, int tier)
{
	return atomic_long_read(&lruvec->lrugen.evicted[file_hist(lruvec)][F][tier]);
}

static unsigned long refaulted(struct lruvec *lruvec, int tier)
{
	return atomic_long_read(&lruvec->lrugen.refaulted[file_hist(lruvec)][F][tier]);
}

/* folios of a tier that sort_folio() protected in this generation */
static unsigned long protected(struct lruvec *lruvec, int tier)
{
	return tb_protected(lruvec, file_hist(lruvec), F, tier);
}

static unsigned long cached(struct tb_file *f, unsigned long from, unsigned long to)
{
	unsigned long i, n = 0;

	for (i = from; i < to; i++)
		n += tb_file_folio(f, i) != NULL;
	return n;
}

static void read_n_times(struct tb_file *f, unsigned long from, unsigned long to, int n)
{
	unsigned long i;
	int k;

	for (i = from; i < to; i++)
		for (k = 0; k < n; k++)
			assert_int_equal(tb_file_read(f, i), 0);
}

/*
 * reads pages [from, to) of f n times each, the CPU's lru_add batch
 * drained after each page: each page is marked accessed before
 * lru_gen_add_folio() places it (see a_reads_twice_and_once())
 */
static void read_n_times_drained(struct tb_file *f, unsigned long from, unsigned long to, int n)
{
	unsigned long i;

	for (i = from; i < to; i++) {
		read_n_times(f, i, i + 1, n);
		lru_add_drain();
	}
}

/*
 * memcg "a" reads each page of t twice (tier 1) and of o once (tier 0),
 * page by page in turn, so the two interleave in one generation; a's id.
 * The CPU's lru_add batch is drained after each pair, so no page fills it
 * and each is marked accessed before lru_gen_add_folio() places it (7.2,
 * lru_gen_folio_seq: one that is not goes to the oldest generation).
 */
static unsigned short a_reads_twice_and_once(struct tb_file *t, struct tb_file *o)
{
	unsigned long i;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	for (i = 0; i < 512; i++) {
		read_n_times(t, i, i + 1, 2);
		read_n_times(o, i, i + 1, 1);
		lru_add_drain();
	}
	return tb_memcg_id("a");
}

/*
 * The tier line of lru_gen_full for the file type in the oldest
 * generation of "a": lru_gen_seq_show_full() prints refaulted, evicted
 * and protected of the current history slot as "Nr Ne Np".
 */
static void full_tier_line(unsigned long min_seq, int tier, unsigned long *r,
			   unsigned long *e, unsigned long *p)
{
	static char buf[65536];
	char head[64], *s;
	unsigned long n[6];
	char c[6];
	int t;

	assert_true(tb_debugfs_read("lru_gen_full", buf, sizeof(buf)) > 0);
	snprintf(head, sizeof(head), TB_LRU_GEN_HEAD, TB_LRU_GEN_HEAD_ID(tb_memcg("a")), "a");
	s = strstr(buf, head);
	assert_non_null(s);
	/* the generation's line: seq, age, anon and file sizes */
	snprintf(head, sizeof(head), "\n %10lu ", min_seq);
	s = strstr(s, head);
	assert_non_null(s);
	s = strchr(s + 1, '\n') + 1;
	for (t = 0; t < tier; t++)
		s = strchr(s, '\n') + 1;
	assert_int_equal(sscanf(s, " %d %lu%c %lu%c %lu%c %lu%c %lu%c %lu%c", &t,
				&n[0], &c[0], &n[1], &c[1], &n[2], &c[2],
				&n[3], &c[3], &n[4], &c[4], &n[5], &c[5]), 13);
	assert_int_equal(t, tier);
	assert_memory_equal(&c[3], "rep", 3);
	*r = n[3];
	*e = n[4];
	*p = n[5];
}

/*
 * Page cache of two files, page by page: t read twice (tier 1), o read
 * once (tier 0), in one generation, the oldest pages at its tail.
 *
 * Without refaults get_tier_idx() returns the last tier and nothing is
 * protected: the eviction takes t and o in their LRU order. Refaults of
 * t's evicted pages count in tier 1; below MIN_LRU_BATCH of them change
 * nothing, at MIN_LRU_BATCH tier 1's refault rate (64 of 96) is far
 * above tier 0's (0 of 96) and from then on sort_folio() moves t's pages
 * to the next generation (counted as protected) while the eviction takes
 * only o's.
 */
static void folios_read_twice_are_protected_once_their_tier_refaults_more_than_tier_0(void **state)
{
	struct tb_file *t = tb_file_create(512), *o = tb_file_create(512);
	unsigned long i, min_seq, r, e, p;
	struct lruvec *lruvec;
	unsigned short id;

	id = a_reads_twice_and_once(t, o);
	lruvec = tb_lruvec_of("a");
	/* 7.2 (lru_tier_workingset): the refs count PG_referenced too */
	assert_int_equal(folio_lru_refs(tb_file_folio(t, 0)), 1 + TB_HAVE_lru_tier_workingset);
	assert_int_equal(tb_folio_tier(tb_file_folio(t, 0)), 1);
	assert_int_equal(tb_folio_tier(tb_file_folio(o, 0)), 0);

	/* no refaults: two batches of MIN_LRU_BATCH, t and o alike */
	assert_true(tb_lru_gen_cmd("- %u 0 1 0 %d", id, 2 * MIN_LRU_BATCH) > 0);
	min_seq = lruvec->lrugen.min_seq[F];
	assert_int_equal(cached(t, 0, 512), 512 - MIN_LRU_BATCH);
	assert_int_equal(cached(o, 0, 512), 512 - MIN_LRU_BATCH);
	assert_int_equal(evicted(lruvec, 1), MIN_LRU_BATCH);
	assert_int_equal(evicted(lruvec, 0), MIN_LRU_BATCH);
	assert_int_equal(protected(lruvec, 1), 0);

	/* one refault short of MIN_LRU_BATCH: still no protection */
	read_n_times(t, 0, MIN_LRU_BATCH - 1, 1);
	assert_int_equal(refaulted(lruvec, 1), MIN_LRU_BATCH - 1);
	assert_int_equal(refaulted(lruvec, 0), 0);
	assert_int_equal(tb_stat("a", "workingset_refault_file"), MIN_LRU_BATCH - 1);
	assert_true(tb_lru_gen_cmd("- %u 0 1 0 %d", id, MIN_LRU_BATCH) > 0);
	assert_int_equal(lruvec->lrugen.min_seq[F], min_seq);
	assert_int_equal(protected(lruvec, 1), 0);
	assert_int_equal(evicted(lruvec, 1), MIN_LRU_BATCH + MIN_LRU_BATCH / 2);
	assert_int_equal(evicted(lruvec, 0), MIN_LRU_BATCH + MIN_LRU_BATCH / 2);

	/* the 64th refault turns tier 1's protection on */
	read_n_times(t, MIN_LRU_BATCH - 1, MIN_LRU_BATCH, 1);
	assert_int_equal(refaulted(lruvec, 1), MIN_LRU_BATCH);
	assert_true(tb_lru_gen_cmd("- %u 0 1 0 %d", id, MIN_LRU_BATCH) > 0);
	assert_int_equal(lruvec->lrugen.min_seq[F], min_seq);
	assert_int_equal(protected(lruvec, 1), MIN_LRU_BATCH);
	assert_int_equal(evicted(lruvec, 1), MIN_LRU_BATCH + MIN_LRU_BATCH / 2);
	assert_int_equal(evicted(lruvec, 0), 2 * MIN_LRU_BATCH + MIN_LRU_BATCH / 2);
	/* the protected pages went up one generation with their refs cleared */
	for (i = MIN_LRU_BATCH + MIN_LRU_BATCH / 2; i < 2 * MIN_LRU_BATCH + MIN_LRU_BATCH / 2; i++) {
		struct folio *folio = tb_file_folio(t, i);

		assert_non_null(folio);
		assert_int_equal(folio_lru_gen(folio), lru_gen_from_seq(min_seq + 1));
		assert_int_equal(folio_lru_refs(folio), 0);
	}

	/* lru_gen_full shows the same counters for the oldest generation */
	full_tier_line(min_seq, 1, &r, &e, &p);
	assert_int_equal(r, refaulted(lruvec, 1));
	assert_int_equal(e, evicted(lruvec, 1));
	assert_int_equal(p, protected(lruvec, 1));
	tb_assert_lrus_consistent();
}

/*
 * The protection follows the rates, not the tier alone: once o's pages
 * refault as well, tier 0's rate catches up with tier 1's and t's pages
 * are evicted again.
 */
static void protection_ends_when_tier_0_refaults_as_much(void **state)
{
	struct tb_file *t = tb_file_create(512), *o = tb_file_create(512);
	unsigned long t_left, o_left;
	struct lruvec *lruvec;
	unsigned short id;

	id = a_reads_twice_and_once(t, o);
	lruvec = tb_lruvec_of("a");
	assert_true(tb_lru_gen_cmd("- %u 0 1 0 %d", id, 2 * MIN_LRU_BATCH) > 0);
	read_n_times(t, 0, MIN_LRU_BATCH, 1);
	assert_true(tb_lru_gen_cmd("- %u 0 1 0 %d", id, MIN_LRU_BATCH) > 0);
	assert_int_equal(protected(lruvec, 1), MIN_LRU_BATCH);
	assert_int_equal(evicted(lruvec, 0), 2 * MIN_LRU_BATCH);

	/* every evicted page of o refaults: 128 of 128 against tier 1's 64 of 128 */
	read_n_times(o, 0, 2 * MIN_LRU_BATCH, 1);
	assert_int_equal(refaulted(lruvec, 0), 2 * MIN_LRU_BATCH);
	t_left = cached(t, 0, 512);
	o_left = cached(o, 0, 512);
	assert_true(tb_lru_gen_cmd("- %u 0 1 0 %d", id, MIN_LRU_BATCH) > 0);
	assert_int_equal(protected(lruvec, 1), MIN_LRU_BATCH);
	assert_true(cached(t, 0, 512) < t_left);
	assert_int_equal(t_left - cached(t, 0, 512) + o_left - cached(o, 0, 512), MIN_LRU_BATCH);
	tb_assert_lrus_consistent();
}

/*
 * What sort_folio() protected counts in its tier's total (read_ctrl_pos()),
 * and tier 1 gets the gain 2 against tier 0's 1 (get_tier_idx()). A batch
 * of t and o evicted, t's 64 evicted pages refault, and two batches later
 * tier 1 has refaulted 64, evicted 64 and protected 128, tier 0 (o)
 * evicted 192. With 30 of o's evicted pages refaulting, positive_ctrl_err()
 * finds 64 * (192 + 64) * 1 above 31 * 192 * 2: tier 1 stays protected.
 * With 50 (the next batch counted: tier 0 evicted 256, tier 1 protected
 * 192), 64 * (256 + 64) * 1 is at most 51 * 256 * 2: tier 1 is no longer
 * above tier 0, the protection ends and t's pages are evicted again.
 * (Without the protected in tier 1's total it would go on until 159.)
 * 7.2 (lru_gen_tier_gain_2_3): gains 2 and 3, 64 * 256 * 2 above
 * 31 * 192 * 3, and the protection ends at 53: 64 * 320 * 2 is at most
 * 54 * 256 * 3, not 53 * 256 * 3.
 */
static void protected_folios_count_in_the_refault_rate_of_their_tier(void **state)
{
	struct tb_file *t = tb_file_create(512), *o = tb_file_create(512);
	unsigned long ends = TB_HAVE_lru_gen_tier_gain_2_3 ? 53 : 50;
	unsigned long t_left, o_left;
	struct lruvec *lruvec;
	unsigned short id;

	id = a_reads_twice_and_once(t, o);
	lruvec = tb_lruvec_of("a");
	assert_true(tb_lru_gen_cmd("- %u 0 1 0 %d", id, 2 * MIN_LRU_BATCH) > 0);
	read_n_times(t, 0, MIN_LRU_BATCH, 1);
	assert_true(tb_lru_gen_cmd("- %u 0 1 0 %d", id, MIN_LRU_BATCH) > 0);
	assert_true(tb_lru_gen_cmd("- %u 0 1 0 %d", id, MIN_LRU_BATCH) > 0);
	assert_int_equal(refaulted(lruvec, 1), MIN_LRU_BATCH);
	assert_int_equal(evicted(lruvec, 1), MIN_LRU_BATCH);
	assert_int_equal(protected(lruvec, 1), 2 * MIN_LRU_BATCH);
	assert_int_equal(refaulted(lruvec, 0), 0);
	assert_int_equal(evicted(lruvec, 0), 3 * MIN_LRU_BATCH);

	/* 30 refaults: 64 * (192 + 64) * 1 > 31 * 192 * 2, still protected */
	read_n_times(o, 0, 30, 1);
	assert_int_equal(refaulted(lruvec, 0), 30);
	t_left = cached(t, 0, 512);
	o_left = cached(o, 0, 512);
	assert_true(tb_lru_gen_cmd("- %u 0 1 0 %d", id, MIN_LRU_BATCH) > 0);
	assert_int_equal(protected(lruvec, 1), 3 * MIN_LRU_BATCH);
	assert_int_equal(cached(t, 0, 512), t_left);
	assert_int_equal(o_left - cached(o, 0, 512), MIN_LRU_BATCH);

	/* 50: 64 * (256 + 64) * 1 <= 51 * 256 * 2, the protection ends (7.2: 53) */
	read_n_times(o, 30, ends, 1);
	assert_int_equal(refaulted(lruvec, 0), ends);
	t_left = cached(t, 0, 512);
	o_left = cached(o, 0, 512);
	assert_true(tb_lru_gen_cmd("- %u 0 1 0 %d", id, MIN_LRU_BATCH) > 0);
	/* nothing protected any more: a batch of both, in their LRU order */
	assert_int_equal(protected(lruvec, 1), 3 * MIN_LRU_BATCH);
	assert_int_equal(t_left - cached(t, 0, 512), MIN_LRU_BATCH / 2);
	assert_int_equal(o_left - cached(o, 0, 512), MIN_LRU_BATCH / 2);
	tb_assert_lrus_consistent();
}

/*
 * Saturated refs: the (BIT(LRU_REFS_WIDTH) + 1)th read leaves
 * folio_lru_refs() at BIT(LRU_REFS_WIDTH), and sort_folio() protects such
 * a folio whatever get_tier_idx() says; one read fewer is tier 2, which
 * without refaults is evicted like tier 0.
 */
static void folios_with_saturated_refs_are_protected_without_refaults(void **state)
{
	const int most = BIT(LRU_REFS_WIDTH) + 1;
	struct tb_file *h = tb_file_create(MIN_LRU_BATCH), *q = tb_file_create(MIN_LRU_BATCH);
	struct lruvec *lruvec;
	unsigned long min_seq;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	read_n_times_drained(h, 0, MIN_LRU_BATCH, most);
	read_n_times_drained(q, 0, MIN_LRU_BATCH, most - 1);
	lruvec = tb_lruvec_of("a");
	assert_int_equal(folio_lru_refs(tb_file_folio(h, 0)), BIT(LRU_REFS_WIDTH));
	assert_int_equal(tb_folio_tier(tb_file_folio(q, 0)), 2);

	/* the reads went to generation 1: evict it */
	assert_int_equal(tb_gen_seq_pages(lruvec, 1, F), 2 * MIN_LRU_BATCH);
	assert_true(tb_lru_gen_cmd("- %u 0 1 0 %d", tb_memcg_id("a"), MIN_LRU_BATCH) > 0);
	assert_int_equal(tb_file_cached(h), MIN_LRU_BATCH);
	assert_int_equal(tb_file_cached(q), 0);
	assert_int_equal(folio_lru_gen(tb_file_folio(h, 0)), lru_gen_from_seq(2));
	assert_int_equal(folio_lru_refs(tb_file_folio(h, 0)), 0);
	/*
	 * Generation 1 was empty once the batch was isolated: evict_folios()'s
	 * try_to_inc_min_seq() moved min_seq to 2 and reset_ctrl_pos() folded
	 * the generation's counters into the moving averages (halved) and
	 * cleared them, before shrink_folio_list() evicted the batch. So tier
	 * 3's average holds what was protected, and the batch's evictions
	 * count in the new oldest generation, not in the one they came from.
	 * 7.2 (lru_tier_workingset): the saturated folios are PG_workingset
	 * too, and sort_folio() does not count "the workingset being lazily
	 * promoted": tier 3's average stays 0.
	 */
	min_seq = lruvec->lrugen.min_seq[F];
	assert_int_equal(min_seq, 2);
	assert_int_equal(protected(lruvec, MAX_NR_TIERS - 1), 0);
	assert_int_equal(lruvec->lrugen.avg_total[F][MAX_NR_TIERS - 1],
			 TB_HAVE_lru_tier_workingset ? 0 : MIN_LRU_BATCH / 2);
	assert_int_equal(evicted(lruvec, 2), MIN_LRU_BATCH);
	assert_int_equal(lruvec->lrugen.avg_total[F][2], 0);
	tb_assert_lrus_consistent();
}

/*
 * lru_gen_refault(): the shadow keeps the folio's refs (its tier) and
 * PG_workingset; a refault from the oldest generation counts in the tier
 * of the refs it was evicted with, and counts as an activation. Read
 * through the page cache (not in a fault), only a folio evicted with
 * refs >= BIT(LRU_REFS_WIDTH) - 1 (read four times: PG_referenced,
 * PG_workingset, two in LRU_REFS) comes back as workingset: PG_workingset
 * and a full LRU_REFS, counted in workingset_restore.
 * 7.2 (lru_tier_workingset): the refs count PG_referenced too (a page
 * read k times has k), the shadow keeps refs - 1, and a refault comes
 * back with its refs, as workingset only if it was evicted PG_workingset
 * (none of these: no restore, no activation outside a fault); the read's
 * own folio_mark_accessed() then finds PG_referenced clear and sets it
 * with the refs cleared (lru_gen_inc_refs()): every page has 1.
 * Four groups of 16 pages, read 1, 2, 3 and 4 times, are the oldest of
 * the generation and are evicted; 512 pages read once after them keep
 * the generation (and min_seq) in place.
 */
static void read_refaults_count_in_their_evicted_tier_and_restore_by_refs(void **state)
{
	struct tb_file *f = tb_file_create(64), *pad = tb_file_create(512);
	struct lruvec *lruvec;
	unsigned long min_seq;
	int k;

#if TB_BEFORE_6_4
	tb_skip("asserts 6.12's refault rules; the 6.1 tree's differ and are not followed yet");
#endif
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	for (k = 1; k <= 4; k++)
		read_n_times_drained(f, (k - 1) * 16, k * 16, k);
	read_n_times_drained(pad, 0, 512, 1);
	lruvec = tb_lruvec_of("a");
	for (k = 1; k <= 4; k++)
		assert_int_equal(folio_lru_refs(tb_file_folio(f, (k - 1) * 16)),
				 k - 1 + TB_HAVE_lru_tier_workingset);

	/* the reads went to generation 1 (0 is empty): evict from there */
	assert_true(tb_lru_gen_cmd("- %u 0 1 0 %d", tb_memcg_id("a"), MIN_LRU_BATCH) > 0);
	min_seq = 1;
	assert_int_equal(tb_file_cached(f), 0);
	assert_int_equal(tb_file_cached(pad), 512);
	assert_int_equal(lruvec->lrugen.min_seq[F], min_seq);
	assert_int_equal(evicted(lruvec, 0), 16);
	assert_int_equal(evicted(lruvec, 1), 16);
	assert_int_equal(evicted(lruvec, 2), 32);

	read_n_times(f, 0, 64, 1);
	assert_int_equal(refaulted(lruvec, 0), 16);
	assert_int_equal(refaulted(lruvec, 1), 16);
	assert_int_equal(refaulted(lruvec, 2), 32);
	assert_int_equal(refaulted(lruvec, 3), 0);
	assert_int_equal(tb_stat("a", "workingset_refault_file"), 64);
#if TB_HAVE_lru_tier_workingset
	assert_int_equal(tb_stat("a", "workingset_activate_file"), 0);
	assert_int_equal(tb_stat("a", "workingset_restore_file"), 0);
	assert_false(folio_test_workingset(tb_file_folio(f, 48)));
	assert_int_equal(folio_lru_refs(tb_file_folio(f, 48)), 1);
	assert_false(folio_test_workingset(tb_file_folio(f, 32)));
	assert_int_equal(folio_lru_refs(tb_file_folio(f, 32)), 1);
#else
	assert_int_equal(tb_stat("a", "workingset_activate_file"), 64);
	assert_int_equal(tb_stat("a", "workingset_restore_file"), 16);
	/* the restored ones: PG_workingset and LRU_REFS full */
	assert_true(folio_test_workingset(tb_file_folio(f, 48)));
	assert_int_equal(folio_lru_refs(tb_file_folio(f, 48)), BIT(LRU_REFS_WIDTH));
	assert_false(folio_test_workingset(tb_file_folio(f, 32)));
	assert_int_equal(folio_lru_refs(tb_file_folio(f, 32)), 0);
#endif
	tb_assert_lrus_consistent();
}

/*
 * A refault in a page fault (lru_gen_in_fault()) comes back as workingset
 * whatever its refs: page cache read once (tier 0), evicted, then mapped
 * and touched; it counts in tier 0. 7.2 (lru_tier_workingset): only a
 * folio evicted PG_workingset comes back as workingset, fault or not:
 * these come back PG_referenced only (folio_add_lru() in a fault).
 */
static void refault_in_a_page_fault_from_tier_0_counts_in_tier_0(void **state)
{
	struct tb_file *f = tb_file_create(64), *pad = tb_file_create(512);
	struct lruvec *lruvec;
	unsigned long min_seq;
	struct tb_vma *vma;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	read_n_times_drained(f, 0, 64, 1);
	read_n_times_drained(pad, 0, 512, 1);
	lruvec = tb_lruvec_of("a");
	assert_true(tb_lru_gen_cmd("- %u 0 1 0 %d", tb_memcg_id("a"), MIN_LRU_BATCH) > 0);
	min_seq = 1;
	assert_int_equal(tb_file_cached(f), 0);
	assert_int_equal(lruvec->lrugen.min_seq[F], min_seq);

	vma = tb_map_file(f);
	tb_touch_range(vma, 64, false);
	assert_int_equal(refaulted(lruvec, 0), 64);
	assert_int_equal(tb_stat("a", "workingset_refault_file"), 64);
#if TB_HAVE_lru_tier_workingset
	assert_int_equal(tb_stat("a", "workingset_restore_file"), 0);
	assert_false(folio_test_workingset(tb_file_folio(f, 0)));
	assert_true(folio_test_referenced(tb_file_folio(f, 0)));
#else
	assert_int_equal(tb_stat("a", "workingset_restore_file"), 64);
	assert_true(folio_test_workingset(tb_file_folio(f, 0)));
#endif
	tb_unmap(vma);
	tb_assert_lrus_consistent();
}

/*
 * The PID controller's counters live as long as the oldest generation:
 * inc_max_seq()'s reset_ctrl_pos() (no carryover) clears nothing while
 * NR_HIST_GENS is 1, so a new youngest generation leaves what was evicted
 * and refaulted from the oldest one in place; only min_seq moving on
 * (reset_ctrl_pos() with carryover) folds them, halved, into the moving
 * averages and clears them.
 */
static void tier_counters_outlive_aging_and_are_averaged_when_min_seq_moves(void **state)
{
	struct tb_file *f = tb_file_create(512);
	tb_lrugen_t *lrugen;
	struct lruvec *lruvec;
	unsigned short id;

	tb_skip_before_6_4("mm/vmscan.c's tier counters");

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	read_n_times(f, 0, 512, 1);
	lru_add_drain();
	lruvec = tb_lruvec_of("a");
	lrugen = &lruvec->lrugen;
	id = tb_memcg_id("a");

	/* the reads went to generation 1: one batch evicted, 16 refault */
	assert_true(tb_lru_gen_cmd("- %u 0 1 0 %d", id, MIN_LRU_BATCH) > 0);
	assert_int_equal(lrugen->min_seq[F], 1);
	read_n_times(f, 0, 16, 1);
	assert_int_equal(evicted(lruvec, 0), MIN_LRU_BATCH);
	assert_int_equal(refaulted(lruvec, 0), 16);
	assert_int_equal(lrugen->avg_total[F][0], 0);

	/* a new generation (file keeps min_seq 1): the counters stay */
	assert_true(tb_lru_gen_cmd("+ %u 0 %lu 0 1", id, lrugen->max_seq) > 0);
	assert_int_equal(lrugen->max_seq, MIN_NR_GENS + 2);
	assert_int_equal(lrugen->min_seq[F], 1);
	assert_int_equal(evicted(lruvec, 0), MIN_LRU_BATCH);
	assert_int_equal(refaulted(lruvec, 0), 16);
	assert_int_equal(lrugen->avg_total[F][0], 0);
	assert_int_equal(lrugen->avg_refaulted[F][0], 0);

	/*
	 * The eviction empties generation 1 with its last batch isolated
	 * (the 16 refaulted pages went to the youngest generation, then 3):
	 * min_seq moves past the empty generation 2 to 3 in one step, before
	 * that batch is evicted, so the averages get half of the 448 evicted
	 * and the 16 refaulted before it, and the counters only the batch.
	 */
	assert_true(tb_lru_gen_cmd("- %u 0 1 0 %d", id, 1024) > 0);
	assert_int_equal(tb_file_cached(f), 16);
	assert_int_equal(lrugen->min_seq[F], 3);
	assert_int_equal(lrugen->avg_total[F][0], 7 * MIN_LRU_BATCH / 2);
	assert_int_equal(lrugen->avg_refaulted[F][0], 8);
	assert_int_equal(evicted(lruvec, 0), MIN_LRU_BATCH);
	assert_int_equal(refaulted(lruvec, 0), 0);
	tb_assert_lrus_consistent();
}

/*
 * MADV_COLD with the multi-gen LRU on: folio_deactivate() and
 * lru_deactivate() take every folio (no folio on the multi-gen LRU is
 * PG_active), which lru_gen_add_folio() puts back in the second oldest
 * generation (the oldest when there are only MIN_NR_GENS) with
 * PG_referenced cleared; each counts in PGDEACTIVATE. 7.2
 * (lru_gen_folio_seq): lru_gen_clear_refs() clears the refs first and
 * lru_gen_folio_seq() puts an unreferenced page cache folio in
 * max_seq - MAX_NR_GENS + 1, at least min_seq: the oldest.
 */
static void madvise_cold_moves_mapped_page_cache_to_an_old_generation(void **state)
{
	struct tb_file *f = tb_file_create(16);
	struct lruvec *lruvec;
	struct tb_vma *vma;
	unsigned long seq;
	long global;
	int i;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	read_n_times(f, 0, 16, 3);
	vma = tb_map_file(f);
	tb_touch_range(vma, 16, false);
	lru_add_drain();
	lruvec = tb_lruvec_of("a");
	assert_true(folio_lru_refs(tb_file_folio(f, 0)) > 0);
	global = kshim_vm_event_read(PGDEACTIVATE);

	assert_int_equal(tb_madvise(vma, MADV_COLD), 0);
	lru_add_drain();
	assert_int_equal(kshim_vm_event_read(PGDEACTIVATE), global + 16);
	assert_int_equal(tb_stat("a", "pgdeactivate"), 16);
	seq = lruvec->lrugen.min_seq[F];
#if TB_HAVE_lru_gen_folio_seq
	seq = max(seq, lruvec->lrugen.max_seq + 1 - MAX_NR_GENS);
#else
	if (seq + MIN_NR_GENS < lruvec->lrugen.max_seq)
		seq++;
#endif
	for (i = 0; i < 16; i++) {
		struct folio *folio = tb_file_folio(f, i);

		assert_int_equal(folio_lru_gen(folio), lru_gen_from_seq(seq));
		assert_false(folio_test_referenced(folio));
	}
	tb_unmap(vma);
	tb_assert_lrus_consistent();
}

/*
 * A page queued for deactivation on CPU 1 (MADV_COLD) that becomes
 * unevictable before the batch drains (its file SHM_LOCKed, the folio
 * isolated and put back, as migration would) is left alone by
 * lru_deactivate(): with the multi-gen LRU on, its unevictable test is
 * all that stops it (no folio here is PG_active).
 */
static void page_made_unevictable_while_queued_for_deactivation_stays_unevictable(void **state)
{
	struct tb_file *f = tb_file_create(1);
	struct folio *folio;
	struct tb_vma *vma;
	struct tb_task *t;
	long global;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	t = tb_run_in("a");
	vma = tb_map_file(f);
	tb_touch_range(vma, 1, false);
	lru_add_drain();
	folio = tb_file_folio(f, 0);
	global = kshim_vm_event_read(PGDEACTIVATE);
	assert_int_equal(tb_task_set_cpu(t, 1), 0);
	assert_int_equal(tb_madvise(vma, MADV_COLD), 0);
	assert_int_equal(tb_task_set_cpu(t, 0), 0);

	tb_file_set_unevictable(f, true);
#if TB_HAVE_folio_isolate_lru_bool
	assert_true(folio_isolate_lru(folio));
#else
	assert_int_equal(folio_isolate_lru(folio), 0);
#endif
	folio_putback_lru(folio);
	lru_add_drain();
	assert_true(folio_test_unevictable(folio));
	lru_add_drain_all();
	assert_true(folio_test_unevictable(folio));
	assert_int_equal(kshim_vm_event_read(PGDEACTIVATE), global);
	assert_int_equal(tb_stat("a", "unevictable"), 4096);
	tb_unmap(vma);
	tb_file_set_unevictable(f, false);
}

/* ---- lru_gen_min_ttl ---- */

/* lru_gen_min_ttl is the kernel's static: back to 0 for the next world */
static int min_ttl_teardown(void **state)
{
	ssize_t n = tb_sysfs_write(LRU_GEN_MIN_TTL, "0");

	return tb_reclaim_teardown(state) || n != 1 ? -1 : 0;
}

#define TB_MIN_TTL_TEST(fn) cmocka_unit_test_setup_teardown(fn, tb_mglru_setup, min_ttl_teardown)

struct streamer {
	struct tb_vma *anon;		/* the task's own memory: what an OOM kill frees */
	unsigned long read;		/* pages of the stream read */
	unsigned long cached_at_kill;	/* the stream's page cache when the kill came */
	int err;			/* the last read: -EINTR once the task is a victim */
};

/*
 * A task in path (made by the caller) with 16 MiB of anon (no swap: not reclaimable) reads a
 * 96 MiB file once through the 64 MiB machine; kswapd wakes at the low
 * watermark and balance_pgdat() calls lru_gen_age_node() at each priority
 * before it reclaims. The read costs 100 us of virtual time a page: the
 * whole stream takes under 2.5 s. The task may idle for idle_ms first
 * (virtual time: the jiffies move on with its clock).
 */
static void stream_with_kswapd(struct streamer *s, const char *path, unsigned int idle_ms)
{
	struct tb_file *stream = tb_file_create(PAGES(96 * MB));

	tb_run_in(path);
	if (idle_ms)
		msleep(idle_ms);
	s->anon = tb_map_anon(PAGES(16 * MB));
	tb_touch_range(s->anon, PAGES(16 * MB), true);
	s->err = 0;
	s->cached_at_kill = 0;
	for (s->read = 0; s->read < PAGES(96 * MB); s->read++) {
		s->err = tb_file_read(stream, s->read);
		if (s->err) {
			s->cached_at_kill = tb_file_cached(stream);
			break;
		}
	}
}

/*
 * 20 s later, path is made and a task in it streams with kswapd: what
 * came before is older than min_ttl, path is young
 */
static void stream_in_a_young_memcg(struct streamer *s, const char *path)
{
	kshim_jiffies_advance(20000);
	assert_int_equal(tb_cgroup_mkdir(path), 0);
	stream_with_kswapd(s, path, 0);
}

/* the stream of path was cut short by the one OOM kill, of its task */
static void assert_stream_oom_killed(const struct streamer *s, const char *path)
{
	assert_int_equal(s->err, -EINTR);
	assert_int_equal(kshim_vm_event_read(OOM_KILL), 1);
	assert_int_equal(tb_cgroup_read_key(path, "memory.events", "oom_kill"), 1);
}

/*
 * min_ttl_ms 10000: lruvec_is_reclaimable() finds the oldest file
 * generation of "a" born when "a" was made, under 10 s ago, and the root
 * too small to count (lruvec_is_sizable(): its pages >> priority are 0),
 * so lru_gen_age_node() calls the OOM killer at kswapd's first
 * balance_pgdat(), with tens of MiB of page cache read once still there
 * to reclaim. The victim is the task (the one holding memory); its next
 * read fails.
 */
static void kswapd_oom_kills_while_every_generation_is_younger_than_min_ttl(void **state)
{
	struct streamer s;
	char buf[16];

	assert_int_equal(tb_sysfs_write(LRU_GEN_MIN_TTL, "10000"), 5);
	assert_int_equal(tb_sysfs_read(LRU_GEN_MIN_TTL, buf, sizeof(buf)), 6);
	assert_string_equal(buf, "10000\n");
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	stream_with_kswapd(&s, "a", 0);
#if TB_HAVE_memcgs_need_aging
	/*
	 * lru_gen_age_node() returns at once when !sc->memcgs_need_aging: at
	 * the first call of each balance_pgdat() (kswapd's scan_control
	 * starts with it clear) and after an eviction that reclaimed a
	 * batch without needing aging (lru_gen_shrink_lruvec() clears it).
	 * Read-once page cache never needs aging, so the min_ttl test is
	 * never reached: kswapd reclaims the stream, nobody is killed.
	 */
	assert_int_equal(s.err, 0);
	assert_int_equal(s.read, PAGES(96 * MB));
	assert_int_equal(kshim_vm_event_read(OOM_KILL), 0);
	assert_true(kshim_reclaim_event_read(PGSTEAL_KSWAPD) > 0);
	return;
#endif
	assert_int_equal(s.err, -EINTR);
	assert_int_equal(kshim_vm_event_read(OOM_KILL), 1);
	assert_int_equal(tb_cgroup_read_key("a", "memory.events", "oom_kill"), 1);
	assert_int_equal(tb_vma_resident(s.anon), 0);
	assert_true(s.read < PAGES(64 * MB));
	assert_true(s.cached_at_kill > PAGES(32 * MB));
	assert_int_equal(kshim_reclaim_event_read(PGSTEAL_DIRECT), 0);
	assert_true(tb_world_ns() < 10000000000ULL);
}

/* min_ttl_ms 0 (the default): kswapd reclaims the stream, nobody is killed */
static void kswapd_reclaims_without_oom_kills_at_min_ttl_0(void **state)
{
	struct streamer s;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	stream_with_kswapd(&s, "a", 0);
	assert_int_equal(s.err, 0);
	assert_int_equal(s.read, PAGES(96 * MB));
	assert_int_equal(kshim_vm_event_read(OOM_KILL), 0);
	assert_int_equal(tb_vma_resident(s.anon), PAGES(16 * MB));
	assert_true(kshim_reclaim_event_read(PGSTEAL_KSWAPD) >= PAGES(32 * MB));
}

/*
 * The same min_ttl_ms 10000 with the task idle for 20 s before it
 * streams: the generations of "a" were born when it was made, 20 s
 * before, so the oldest is older than min_ttl and kswapd reclaims it.
 * The stream's pages join that oldest generation (lru_gen_add_folio():
 * min_seq + MIN_NR_GENS >= max_seq) and kswapd evicts them from there, so
 * it never has to age and the oldest generation stays old.
 */
static void kswapd_reclaims_generations_older_than_min_ttl(void **state)
{
	struct streamer s;

	assert_int_equal(tb_sysfs_write(LRU_GEN_MIN_TTL, "10000"), 5);
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	stream_with_kswapd(&s, "a", 20000);
	assert_int_equal(kshim_vm_event_read(OOM_KILL), 0);
	assert_int_equal(s.read, PAGES(96 * MB));
	assert_true(kshim_reclaim_event_read(PGSTEAL_KSWAPD) >= PAGES(32 * MB));
}

/*
 * lruvec_is_reclaimable() looks at the age of a memcg's oldest generation
 * only when the memcg is big enough to count: the root, its generations
 * born at boot 20 s before "a" is made, is older than min_ttl but too
 * small, so it does not spare the machine; "a" is too young: the OOM kill
 * comes as when everything is young.
 */
static void kswapd_oom_kills_though_a_memcg_too_small_to_count_is_older_than_min_ttl(void **state)
{
	struct streamer s;

	tb_skip_before_6_4("lru_gen_age_node()'s min_ttl sizing");
	assert_int_equal(tb_sysfs_write(LRU_GEN_MIN_TTL, "10000"), 5);
	stream_in_a_young_memcg(&s, "a");
	assert_stream_oom_killed(&s, "a");
}

/*
 * lruvec_is_sizable() counts each generation from min_seq to max_seq once:
 * "a" holds 3000 pages of page cache in the oldest of four generations
 * (read into seq 1, aged once: min_seq moves past the empty seq 0), under
 * the 1 << DEF_PRIORITY pages kswapd's first lru_gen_age_node() needs to
 * count it, so its age, older than min_ttl, spares nobody: "b", made 20 s
 * later, streams and is OOM-killed.
 */
static void kswapd_oom_kills_though_an_old_memcg_holds_just_under_a_countable_size(void **state)
{
	struct tb_file *f = tb_file_create(3000);
	struct lruvec *lruvec;
	struct streamer s;

	tb_skip_before_6_4("lru_gen_age_node()'s min_ttl sizing");
	assert_int_equal(tb_sysfs_write(LRU_GEN_MIN_TTL, "10000"), 5);
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	tb_read_range(f, 3000);
	lru_add_drain();
	assert_true(tb_lru_gen_cmd("+ %u 0 %d 0 1", tb_memcg_id("a"), MIN_NR_GENS + 1) > 0);
	lruvec = tb_lruvec_of("a");
	assert_int_equal(lruvec->lrugen.max_seq, MIN_NR_GENS + 2);
	assert_int_equal(lruvec->lrugen.min_seq[F], 1);
	assert_int_equal(tb_gen_seq_pages(lruvec, 1, F), 3000);
	assert_true(3000 >> DEF_PRIORITY == 0 && 6000 >> DEF_PRIORITY);
	stream_in_a_young_memcg(&s, "b");
	assert_stream_oom_killed(&s, "b");
	assert_int_equal(tb_file_cached(f), 3000);
}

/*
 * lruvec_is_reclaimable() leaves out a memcg below its memory.min (the
 * protection lru_gen_age_node() has just computed): "a", old and with
 * 4096 pages of page cache (enough to count at DEF_PRIORITY), is
 * protected by memory.min, so only young "b" is left: kswapd's first
 * lru_gen_age_node() OOM-kills it before anything is reclaimed. (Without
 * the protection "a" counts and kswapd reclaims from it first.)
 */
static void kswapd_oom_kills_though_an_old_memcg_is_protected_by_memory_min(void **state)
{
	struct tb_file *f = tb_file_create(4096);
	struct streamer s;

	assert_int_equal(tb_sysfs_write(LRU_GEN_MIN_TTL, "10000"), 5);
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	assert_write_ok("a", "memory.min", "32M");
	tb_run_in("a");
	tb_read_range(f, 4096);
	lru_add_drain();
	assert_int_equal(tb_gen_pages(tb_lruvec_of("a"), F), 4096);
	stream_in_a_young_memcg(&s, "b");
	assert_stream_oom_killed(&s, "b");
	assert_int_equal(tb_file_cached(f), 4096);
}

/*
 * A removed memcg counts its pages without the priority's shift
 * (lruvec_is_sizable(): not online), but only those on its generations:
 * "x", removed while 16 pages of SHM_LOCKed page cache keep it, has none
 * there, so its age, older than min_ttl, spares nobody and young "b" is
 * OOM-killed.
 */
static void kswapd_oom_kills_though_a_removed_memcg_holding_only_unevictable_pages_is_old(void **state)
{
	struct tb_file *locked = tb_file_create(16);
	struct lruvec *x;
	struct streamer s;

	tb_skip_before_6_4("lru_gen_age_node()'s min_ttl sizing");
	assert_int_equal(tb_sysfs_write(LRU_GEN_MIN_TTL, "10000"), 5);
	assert_int_equal(tb_cgroup_mkdir("x"), 0);
	tb_run_in("x");
	tb_file_set_unevictable(locked, true);
	tb_read_range(locked, 16);
	lru_add_drain();
	x = tb_lruvec_of("x");
	/* from 7.x the pages pin x's obj_cgroup, not x: the case holds x */
	css_get(&lruvec_memcg(x)->css);
	tb_task_exit_all();
	assert_int_equal(tb_cgroup_rmdir("x"), 0);
	assert_false(mem_cgroup_online(lruvec_memcg(x)));
	assert_int_equal(tb_gen_pages(x, LRU_GEN_ANON) + tb_gen_pages(x, F), 0);
	assert_int_equal(tb_file_cached(locked), 16);
	stream_in_a_young_memcg(&s, "b");
	assert_stream_oom_killed(&s, "b");
	tb_file_set_unevictable(locked, false);
	css_put(&lruvec_memcg(x)->css);
}

#define TB_MIN_TTL_SWAP_TEST(fn) \
	cmocka_unit_test_setup_teardown(fn, tb_mglru_setup_swap, min_ttl_teardown)

/*
 * lruvec_is_sizable() counts every generation up to max_seq: "a", made 20 s
 * before and holding 16 MiB of anon only in its youngest generation (the
 * faults' active folios; 7.2, lru_gen_fault_referenced: the second
 * youngest; with swap, anon counts), is big enough and older than
 * min_ttl, so kswapd reclaims while "b", made just before, streams, and
 * nobody is OOM-killed although "b" is young.
 */
static void kswapd_counts_the_young_generations_of_an_old_memcg_as_reclaimable(void **state)
{
	struct lruvec *lruvec;
	struct streamer s;
	struct tb_vma *vma;

	assert_int_equal(tb_sysfs_write(LRU_GEN_MIN_TTL, "10000"), 5);
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	vma = tb_map_anon(PAGES(16 * MB));
	tb_touch_range(vma, PAGES(16 * MB), true);
	lru_add_drain();
	lruvec = tb_lruvec_of("a");
	assert_int_equal(tb_gen_seq_pages(lruvec, lruvec->lrugen.max_seq -
					  TB_HAVE_lru_gen_fault_referenced, LRU_GEN_ANON),
			 PAGES(16 * MB));
	assert_int_equal(tb_gen_pages(lruvec, LRU_GEN_ANON) + tb_gen_pages(lruvec, F),
			 PAGES(16 * MB));
	stream_in_a_young_memcg(&s, "b");
	assert_int_equal(s.err, 0);
	assert_int_equal(s.read, PAGES(96 * MB));
	assert_int_equal(kshim_vm_event_read(OOM_KILL), 0);
	assert_true(kshim_reclaim_event_read(PGSTEAL_KSWAPD) >= PAGES(32 * MB));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		TB_MGLRU_TEST(folios_read_twice_are_protected_once_their_tier_refaults_more_than_tier_0),
		TB_MGLRU_TEST(protection_ends_when_tier_0_refaults_as_much),
		TB_MGLRU_TEST(protected_folios_count_in_the_refault_rate_of_their_tier),
		TB_MGLRU_TEST(folios_with_saturated_refs_are_protected_without_refaults),
		TB_MGLRU_TEST(read_refaults_count_in_their_evicted_tier_and_restore_by_refs),
		TB_MGLRU_TEST(refault_in_a_page_fault_from_tier_0_counts_in_tier_0),
		TB_MGLRU_TEST(tier_counters_outlive_aging_and_are_averaged_when_min_seq_moves),
		TB_MGLRU_TEST(madvise_cold_moves_mapped_page_cache_to_an_old_generation),
		TB_MGLRU_TEST(page_made_unevictable_while_queued_for_deactivation_stays_unevictable),
		TB_MIN_TTL_TEST(kswapd_oom_kills_while_every_generation_is_younger_than_min_ttl),
		TB_MIN_TTL_TEST(kswapd_reclaims_without_oom_kills_at_min_ttl_0),
		TB_MIN_TTL_TEST(kswapd_reclaims_generations_older_than_min_ttl),
		TB_MIN_TTL_TEST(kswapd_oom_kills_though_a_memcg_too_small_to_count_is_older_than_min_ttl),
		TB_MIN_TTL_TEST(kswapd_oom_kills_though_an_old_memcg_holds_just_under_a_countable_size),
		TB_MIN_TTL_TEST(kswapd_oom_kills_though_an_old_memcg_is_protected_by_memory_min),
		TB_MIN_TTL_TEST(kswapd_oom_kills_though_a_removed_memcg_holding_only_unevictable_pages_is_old),
		TB_MIN_TTL_SWAP_TEST(kswapd_counts_the_young_generations_of_an_old_memcg_as_reclaimable),
	};

	return TB_RUN(tests);
}
