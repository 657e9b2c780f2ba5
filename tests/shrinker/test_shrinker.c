// SPDX-License-Identifier: GPL-2.0-only
/*
 * The real mm/shrinker.c: allocation and registration, memcg-aware
 * shrinking driven by shrinker_info bits, the scan target derived from the
 * priority, deferred work, SHRINK_EMPTY, and shrinker_info expansion.
 */
#include <linux/memcontrol.h>
#include <linux/shrinker.h>
#include <linux/vmstat.h>
#include <kshim/memcg.h>
#include <kshim/trace.h>
#include "tb_test.h"
#include "tb_cache.h"

unsigned long shrink_slab(gfp_t gfp_mask, int nid, struct mem_cgroup *memcg, int priority);

struct tree {
	struct mem_cgroup *root, *a, *b;
};

static void tree_create(struct tree *t)
{
	t->root = kshim_memcg_create(NULL);
	assert_non_null(t->root);
	t->a = kshim_memcg_create(t->root);
	t->b = kshim_memcg_create(t->root);
	assert_non_null(t->a);
	assert_non_null(t->b);
}

static void tree_destroy(struct tree *t)
{
	kshim_memcg_destroy(t->b);
	kshim_memcg_destroy(t->a);
	kshim_memcg_destroy(t->root);
}

static void test_plain_alloc_register_free(void **state)
{
	struct tb_cache *c = tb_cache_create(0);

	(void)state;
	assert_non_null(c);
	assert_true(c->shrinker->flags & SHRINKER_ALLOCATED);
	assert_true(c->shrinker->flags & SHRINKER_REGISTERED);
	assert_false(c->shrinker->flags & SHRINKER_MEMCG_AWARE);
	assert_int_equal(c->shrinker->seeks, DEFAULT_SEEKS);
	assert_non_null(c->shrinker->nr_deferred);
	assert_int_equal(refcount_read(&c->shrinker->refcount), 1);
	tb_cache_destroy(c);
}

/* With no root memcg yet a memcg-aware shrinker still gets an id. */
static void test_memcg_aware_ids_reused(void **state)
{
	struct tb_cache *c1, *c2, *c3;
	int id1;

	(void)state;
	c1 = tb_cache_create(SHRINKER_MEMCG_AWARE);
	c2 = tb_cache_create(SHRINKER_MEMCG_AWARE);
	assert_true(c1->shrinker->flags & SHRINKER_MEMCG_AWARE);
	assert_null(c1->shrinker->nr_deferred);
	id1 = c1->shrinker->id;
	assert_int_equal(c2->shrinker->id, id1 + 1);
	tb_cache_destroy(c1);
	c3 = tb_cache_create(SHRINKER_MEMCG_AWARE);
	assert_int_equal(c3->shrinker->id, id1);	/* idr hands out the lowest free id */
	tb_cache_destroy(c2);
	tb_cache_destroy(c3);
}

/* Without the memcg's bit the shrinker is never asked about that memcg. */
static void test_memcg_shrink_needs_bit(void **state)
{
	struct tree t;
	struct tb_cache *c;

	(void)state;
	tree_create(&t);
	c = tb_cache_create(SHRINKER_MEMCG_AWARE);
	atomic_long_set(&c->objects[t.a->css.id][0], 1000);
	assert_int_equal(shrink_slab(GFP_KERNEL, 0, t.a, 0), 0);
	assert_int_equal(atomic_long_read(&c->count_calls), 0);

	tb_cache_add(c, t.a, 0, 0);	/* sets the bit */
	assert_true(tb_shrinker_bit(t.a, 0, c->shrinker->id));
	assert_false(tb_shrinker_bit(t.b, 0, c->shrinker->id));
	assert_false(tb_shrinker_bit(t.a, 1, c->shrinker->id));
	assert_int_equal(shrink_slab(GFP_KERNEL, 0, t.a, 0), 1000);
	assert_ptr_equal(c->last_memcg, t.a);
	assert_int_equal(c->last_nid, 0);
	assert_int_equal(tb_cache_objects(c, t.a, 0), 0);
	/* the other memcg and node were not touched */
	assert_int_equal(shrink_slab(GFP_KERNEL, 0, t.b, 0), 0);
	tb_cache_destroy(c);
	tree_destroy(&t);
}

