// SPDX-License-Identifier: GPL-2.0-only
/*
 * shrinker_info expansion when a new shrinker id crosses a unit boundary,
 * and fault injection in every allocation of the alloc/expand paths.
 * shrinker_nr_max is static in shrinker.c and only grows, so each test
 * finds the current boundary from a memcg's map_nr_max.
 */
#include <linux/memcontrol.h>
#include <linux/shrinker.h>
#include <kshim/memcg.h>
#include "tb_test.h"
#include "tb_cache.h"

#define NR_MEMCG 3
#define MAX_CACHES 2048

struct world {
	struct mem_cgroup *memcg[NR_MEMCG];	/* root, a, b */
	struct tb_cache *cache[MAX_CACHES];
	int nr_cache;
	int boundary;				/* first id of the next unit */
};

static void world_create(struct world *w)
{
	int i;

	memset(w, 0, sizeof(*w));
	w->memcg[0] = kshim_memcg_create(NULL);
	for (i = 1; i < NR_MEMCG; i++)
		w->memcg[i] = kshim_memcg_create(w->memcg[0]);
	for (i = 0; i < NR_MEMCG; i++)
		assert_non_null(w->memcg[i]);
	w->boundary = tb_shrinker_map_nr_max(w->memcg[1], 0);
}

/* memcg-aware shrinkers until the next one would get id == boundary */
static void world_fill_unit(struct world *w)
{
	for (;;) {
		struct tb_cache *c = tb_cache_create(SHRINKER_MEMCG_AWARE);

		assert_non_null(c);
		assert_true(w->nr_cache < MAX_CACHES);
		w->cache[w->nr_cache++] = c;
		if (w->boundary == 0) {
			/* first memcg-aware shrinker ever: it set the boundary */
			w->boundary = tb_shrinker_map_nr_max(w->memcg[1], 0);
		}
		if (c->shrinker->id == w->boundary - 1)
			return;
		assert_true(c->shrinker->id < w->boundary - 1);
	}
}

static void world_destroy(struct world *w)
{
	int i;

	for (i = 0; i < w->nr_cache; i++)
		tb_cache_destroy(w->cache[i]);
	for (i = NR_MEMCG - 1; i >= 0; i--)
		if (w->memcg[i])
			kshim_memcg_destroy(w->memcg[i]);
}

struct reader {
	struct mem_cgroup *memcg;
	struct shrinker_info *seen;
	int seen_nr_max, after_nr_max;
	volatile int phase;	/* 0 start, 1 holding, 2 release, 3 done */
};

/* Holds the old shrinker_info across the expansion, inside RCU. */
static void reader_fn(void *arg, unsigned int i)
{
	struct reader *r = arg;

	(void)i;
	rcu_read_lock();
	r->seen = rcu_dereference(r->memcg->nodeinfo[0]->shrinker_info);
	r->seen_nr_max = r->seen->map_nr_max;
	__atomic_store_n(&r->phase, 1, __ATOMIC_RELEASE);
	while (__atomic_load_n(&r->phase, __ATOMIC_ACQUIRE) != 2)
		sched_yield();
	/* still valid: the grace period cannot end while we are here */
	r->after_nr_max = READ_ONCE(r->seen->map_nr_max);
	rcu_read_unlock();
	__atomic_store_n(&r->phase, 3, __ATOMIC_RELEASE);
}

static void *reader_thread(void *arg)
{
	kshim_thread_enter(1);
	reader_fn(arg, 0);
	kshim_thread_exit();
	return NULL;
}

static void test_expand_across_unit(void **state)
{
	struct world w;
	struct reader r = { 0 };
	struct shrinker_info *old_info;
	struct shrinker_info_unit *old_unit0;
	struct tb_cache *c;
	unsigned long before, during, after, idr_nodes;
	pthread_t tid;
	int first_id, nid, i, infos = NR_MEMCG * 2;

	(void)state;
	world_create(&w);
	world_fill_unit(&w);
	first_id = w.cache[0]->shrinker->id;
	tb_cache_add(w.cache[0], w.memcg[1], 0, 5);
	old_info = w.memcg[1]->nodeinfo[0]->shrinker_info;
	old_unit0 = old_info->unit[0];
	kshim_rcu_quiesce();	/* nothing of the fill-up may be pending */

	r.memcg = w.memcg[1];
	pthread_create(&tid, NULL, reader_thread, &r);
	while (__atomic_load_n(&r.phase, __ATOMIC_ACQUIRE) != 1)
		sched_yield();
	before = kshim_slab_live();
	idr_nodes = kshim_radix_tree_nodes();
	c = tb_cache_create(SHRINKER_MEMCG_AWARE);
	assert_non_null(c);
	w.cache[w.nr_cache++] = c;
	assert_int_equal(c->shrinker->id, w.boundary);
	during = kshim_slab_live();
	for (i = 0; i < NR_MEMCG; i++) {
		for (nid = 0; nid < 2; nid++) {
			struct shrinker_info *info = w.memcg[i]->nodeinfo[nid]->shrinker_info;

			assert_int_equal(info->map_nr_max, w.boundary + SHRINKER_UNIT_BITS);
			assert_non_null(info->unit[w.boundary / SHRINKER_UNIT_BITS]);
		}
	}
	assert_ptr_not_equal(w.memcg[1]->nodeinfo[0]->shrinker_info, old_info);
	/* units are carried over by pointer, bits and all */
	assert_ptr_equal(w.memcg[1]->nodeinfo[0]->shrinker_info->unit[0], old_unit0);
	assert_true(tb_shrinker_bit(w.memcg[1], 0, first_id));

	__atomic_store_n(&r.phase, 2, __ATOMIC_RELEASE);
	pthread_join(tid, NULL);
	assert_ptr_equal(r.seen, old_info);
	assert_int_equal(r.after_nr_max, w.boundary);
	kshim_rcu_quiesce();
	after = kshim_slab_live();
	/*
	 * +1 shrinker, +1 unit per (memcg, node), infos replaced one for one;
	 * shrinker_idr (lib/idr.c) reaches id 64: a second level, +2 nodes
	 */
	assert_int_equal(kshim_radix_tree_nodes(), idr_nodes + 2);
	assert_int_equal(after, before + 1 + infos + 2);
	/* the old infos (and nothing else of ours) waited for the grace period */
	assert_true(during >= after + infos);
	world_destroy(&w);
}

