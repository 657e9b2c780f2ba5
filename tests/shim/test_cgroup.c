// SPDX-License-Identifier: GPL-2.0-only
/*
 * The shim's cgroup core: css ids, the real css refcounting over the
 * percpu_ref stand-in, kill/offline/release/free ordering, parents pinned
 * by children, pre-order walks, and walks racing with removal.
 */
#include <linux/kernel.h>
#include <linux/cgroup.h>
#include <linux/slab.h>
#include "tb_test.h"

struct tcss {
	struct cgroup_subsys_state css;
	int onlined, offlined, released, freed;
};

static atomic_t nr_freed;

static struct tcss *to_t(struct cgroup_subsys_state *css)
{
	return container_of(css, struct tcss, css);
}

static int t_online(struct cgroup_subsys_state *css)
{
	to_t(css)->onlined++;
	return 0;
}

static void t_offline(struct cgroup_subsys_state *css)
{
	/* kill_css(): offline runs while the css is still marked online */
	assert_true(css->flags & CSS_ONLINE);
	to_t(css)->offlined++;
}

static void t_released(struct cgroup_subsys_state *css)
{
	to_t(css)->released++;
}

static void t_free(struct cgroup_subsys_state *css)
{
	atomic_inc(&nr_freed);
	kfree(to_t(css));
}

static struct cgroup_subsys test_ss = {
	.name = "test",
	.css_online = t_online,
	.css_offline = t_offline,
	.css_released = t_released,
	.css_free = t_free,
};

static struct tcss *mk(struct tcss *parent)
{
	struct tcss *t = kzalloc(sizeof(*t), GFP_KERNEL);

	assert_non_null(t);
	assert_int_equal(kshim_css_create(&t->css, parent ? &parent->css : NULL, &test_ss), 0);
	return t;
}

static void test_create_ids_and_flags(void **state)
{
	struct tcss *root = mk(NULL), *a = mk(root), *b = mk(root);
	int id_a = a->css.id;

	(void)state;
	atomic_set(&nr_freed, 0);
	assert_true(root->css.flags & CSS_ONLINE);
	assert_int_equal(a->onlined, 1);
	assert_ptr_equal(a->css.parent, &root->css);
#if TB_HAVE_css_nr_descendants
	assert_int_equal(root->css.nr_descendants, 2);
#endif
	assert_int_not_equal(a->css.id, b->css.id);
	assert_true(a->css.serial_nr < b->css.serial_nr);
	kshim_css_kill(&a->css);
	kshim_rcu_quiesce();
	assert_int_equal(atomic_read(&nr_freed), 1);
#if TB_HAVE_css_nr_descendants
	assert_int_equal(root->css.nr_descendants, 1);
#endif
	/* ids are reused, lowest free first, like the kernel's css_idr */
	a = mk(root);
	assert_int_equal(a->css.id, id_a);
	kshim_css_kill(&a->css);
	kshim_css_kill(&b->css);
	kshim_css_kill(&root->css);
}

/* kill: no new live refs, offline at once; free only after the last put */
static void test_kill_with_reference_held(void **state)
{
	struct tcss *root = mk(NULL), *a = mk(root);

	(void)state;
	atomic_set(&nr_freed, 0);
	assert_true(css_tryget_online(&a->css));
	kshim_css_kill(&a->css);
	assert_int_equal(a->offlined, 1);
	assert_false(a->css.flags & CSS_ONLINE);
	assert_true(css_is_dying(&a->css));
	assert_false(css_tryget_online(&a->css));
	assert_true(css_tryget(&a->css));	/* not released: plain tryget works */
	css_put(&a->css);
	kshim_rcu_quiesce();
	assert_int_equal(a->released, 0);
	assert_int_equal(atomic_read(&nr_freed), 0);
	css_put(&a->css);			/* the last one */
	kshim_rcu_quiesce();
	assert_int_equal(atomic_read(&nr_freed), 1);
	kshim_css_kill(&root->css);
}

