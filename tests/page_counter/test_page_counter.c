// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for the real mm/page_counter.c. Every expected value below is
 * derived from the kernel code itself (not from what memcg documentation
 * says it should be), so a change in the kernel's behaviour shows up here.
 */
#include <linux/kernel.h>
#include <linux/errno.h>
#include <linux/page_counter.h>
#include "tb_test.h"
#include <kshim/page_counter.h>

#define MAX_DEPTH 4

/*
 * page_counter_init() sets only usage, max, parent and protection_support:
 * the kernel embeds counters in kzalloc'ed memcgs, so zero them first.
 */
static void chain_init(struct page_counter *pc, int depth, bool prot)
{
	int i;

	memset(pc, 0, sizeof(*pc) * depth);
	for (i = 0; i < depth; i++) {
		kshim_page_counter_init(&pc[i], i ? &pc[i - 1] : NULL, prot);
#if TB_HAVE_page_counter_track_failcnt
		/* 6.14: a counter counts its failures only when its owner asks */
		pc[i].track_failcnt = true;
#endif
	}
}

/* the second peak memory.peak's per-file reset lowers (6.12) */
#if TB_HAVE_page_counter_local_watermark
#define assert_local_watermark(c, v) assert_int_equal((c)->local_watermark, v)
#else
#define assert_local_watermark(c, v) do { } while (0)
#endif

static long usage(struct page_counter *c)
{
	return (long)page_counter_read(c);
}

/* charges land on the counter and every ancestor, uncharges undo them */
static void test_charge_uncharge_depths(void **state)
{
	struct page_counter pc[MAX_DEPTH];
	int depth, i;

	for (depth = 1; depth <= MAX_DEPTH; depth++) {
		struct page_counter *leaf = &pc[depth - 1];

		chain_init(pc, depth, true);
		page_counter_charge(leaf, 3);
		for (i = 0; i < depth; i++)
			assert_int_equal(usage(&pc[i]), 3);

		/* a charge at the root does not reach down to the leaf */
		page_counter_charge(&pc[0], 2);
		assert_int_equal(usage(&pc[0]), 5);
		for (i = 1; i < depth; i++)
			assert_int_equal(usage(&pc[i]), 3);

		page_counter_uncharge(leaf, 3);
		page_counter_uncharge(&pc[0], 2);
		for (i = 0; i < depth; i++) {
			assert_int_equal(usage(&pc[i]), 0);
			assert_int_equal(pc[i].watermark, i ? 3 : 5);
		}
	}
}

/*
 * Limit at level @lvl only (0 = root). try_charge walks leaf to root:
 * levels below @lvl are charged, then cancelled when @lvl refuses.
 */
static void check_fail_at(int lvl)
{
	struct page_counter pc[MAX_DEPTH], *fail = NULL;
	struct page_counter *leaf = &pc[MAX_DEPTH - 1];
	int i;

	chain_init(pc, MAX_DEPTH, true);
	for (i = 0; i < MAX_DEPTH; i++)
		assert_int_equal(page_counter_set_max(&pc[i], i == lvl ? 5 : 10), 0);
	page_counter_charge(leaf, 2);

	/* 2 + 4 = 6 > 5: refused at lvl */
	assert_false(page_counter_try_charge(leaf, 4, &fail));
	assert_ptr_equal(fail, &pc[lvl]);
	for (i = 0; i < MAX_DEPTH; i++) {
		assert_int_equal(usage(&pc[i]), 2);
		assert_int_equal(pc[i].failcnt, i == lvl ? 1 : 0);
		/* levels below lvl keep the transient 6 as their peak */
		assert_int_equal(pc[i].watermark, i > lvl ? 6 : 2);
		assert_local_watermark(&pc[i], i > lvl ? 6 : 2);
	}

	/* 2 + 3 == max: new > max is the test, so this fits */
	fail = NULL;
	assert_true(page_counter_try_charge(leaf, 3, &fail));
	assert_null(fail);
	for (i = 0; i < MAX_DEPTH; i++) {
		assert_int_equal(usage(&pc[i]), 5);
		assert_int_equal(pc[i].failcnt, i == lvl ? 1 : 0);
	}
	page_counter_uncharge(leaf, 5);
}

static void test_try_charge_fail_each_level(void **state)
{
	int lvl;

	for (lvl = 0; lvl < MAX_DEPTH; lvl++)
		check_fail_at(lvl);
}

