// SPDX-License-Identifier: GPL-2.0-only
/*
 * The IDR is the tree's lib/idr.c over lib/radix-tree.c (mm/xarray), on
 * the shim's slab and RCU: lowest-free allocation in [start, end), growth
 * that keeps old entries, lock-free lookups safe against concurrent
 * updates under RCU, and no memory left behind once empty.
 */
#include <linux/kernel.h>
#include <linux/idr.h>
#include <linux/slab.h>
#include "tb_test.h"

#define NR_IDS 100
#define NR_ROUNDS 300
#define RACE_IDS 40

static DEFINE_IDR(static_idr);
static int items[NR_IDS];

static void remove_all(struct idr *idr)
{
	int id;

	for (id = 0; id < NR_IDS; id++)
		idr_remove(idr, id);
}

static void test_alloc_lowest_free(void **state)
{
	struct idr idr;

	idr_init(&idr);
	assert_true(idr_is_empty(&idr));
	assert_int_equal(idr_alloc(&idr, &items[0], 0, 0, GFP_KERNEL), 0);
	assert_int_equal(idr_alloc(&idr, &items[1], 0, 0, GFP_KERNEL), 1);
	assert_int_equal(idr_alloc(&idr, &items[2], 0, 0, GFP_KERNEL), 2);
	assert_ptr_equal(idr_remove(&idr, 1), &items[1]);
	assert_null(idr_find(&idr, 1));
	assert_int_equal(idr_alloc(&idr, &items[3], 0, 0, GFP_KERNEL), 1);
	assert_int_equal(idr_alloc(&idr, &items[4], 5, 0, GFP_KERNEL), 5);
	assert_int_equal(idr_alloc(&idr, &items[5], 1, 0, GFP_KERNEL), 3);
	assert_ptr_equal(idr_find(&idr, 1), &items[3]);
	assert_ptr_equal(idr_find(&idr, 5), &items[4]);
	assert_null(idr_find(&idr, 4));
	assert_null(idr_find(&idr, 1000000));
	assert_false(idr_is_empty(&idr));
	remove_all(&idr);
	assert_true(idr_is_empty(&idr));
}

static void test_alloc_respects_end(void **state)
{
	int id;

	assert_int_equal(idr_alloc(&static_idr, &items[0], 3, 5, GFP_KERNEL), 3);
	assert_int_equal(idr_alloc(&static_idr, &items[1], 3, 5, GFP_KERNEL), 4);
	/* end is exclusive */
	assert_int_equal(idr_alloc(&static_idr, &items[2], 3, 5, GFP_KERNEL), -ENOSPC);
	assert_int_equal(idr_alloc(&static_idr, &items[2], 7, 7, GFP_KERNEL), -ENOSPC);
	assert_null(idr_find(&static_idr, 5));
	/* end <= 0 means no limit */
	id = idr_alloc(&static_idr, &items[2], 3, 0, GFP_KERNEL);
	assert_int_equal(id, 5);
	remove_all(&static_idr);
	assert_true(idr_is_empty(&static_idr));
}

static void test_growth_keeps_entries(void **state)
{
	struct idr idr;
	int id, j;

	idr_init(&idr);
	for (id = 0; id < NR_IDS; id++) {
		assert_int_equal(idr_alloc(&idr, &items[id], 0, 0, GFP_KERNEL), id);
		/* after each growth (a new level at 64) the old ids still resolve */
		for (j = 0; j <= id; j++)
			assert_ptr_equal(idr_find(&idr, j), &items[j]);
	}
	id = 0;
	j = 0;
	{
		int *p;

		idr_for_each_entry(&idr, p, id) {
			assert_ptr_equal(p, &items[id]);
			j++;
		}
	}
	assert_int_equal(j, NR_IDS);
	assert_ptr_equal(idr_replace(&idr, &items[0], 7), &items[7]);
	assert_ptr_equal(idr_find(&idr, 7), &items[0]);
	remove_all(&idr);
}

static void test_sparse_alloc_grows(void **state)
{
	struct idr idr;

	idr_init(&idr);
	assert_int_equal(idr_alloc(&idr, &items[0], 70, 0, GFP_KERNEL), 70);
	assert_int_equal(idr_alloc(&idr, &items[1], 0, 0, GFP_KERNEL), 0);
	assert_ptr_equal(idr_find(&idr, 70), &items[0]);
	idr_remove(&idr, 70);
	idr_remove(&idr, 0);
	assert_true(idr_is_empty(&idr));
}

/* An empty IDR holds no memory: its nodes go after a grace period. */
static void test_empty_idr_frees_array(void **state)
{
	unsigned long base = kshim_slab_live();
	struct idr idr;
	int id;

	idr_init(&idr);
	for (id = 0; id < 40; id++)
		idr_alloc(&idr, &items[id], 0, 0, GFP_KERNEL);
	assert_true(kshim_slab_live() > base);
	for (id = 0; id < 40; id++)
		idr_remove(&idr, id);
	assert_true(idr_is_empty(&idr));
	rcu_barrier();
	assert_int_equal(kshim_slab_live(), base);
	/* and it is usable again */
	assert_int_equal(idr_alloc(&idr, &items[0], 0, 0, GFP_KERNEL), 0);
	idr_destroy(&idr);
}