/*
 * do_shrink_slab: delta = (freeable >> priority) * 4 / seeks, total_scan =
 * min(delta + (deferred >> priority), 2 * freeable), scanned in batches of
 * 128 while total_scan >= 128 or >= freeable; the rest is deferred.
 * freeable 1000 at priority 2: delta 500, three batches (384), 116 deferred.
 */
static void test_scan_target_and_deferred(void **state)
{
	struct tree t;
	struct tb_cache *c;
	int id;

	(void)state;
	tree_create(&t);
	c = tb_cache_create(SHRINKER_MEMCG_AWARE);
	id = c->shrinker->id;
	tb_cache_add(c, t.a, 0, 1000);
	kshim_trace_reset();
	assert_int_equal(shrink_slab(GFP_KERNEL, 0, t.a, 2), 384);
	assert_int_equal(kshim_trace.last_start.delta, 500);
	assert_int_equal(kshim_trace.last_start.total_scan, 500);
	assert_int_equal(kshim_trace.last_start.nr_objects_to_shrink, 0);
	assert_int_equal(atomic_long_read(&c->scan_calls), 3);
	assert_int_equal(c->last_nr_to_scan, 128);
	assert_int_equal(kshim_vm_event_read(SLABS_SCANNED), 384);
	assert_int_equal(tb_shrinker_deferred(t.a, 0, id), 116);
	assert_int_equal(tb_shrinker_deferred(t.b, 0, id), 0);
	/* the end tracepoint reports the deferred count after the add */
	assert_int_equal(kshim_trace.last_end.new_scan_cnt, 116);

	/* second pass: 616 left; the 116 deferred come back as 116 >> 2 = 29 */
	assert_int_equal(shrink_slab(GFP_KERNEL, 0, t.a, 2), 256);
	assert_int_equal(kshim_trace.last_start.nr_objects_to_shrink, 116);
	assert_int_equal(kshim_trace.last_start.delta, (616 >> 2) * 4 / 2);
	assert_int_equal(kshim_trace.last_start.total_scan, 29 + 308);
	/* deferred: 116 + 308 - 256 = 168 */
	assert_int_equal(tb_shrinker_deferred(t.a, 0, id), 168);
	tb_cache_destroy(c);
	tree_destroy(&t);
}

/* the model of do_shrink_slab above, for every priority */
static unsigned long model_scanned(long freeable, int priority)
{
	long delta = (freeable >> priority) * 4 / DEFAULT_SEEKS;
	long total = min(delta, 2 * freeable), scanned = 0;

	while (total >= 128 || total >= freeable) {
		long n = min(128L, total);

		scanned += n;
		total -= n;
		if (!n)
			break;
	}
	return scanned;
}

static void test_priority_sets_nr_to_scan(void **state)
{
	struct tree t;
	int prio;

	(void)state;
	tree_create(&t);
	for (prio = 12; prio >= 0; prio--) {
		/* a fresh memcg each round: deferred work is per memcg and id */
		struct mem_cgroup *m = kshim_memcg_create(t.a);
		struct tb_cache *c = tb_cache_create(SHRINKER_MEMCG_AWARE);
		long freeable = 100000;

		assert_non_null(m);
		tb_cache_add(c, m, 1, freeable);
		kshim_trace_reset();
		shrink_slab(GFP_KERNEL, 1, m, prio);
		assert_int_equal(kshim_trace.last_start.priority, prio);
		assert_int_equal(kshim_trace.last_start.nr_objects_to_shrink, 0);
		assert_int_equal(kshim_trace.last_start.delta, (freeable >> prio) * 4 / 2);
		assert_int_equal(atomic_long_read(&c->scanned), model_scanned(freeable, prio));
		assert_int_equal(tb_cache_objects(c, m, 1),
				 freeable - (long)min_t(unsigned long, model_scanned(freeable, prio), freeable));
		tb_cache_destroy(c);
		kshim_memcg_destroy(m);
	}
	tree_destroy(&t);
}

