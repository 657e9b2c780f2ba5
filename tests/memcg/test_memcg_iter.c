// SPDX-License-Identifier: GPL-2.0-only
/*
 * mem_cgroup_iter() of the real memcontrol.c: plain pre-order walks and
 * the shared reclaim walks of struct mem_cgroup_reclaim_cookie (one
 * position per (root, node), a generation per full round), references
 * taken and dropped, offline memcgs, invalidate_reclaim_iterators() when a
 * memcg is released. Walks racing with mkdir/rmdir: test_memcg_iter_stress.c.
 */
#include <linux/kernel.h>
#include <linux/memcontrol.h>
#include <linux/cgroup.h>
#include <linux/atomic.h>
#include <stdio.h>
#include <string.h>
#include "tb_memcg.h"

#define MAX_WALK 64

/* creation order A, A/B, A/B/D, A/C, E: pre-order root A B D C E */
static const char *const tree[] = { "A", "A/B", "A/B/D", "A/C", "E", NULL };

static void mktree(void)
{
	const char *const *p;

	for (p = tree; *p; p++)
		assert_int_equal(tb_cgroup_mkdir(*p), 0);
}

static long refs(struct mem_cgroup *memcg)
{
	return atomic_long_read(&memcg->css.refcnt.count);
}

/* a full walk of root's subtree; returns the number of memcgs visited */
static int walk(struct mem_cgroup *root, struct mem_cgroup **out)
{
	struct mem_cgroup *memcg = NULL;
	int n = 0;

	while ((memcg = mem_cgroup_iter(root, memcg, NULL))) {
		if (n < MAX_WALK)
			out[n] = memcg;
		n++;
	}
	return n;
}

/* one reclaimer that takes a single memcg from the shared walk, then stops */
static struct mem_cgroup *reclaim_one(struct mem_cgroup *root, int *generation)
{
	struct mem_cgroup_reclaim_cookie cookie = { .pgdat = NODE_DATA(0) };
	struct mem_cgroup *memcg = mem_cgroup_iter(root, NULL, &cookie);

	if (generation)
		*generation = cookie.generation;
	mem_cgroup_iter_break(root, memcg);
	return memcg;
}

/* the root's shared walk of node 0: its generation (an atomic_t after 6.1) */
static int iter_generation(void)
{
#if TB_HAVE_memcg_iter_atomic_generation
	return atomic_read(&root_mem_cgroup->nodeinfo[0]->iter.generation);
#else
	return READ_ONCE(root_mem_cgroup->nodeinfo[0]->iter.generation);
#endif
}

static struct mem_cgroup *position(struct mem_cgroup *root)
{
	return READ_ONCE(root->nodeinfo[0]->iter.position);
}

static void test_full_walk_preorder(void **state)
{
	struct mem_cgroup *seen[MAX_WALK];
	long before[5];
	int i;

	mktree();
	for (i = 0; tree[i]; i++)
		before[i] = refs(tb_memcg(tree[i]));
	assert_int_equal(walk(NULL, seen), 6);
	assert_ptr_equal(seen[0], root_mem_cgroup);
	for (i = 0; tree[i]; i++)
		assert_ptr_equal(seen[i + 1], tb_memcg(tree[i]));
	/* a subtree: its root first, no one outside it */
	assert_int_equal(walk(tb_memcg("A"), seen), 4);
	assert_ptr_equal(seen[0], tb_memcg("A"));
	assert_ptr_equal(seen[1], tb_memcg("A/B"));
	assert_ptr_equal(seen[2], tb_memcg("A/B/D"));
	assert_ptr_equal(seen[3], tb_memcg("A/C"));
	/* a leaf: itself only */
	assert_int_equal(walk(tb_memcg("A/B/D"), seen), 1);
	/* a walk to its end leaves every reference as it found it */
	for (i = 0; tree[i]; i++)
		assert_int_equal(refs(tb_memcg(tree[i])), before[i]);
}

/*
 * The memcg returned is referenced (except the walk's root), the reference
 * moves with the walk, and mem_cgroup_iter_break() drops the last one.
 */
