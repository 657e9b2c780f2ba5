// SPDX-License-Identifier: GPL-2.0-only
/*
 * memory.min / memory.low: effective protection as the real
 * mem_cgroup_calculate_protection() (over mm/page_counter.c's
 * page_counter_calculate_protection() and effective_protection()) leaves
 * it in memcg->memory.emin/elow, and mem_cgroup_below_min/below_low().
 *
 * The rules, from page_counter.c, that the expected values are derived
 * with by hand (all per level, parent before children, as vmscan walks):
 *  - the reclaim root is skipped: its emin/elow stay whatever they were;
 *  - a memcg with zero usage is skipped: its emin/elow stay stale;
 *  - a child of the reclaim root gets its raw setting (emin = min, elow =
 *    low), not even capped by its usage;
 *  - deeper: protected = min(usage, setting); if the siblings' protected
 *    usage (parent->children_{min,low}_usage) exceeds the parent's
 *    effective value, ep = protected * parent_effective / siblings;
 *    else ep = protected, plus, with memory_recursiveprot only, a share of
 *    the parent's unclaimed protection: (parent_e - siblings) *
 *    (usage - protected) / (parent_usage - siblings).
 *
 * Usage is charged with the real charge path (remote charging through
 * the active memcg), in folios of whole megabytes (no per-CPU stock).
 */
#include <linux/kernel.h>
#include <linux/memcontrol.h>
#include <linux/sched/mm.h>
#include <string.h>
#include "tb_memcg.h"

/*
 * mem_cgroup_below_min/low() take the reclaim target since 6.3 and say no
 * for it and for the root (mem_cgroup_unprotected()); before, they compare
 * the memcg's effective protection with its usage, whatever the target.
 */
#if TB_HAVE_below_min_target
#define below_low(target, memcg) mem_cgroup_below_low(target, memcg)
#define below_min(target, memcg) mem_cgroup_below_min(target, memcg)
#else
#define below_low(target, memcg) mem_cgroup_below_low(memcg)
#define below_min(target, memcg) mem_cgroup_below_min(memcg)
#endif

/* mm/memcontrol.c; declared in include/linux/memcontrol.h's CONFIG_MEMCG part */
void mem_cgroup_calculate_protection(struct mem_cgroup *root, struct mem_cgroup *memcg);

#define P(mb) PAGES((unsigned long)(mb) * MB)

static struct folio *folios[64];
static unsigned int nr_folios;

static void charge_mb(const char *path, unsigned long mb)
{
	struct mem_cgroup *old = set_active_memcg(tb_memcg(path));
	int err;

	assert_true(nr_folios < ARRAY_SIZE(folios));
	folios[nr_folios] = tb_folio_charge(P(mb), GFP_KERNEL, &err);
	set_active_memcg(old);
	assert_non_null(folios[nr_folios]);
	nr_folios++;
}

static void uncharge_all(void)
{
	while (nr_folios)
		tb_folio_uncharge(folios[--nr_folios]);
}

/* vmscan's shrink_node_memcgs() order: pre-order walk of root's subtree */
static void calculate(struct mem_cgroup *root)
{
	struct mem_cgroup *memcg = NULL;

	while ((memcg = mem_cgroup_iter(root, memcg, NULL)))
		mem_cgroup_calculate_protection(root, memcg);
}

static unsigned long elow(const char *path)
{
	return READ_ONCE(tb_memcg(path)->memory.elow);
}

static unsigned long emin(const char *path)
{
	return READ_ONCE(tb_memcg(path)->memory.emin);
}

static void mkdirs(const char *const *paths)
{
	for (; *paths; paths++)
		assert_int_equal(tb_cgroup_mkdir(*paths), 0);
}

static const char *const abcde[] = { "A", "A/B", "A/C", "A/D", "A/E", NULL };

/*
 * A (low 40M) with B (low 30M, usage 40M), C (low 30M, usage 20M), D (low
 * 30M, no usage), E (no low, usage 10M). A is a child of the root:
 * elow(A) = 40M. Siblings' protected usage = 30 + 20 + 0 + 0 = 50M > 40M:
 * overcommitted, shared in proportion: B = 30 * 40/50 = 24M, C = 20 *
 * 40/50 = 16M, E = 0. D has no usage: skipped, elow stays 0.
 * memory.min independently: A 10M, B 10M, E 10M: siblings 10 + 0 + 10 =
 * 20M > 10M: B = 10 * 10/20 = 5M, E = 5M, C = 0.
 */