/*
 * Finding: a memcg's nr_deferred slot is not cleared when its shrinker is
 * freed, so the next shrinker given the same id inherits the old one's
 * deferred work in every memcg (shrinker_memcg_remove only frees the id).
 */
static void test_reused_id_inherits_deferred(void **state)
{
	struct tree t;
	struct tb_cache *old, *new;
	int id;

	(void)state;
	tree_create(&t);
	old = tb_cache_create(SHRINKER_MEMCG_AWARE);
	id = old->shrinker->id;
	tb_cache_add(old, t.a, 0, 1000);
	shrink_slab(GFP_KERNEL, 0, t.a, 2);
	assert_int_equal(tb_shrinker_deferred(t.a, 0, id), 116);
	tb_cache_destroy(old);

	new = tb_cache_create(SHRINKER_MEMCG_AWARE);
	assert_int_equal(new->shrinker->id, id);
	assert_int_equal(tb_shrinker_deferred(t.a, 0, id), 116);
	tb_cache_add(new, t.a, 0, 1000);
	kshim_trace_reset();
	shrink_slab(GFP_KERNEL, 0, t.a, 2);
	/* the new shrinker's first scan starts with the old one's backlog */
	assert_int_equal(kshim_trace.last_start.nr_objects_to_shrink, 116);
	assert_int_equal(kshim_trace.last_start.total_scan, 500 + (116 >> 2));
	tb_cache_destroy(new);
	tree_destroy(&t);
}

/* SHRINK_EMPTY clears the bit, then the shrinker is asked once more. */
static void test_shrink_empty_second_call(void **state)
{
	struct tree t;
	struct tb_cache *c;
	int id;

	(void)state;
	tree_create(&t);
	c = tb_cache_create(SHRINKER_MEMCG_AWARE);
	id = c->shrinker->id;
	tb_cache_add(c, t.a, 0, 0);
	assert_int_equal(shrink_slab(GFP_KERNEL, 0, t.a, 0), 0);
	assert_int_equal(atomic_long_read(&c->count_calls), 2);
	assert_false(tb_shrinker_bit(t.a, 0, id));
	/* bit clear: not asked again */
	shrink_slab(GFP_KERNEL, 0, t.a, 0);
	assert_int_equal(atomic_long_read(&c->count_calls), 2);

	/* objects appear between the two calls: the bit is set again */
	tb_cache_add(c, t.a, 0, 10);
	c->empty_answers = 1;
	assert_int_equal(shrink_slab(GFP_KERNEL, 0, t.a, 0), 10);
	assert_int_equal(atomic_long_read(&c->count_calls), 4);
	assert_true(tb_shrinker_bit(t.a, 0, id));
	tb_cache_destroy(c);
	tree_destroy(&t);
}

static void test_scan_stop(void **state)
{
	struct tree t;
	struct tb_cache *c;

	(void)state;
	tree_create(&t);
	c = tb_cache_create(SHRINKER_MEMCG_AWARE);
	tb_cache_add(c, t.a, 0, 1000);
	c->stop = true;
	assert_int_equal(shrink_slab(GFP_KERNEL, 0, t.a, 0), 0);
	assert_int_equal(atomic_long_read(&c->scan_calls), 1);
	/* nothing scanned: all of delta (2000, capped at 2 * 1000) is deferred */
	assert_int_equal(tb_shrinker_deferred(t.a, 0, c->shrinker->id), 2000);
	tb_cache_destroy(c);
	tree_destroy(&t);
}

/* Root (global) reclaim walks shrinker_list; NUMA-aware defer per node. */
static void test_global_shrink_numa(void **state)
{
	struct tree t;
	struct tb_cache *plain, *numa;

	(void)state;
	tree_create(&t);
	plain = tb_cache_create(0);
	numa = tb_cache_create(SHRINKER_NUMA_AWARE);
	tb_cache_add(plain, NULL, 1, 1000);
	tb_cache_add(numa, NULL, 1, 1000);
	assert_int_equal(shrink_slab(GFP_KERNEL, 1, t.root, 2), 768);
	/* not NUMA aware: deferred kept in slot 0; NUMA aware: in slot 1 */
	assert_int_equal(atomic_long_read(&plain->shrinker->nr_deferred[0]), 116);
	assert_int_equal(atomic_long_read(&numa->shrinker->nr_deferred[0]), 0);
	assert_int_equal(atomic_long_read(&numa->shrinker->nr_deferred[1]), 116);
	tb_cache_destroy(plain);
	tb_cache_destroy(numa);
	tree_destroy(&t);
}