/* the lowest refusing level is reported, not the root */
static void test_try_charge_fail_first_from_leaf(void **state)
{
	struct page_counter pc[3], *fail = NULL;

	chain_init(pc, 3, false);
	page_counter_set_max(&pc[0], 1);
	page_counter_set_max(&pc[1], 1);
	assert_false(page_counter_try_charge(&pc[2], 2, &fail));
	assert_ptr_equal(fail, &pc[1]);
	assert_int_equal(pc[0].failcnt, 0);
	assert_int_equal(pc[1].failcnt, 1);
	assert_int_equal(usage(&pc[2]), 0);
	assert_int_equal(pc[2].watermark, 2);
}

static void test_set_max(void **state)
{
	struct page_counter pc[2], *fail;

	chain_init(pc, 2, false);
	assert_int_equal(pc[1].max, PAGE_COUNTER_MAX);
	page_counter_charge(&pc[1], 10);

	assert_int_equal(page_counter_set_max(&pc[1], 9), -EBUSY);
	assert_int_equal(pc[1].max, PAGE_COUNTER_MAX);
	assert_int_equal(page_counter_set_max(&pc[1], 10), 0);
	assert_int_equal(pc[1].max, 10);
	assert_false(page_counter_try_charge(&pc[1], 1, &fail));

	/* only the counter's own usage counts: the parent has 10 too */
	assert_int_equal(page_counter_set_max(&pc[0], 9), -EBUSY);
	assert_int_equal(page_counter_set_max(&pc[0], 20), 0);
	assert_int_equal(page_counter_set_max(&pc[1], 15), 0);
	assert_true(page_counter_try_charge(&pc[1], 5, &fail));

	page_counter_uncharge(&pc[1], 15);
	assert_int_equal(page_counter_set_max(&pc[1], 0), 0);
	assert_false(page_counter_try_charge(&pc[1], 1, &fail));
	assert_ptr_equal(fail, &pc[1]);
}

/*
 * A charge from "another CPU" that lands between page_counter_set_max()'s
 * xchg of the limit and its re-read of the usage (kshim_xchg_race).
 */
struct racing_charge {
	struct page_counter *counter;
	unsigned long nr_pages;
};

static void charge_racing(void *arg)
{
	struct racing_charge *r = arg;

	page_counter_charge(r->counter, r->nr_pages);
}

static void race_charge_after_xchg(struct page_counter *c, struct racing_charge *r)
{
	kshim_xchg_race.fn = charge_racing;
	kshim_xchg_race.arg = r;
	kshim_xchg_race.addr = &c->max;
}

/*
 * Lowering the limit while a charge races past it: the re-read sees the
 * usage grown and the limit lowered, so the old limit is put back and the
 * retry finds the usage above the new limit.
 */
static void test_set_max_lowered_under_racing_charge_is_undone(void **state)
{
	struct page_counter pc[1];
	struct racing_charge r = { &pc[0], 3 };

	chain_init(pc, 1, false);
	assert_int_equal(page_counter_set_max(&pc[0], 10), 0);
	page_counter_charge(&pc[0], 5);

	race_charge_after_xchg(&pc[0], &r);
	assert_int_equal(page_counter_set_max(&pc[0], 6), -EBUSY);
	assert_null(kshim_xchg_race.addr);
	assert_int_equal(usage(&pc[0]), 8);
	assert_int_equal(pc[0].max, 10);
}

/*
 * Setting the limit it already has while a charge races past it: the limit
 * did not go down (nr_pages >= old), so the charge was allowed either way
 * and set_max returns 0 at once, though the usage is now above the limit.
 */
static void test_set_max_unchanged_under_racing_charge_succeeds(void **state)
{
	struct page_counter pc[1];
	struct racing_charge r = { &pc[0], 8 };

	chain_init(pc, 1, false);
	assert_int_equal(page_counter_set_max(&pc[0], 10), 0);
	page_counter_charge(&pc[0], 5);

	race_charge_after_xchg(&pc[0], &r);
	assert_int_equal(page_counter_set_max(&pc[0], 10), 0);
	assert_null(kshim_xchg_race.addr);
	assert_int_equal(usage(&pc[0]), 13);
	assert_int_equal(pc[0].max, 10);
}