/* a child pins its parent: the parent outlives it even when killed first */
static void test_child_pins_parent(void **state)
{
	struct tcss *root = mk(NULL), *a = mk(root);

	(void)state;
	atomic_set(&nr_freed, 0);
	kshim_css_kill(&root->css);
	kshim_rcu_quiesce();
	assert_int_equal(atomic_read(&nr_freed), 0);
	/* a kernel never offlines a root css: killed, it is released only */
	assert_int_equal(root->offlined, 0);
	kshim_css_kill(&a->css);
	kshim_rcu_quiesce();
	assert_int_equal(atomic_read(&nr_freed), 2);
}

static void test_pre_order_walk(void **state)
{
	struct tcss *r = mk(NULL), *a = mk(r), *a1 = mk(a), *a2 = mk(a), *b = mk(r), *b1 = mk(b);
	struct tcss *want[] = { r, a, a1, a2, b, b1 };
	struct cgroup_subsys_state *pos;
	int i = 0;

	(void)state;
	rcu_read_lock();
	css_for_each_descendant_pre(pos, &r->css) {
		assert_true(i < 6);
		assert_ptr_equal(pos, &want[i++]->css);
	}
	rcu_read_unlock();
	assert_int_equal(i, 6);
	i = 0;
	rcu_read_lock();
	css_for_each_descendant_pre(pos, &a->css)
		i++;
	rcu_read_unlock();
	assert_int_equal(i, 3);
	for (i = 5; i >= 0; i--)
		kshim_css_kill(&want[i]->css);
}

#define NR_KIDS 64

struct churn {
	struct tcss *root;
	struct tcss *stable[8];
	int stop;
	unsigned long walks;
};

/* walkers: a walk always starts at the root and meets every stable child */
static void walker(struct churn *c)
{
	while (!__atomic_load_n(&c->stop, __ATOMIC_ACQUIRE)) {
		struct cgroup_subsys_state *pos;
		int seen = 0, i, n = 0;

		rcu_read_lock();
		css_for_each_descendant_pre(pos, &c->root->css) {
			if (n++ == 0)
				assert_ptr_equal(pos, &c->root->css);
			for (i = 0; i < 8; i++)
				if (pos == &c->stable[i]->css)
					seen++;
		}
		rcu_read_unlock();
		assert_int_equal(seen, 8);
		__atomic_fetch_add(&c->walks, 1, __ATOMIC_RELAXED);
	}
}

static void churner(struct churn *c)
{
	struct tcss *kids[NR_KIDS] = { 0 };
	int round, i;

	/*
	 * 40 rounds at least, and on until the walkers have walked during the
	 * churn: on a loaded machine the churner can finish before either
	 * walker ran once (bounded, so a stuck walker still fails the test).
	 */
	for (round = 0; round < 40 || (__atomic_load_n(&c->walks, __ATOMIC_RELAXED) < 4 &&
					round < 100000); round++) {
		for (i = 0; i < NR_KIDS; i++)
			kids[i] = mk(c->stable[i % 8]);
		for (i = 0; i < NR_KIDS; i++)
			kshim_css_kill(&kids[i]->css);
	}
	__atomic_store_n(&c->stop, 1, __ATOMIC_RELEASE);
}

static void churn_thread(void *arg, unsigned int i)
{
	if (i == 0)
		churner(arg);
	else
		walker(arg);
}

static void test_walk_during_removal(void **state)
{
	struct churn c = { 0 };
	int i;

	(void)state;
	c.root = mk(NULL);
	for (i = 0; i < 8; i++)
		c.stable[i] = mk(c.root);
	tb_run_threads(3, churn_thread, &c);
	assert_true(c.walks > 0);
	for (i = 0; i < 8; i++)
		kshim_css_kill(&c.stable[i]->css);
	kshim_css_kill(&c.root->css);
}

/* rstat: the (css, cpu) pairs a flush visited, in order */
struct visit {
	struct cgroup_subsys_state *css;
	int cpu;
};
static struct visit visits[16];
static int nr_visits;

static void t_rstat_flush(struct cgroup_subsys_state *css, int cpu)
{
	/* the flushes of the releases at the end are not recorded */
	if (nr_visits >= (int)ARRAY_SIZE(visits))
		return;
	visits[nr_visits].css = css;
	visits[nr_visits++].cpu = cpu;
}