/* Offlining a memcg moves its deferred counts to the parent. */
static void test_reparent_deferred(void **state)
{
	struct mem_cgroup *root, *mid, *leaf;
	struct tb_cache *c;
	int id;

	(void)state;
	root = kshim_memcg_create(NULL);
	mid = kshim_memcg_create(root);
	leaf = kshim_memcg_create(mid);
	c = tb_cache_create(SHRINKER_MEMCG_AWARE);
	id = c->shrinker->id;
	tb_cache_add(c, leaf, 1, 1000);
	shrink_slab(GFP_KERNEL, 1, leaf, 2);
	/* not NUMA aware: the deferred count lives in node 0's info */
	assert_int_equal(tb_shrinker_deferred(leaf, 1, id), 0);
	assert_int_equal(tb_shrinker_deferred(leaf, 0, id), 116);
	assert_int_equal(tb_shrinker_deferred(mid, 0, id), 0);
	kshim_memcg_destroy(leaf);
	assert_int_equal(tb_shrinker_deferred(mid, 0, id), 116);
	assert_int_equal(tb_shrinker_deferred(root, 0, id), 0);
	/* an offline memcg is skipped by shrink_slab_memcg */
	kshim_memcg_destroy(mid);
	tb_cache_destroy(c);
	kshim_memcg_destroy(root);
}

/*
 * Reparenting adds every id's deferred work to the parent, the last id of
 * a unit (SHRINKER_UNIT_BITS - 1) included.
 */
static void test_reparent_moves_the_units_last_id(void **state)
{
	struct mem_cgroup *root, *mid, *leaf;
	struct tb_cache *c[SHRINKER_UNIT_BITS];
	int i, last = SHRINKER_UNIT_BITS - 1;

	(void)state;
	root = kshim_memcg_create(NULL);
	mid = kshim_memcg_create(root);
	leaf = kshim_memcg_create(mid);
	for (i = 0; i < SHRINKER_UNIT_BITS; i++)
		c[i] = tb_cache_create(SHRINKER_MEMCG_AWARE);
	assert_int_equal(c[last]->shrinker->id, last);
	tb_cache_add(c[last], leaf, 0, 1000);
	shrink_slab(GFP_KERNEL, 0, leaf, 2);
	assert_int_equal(tb_shrinker_deferred(leaf, 0, last), 116);
	kshim_memcg_destroy(leaf);
	assert_int_equal(tb_shrinker_deferred(mid, 0, last), 116);
	kshim_memcg_destroy(mid);
	for (i = 0; i < SHRINKER_UNIT_BITS; i++)
		tb_cache_destroy(c[i]);
	kshim_memcg_destroy(root);
}

/*
 * set_shrinker_bit() marks nothing for the root memcg (shrink_slab() runs
 * the root's shrinkers without its map), for no memcg (an object charged
 * to none) or for id -1 (a list_lru whose shrinker is not memcg aware).
 */
static void test_set_shrinker_bit_skips_root_none_and_no_id(void **state)
{
	struct tree t;
	struct tb_cache *c;
	int id;

	(void)state;
	tree_create(&t);
	c = tb_cache_create(SHRINKER_MEMCG_AWARE);
	set_shrinker_bit(t.root, 0, c->shrinker->id);
	assert_false(tb_shrinker_bit(t.root, 0, c->shrinker->id));
	set_shrinker_bit(NULL, 0, c->shrinker->id);
	set_shrinker_bit(t.a, 0, -1);
	for (id = 0; id < SHRINKER_UNIT_BITS; id++)
		assert_false(tb_shrinker_bit(t.a, 0, id));
	tb_cache_destroy(c);
	tree_destroy(&t);
}

/*
 * Memcg-aware ids start at 0 (no other memcg-aware shrinker exists here),
 * and each id has its own bit and deferred slot in a memcg's info.
 */