static void test_overcommitted_shared_proportionally(void **state)
{
	mkdirs(abcde);
	assert_write_ok("A", "memory.low", "40M");
	assert_write_ok("A/B", "memory.low", "30M");
	assert_write_ok("A/C", "memory.low", "30M");
	assert_write_ok("A/D", "memory.low", "30M");
	assert_write_ok("A", "memory.min", "10M");
	assert_write_ok("A/B", "memory.min", "10M");
	assert_write_ok("A/E", "memory.min", "10M");
	charge_mb("A/B", 40);
	charge_mb("A/C", 20);
	charge_mb("A/E", 10);
	calculate(NULL);

	assert_int_equal(elow("A"), P(40));
	assert_int_equal(elow("A/B"), P(24));
	assert_int_equal(elow("A/C"), P(16));
	assert_int_equal(elow("A/D"), 0);
	assert_int_equal(elow("A/E"), 0);
	assert_int_equal(emin("A"), P(10));
	assert_int_equal(emin("A/B"), P(5));
	assert_int_equal(emin("A/C"), 0);
	assert_int_equal(emin("A/E"), P(5));

	/* below_*: effective protection >= usage */
	assert_false(below_low(NULL, tb_memcg("A")));
	assert_false(below_low(NULL, tb_memcg("A/B")));
	assert_false(below_low(NULL, tb_memcg("A/C")));
	assert_false(below_min(NULL, tb_memcg("A/E")));
	uncharge_all();
}

/*
 * A (low 80M, usage 70M) with B (low 30M, usage 40M), C (low 30M, usage
 * 20M), E (no low, usage 10M). Siblings' protected usage = 30 + 20 + 0 =
 * 50M <= 80M: each keeps min(usage, low): B 30M, C 20M, E 0.
 * With memory_recursiveprot the unclaimed 80 - 50 = 30M goes to unprotected
 * usage: B += 30 * (40 - 30) / (70 - 50) = 15M -> 45M; C has none (usage ==
 * protected) -> 20M; E += 30 * (10 - 0) / 20 = 15M -> 15M, more than its
 * usage.
 */
static void test_recursiveprot_hands_out_unclaimed(void **state)
{
	static const char *const abce[] = { "A", "A/B", "A/C", "A/E", NULL };

	mkdirs(abce);
	assert_write_ok("A", "memory.low", "80M");
	assert_write_ok("A/B", "memory.low", "30M");
	assert_write_ok("A/C", "memory.low", "30M");
	charge_mb("A/B", 40);
	charge_mb("A/C", 20);
	charge_mb("A/E", 10);

	calculate(NULL);
	assert_int_equal(elow("A/B"), P(30));
	assert_int_equal(elow("A/C"), P(20));
	assert_int_equal(elow("A/E"), 0);
	assert_false(below_low(NULL, tb_memcg("A/B")));
	assert_true(below_low(NULL, tb_memcg("A/C")));
	assert_false(below_low(NULL, tb_memcg("A/E")));

	tb_cgroup_set_recursiveprot(true);
	calculate(NULL);
	assert_int_equal(elow("A"), P(80));
	assert_int_equal(elow("A/B"), P(45));
	assert_int_equal(elow("A/C"), P(20));
	assert_int_equal(elow("A/E"), P(15));
	assert_true(below_low(NULL, tb_memcg("A/B")));
	assert_true(below_low(NULL, tb_memcg("A/E")));
	/* no min anywhere: nothing unclaimed to hand out */
	assert_int_equal(emin("A/B"), 0);
	assert_int_equal(emin("A/E"), 0);
	uncharge_all();
}

/*
 * A (low 10M) whose only child B asks for 50M with 40M of usage, and B's
 * child G asks for 50M with 40M: B: protected 40M > elow(A) = 10M, so B
 * gets 40 * 10/40 = 10M; G likewise gets 40 * 10/40 = 10M of B's 10M.
 */