/* min/low/high are plain stores; high is never enforced by try_charge */
static void test_set_min_low_high(void **state)
{
	struct page_counter pc[2], *fail;

	chain_init(pc, 2, true);
	page_counter_set_min(&pc[1], 7);
	page_counter_set_low(&pc[1], 9);
	page_counter_set_high(&pc[1], 3);
	assert_int_equal(pc[1].min, 7);
	assert_int_equal(pc[1].low, 9);
	assert_int_equal(pc[1].high, 3);
	assert_true(page_counter_try_charge(&pc[1], 5, &fail));
	assert_int_equal(usage(&pc[1]), 5);
	page_counter_uncharge(&pc[1], 5);
}

static void assert_prot(struct page_counter *c, long min_u, long low_u,
			long cmin_u, long clow_u)
{
	assert_int_equal(atomic_long_read(&c->min_usage), min_u);
	assert_int_equal(atomic_long_read(&c->low_usage), low_u);
	assert_int_equal(atomic_long_read(&c->children_min_usage), cmin_u);
	assert_int_equal(atomic_long_read(&c->children_low_usage), clow_u);
}

/* min_usage = min(usage, min), summed into parent->children_min_usage */
static void test_protected_usage(void **state)
{
	struct page_counter pc[3];

	chain_init(pc, 3, true);
	page_counter_set_min(&pc[2], 5);
	page_counter_set_low(&pc[2], 8);
	page_counter_charge(&pc[2], 3);
	assert_prot(&pc[2], 3, 3, 0, 0);
	assert_prot(&pc[1], 0, 0, 3, 3);

	page_counter_charge(&pc[2], 7);		/* usage 10: capped */
	assert_prot(&pc[2], 5, 8, 0, 0);
	assert_prot(&pc[1], 0, 0, 5, 8);

	page_counter_uncharge(&pc[2], 6);	/* usage 4 */
	assert_prot(&pc[2], 4, 4, 0, 0);
	assert_prot(&pc[1], 0, 0, 4, 4);

	/* set_min propagates from the counter itself upwards */
	page_counter_set_min(&pc[1], 2);
	assert_prot(&pc[1], 2, 0, 4, 4);
	assert_prot(&pc[0], 0, 0, 2, 0);

	/* the root has no parent: its own min never turns into min_usage */
	page_counter_set_min(&pc[0], 100);
	assert_prot(&pc[0], 0, 0, 2, 0);

	page_counter_uncharge(&pc[2], 4);
	assert_prot(&pc[2], 0, 0, 0, 0);
	assert_prot(&pc[1], 0, 0, 0, 0);
	assert_prot(&pc[0], 0, 0, 0, 0);
}

/*
 * low_usage is tracked on its own: with no min, a counter whose usage
 * drops to zero drops its low_usage and its parent's children_low_usage
 * to zero too.
 */
static void test_low_usage_follows_usage_without_min(void **state)
{
	struct page_counter pc[2];

	chain_init(pc, 2, true);
	page_counter_set_low(&pc[1], 10);
	page_counter_charge(&pc[1], 5);
	assert_prot(&pc[1], 0, 5, 0, 0);
	assert_prot(&pc[0], 0, 0, 0, 5);

	page_counter_uncharge(&pc[1], 5);
	assert_prot(&pc[1], 0, 0, 0, 0);
	assert_prot(&pc[0], 0, 0, 0, 0);
}

/* set_low protects the usage already charged, before any new charge */
static void test_set_low_protects_current_usage(void **state)
{
	struct page_counter pc[2];

	chain_init(pc, 2, true);
	page_counter_charge(&pc[1], 6);
	page_counter_set_low(&pc[1], 4);
	assert_prot(&pc[1], 0, 4, 0, 0);
	assert_prot(&pc[0], 0, 0, 0, 4);
	page_counter_uncharge(&pc[1], 6);
}

#if TB_HAVE_page_counter_protection_support
/*
 * Without protection_support, charge and cancel skip propagation, but
 * set_min/set_low propagate unconditionally; what they leave is stale.
 */