static void test_each_shrinker_has_its_own_bit(void **state)
{
	struct tree t;
	struct tb_cache *c0, *c1;

	(void)state;
	tree_create(&t);
	c0 = tb_cache_create(SHRINKER_MEMCG_AWARE);
	c1 = tb_cache_create(SHRINKER_MEMCG_AWARE);
	assert_int_equal(c0->shrinker->id, 0);
	assert_int_equal(c1->shrinker->id, 1);
	tb_cache_add(c1, t.a, 0, 1000);
	assert_false(tb_shrinker_bit(t.a, 0, 0));
	assert_true(tb_shrinker_bit(t.a, 0, 1));
	assert_int_equal(shrink_slab(GFP_KERNEL, 0, t.a, 2), 384);
	assert_int_equal(atomic_long_read(&c0->count_calls), 0);
	assert_int_equal(tb_shrinker_deferred(t.a, 0, 1), 116);
	assert_int_equal(tb_shrinker_deferred(t.a, 0, 0), 0);
	tb_cache_destroy(c1);
	tb_cache_destroy(c0);
	tree_destroy(&t);
}

/* a shrinker that is not memcg aware keeps its deferred work itself */
static void test_plain_shrinker_takes_back_its_deferred(void **state)
{
	struct tree t;
	struct tb_cache *plain;

	(void)state;
	tree_create(&t);
	plain = tb_cache_create(0);
	tb_cache_add(plain, NULL, 0, 1000);
	assert_int_equal(shrink_slab(GFP_KERNEL, 0, t.root, 2), 384);
	assert_int_equal(atomic_long_read(&plain->shrinker->nr_deferred[0]), 116);
	kshim_trace_reset();
	shrink_slab(GFP_KERNEL, 0, t.root, 2);
	assert_int_equal(kshim_trace.last_start.nr_objects_to_shrink, 116);
	tb_cache_destroy(plain);
	tree_destroy(&t);
}

/*
 * One object at priority 0: delta 1 * 4 / 2 = 2 >= freeable, so it is
 * scanned (2 asked, 1 freed) and nothing is deferred.
 */
static void test_single_object_freed_at_priority_0(void **state)
{
	struct tree t;
	struct tb_cache *c;

	(void)state;
	tree_create(&t);
	c = tb_cache_create(SHRINKER_MEMCG_AWARE);
	tb_cache_add(c, t.a, 0, 1);
	kshim_trace_reset();
	assert_int_equal(shrink_slab(GFP_KERNEL, 0, t.a, 0), 1);
	assert_int_equal(tb_cache_objects(c, t.a, 0), 0);
	assert_int_equal(kshim_trace.last_end.new_scan_cnt, 0);
	assert_int_equal(tb_shrinker_deferred(t.a, 0, c->shrinker->id), 0);
	tb_cache_destroy(c);
	tree_destroy(&t);
}

/*
 * do_shrink_slab()'s scan loop. A target equal to the cache, below a batch
 * (100 objects at priority 1: delta (100 >> 1) * 4 / 2 = 100), is scanned,
 * in one call of exactly 100. A target of 2000 (1000 objects at priority
 * 0, capped at 2 * freeable) goes in batches of 128 while a whole batch or
 * the whole cache is left: 15 calls, the last 80 not scanned.
 */
static void test_scan_loop_bounds(void **state)
{
	struct tree t;
	struct tb_cache *c;

	(void)state;
	tree_create(&t);
	c = tb_cache_create(SHRINKER_MEMCG_AWARE);
	tb_cache_add(c, t.a, 0, 100);
	assert_int_equal(shrink_slab(GFP_KERNEL, 0, t.a, 1), 100);
	assert_int_equal(atomic_long_read(&c->scan_calls), 1);
	assert_int_equal(c->last_nr_to_scan, 100);
	tb_cache_add(c, t.b, 0, 1000);
	assert_int_equal(shrink_slab(GFP_KERNEL, 0, t.b, 0), 1000);
	assert_int_equal(atomic_long_read(&c->scan_calls), 1 + 15);
	assert_int_equal(c->last_nr_to_scan, 128);
	tb_cache_destroy(c);
	tree_destroy(&t);
}