static void test_references_and_break(void **state)
{
	struct mem_cgroup *a, *b, *pos;
	long ra, rb;

	mktree();
	a = tb_memcg("A");
	b = tb_memcg("A/B");
	ra = refs(a);
	rb = refs(b);
	pos = mem_cgroup_iter(NULL, NULL, NULL);
	assert_ptr_equal(pos, root_mem_cgroup);
	pos = mem_cgroup_iter(NULL, pos, NULL);
	assert_ptr_equal(pos, a);
	assert_int_equal(refs(a), ra + 1);
	pos = mem_cgroup_iter(NULL, pos, NULL);
	assert_ptr_equal(pos, b);
	assert_int_equal(refs(a), ra);
	assert_int_equal(refs(b), rb + 1);
	mem_cgroup_iter_break(NULL, pos);
	assert_int_equal(refs(b), rb);

	/* a walk rooted at A takes no reference on A itself */
	pos = mem_cgroup_iter(a, NULL, NULL);
	assert_ptr_equal(pos, a);
	assert_int_equal(refs(a), ra);
	mem_cgroup_iter_break(a, pos);
	assert_int_equal(refs(a), ra);
}

/*
 * Reclaimers sharing the walk of (root, node 0) each continue where the
 * previous one stopped; the round ends after E, the generation goes up and
 * the next reclaimer starts over at the root (the "jump in right at the
 * end" restart gives it a memcg, never NULL).
 */
static void test_cookie_round_robin(void **state)
{
	struct mem_cgroup *expect[6];
	int i, gen;

	mktree();
	expect[0] = root_mem_cgroup;
	for (i = 0; tree[i]; i++)
		expect[i + 1] = tb_memcg(tree[i]);
	for (i = 0; i < 6; i++) {
		assert_ptr_equal(reclaim_one(NULL, &gen), expect[i]);
		assert_int_equal(gen, 0);
		assert_ptr_equal(position(root_mem_cgroup), expect[i]);
	}
	assert_ptr_equal(reclaim_one(NULL, &gen), root_mem_cgroup);
#if TB_HAVE_memcg_iter_atomic_generation
	assert_int_equal(gen, 1);
	assert_int_equal(iter_generation(), 1);
#else
	/* 6.1: a walk without prev restarts at the end, no new generation */
	assert_int_equal(gen, 0);
	assert_int_equal(iter_generation(), 0);
#endif
	assert_ptr_equal(reclaim_one(NULL, &gen), expect[1]);

	/* a walk rooted at A has its own position */
	assert_ptr_equal(reclaim_one(tb_memcg("A"), NULL), tb_memcg("A"));
	assert_ptr_equal(reclaim_one(tb_memcg("A"), NULL), tb_memcg("A/B"));
	assert_ptr_equal(position(root_mem_cgroup), expect[1]);
}

/*
 * Two reclaimers walking with their own cookies split one round between
 * them: together they visit every memcg once, then both get NULL (the one
 * that finishes the round ends it; the other sees a new generation).
 */
static void test_interleaved_reclaimers_share_round(void **state)
{
	struct mem_cgroup_reclaim_cookie c[2] = {
		{ .pgdat = NODE_DATA(0) }, { .pgdat = NODE_DATA(0) },
	};
	struct mem_cgroup *pos[2] = { NULL, NULL }, *seen[8];
	bool done[2] = { false, false };
	int n = 0, i, j, turn = 0;

	mktree();
	while (!done[0] || !done[1]) {
		if (!done[turn]) {
			pos[turn] = mem_cgroup_iter(NULL, pos[turn], &c[turn]);
			if (!pos[turn])
				done[turn] = true;
			else if (n < 8)
				seen[n++] = pos[turn];
		}
		turn ^= 1;
	}
	assert_int_equal(n, 6);
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++)
			assert_ptr_not_equal(seen[i], seen[j]);
	assert_ptr_equal(seen[0], root_mem_cgroup);
	assert_ptr_equal(seen[1], tb_memcg("A"));
	assert_ptr_equal(seen[5], tb_memcg("E"));
	assert_int_equal(iter_generation(), 1);
}

