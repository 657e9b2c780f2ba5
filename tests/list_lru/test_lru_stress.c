// SPDX-License-Identifier: GPL-2.0-only
/*
 * Both trees under churn (label stress): two reclaimer threads run full
 * shrink_node_memcgs-style passes over 200 memcgs while a third mounts,
 * fills and unmounts filesystems and a fourth replaces memcgs (offline
 * reparents their objects). Afterwards every object of the live mount is
 * reclaimable, none was freed twice, every umount's shrinker free returned
 * (the thread finished) and the world tears down without a leak.
 */
#include <kshim/memcg.h>
#include <linux/kernel.h>
#include "tb_lru_test.h"

#define NR_MEMCG 200
#define PASSES 300
#define CHURN 400

struct stress {
	const struct tb_fs_ops *o;
	struct mem_cgroup *root, *parent, *memcg[NR_MEMCG];
	struct tb_mount *m;
	long added;
	int stop;
	long umounts;
};

static void reclaimer(struct stress *s)
{
	int pass;

	for (pass = 0; pass < PASSES; pass++)
		s->o->shrink_memcgs(NULL, 0, 6, NULL);
}

static void churner(struct stress *s)
{
	int i;

	for (i = 0; i < CHURN; i++) {
		struct tb_mount *m = s->o->mount();

		assert_non_null(m);
		/* only memcgs this thread does not replace: [NR_MEMCG / 2, ...) */
		assert_int_equal(s->o->add(m, s->memcg[NR_MEMCG / 2 + i % (NR_MEMCG / 2)], 0, 50), 0);
		s->o->umount(m);
		__atomic_fetch_add(&s->umounts, 1, __ATOMIC_RELAXED);
	}
}

/* offline memcgs with objects in them and create new ones */
static void replacer(struct stress *s)
{
	int i;

	for (i = 0; i < NR_MEMCG / 4; i++) {
		struct mem_cgroup *old = s->memcg[i], *new;

		kshim_memcg_destroy(old);
		new = kshim_memcg_create(s->parent);
		assert_non_null(new);
		assert_int_equal(s->o->add(s->m, new, 0, 20), 0);
		__atomic_fetch_add(&s->added, 20, __ATOMIC_RELAXED);
		s->memcg[i] = new;
	}
}

static void worker(void *arg, unsigned int i)
{
	struct stress *s = arg;

	if (i < 2)
		reclaimer(s);
	else if (i == 2)
		churner(s);
	else
		replacer(s);
}

static void test_churn(void **state)
{
	struct stress s = { .o = *state };
	long passes = 0, n;
	int i;

	s.root = kshim_memcg_create(NULL);
	s.parent = kshim_memcg_create(s.root);
	assert_non_null(s.parent);
	s.m = s.o->mount();
	assert_non_null(s.m);
	for (i = 0; i < NR_MEMCG; i++) {
		s.memcg[i] = kshim_memcg_create(s.parent);
		assert_non_null(s.memcg[i]);
		if (i % 4 != 3) {
			assert_int_equal(s.o->add(s.m, s.memcg[i], 0, 64), 0);
			s.added += 64;
		}
	}
	tb_run_threads(4, worker, &s);
	assert_int_equal(s.umounts, CHURN);
	/* everything left on the live mount is reclaimable */
	do {
		n = s.o->shrink_memcgs(NULL, 0, 0, NULL);
		assert_true(++passes < 1000);
	} while (n);
	assert_int_equal(s.o->live(s.m), 0);
	assert_int_equal(s.o->freed(s.m), s.added);
	assert_int_equal(tb_fs_errors(), 0);
	s.o->umount(s.m);
	for (i = 0; i < NR_MEMCG; i++)
		kshim_memcg_destroy(s.memcg[i]);
	kshim_memcg_destroy(s.parent);
	kshim_memcg_destroy(s.root);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		TB_LRU_BOTH(test_churn),
	};

	tb_world.nr_cpus = 4;
	return TB_RUN(tests);
}