static void test_no_protection_support(void **state)
{
	struct page_counter pc[2];

	chain_init(pc, 2, false);
	page_counter_set_min(&pc[1], 5);
	page_counter_charge(&pc[1], 3);
	assert_prot(&pc[1], 0, 0, 0, 0);
	assert_prot(&pc[0], 0, 0, 0, 0);

	page_counter_set_min(&pc[1], 5);
	assert_prot(&pc[1], 3, 0, 0, 0);
	assert_prot(&pc[0], 0, 0, 3, 0);

	page_counter_uncharge(&pc[1], 3);	/* stale: still 3 */
	assert_prot(&pc[1], 3, 0, 0, 0);
	assert_prot(&pc[0], 0, 0, 3, 0);
}

/*
 * charge uses the charged counter's flag for every ancestor; uncharge
 * (cancel) uses each ancestor's own flag. A protected leaf under an
 * unprotected parent thus leaves the parent's min_usage stale.
 */
static void test_mixed_protection_flags(void **state)
{
	struct page_counter pc[3];

	chain_init(pc, 3, false);
	pc[2].protection_support = true;
	page_counter_set_min(&pc[1], 10);
	page_counter_charge(&pc[2], 4);
	assert_prot(&pc[1], 4, 0, 0, 0);
	assert_prot(&pc[0], 0, 0, 4, 0);

	page_counter_uncharge(&pc[2], 4);
	assert_prot(&pc[1], 4, 0, 0, 0);
	assert_prot(&pc[0], 0, 0, 4, 0);
}
#else
/*
 * Before protection_support (6.10), charge and cancel propagate protected
 * usage on every counter: nothing is left stale.
 */
static void test_no_protection_support(void **state)
{
	struct page_counter pc[2];

	chain_init(pc, 2, false);
	page_counter_set_min(&pc[1], 5);
	page_counter_charge(&pc[1], 3);
	assert_prot(&pc[1], 3, 0, 0, 0);
	assert_prot(&pc[0], 0, 0, 3, 0);

	page_counter_uncharge(&pc[1], 3);
	assert_prot(&pc[1], 0, 0, 0, 0);
	assert_prot(&pc[0], 0, 0, 0, 0);
}

static void test_mixed_protection_flags(void **state)
{
	tb_skip("no protection_support flag before 6.10: every counter tracks protection");
}
#endif

static void test_watermark(void **state)
{
	struct page_counter pc[2];

	chain_init(pc, 2, false);
	page_counter_charge(&pc[1], 5);
	page_counter_uncharge(&pc[1], 3);
	assert_int_equal(pc[1].watermark, 5);
	assert_local_watermark(&pc[1], 5);

	page_counter_reset_watermark(&pc[1]);
	assert_int_equal(pc[1].watermark, 2);
	assert_local_watermark(&pc[1], 2);
	assert_int_equal(pc[0].watermark, 5);	/* reset is not hierarchical */

	page_counter_charge(&pc[1], 1);
	assert_int_equal(pc[1].watermark, 3);
	assert_local_watermark(&pc[1], 3);

#if TB_HAVE_page_counter_local_watermark
	/* memcg's peak reset lowers local_watermark alone */
	page_counter_charge(&pc[1], 4);		/* 7 */
	page_counter_uncharge(&pc[1], 6);	/* 1 */
	pc[1].local_watermark = 1;
	page_counter_charge(&pc[1], 2);		/* 3 */
	assert_local_watermark(&pc[1], 3);
	assert_int_equal(pc[1].watermark, 7);
	page_counter_uncharge(&pc[1], 3);
#else
	page_counter_uncharge(&pc[1], 3);
#endif
}

/* spike's finding: a refused charge still raises the child's peak */
static void test_failed_try_charge_watermark(void **state)
{
	struct page_counter pc[2], *fail;

	chain_init(pc, 2, true);
	page_counter_set_max(&pc[0], 4);
	assert_false(page_counter_try_charge(&pc[1], 8, &fail));
	assert_ptr_equal(fail, &pc[0]);
	assert_int_equal(usage(&pc[1]), 0);
	assert_int_equal(pc[1].watermark, 8);
	assert_local_watermark(&pc[1], 8);
	assert_int_equal(pc[0].watermark, 0);
	/* the cancel re-propagated the restored usage */
	assert_prot(&pc[1], 0, 0, 0, 0);
}

/*
 * The only test that underflows: WARN_ONCE is once per call site per
 * process, and every underflow path goes through page_counter_cancel().
 */