/*
 * A target one short of a batch, below the cache, is left for later: 204
 * objects at priority 2 give delta (204 >> 2) * 4 / 2 = 102, none scanned
 * and 102 deferred; the next call's target is (102 >> 2) + 102 = 127, still
 * none scanned, and 204 deferred.
 */
static void test_target_one_short_of_a_batch_is_deferred(void **state)
{
	struct tree t;
	struct tb_cache *c;

	(void)state;
	tree_create(&t);
	c = tb_cache_create(SHRINKER_MEMCG_AWARE);
	tb_cache_add(c, t.a, 0, 204);
	assert_int_equal(shrink_slab(GFP_KERNEL, 0, t.a, 2), 0);
	assert_int_equal(tb_shrinker_deferred(t.a, 0, c->shrinker->id), 102);
	kshim_trace_reset();
	assert_int_equal(shrink_slab(GFP_KERNEL, 0, t.a, 2), 0);
	assert_int_equal(kshim_trace.last_start.total_scan, 127);
	assert_int_equal(atomic_long_read(&c->scan_calls), 0);
	assert_int_equal(tb_shrinker_deferred(t.a, 0, c->shrinker->id), 204);
	tb_cache_destroy(c);
	tree_destroy(&t);
}

/*
 * With kmem accounting off (cgroup.memory=nokmem, memcg_kmem_online()
 * false) shrink_slab_memcg() still runs a memcg's shrinkers that are not
 * slab (SHRINKER_NONSLAB).
 */
static void test_nokmem_runs_nonslab_shrinkers(void **state)
{
	struct tree t;
	struct tb_cache *nonslab;
	unsigned long freed;

	(void)state;
	tree_create(&t);
	nonslab = tb_cache_create(SHRINKER_MEMCG_AWARE | SHRINKER_NONSLAB);
	tb_cache_add(nonslab, t.a, 0, 1000);
	static_branch_disable(&memcg_kmem_online_key);
	freed = shrink_slab(GFP_KERNEL, 0, t.a, 2);
	static_branch_enable(&memcg_kmem_online_key);
	assert_int_equal(freed, 384);
	assert_int_equal(tb_cache_objects(nonslab, t.a, 0), 1000 - 384);
	tb_cache_destroy(nonslab);
	tree_destroy(&t);
}

/*
 * ... and skips its slab shrinkers, but after shrinker_try_get(): the
 * 'continue' never puts that reference back, so the shrinker's refcount
 * stays raised and shrinker_free() would wait for its completion forever.
 * The test puts the reference itself so that the cache can be destroyed.
 * 7.2 puts it, and clears the bit (shrinker_nokmem_put).
 */
static void test_nokmem_skipped_slab_shrinker_keeps_a_reference(void **state)
{
	struct tree t;
	struct tb_cache *slab;
	unsigned long freed;

	(void)state;
	tree_create(&t);
	slab = tb_cache_create(SHRINKER_MEMCG_AWARE);
	tb_cache_add(slab, t.a, 0, 1000);
	assert_int_equal(refcount_read(&slab->shrinker->refcount), 1);
	static_branch_disable(&memcg_kmem_online_key);
	freed = shrink_slab(GFP_KERNEL, 0, t.a, 2);
	static_branch_enable(&memcg_kmem_online_key);
	assert_int_equal(freed, 0);
	assert_int_equal(atomic_long_read(&slab->scan_calls), 0);
#if TB_HAVE_shrinker_nokmem_put
	/* 7.2: the skipped shrinker's bit is cleared and its reference put */
	assert_int_equal(refcount_read(&slab->shrinker->refcount), 1);
	assert_false(tb_shrinker_bit(t.a, 0, slab->shrinker->id));
#else
	assert_int_equal(refcount_read(&slab->shrinker->refcount), 2);
	shrinker_put(slab->shrinker);
#endif
	tb_cache_destroy(slab);
	tree_destroy(&t);
}

/*
 * With the memory controller off (cgroup_disable=memory) shrink_slab() for
 * no memcg runs the global shrinkers, though a root memcg was allocated.
 */