/* a reclaimer whose round was finished by others stops, dropping its ref */
static void test_stale_generation_ends_walk(void **state)
{
	struct mem_cgroup_reclaim_cookie c = { .pgdat = NODE_DATA(0) };
	struct mem_cgroup *a, *pos;
	long ra;
	int i;

	mktree();
	a = tb_memcg("A");
	ra = refs(a);
	reclaim_one(NULL, NULL);			/* root */
	pos = mem_cgroup_iter(NULL, NULL, &c);
	assert_ptr_equal(pos, a);
	assert_int_equal(refs(a), ra + 1);
	for (i = 0; i < 5; i++)				/* B D C E, then root again */
		reclaim_one(NULL, NULL);
#if TB_HAVE_memcg_iter_atomic_generation
	assert_int_equal(iter_generation(), 1);
	assert_null(mem_cgroup_iter(NULL, pos, &c));
#else
	/*
	 * 6.1: those one-shot walks wrapped without a new generation, so the
	 * reclaimer is not stale: it goes on from the shared position (root)
	 */
	assert_int_equal(iter_generation(), 0);
	pos = mem_cgroup_iter(NULL, pos, &c);
	assert_ptr_equal(pos, a);
	mem_cgroup_iter_break(NULL, pos);
#endif
	assert_int_equal(refs(a), ra);
}

/*
 * An rmdir'd memcg that is still referenced is offline but its css
 * refcount is not zero: css_tryget() (not css_tryget_online()) succeeds,
 * so mem_cgroup_iter() still visits it (reclaim of what it still holds).
 * Once the last reference goes, it is released and unlinked: not visited.
 */
static void test_offline_referenced_memcg_visited(void **state)
{
	struct mem_cgroup *seen[MAX_WALK], *b;

	assert_int_equal(tb_cgroup_mkdir("A"), 0);
	assert_int_equal(tb_cgroup_mkdir("A/B"), 0);
	b = tb_memcg("A/B");
	css_get(&b->css);
	assert_int_equal(tb_cgroup_rmdir("A/B"), 0);
	kshim_rcu_quiesce();
	assert_false(mem_cgroup_online(b));
	assert_int_equal(walk(NULL, seen), 3);
	assert_ptr_equal(seen[2], b);

	css_put(&b->css);
	kshim_rcu_quiesce();
	assert_int_equal(walk(NULL, seen), 2);
	assert_ptr_equal(seen[1], tb_memcg("A"));
}

/*
 * A shared walk stopped at B keeps B in iter->position without a
 * reference. While B is only offline a reclaimer moves on past it; when B
 * is released, invalidate_reclaim_iterators() clears the position
 * in B's and every ancestor's iterator, and the next reclaimer starts over
 * (a stale position would be a use-after-free, caught by ASan).
 */
static void test_invalidate_on_release(void **state)
{
	struct mem_cgroup *a, *b;

	mktree();
	a = tb_memcg("A");
	b = tb_memcg("A/B");
	reclaim_one(NULL, NULL);
	reclaim_one(NULL, NULL);
	assert_ptr_equal(reclaim_one(NULL, NULL), b);
	assert_ptr_equal(reclaim_one(a, NULL), a);
	assert_ptr_equal(reclaim_one(a, NULL), b);
	assert_ptr_equal(position(root_mem_cgroup), b);
	assert_ptr_equal(position(a), b);

	/* D first (B has a child); offline B, held: positions untouched */
	assert_int_equal(tb_cgroup_rmdir("A/B/D"), 0);
	css_get(&b->css);
	assert_int_equal(tb_cgroup_rmdir("A/B"), 0);
	kshim_rcu_quiesce();
	assert_ptr_equal(position(root_mem_cgroup), b);
	assert_ptr_equal(position(a), b);
	/* the root's walk moves on from offline B to C (D is gone) */
	assert_ptr_equal(reclaim_one(NULL, NULL), tb_memcg("A/C"));

	css_put(&b->css);
	kshim_rcu_quiesce();
	/* only iterators still at B are reset */
	assert_ptr_equal(position(root_mem_cgroup), tb_memcg("A/C"));
	assert_null(position(a));
	assert_ptr_equal(reclaim_one(NULL, NULL), tb_memcg("E"));
	assert_ptr_equal(reclaim_one(a, NULL), a);
	assert_ptr_equal(reclaim_one(a, NULL), tb_memcg("A/C"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		TB_MEMCG_TEST(test_full_walk_preorder),
		TB_MEMCG_TEST(test_references_and_break),
		TB_MEMCG_TEST(test_cookie_round_robin),
		TB_MEMCG_TEST(test_interleaved_reclaimers_share_round),
		TB_MEMCG_TEST(test_stale_generation_ends_walk),
		TB_MEMCG_TEST(test_offline_referenced_memcg_visited),
		TB_MEMCG_TEST(test_invalidate_on_release),
	};

	return TB_RUN(tests);
}