static void test_cancel_underflow(void **state)
{
	struct page_counter pc[2];

	chain_init(pc, 2, true);
	page_counter_set_min(&pc[1], 10);
	page_counter_charge(&pc[1], 2);
	assert_prot(&pc[1], 2, 0, 0, 0);

	kshim_expect_warns(1);
	page_counter_cancel(&pc[1], 5);
	assert_int_equal(kshim_warn_count(), 1);
	assert_int_equal(usage(&pc[1]), 0);		/* clamped */
	assert_int_equal(usage(&pc[0]), 2);		/* cancel is local */
	assert_prot(&pc[1], 0, 0, 0, 0);
	assert_prot(&pc[0], 0, 0, 0, 0);

	/* clamped again, but silently: the WARN is spent */
	page_counter_uncharge(&pc[1], 1);
	assert_int_equal(kshim_warn_count(), 1);
	assert_int_equal(usage(&pc[1]), 0);
	assert_int_equal(usage(&pc[0]), 1);
	page_counter_uncharge(&pc[0], 1);
}

struct memparse_case {
	const char *buf;
	int ret;
	unsigned long pages;	/* when ret == 0 */
};

/*
 * From lib/cmdline.c memparse() over simple_strtoull(base 0): a number in
 * decimal, octal (leading 0) or hex (0x + hex digit), one optional
 * K/M/G/T/P/E suffix (shift wraps silently), then the string must end.
 */
static const struct memparse_case memparse_cases[] = {
	{ "max", 0, PAGE_COUNTER_MAX },
	{ "4096", 0, 1 },
	{ "4095", 0, 0 },			/* bytes round down */
	{ "8191", 0, 1 },
	{ "1K", 0, 0 },
	{ "12k", 0, 3 },
	{ "1M", 0, 256 },
	{ "1m", 0, 256 },
	{ "1G", 0, 262144 },
	{ "1T", 0, 1UL << 28 },
	{ "1E", 0, 1UL << 48 },
	{ "8E", 0, PAGE_COUNTER_MAX },		/* 2^51 pages > 2^51 - 1 */
	/* 16 << 60 wraps to 0; 7.2's memparse() saturates an overflowing shift */
	{ "16E", 0, TB_HAVE_memparse_saturates ? PAGE_COUNTER_MAX : 0 },
	{ "18446744073709551615", 0, PAGE_COUNTER_MAX },
	/*
	 * digits overflow silently: 10^23 mod 2^64 = 0x152d02c7e14af6800000;
	 * 7.2's _parse_integer() saturates instead
	 */
	{ "100000000000000000000000", 0,
	  TB_HAVE_parse_integer_saturates ? PAGE_COUNTER_MAX : 0x02c7e14af6800000UL >> 12 },
	{ "010000", 0, 1 },			/* octal 4096 */
	{ "0x1000", 0, 1 },
	{ "0x10", 0, 0 },			/* 16 bytes */
	{ "0x1e", 0, 0 },			/* 'e' is a hex digit here */
	{ "", 0, 0 },				/* no digits, no suffix: 0 */
	/* no digits, a suffix: 0; 7.2's memparse() takes no suffix without a number */
	{ "M", TB_HAVE_memparse_saturates ? -EINVAL : 0, 0 },
	{ "12Q", -EINVAL },
	{ "-1", -EINVAL },
	{ "+1", -EINVAL },
	{ "1M ", -EINVAL },
	{ "1\n", -EINVAL },
	{ "max\n", -EINVAL },
	{ "abc", -EINVAL },
	{ "1KB", -EINVAL },
	{ "08", -EINVAL },			/* octal stops at 8 */
	{ "0x", -EINVAL },			/* octal 0, then 'x' */
	{ " 1", -EINVAL },
};

static void test_memparse(void **state)
{
	unsigned long pages;
	int i;

	for (i = 0; i < ARRAY_SIZE(memparse_cases); i++) {
		const struct memparse_case *t = &memparse_cases[i];
		int ret;

		pages = 0xdead;
		ret = page_counter_memparse(t->buf, "max", &pages);
		if (ret != t->ret || pages != (t->ret ? 0xdead : t->pages)) {
			print_error("memparse(\"%s\") = %d, %lu pages\n",
				    t->buf, ret, pages);
			fail();
		}
	}
	/* cgroup v1 spells "unlimited" as -1 */
	assert_int_equal(page_counter_memparse("-1", "-1", &pages), 0);
	assert_int_equal(pages, PAGE_COUNTER_MAX);
	assert_int_equal(PAGE_COUNTER_MAX, (1UL << 51) - 1);
}