static void test_memcg_disabled_shrinks_globally(void **state)
{
	struct tree t;
	struct tb_cache *plain;
	unsigned long freed;

	(void)state;
	tree_create(&t);
	plain = tb_cache_create(0);
	tb_cache_add(plain, NULL, 0, 1000);
	static_branch_disable(&memory_cgrp_subsys_enabled_key);
	freed = shrink_slab(GFP_KERNEL, 0, NULL, 2);
	static_branch_enable(&memory_cgrp_subsys_enabled_key);
	assert_int_equal(freed, 384);
	tb_cache_destroy(plain);
	tree_destroy(&t);
}

/*
 * A count of 0 (not SHRINK_EMPTY) returns at once: nothing scanned, and
 * the deferred work is left for the next call, not taken.
 */
static void test_count_of_zero_keeps_deferred(void **state)
{
	struct tree t;
	struct tb_cache *c;
	long scans;

	(void)state;
	tree_create(&t);
	c = tb_cache_create(SHRINKER_MEMCG_AWARE);
	tb_cache_add(c, t.a, 0, 1000);
	assert_int_equal(shrink_slab(GFP_KERNEL, 0, t.a, 2), 384);
	assert_int_equal(tb_shrinker_deferred(t.a, 0, c->shrinker->id), 116);
	scans = atomic_long_read(&c->scan_calls);
	c->zero_answers = 1;
	assert_int_equal(shrink_slab(GFP_KERNEL, 0, t.a, 2), 0);
	assert_int_equal(atomic_long_read(&c->scan_calls), scans);
	assert_int_equal(tb_shrinker_deferred(t.a, 0, c->shrinker->id), 116);
	tb_cache_destroy(c);
	tree_destroy(&t);
}

/*
 * A scan callback may report more scanned than asked (sc->nr_scanned is
 * the callee's to change): the deferred work left is clamped at 0, never
 * negative. 100 objects at priority 1 are one scan of 100; 150 reported.
 */
static void test_overscan_defers_nothing_not_less(void **state)
{
	struct tree t;
	struct tb_cache *c;

	(void)state;
	tree_create(&t);
	c = tb_cache_create(SHRINKER_MEMCG_AWARE);
	c->overscan = 50;
	tb_cache_add(c, t.a, 0, 100);
	kshim_trace_reset();
	assert_int_equal(shrink_slab(GFP_KERNEL, 0, t.a, 1), 100);
	assert_int_equal(tb_shrinker_deferred(t.a, 0, c->shrinker->id), 0);
	assert_int_equal(kshim_trace.last_end.new_scan_cnt, 0);
	tb_cache_destroy(c);
	tree_destroy(&t);
}

/* 256 objects at priority 2: delta (256 >> 2) * 4 / 2 = 128, one batch */
static void test_scan_target_of_one_batch(void **state)
{
	struct tree t;
	struct tb_cache *c;

	(void)state;
	tree_create(&t);
	c = tb_cache_create(SHRINKER_MEMCG_AWARE);
	tb_cache_add(c, t.a, 0, 256);
	assert_int_equal(shrink_slab(GFP_KERNEL, 0, t.a, 2), 128);
	assert_int_equal(atomic_long_read(&c->scan_calls), 1);
	tb_cache_destroy(c);
	tree_destroy(&t);
}

/*
 * A scan that stops defers all its work; the scan target and the deferred
 * count are both capped at twice the freeable objects: 1000 objects at
 * priority 0 defer 2000, then with 100 objects 2000 + 200 is cut to 200.
 */
static void test_scan_and_deferred_capped_at_twice_freeable(void **state)
{
	struct tree t;
	struct tb_cache *c;
	int id;

	(void)state;
	tree_create(&t);
	c = tb_cache_create(SHRINKER_MEMCG_AWARE);
	id = c->shrinker->id;
	c->stop = true;
	tb_cache_add(c, t.a, 0, 1000);
	assert_int_equal(shrink_slab(GFP_KERNEL, 0, t.a, 0), 0);
	assert_int_equal(tb_shrinker_deferred(t.a, 0, id), 2000);

	tb_cache_add(c, t.a, 0, -900);
	kshim_trace_reset();
	assert_int_equal(shrink_slab(GFP_KERNEL, 0, t.a, 0), 0);
	assert_int_equal(kshim_trace.last_start.nr_objects_to_shrink, 2000);
	assert_int_equal(kshim_trace.last_start.total_scan, 200);
	assert_int_equal(tb_shrinker_deferred(t.a, 0, id), 200);
	tb_cache_destroy(c);
	tree_destroy(&t);
}