static void t_rstat_free(struct cgroup_subsys_state *css)
{
	kfree(css->cgroup);
	t_free(css);
}

static struct cgroup_subsys rstat_ss = {
	.name = "rstat",
	.css_rstat_flush = t_rstat_flush,
	.css_free = t_rstat_free,
};

/* a css with a cgroup of its own, as cgroupfs makes them */
static struct tcss *mk_rstat(struct tcss *parent)
{
	struct tcss *t = kzalloc(sizeof(*t), GFP_KERNEL);
	struct cgroup *cgrp = kzalloc(sizeof(*cgrp), GFP_KERNEL);

	assert_non_null(t);
	assert_non_null(cgrp);
	t->css.cgroup = cgrp;
	cgrp->subsys[memory_cgrp_id] = &t->css;
	assert_int_equal(kshim_css_create(&t->css, parent ? &parent->css : NULL, &rstat_ss), 0);
	return t;
}

/* the visits since the last check were these, in this order */
static void check_visits(const struct visit *want, int n)
{
	int i;

	assert_int_equal(nr_visits, n);
	for (i = 0; i < n; i++) {
		assert_ptr_equal(visits[i].css, want[i].css);
		assert_int_equal(visits[i].cpu, want[i].cpu);
	}
	nr_visits = 0;
}

#define assert_visits(...)						\
	do {								\
		const struct visit want[] = { __VA_ARGS__ };		\
		check_visits(want, ARRAY_SIZE(want));			\
	} while (0)
#define V(t, cpu) { &(t)->css, (cpu) }

/*
 * cgroup_rstat_updated() puts a cgroup and its ancestors on the CPU's
 * updated tree; a flush visits the updated css of its subtree only, on
 * the CPUs they were updated on, children first, and takes them off.
 */
static void test_rstat_flush_visits_the_updated_only(void **state)
{
	struct tcss *root = mk_rstat(NULL), *a = mk_rstat(root), *b = mk_rstat(root);
	struct tcss *a1 = mk_rstat(a);

	(void)state;
	nr_visits = 0;
	cgroup_rstat_updated(a1->css.cgroup, 2);
	cgroup_rstat_flush(root->css.cgroup);
	assert_visits(V(a1, 2), V(a, 2), V(root, 2));
	cgroup_rstat_flush(root->css.cgroup);
	assert_int_equal(nr_visits, 0);

	/* a flush of a's subtree leaves b and the root on the tree */
	cgroup_rstat_updated(b->css.cgroup, 1);
	cgroup_rstat_updated(a1->css.cgroup, 1);
	cgroup_rstat_updated(a1->css.cgroup, 3);
	cgroup_rstat_flush(a->css.cgroup);
	assert_visits(V(a1, 1), V(a, 1), V(a1, 3), V(a, 3));
	cgroup_rstat_flush(root->css.cgroup);
	assert_visits(V(b, 1), V(root, 1), V(root, 3));

	nr_visits = ARRAY_SIZE(visits);
	kshim_css_kill(&a1->css);
	kshim_css_kill(&a->css);
	kshim_css_kill(&b->css);
	kshim_css_kill(&root->css);
	kshim_rcu_quiesce();
}

static void test_file_notify(void **state)
{
	struct cgroup_file f = { 0 }, g = { 0 };

	(void)state;
	kshim_jiffies_advance(5);
	cgroup_file_notify(&f);
	cgroup_file_notify(&f);
	assert_int_equal(kshim_cgroup_file_notifications(&f), 2);
	assert_int_equal(kshim_cgroup_file_notifications(&g), 0);
	assert_int_equal(f.notified_at, kshim_jiffies());
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		TB_TEST(test_create_ids_and_flags),
		TB_TEST(test_kill_with_reference_held),
		TB_TEST(test_child_pins_parent),
		TB_TEST(test_pre_order_walk),
		TB_TEST(test_walk_during_removal),
		TB_TEST(test_rstat_flush_visits_the_updated_only),
		TB_TEST(test_file_notify),
	};

	return TB_RUN(tests);
}