static void test_child_asks_more_than_parent(void **state)
{
	static const char *const abg[] = { "A", "A/B", "A/B/G", NULL };

	mkdirs(abg);
	assert_write_ok("A", "memory.low", "10M");
	assert_write_ok("A/B", "memory.low", "50M");
	assert_write_ok("A/B/G", "memory.low", "50M");
	charge_mb("A/B/G", 40);
	calculate(NULL);
	assert_int_equal(elow("A"), P(10));
	assert_int_equal(elow("A/B"), P(10));
	assert_int_equal(elow("A/B/G"), P(10));
	assert_false(below_low(NULL, tb_memcg("A/B/G")));
	uncharge_all();
}

/*
 * The root never has protection (mem_cgroup_unprotected: is_root), and
 * neither has the target of a reclaim: its values are not even computed
 * (left stale), below_*() just says no. A child of the target gets its
 * raw setting, not capped by the target's own protection: targeted reclaim
 * of A with A low 10M leaves B (low 50M, usage 40M) elow = 50M, where
 * global reclaim gives it 10M.
 */
static void test_root_and_reclaim_root_unprotected(void **state)
{
	struct mem_cgroup *a, *b;

	assert_int_equal(tb_cgroup_mkdir("A"), 0);
	assert_int_equal(tb_cgroup_mkdir("A/B"), 0);
	a = tb_memcg("A");
	b = tb_memcg("A/B");
	assert_write_ok("A", "memory.low", "10M");
	assert_write_ok("A", "memory.min", "10M");
	assert_write_ok("A/B", "memory.low", "50M");
	charge_mb("A/B", 40);

	calculate(NULL);
	assert_int_equal(root_mem_cgroup->memory.elow, 0);
	assert_int_equal(root_mem_cgroup->memory.emin, 0);
	assert_false(below_low(NULL, root_mem_cgroup));
	assert_false(below_min(NULL, root_mem_cgroup));
	assert_int_equal(elow("A"), P(10));
	assert_int_equal(elow("A/B"), P(10));
	assert_false(below_low(NULL, b));

	assert_write_ok("A", "memory.low", "5M");
	calculate(a);
	/* A skipped: still the 10M of the global pass, though low is 5M now */
	assert_int_equal(elow("A"), P(10));
	assert_int_equal(emin("A"), P(10));
	assert_false(below_low(a, a));
	assert_false(below_min(a, a));
	assert_int_equal(elow("A/B"), P(50));
	assert_true(below_low(a, b));
	uncharge_all();
}

/*
 * Usage below the setting: one level under the reclaim root elow is the
 * setting (50M for 40M of usage); deeper it is capped at the usage
 * (min(usage, low) = 40M within A2's 100M). Both count as below low.
 */
static void test_usage_below_protection(void **state)
{
	static const char *const dirs[] = { "B", "A2", "A2/B", NULL };

	mkdirs(dirs);
	assert_write_ok("B", "memory.low", "50M");
	assert_write_ok("A2", "memory.low", "100M");
	assert_write_ok("A2/B", "memory.low", "50M");
	charge_mb("B", 40);
	charge_mb("A2/B", 40);
	calculate(NULL);
	assert_int_equal(elow("B"), P(50));
	assert_int_equal(elow("A2/B"), P(40));
	assert_true(below_low(NULL, tb_memcg("B")));
	assert_true(below_low(NULL, tb_memcg("A2/B")));
	/* no memory.min: emin 0, not below min with usage */
	assert_int_equal(emin("B"), 0);
	assert_false(below_min(NULL, tb_memcg("B")));
	uncharge_all();
}

/*
 * Zero usage: page_counter_calculate_protection() returns early, so a
 * memcg whose usage dropped to zero keeps its old elow; and since below_*
 * compare e* >= usage, an empty memcg without any protection is "below
 * min" and "below low" (0 >= 0).
 */
static void test_zero_usage(void **state)
{
	static const char *const dirs[] = { "A", "A/D", "A/F", NULL };
	struct folio *d;

	mkdirs(dirs);
	assert_write_ok("A", "memory.low", "100M");
	assert_write_ok("A/D", "memory.low", "30M");
	charge_mb("A/D", 10);
	calculate(NULL);
	assert_int_equal(elow("A/D"), P(10));

	d = folios[--nr_folios];
	tb_folio_uncharge(d);
	assert_int_equal(tb_cgroup_read_u64("A/D", "memory.current"), 0);
	calculate(NULL);
	assert_int_equal(elow("A/D"), P(10));
	assert_true(below_low(NULL, tb_memcg("A/D")));

	assert_int_equal(emin("A/F"), 0);
	assert_int_equal(elow("A/F"), 0);
	assert_true(below_min(NULL, tb_memcg("A/F")));
	assert_true(below_low(NULL, tb_memcg("A/F")));

	/* with usage again, recomputed: min(5M, 30M) within A's 100M */
	charge_mb("A/D", 5);
	calculate(NULL);
	assert_int_equal(elow("A/D"), P(5));
	uncharge_all();
}