/*
 * Fail each allocation of a boundary-crossing shrinker_alloc once: it must
 * return NULL, give the id back, and leave every memcg usable.
 */
static void test_fault_each_alloc_in_expand(void **state)
{
	unsigned long n, base = kshim_slab_live();
	bool done = false;

	(void)state;
	for (n = 1; !done; n++) {
		struct world w;
		struct tb_cache *c;

		world_create(&w);
		world_fill_unit(&w);
		kshim_fault_nth(n);
		c = tb_cache_create(SHRINKER_MEMCG_AWARE);
		done = kshim_fault_injected() == 0;
		kshim_fault_reset();
		if (done) {
			assert_non_null(c);
		} else {
			assert_null(c);
			/* the id was freed: the retry gets it */
			c = tb_cache_create(SHRINKER_MEMCG_AWARE);
			assert_non_null(c);
		}
		assert_int_equal(c->shrinker->id, w.boundary);
		w.cache[w.nr_cache++] = c;
		tb_cache_add(c, w.memcg[2], 1, 10);
		assert_true(tb_shrinker_bit(w.memcg[2], 1, c->shrinker->id));
		world_destroy(&w);
		kshim_rcu_quiesce();
		assert_int_equal(kshim_slab_live(), base);
		assert_true(n < 64);
	}
	/* the memcg-aware alloc path allocates: shrinker, id slot array,
	 * and per (memcg, node) an info and a unit; each was failed once */
	assert_true(n > 1 + 2 * NR_MEMCG);
}

/* Fail each allocation of memcg creation (incl. alloc_shrinker_info). */
static void test_fault_each_alloc_in_memcg_online(void **state)
{
	struct mem_cgroup *root, *m;
	struct tb_cache *c;
	unsigned long n, base, units;
	bool done = false;

	(void)state;
	root = kshim_memcg_create(NULL);
	c = tb_cache_create(SHRINKER_MEMCG_AWARE);
	units = DIV_ROUND_UP(tb_shrinker_map_nr_max(root, 0), SHRINKER_UNIT_BITS);
	base = kshim_slab_live();
	for (n = 1; !done; n++) {
		kshim_fault_nth(n);
		m = kshim_memcg_create(root);
		done = kshim_fault_injected() == 0;
		kshim_fault_reset();
		if (!done) {
			assert_null(m);
			kshim_rcu_quiesce();
			assert_int_equal(kshim_slab_live(), base);
			continue;
		}
		assert_non_null(m);
		tb_cache_add(c, m, 1, 10);
		assert_true(tb_shrinker_bit(m, 1, c->shrinker->id));
		kshim_memcg_destroy(m);
		assert_true(n < 256);
	}
	/* memcg, then per node: nodeinfo, info and its units; each failed once */
	assert_int_equal(n - 2, 1 + 2 * (2 + units));
	tb_cache_destroy(c);
	kshim_memcg_destroy(root);
}

static void test_fault_plain_alloc(void **state)
{
	struct shrinker *s;

	(void)state;
	kshim_fault_nth(1);
	assert_null(shrinker_alloc(SHRINKER_NUMA_AWARE, "fail-shrinker"));
	kshim_fault_reset();
	kshim_fault_nth(2);
	assert_null(shrinker_alloc(SHRINKER_NUMA_AWARE, "fail-deferred"));
	assert_int_equal(kshim_fault_injected(), 1);
	kshim_fault_reset();
	s = shrinker_alloc(SHRINKER_NUMA_AWARE, "ok");
	assert_non_null(s);
	shrinker_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		TB_TEST(test_expand_across_unit),
		TB_TEST(test_fault_each_alloc_in_expand),
		TB_TEST(test_fault_each_alloc_in_memcg_online),
		TB_TEST(test_fault_plain_alloc),
	};

	tb_world.nr_nodes = 2;
	return TB_RUN(tests);
}