/* shrink_slab_memcg returns 0 for an offline memcg without asking */
static void test_offline_memcg_is_not_shrunk(void **state)
{
	struct tree t;
	struct tb_cache *c;

	(void)state;
	tree_create(&t);
	c = tb_cache_create(SHRINKER_MEMCG_AWARE);
	tb_cache_add(c, t.a, 0, 1000);
	css_get(&t.a->css);
	kshim_memcg_destroy(t.a);	/* offline, still referenced */
	assert_int_equal(shrink_slab(GFP_KERNEL, 0, t.a, 0), 0);
	assert_int_equal(atomic_long_read(&c->count_calls), 0);
	css_put(&t.a->css);
	tb_cache_destroy(c);
	kshim_memcg_destroy(t.b);
	kshim_memcg_destroy(t.root);
}

/* the bit of a freed shrinker is cleared by the next shrink of the memcg */
static void test_freed_shrinker_bit_is_cleared(void **state)
{
	struct tree t;
	struct tb_cache *c;
	int id;

	(void)state;
	tree_create(&t);
	c = tb_cache_create(SHRINKER_MEMCG_AWARE);
	id = c->shrinker->id;
	tb_cache_add(c, t.a, 0, 10);
	tb_cache_shrinker_free(c);
	assert_true(tb_shrinker_bit(t.a, 0, id));
	assert_int_equal(shrink_slab(GFP_KERNEL, 0, t.a, 0), 0);
	assert_false(tb_shrinker_bit(t.a, 0, id));
	tb_cache_destroy(c);
	tree_destroy(&t);
}

/* shrinker_free of a never-registered shrinker frees without waiting */
static void test_free_unregistered(void **state)
{
	struct shrinker *s = shrinker_alloc(SHRINKER_MEMCG_AWARE, "unreg");

	(void)state;
	assert_non_null(s);
	assert_false(s->flags & SHRINKER_REGISTERED);
	shrinker_free(s);
	shrinker_free(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		TB_TEST(test_plain_alloc_register_free),
		TB_TEST(test_memcg_aware_ids_reused),
		TB_TEST(test_memcg_shrink_needs_bit),
		TB_TEST(test_scan_target_and_deferred),
		TB_TEST(test_priority_sets_nr_to_scan),
		TB_TEST(test_reused_id_inherits_deferred),
		TB_TEST(test_shrink_empty_second_call),
		TB_TEST(test_scan_stop),
		TB_TEST(test_global_shrink_numa),
		TB_TEST(test_reparent_deferred),
		TB_TEST(test_free_unregistered),
		TB_TEST(test_each_shrinker_has_its_own_bit),
		TB_TEST(test_reparent_moves_the_units_last_id),
		TB_TEST(test_set_shrinker_bit_skips_root_none_and_no_id),
		TB_TEST(test_plain_shrinker_takes_back_its_deferred),
		TB_TEST(test_single_object_freed_at_priority_0),
		TB_TEST(test_scan_target_of_one_batch),
		TB_TEST(test_scan_loop_bounds),
		TB_TEST(test_target_one_short_of_a_batch_is_deferred),
		TB_TEST(test_count_of_zero_keeps_deferred),
		TB_TEST(test_nokmem_runs_nonslab_shrinkers),
		TB_TEST(test_nokmem_skipped_slab_shrinker_keeps_a_reference),
		TB_TEST(test_memcg_disabled_shrinks_globally),
		TB_TEST(test_overscan_defers_nothing_not_less),
		TB_TEST(test_scan_and_deferred_capped_at_twice_freeable),
		TB_TEST(test_offline_memcg_is_not_shrunk),
		TB_TEST(test_freed_shrinker_bit_is_cleared),
	};

	tb_world.nr_nodes = 2;
	return TB_RUN(tests);
}
