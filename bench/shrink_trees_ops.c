// SPDX-License-Identifier: GPL-2.0-only
/*
 * shrink_slab over N memcgs for both trees (seed 003's world, tests/lru_fs):
 * N memcgs under one parent, a mount (memcg-aware shrinker over a list_lru)
 * per memcg, two objects charged to each memcg on its own mount. A pass is
 * shrink_node_memcgs()'s walk: shrink_slab on every memcg at DEF_PRIORITY,
 * where (2 >> 12) * 4 / seeks rounds to zero, so the shrinker counts but
 * never scans and every pass does the same work: 6.1's rwsem trylock and
 * bitmap walk or 6.12's lockless shrinker_info walk, plus one
 * count_objects per memcg. The optional churn thread mounts and unmounts a
 * filesystem in a loop, as containers starting and stopping do; on 6.1 it
 * takes shrinker_rwsem for writing each time.
 */
#include <linux/kernel.h>
#include <kshim/testbed.h>
#include <kshim/memcg.h>
#include <kshim/objpage.h>
#include <pthread.h>
#include "tb_fs.h"
#include "shrink_trees_ops.h"

#define ST_PRIORITY 12		/* DEF_PRIORITY */

static struct {
	const struct tb_fs_ops *ops;
	int tree;
	unsigned int nr;
	struct mem_cgroup *root, *parent, **memcg;
	struct tb_mount **mount;
	bool booted;
	pthread_t churner;
	int churn, stop;
	long churned;
} st;

static void *churner(void *arg)
{
	unsigned int i = 0;

	kshim_thread_enter(3);
	while (!READ_ONCE(st.stop)) {
		struct tb_mount *m = st.ops->mount();

		if (!m || st.ops->add(m, st.memcg[i++ % st.nr], 0, 2))
			abort();
		st.ops->umount(m);
		WRITE_ONCE(st.churned, st.churned + 1);
	}
	kshim_thread_exit();
	return NULL;
}

static void world_build(int tree, unsigned int nr)
{
	struct kshim_world_config cfg = { .nr_cpus = 4, .nr_nodes = 1, .seed = 1 };
	unsigned int i;

	kshim_world_boot(&cfg);
	st.booted = true;
	st.tree = tree;
	st.nr = nr;
	st.ops = tree ? &k612_tb_fs : &k61_tb_fs;
	st.ops->use();
	st.root = kshim_memcg_create(NULL);
	st.parent = kshim_memcg_create(st.root);
	st.memcg = calloc(nr, sizeof(*st.memcg));
	st.mount = calloc(nr, sizeof(*st.mount));
	if (!st.parent || !st.memcg || !st.mount)
		abort();
	/*
	 * Mounts before memcgs (as in seed 003): growing shrinker_info would
	 * set every old bit in every memcg and the first pass would clear them.
	 */
	for (i = 0; i < nr; i++)
		if (!(st.mount[i] = st.ops->mount()))
			abort();
	for (i = 0; i < nr; i++)
		if (!(st.memcg[i] = kshim_memcg_create(st.parent)))
			abort();
	for (i = 0; i < nr; i++)
		if (st.ops->add(st.mount[i], st.memcg[i], 0, 2))
			abort();
}

int st_shutdown(void)
{
	const char *msg;
	unsigned int i;
	int bad;

	if (!st.booted)
		return 0;
	for (i = 0; i < st.nr; i++)
		st.ops->umount(st.mount[i]);
	for (i = 0; i < st.nr; i++)
		kshim_memcg_destroy(st.memcg[i]);
	kshim_memcg_destroy(st.parent);
	kshim_memcg_destroy(st.root);
	free(st.memcg);
	free(st.mount);
	msg = kshim_world_check();
	if (msg)
		fprintf(stderr, "bench_shrink_trees: %s\n", msg);
	kshim_world_teardown();
	/* after the teardown: its RCU flush frees memcgs through the hooks */
	kshim_memcg_hooks = NULL;
	bad = msg || tb_fs_errors() || kshim_objpage_live();
	st.booted = false;
	return bad;
}

void st_setup(int tree, unsigned int nr_memcgs, int churn)
{
	if (!st.booted || st.tree != tree || st.nr != nr_memcgs) {
		if (st_shutdown())
			abort();
		world_build(tree, nr_memcgs);
	}
	st.ops->giveups_reset();
	st.churned = 0;
	st.stop = 0;
	st.churn = churn;
	if (churn && pthread_create(&st.churner, NULL, churner, NULL))
		abort();
}

void st_teardown(void)
{
	if (st.churn) {
		WRITE_ONCE(st.stop, 1);
		pthread_join(st.churner, NULL);
		st.churn = 0;
	}
}

void st_thread_enter(int cpu)
{
	kshim_thread_enter(cpu);
}

void st_thread_exit(void)
{
	kshim_thread_exit();
}

unsigned long st_pass(void)
{
	unsigned long visits = 0;

	st.ops->shrink_memcgs(st.root, 0, ST_PRIORITY, &visits);
	return visits;
}

void st_giveups(long *trylock_fails, long *contended_breaks)
{
	st.ops->giveups(trylock_fails, contended_breaks);
}

long st_churned(void)
{
	return READ_ONCE(st.churned);
}
