// SPDX-License-Identifier: GPL-2.0-only
/*
 * Concurrency: two reclaimers shrink 1000 memcgs on both nodes while a
 * third thread registers and frees memcg-aware shrinkers. Every
 * shrinker_free() must return (all in-flight users dropped their
 * reference), no callback may run after it returned, and the world must
 * tear down with nothing left. Run it under TSan and ASan.
 */
#include <unistd.h>
#include <linux/memcontrol.h>
#include <linux/shrinker.h>
#include <kshim/memcg.h>
#include "tb_test.h"
#include "tb_cache.h"

#define NR_MEMCGS 1000
#define NR_ROUNDS 30
#define NR_CHURN 150

struct stress {
	struct mem_cgroup *root;
	struct mem_cgroup *memcg[NR_MEMCGS];
	struct tb_cache *steady;
	struct tb_cache *churned[NR_CHURN];
	int reclaimers_done;
	unsigned long visits[2];
	int frees_returned;
};

static void reclaimer(struct stress *s, unsigned int i)
{
	int round, prio = 1 + 2 * (int)i;

	/* as shrink_node_memcgs: every memcg below the root, each node */
	for (round = 0; round < NR_ROUNDS; round++)
		kshim_shrink_memcgs(s->root, round & 1, prio, &s->visits[i]);
	__atomic_fetch_add(&s->reclaimers_done, 1, __ATOMIC_RELEASE);
}

static void churner(struct stress *s)
{
	int k = 0;

	while (k < NR_CHURN) {
		struct tb_cache *c = tb_cache_create(SHRINKER_MEMCG_AWARE);
		int j;

		assert_non_null(c);
		for (j = 0; j < 20; j++)
			tb_cache_add(c, s->memcg[(k * 37 + j * 101) % NR_MEMCGS], j & 1, 300);
		sched_yield();
		tb_cache_shrinker_free(c);
		s->churned[k++] = c;
		s->frees_returned++;
		if (__atomic_load_n(&s->reclaimers_done, __ATOMIC_ACQUIRE) == 2 && k >= 20)
			break;
	}
}

static void stress_thread(void *arg, unsigned int i)
{
	struct stress *s = arg;

	if (i < 2)
		reclaimer(s, i);
	else
		churner(s);
}

static void test_shrink_while_registering(void **state)
{
	struct stress *s = calloc(1, sizeof(*s));
	long before, after;
	int i, nid;

	(void)state;
	s->root = kshim_memcg_create(NULL);
	for (i = 0; i < NR_MEMCGS; i++) {
		s->memcg[i] = kshim_memcg_create(s->root);
		assert_non_null(s->memcg[i]);
	}
	s->steady = tb_cache_create(SHRINKER_MEMCG_AWARE | SHRINKER_NUMA_AWARE);
	for (i = 0; i < NR_MEMCGS; i++)
		for (nid = 0; nid < 2; nid++)
			tb_cache_add(s->steady, s->memcg[i], nid, 1000);
	before = atomic_long_read(&s->steady->freed);

	tb_run_threads(3, stress_thread, s);

	assert_int_equal(s->visits[0], NR_ROUNDS * (NR_MEMCGS + 1));
	assert_int_equal(s->visits[1], NR_ROUNDS * (NR_MEMCGS + 1));
	after = atomic_long_read(&s->steady->freed);
	assert_true(after > before);
	/* objects only ever leave through scan_objects */
	for (i = 0; i < NR_MEMCGS; i++)
		for (nid = 0; nid < 2; nid++)
			assert_true(tb_cache_objects(s->steady, s->memcg[i], nid) >= 0);
	for (i = 0; i < s->frees_returned; i++) {
		assert_int_equal(atomic_long_read(&s->churned[i]->late_calls), 0);
		tb_cache_destroy(s->churned[i]);
	}
	assert_int_equal(atomic_long_read(&s->steady->late_calls), 0);
	tb_cache_destroy(s->steady);
	for (i = 0; i < NR_MEMCGS; i++)
		kshim_memcg_destroy(s->memcg[i]);
	kshim_memcg_destroy(s->root);
	free(s);
}

/*
 * shrinker_free() of a shrinker whose scan is running returns only after
 * that scan: it drops the initial reference and waits for the completion
 * the last shrinker_put() signals. Thread 0 scans (held in scan_objects),
 * thread 1 frees, thread 2 lets the scan go 200 ms after it started: the
 * free must not have returned before that.
 */
struct held_scan {
	struct mem_cgroup *memcg;
	struct tb_cache *c;
	int freed_while_held;
};

static void held_scan_thread(void *arg, unsigned int i)
{
	struct held_scan *h = arg;

	if (i == 0) {
		shrink_slab(GFP_KERNEL, 0, h->memcg, 2);
		return;
	}
	while (!__atomic_load_n(&h->c->in_scan, __ATOMIC_ACQUIRE))
		usleep(1000);
	if (i == 1) {
		tb_cache_shrinker_free(h->c);
		h->freed_while_held = __atomic_load_n(&h->c->hold, __ATOMIC_ACQUIRE);
		return;
	}
	usleep(200 * 1000);
	__atomic_store_n(&h->c->hold, 0, __ATOMIC_RELEASE);
}

static void test_free_waits_for_running_scan(void **state)
{
	struct held_scan h = { 0 };
	struct mem_cgroup *root;

	(void)state;
	root = kshim_memcg_create(NULL);
	h.memcg = kshim_memcg_create(root);
	h.c = tb_cache_create(SHRINKER_MEMCG_AWARE);
	tb_cache_add(h.c, h.memcg, 0, 1000);
	h.c->hold = 1;
	tb_run_threads(3, held_scan_thread, &h);
	assert_int_equal(h.freed_while_held, 0);
	assert_int_equal(atomic_long_read(&h.c->scan_calls), 3);
	tb_cache_destroy(h.c);
	kshim_memcg_destroy(h.memcg);
	kshim_memcg_destroy(root);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		TB_TEST(test_shrink_while_registering),
		TB_TEST(test_free_waits_for_running_scan),
	};

	tb_world.nr_nodes = 2;
	return TB_RUN(tests);
}