/*
 * Protected usage follows charges: children_low_usage of the parent is
 * updated by page_counter_charge/uncharge, so growing one sibling past
 * the overcommit point shrinks the other's share without any write.
 * A low 30M; B low 20M usage 10M, C low 20M usage 10M: 20M <= 30M, B = C =
 * 10M. C grows to 40M: siblings 10 + 20 = 30M, still <= 30M: C = 20M.
 * A low lowered to 15M: 30 > 15: B = 10 * 15/30 = 5M, C = 20 * 15/30 = 10M.
 */
static void test_protection_follows_usage(void **state)
{
	static const char *const dirs[] = { "A", "A/B", "A/C", NULL };

	mkdirs(dirs);
	assert_write_ok("A", "memory.low", "30M");
	assert_write_ok("A/B", "memory.low", "20M");
	assert_write_ok("A/C", "memory.low", "20M");
	charge_mb("A/B", 10);
	charge_mb("A/C", 10);
	calculate(NULL);
	assert_int_equal(elow("A/B"), P(10));
	assert_int_equal(elow("A/C"), P(10));
	assert_int_equal(atomic_long_read(&tb_memcg("A")->memory.children_low_usage), P(20));

	charge_mb("A/C", 30);
	calculate(NULL);
	assert_int_equal(atomic_long_read(&tb_memcg("A")->memory.children_low_usage), P(30));
	assert_int_equal(elow("A/B"), P(10));
	assert_int_equal(elow("A/C"), P(20));

	assert_write_ok("A", "memory.low", "15M");
	calculate(NULL);
	assert_int_equal(elow("A/B"), P(5));
	assert_int_equal(elow("A/C"), P(10));
	uncharge_all();
}

static long children_usage(struct mem_cgroup *memcg, bool min)
{
	return atomic_long_read(min ? &memcg->memory.children_min_usage :
			       &memcg->memory.children_low_usage);
}

/*
 * mem_cgroup_css_offline() zeroes a removed memcg's memory.min and
 * memory.low: its pages, still charged, lose their protection, and the
 * parent's children_{min,low}_usage drop at once.  The case holds B's css:
 * from 7.x a folio's charge pins an obj_cgroup, not the memcg, so nothing
 * else keeps the offlined B from being freed.
 */
static void memcg_offline_does_drop_min_and_low(void **state)
{
	static const char *const dirs[] = { "A", "A/B", NULL };
	struct mem_cgroup *a, *b;

	mkdirs(dirs);
	assert_write_ok("A/B", "memory.min", "10M");
	assert_write_ok("A/B", "memory.low", "20M");
	charge_mb("A/B", 30);
	a = tb_memcg("A");
	b = tb_memcg("A/B");
	css_get(&b->css);
	assert_int_equal(children_usage(a, true), P(10));
	assert_int_equal(children_usage(a, false), P(20));

	assert_int_equal(tb_cgroup_rmdir("A/B"), 0);
	assert_int_equal(READ_ONCE(b->memory.min), 0);
	assert_int_equal(READ_ONCE(b->memory.low), 0);
	assert_int_equal(children_usage(a, true), 0);
	assert_int_equal(children_usage(a, false), 0);
	assert_int_equal(page_counter_read(&a->memory), P(30));
	css_put(&b->css);
	uncharge_all();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		TB_MEMCG_TEST(test_overcommitted_shared_proportionally),
		TB_MEMCG_TEST(test_recursiveprot_hands_out_unclaimed),
		TB_MEMCG_TEST(test_child_asks_more_than_parent),
		TB_MEMCG_TEST(test_root_and_reclaim_root_unprotected),
		TB_MEMCG_TEST(test_usage_below_protection),
		TB_MEMCG_TEST(test_zero_usage),
		TB_MEMCG_TEST(test_protection_follows_usage),
		TB_MEMCG_TEST(memcg_offline_does_drop_min_and_low),
	};

	return TB_RUN(tests);
}