#if TB_HAVE_page_counter_protection
static void set_prot(struct page_counter *c, unsigned long min, unsigned long low)
{
	page_counter_set_min(c, min);
	page_counter_set_low(c, low);
}

static void assert_eff(struct page_counter *c, unsigned long emin, unsigned long elow)
{
	assert_int_equal(c->emin, emin);
	assert_int_equal(c->elow, elow);
}

/*
 * Hierarchy A, overcommitted min. R is the reclaim root; A under R;
 * B and C under A. A: min 10, low 20. B: min 8, low 15, usage 10.
 * C: min 6, low 10, usage 5. So A usage 15,
 * A.children_min_usage = min(10,8) + min(5,6) = 13,
 * A.children_low_usage = min(10,15) + min(5,10) = 15.
 * A: parent is root, rule 1: emin 10, elow 20.
 * B.emin: 13 > 10 overcommit: min(10,8) * 10 / 13 = 6.
 * B.elow: 15 <= 20: min(10,15) = 10. Recursive adds nothing because
 *   parent_usage 15 is not > siblings_protected 15.
 * C.emin: 5 * 10 / 13 = 3. C.elow: 5.
 */
static void node_init(struct page_counter *c, struct page_counter *parent)
{
	memset(c, 0, sizeof(*c));
	kshim_page_counter_init(c, parent, true);
}

/* top-down walk, as mem_cgroup_calculate_protection's callers do */
static void calc_all(struct page_counter *root, struct page_counter **order,
		     int n, bool rec)
{
	int i;

	for (i = 0; i < n; i++)
		page_counter_calculate_protection(root, order[i], rec);
}

static void test_protection_overcommit(void **state)
{
	struct page_counter r, a, b, c;
	struct page_counter *order[] = { &r, &a, &b, &c };
	int rec;

	for (rec = 0; rec <= 1; rec++) {
		node_init(&r, NULL);
		node_init(&a, &r);
		node_init(&b, &a);
		node_init(&c, &a);
		set_prot(&a, 10, 20);
		set_prot(&b, 8, 15);
		set_prot(&c, 6, 10);
		page_counter_charge(&b, 10);
		page_counter_charge(&c, 5);
		assert_prot(&a, 10, 15, 13, 15);

		calc_all(&r, order, ARRAY_SIZE(order), rec);
		assert_eff(&r, 0, 0);	/* root == counter: untouched */
		assert_eff(&a, 10, 20);
		assert_eff(&b, 6, 10);
		assert_eff(&c, 3, 5);
		page_counter_uncharge(&b, 10);
		page_counter_uncharge(&c, 5);
	}
}

/*
 * Hierarchy B, undercommitted, with floating protection. R root; P under
 * R with min 20, low 30; X, Y, W under P. X: min 4, low 4, usage 10.
 * Y: no protection, usage 6. W: no usage, emin/elow preset to 99.
 * P is also charged 4 pages directly: P usage 20.
 * P.children_min_usage = P.children_low_usage = min(10,4) = 4.
 * P: rule 1, emin 20, elow 30.
 * Not recursive: X gets its own min(usage, setting) = 4/4 (4 <= 20, 30);
 *   Y gets 0/0.
 * Recursive, rule 5 adds (pe - sp) * (usage - protected) / (pu - sp):
 *   X.emin = 4 + (20-4)*(10-4)/(20-4) = 4 + 6 = 10
 *   X.elow = 4 + (30-4)*6/16 = 4 + 156/16 = 4 + 9 = 13 (> its usage)
 *   Y.emin = 0 + 16*6/16 = 6, Y.elow = 26*6/16 = 9
 * W: usage 0 returns early, so its stale 99s stay (not stateless).
 */