/*
 * idr_get_free() gives even id 0 a node of 64 slots; id 64 needs a second
 * level: radix_tree_extend()'s new top node, then a leaf. A failed node
 * allocation is -ENOMEM with every entry kept; a failed leaf leaves the
 * new level in place (idr_alloc_u32() does not shrink the tree back).
 */
static void test_alloc_fault_keeps_entries(void **state)
{
	unsigned long live;
	struct idr idr;
	int id;

	idr_init(&idr);
	kshim_fault_filter("radix_tree_node_alloc", NULL);
	kshim_fault_nth(1);
	assert_int_equal(idr_alloc(&idr, &items[0], 0, 0, GFP_KERNEL), -ENOMEM);
	assert_int_equal(kshim_radix_tree_nodes(), 0);
	assert_true(idr_is_empty(&idr));
	for (id = 0; id < 64; id++)
		assert_int_equal(idr_alloc(&idr, &items[id % NR_IDS], 0, 0, GFP_KERNEL), id);
	assert_int_equal(kshim_radix_tree_nodes(), 1);
	live = kshim_slab_live();
	kshim_fault_nth(1);
	assert_int_equal(idr_alloc(&idr, &items[64], 0, 0, GFP_KERNEL), -ENOMEM);
	assert_int_equal(kshim_slab_live(), live);
	kshim_fault_nth(2);
	assert_int_equal(idr_alloc(&idr, &items[64], 0, 0, GFP_KERNEL), -ENOMEM);
	assert_int_equal(kshim_fault_injected(), 3);
	assert_int_equal(kshim_radix_tree_nodes(), 2);
	for (id = 0; id < 64; id++)
		assert_ptr_equal(idr_find(&idr, id), &items[id % NR_IDS]);
	assert_null(idr_find(&idr, 64));
	assert_int_equal(idr_alloc(&idr, &items[64], 0, 0, GFP_KERNEL), 64);
	assert_int_equal(kshim_radix_tree_nodes(), 3);
	idr_destroy(&idr);
	rcu_barrier();
	assert_int_equal(kshim_radix_tree_nodes(), 0);
}

struct tagged {
	long id;
	struct rcu_head rcu;
};

struct idr_race {
	struct idr idr;
	int stop;
	long bad;	/* lookups that returned a wrong object */
	long hits;
};

/* Thread 0 churns ids (growth, removal, emptying); the rest look up. */
static void idr_churn(struct idr_race *r)
{
	struct tagged *t;
	int round, id;

	for (round = 0; round < NR_ROUNDS; round++) {
		for (id = 0; id < RACE_IDS; id++) {
			t = kmalloc(sizeof(*t), GFP_KERNEL);
			t->id = id;
			if (idr_alloc(&r->idr, t, id, id + 1, GFP_KERNEL) != id)
				__atomic_fetch_add(&r->bad, 1, __ATOMIC_RELAXED);
		}
		/* odd or even first, so the array is both sparse and emptied */
		for (id = round % 2; id < RACE_IDS; id += 2) {
			t = idr_remove(&r->idr, id);
			kfree_rcu(t, rcu);
		}
		for (id = 1 - round % 2; id < RACE_IDS; id += 2) {
			t = idr_remove(&r->idr, id);
			kfree_rcu(t, rcu);
		}
	}
	__atomic_store_n(&r->stop, 1, __ATOMIC_RELEASE);
}

static void idr_lookup(struct idr_race *r)
{
	struct tagged *t;
	long hits = 0, bad = 0;
	int id;

	while (!__atomic_load_n(&r->stop, __ATOMIC_ACQUIRE)) {
		rcu_read_lock();
		for (id = 0; id < RACE_IDS + 8; id++) {
			t = idr_find(&r->idr, id);
			if (!t)
				continue;
			hits++;
			if (READ_ONCE(t->id) != id)
				bad++;
		}
		rcu_read_unlock();
	}
	__atomic_fetch_add(&r->bad, bad, __ATOMIC_RELAXED);
	__atomic_fetch_add(&r->hits, hits, __ATOMIC_RELAXED);
}

static void idr_race_thread(void *arg, unsigned int i)
{
	if (i == 0)
		idr_churn(arg);
	else
		idr_lookup(arg);
}

static void test_find_concurrent_with_updates(void **state)
{
	struct idr_race r = { 0 };

	idr_init(&r.idr);
	tb_run_threads(3, idr_race_thread, &r);
	assert_int_equal(r.bad, 0);
	assert_true(idr_is_empty(&r.idr));
	print_message("lookups that found an object: %ld\n", r.hits);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		TB_TEST(test_alloc_lowest_free),
		TB_TEST(test_alloc_respects_end),
		TB_TEST(test_growth_keeps_entries),
		TB_TEST(test_sparse_alloc_grows),
		TB_TEST(test_empty_idr_frees_array),
		TB_TEST(test_alloc_fault_keeps_entries),
		TB_TEST(test_find_concurrent_with_updates),
	};

	return TB_RUN(tests);
}
