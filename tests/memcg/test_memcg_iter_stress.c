// SPDX-License-Identifier: GPL-2.0-only
/*
 * Stress: mem_cgroup_iter() walks (plain and shared reclaim walks) racing
 * with mkdir/rmdir of memcgs in the walked subtree. Every memcg alive for
 * the whole run is visited exactly once per plain walk, no reference is
 * leaked (the world check at teardown), and ASan/TSan see no
 * use-after-free or race.
 */
#include <linux/kernel.h>
#include <linux/memcontrol.h>
#include <linux/atomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tb_memcg.h"

static long refs(struct mem_cgroup *memcg)
{
	return atomic_long_read(&memcg->css.refcnt.count);
}

#define NR_STABLE 4
#define CHURN_ROUNDS 2000
#define WALK_ROUNDS 1500

struct race {
	struct mem_cgroup *stable[NR_STABLE + 1];	/* S/p0..p3, S/p0/q */
	atomic_t churners_left;
	atomic_long_t walks, missed, doubled, visited_churn;
	atomic_long_t mkdir_failed;
};

static void churn(struct race *r, unsigned int id)
{
	char path[32], child[40];
	int i;

	for (i = 0; i < CHURN_ROUNDS; i++) {
		snprintf(path, sizeof(path), "S/c%u_%d", id, i % 4);
		snprintf(child, sizeof(child), "%s/x", path);
		if (tb_cgroup_mkdir(path)) {
			atomic_long_inc(&r->mkdir_failed);
			continue;
		}
		if (i & 1 && !tb_cgroup_mkdir(child))
			tb_cgroup_rmdir(child);
		tb_cgroup_rmdir(path);
	}
	atomic_dec(&r->churners_left);
}

/* one full walk: every stable memcg exactly once */
static void check_walk(struct race *r, struct mem_cgroup *root)
{
	unsigned int count[NR_STABLE + 1] = { 0 };
	struct mem_cgroup *memcg = NULL;
	int i;

	while ((memcg = mem_cgroup_iter(root, memcg, NULL))) {
		for (i = 0; i <= NR_STABLE; i++)
			if (memcg == r->stable[i])
				break;
		if (i <= NR_STABLE)
			count[i]++;
		else if (memcg != root)
			atomic_long_inc(&r->visited_churn);
	}
	for (i = 0; i <= NR_STABLE; i++) {
		if (!count[i])
			atomic_long_inc(&r->missed);
		if (count[i] > 1)
			atomic_long_inc(&r->doubled);
	}
	atomic_long_inc(&r->walks);
}

/* shared reclaim walks that stop after a few memcgs, as reclaimers do */
static void reclaim_walk(struct mem_cgroup *root, unsigned int steps)
{
	struct mem_cgroup_reclaim_cookie cookie = { .pgdat = NODE_DATA(0) };
	struct mem_cgroup *memcg = NULL;

	while (steps-- && (memcg = mem_cgroup_iter(root, memcg, &cookie)))
		;
	if (memcg)
		mem_cgroup_iter_break(root, memcg);
}

static void race_thread(void *arg, unsigned int i)
{
	struct race *r = arg;
	struct mem_cgroup *s = tb_memcg("S");
	int n;

	if (i % 2 == 0) {
		churn(r, i);
		return;
	}
	for (n = 0; n < WALK_ROUNDS || atomic_read(&r->churners_left); n++) {
		check_walk(r, s);
		reclaim_walk(n & 2 ? s : NULL, 1 + n % 5);
	}
}

static void test_walks_race_with_mkdir_rmdir(void **state)
{
	static const char *const stable[] = { "S/p0", "S/p1", "S/p2", "S/p3", "S/p0/q" };
	struct race *r = calloc(1, sizeof(*r));
	long before[NR_STABLE + 1];
	int i;

	assert_non_null(r);
	assert_int_equal(tb_cgroup_mkdir("S"), 0);
	for (i = 0; i <= NR_STABLE; i++) {
		assert_int_equal(tb_cgroup_mkdir(stable[i]), 0);
		r->stable[i] = tb_memcg(stable[i]);
	}
	/* after all mkdirs: q pins its parent p0 */
	for (i = 0; i <= NR_STABLE; i++)
		before[i] = refs(r->stable[i]);
	atomic_set(&r->churners_left, 2);
	tb_run_threads(4, race_thread, r);
	kshim_rcu_quiesce();

	assert_int_equal(atomic_long_read(&r->mkdir_failed), 0);
	assert_true(atomic_long_read(&r->walks) >= 2 * WALK_ROUNDS);
	assert_int_equal(atomic_long_read(&r->missed), 0);
	assert_int_equal(atomic_long_read(&r->doubled), 0);
	for (i = 0; i <= NR_STABLE; i++)
		assert_int_equal(refs(r->stable[i]), before[i]);
	print_message("walks %ld, churned memcgs visited %ld\n",
		      atomic_long_read(&r->walks), atomic_long_read(&r->visited_churn));
	free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		TB_MEMCG_TEST(test_walks_race_with_mkdir_rmdir),
	};

	return TB_RUN(tests);
}