static void test_protection_floating(void **state)
{
	struct page_counter r, p, x, y, w;
	struct page_counter *order[] = { &p, &x, &y, &w };
	int rec;

	for (rec = 0; rec <= 1; rec++) {
		node_init(&r, NULL);
		node_init(&p, &r);
		node_init(&x, &p);
		node_init(&y, &p);
		node_init(&w, &p);
		w.emin = w.elow = 99;
		set_prot(&p, 20, 30);
		set_prot(&x, 4, 4);
		page_counter_charge(&x, 10);
		page_counter_charge(&y, 6);
		page_counter_charge(&p, 4);
		assert_prot(&p, 20, 20, 4, 4);

		calc_all(&r, order, ARRAY_SIZE(order), rec);
		assert_eff(&p, 20, 30);
		if (rec) {
			assert_eff(&x, 10, 13);
			assert_eff(&y, 6, 9);
		} else {
			assert_eff(&x, 4, 4);
			assert_eff(&y, 0, 0);
		}
		assert_eff(&w, 99, 99);
		page_counter_uncharge(&x, 10);
		page_counter_uncharge(&y, 6);
		page_counter_uncharge(&p, 4);
	}
}

/*
 * Hierarchy C, a chain R -> A -> B -> C, only C charged (12 pages, so
 * every level has usage 12). min: A 5, B 10, C 8. low: A 12, B 0, C 0.
 * Propagation: C.min_usage 8 = B.children_min_usage; B.min_usage
 * min(12,10) = 10 = A.children_min_usage. low: A.children_low_usage 0,
 * B.children_low_usage 0.
 * A: rule 1, emin 5, elow 12.
 * B.emin: siblings 10 > parent 5: 10 * 5 / 10 = 5 (capped, rule 2).
 * C.emin: siblings 8 > parent 5: 8 * 5 / 8 = 5.
 * B.elow: protected 0; not recursive 0; recursive: pe 12 > 0, pu 12 > 0,
 *   usage 12 > 0: 0 + (12-0)*(12-0)/(12-0) = 12.
 * C.elow: likewise from B.elow: 0 or 12.
 */
static void test_protection_chain(void **state)
{
	struct page_counter r, a, b, c;
	struct page_counter *order[] = { &a, &b, &c };
	int rec;

	for (rec = 0; rec <= 1; rec++) {
		node_init(&r, NULL);
		node_init(&a, &r);
		node_init(&b, &a);
		node_init(&c, &b);
		set_prot(&a, 5, 12);
		set_prot(&b, 10, 0);
		set_prot(&c, 8, 0);
		page_counter_charge(&c, 12);
		assert_prot(&b, 10, 0, 8, 0);
		assert_prot(&a, 5, 12, 10, 0);

		calc_all(&r, order, ARRAY_SIZE(order), rec);
		assert_eff(&a, 5, 12);
		assert_eff(&b, 5, rec ? 12 : 0);
		assert_eff(&c, 5, rec ? 12 : 0);

		/* a walk rooted at B: C is then first level, rule 1 */
		page_counter_calculate_protection(&b, &c, rec);
		assert_eff(&c, 8, 0);
		page_counter_uncharge(&c, 12);
	}
}
#else
/*
 * Before 6.12, effective protection is mm/memcontrol.c's (effective_protection()
 * under mem_cgroup_calculate_protection()): tests/memcg's protection suite.
 */
#define NO_CALC "no page_counter_calculate_protection() before 6.12: " \
	"effective protection lives in mm/memcontrol.c"
static void test_protection_overcommit(void **state)
{
	tb_skip(NO_CALC);
}

static void test_protection_floating(void **state)
{
	tb_skip(NO_CALC);
}

static void test_protection_chain(void **state)
{
	tb_skip(NO_CALC);
}
#endif

int main(void)
{
	const struct CMUnitTest tests[] = {
		TB_TEST(test_charge_uncharge_depths),
		TB_TEST(test_try_charge_fail_each_level),
		TB_TEST(test_try_charge_fail_first_from_leaf),
		TB_TEST(test_set_max),
		TB_TEST(test_set_max_lowered_under_racing_charge_is_undone),
		TB_TEST(test_set_max_unchanged_under_racing_charge_succeeds),
		TB_TEST(test_set_min_low_high),
		TB_TEST(test_protected_usage),
		TB_TEST(test_low_usage_follows_usage_without_min),
		TB_TEST(test_set_low_protects_current_usage),
		TB_TEST(test_no_protection_support),
		TB_TEST(test_mixed_protection_flags),
		TB_TEST(test_watermark),
		TB_TEST(test_failed_try_charge_watermark),
		TB_TEST(test_cancel_underflow),
		TB_TEST(test_memparse),
		TB_TEST(test_protection_overcommit),
		TB_TEST(test_protection_floating),
		TB_TEST(test_protection_chain),
	};

	return TB_RUN(tests);
}
