// SPDX-License-Identifier: GPL-2.0-only
/*
 * The cgroup core as mm code sees it: a css tree whose children lists are
 * RCU lists, css refcounts (a child pins its parent), online/offline, and
 * release after a grace period. Walks survive removal of the current
 * position by resuming at the next larger serial number, which is what
 * lets mem_cgroup_iter() run concurrently with rmdir.
 */
#include <linux/cgroup.h>
#include <linux/mutex.h>
#include <linux/slab.h>

DEFINE_STATIC_KEY_TRUE(memory_cgrp_subsys_enabled_key);
DEFINE_STATIC_KEY_TRUE(memory_cgrp_subsys_on_dfl_key);

static DEFINE_MUTEX(cgroup_mutex);
static u64 css_serial_nr_next = 1;
/* css ids are small and reused, as the kernel's per-subsystem css_idr */
static DEFINE_IDR(css_idr);

static void css_free_rcu(struct rcu_head *head)
{
	struct cgroup_subsys_state *css =
		container_of(head, struct cgroup_subsys_state, rcu_head);
	struct cgroup_subsys_state *parent = css->parent;

	mutex_lock(&cgroup_mutex);
	idr_remove(&css_idr, css->id);
	mutex_unlock(&cgroup_mutex);
	css->ss->css_free(css);
	if (parent)
		css_put(parent);
}

static void css_release(struct cgroup_subsys_state *css)
{
	mutex_lock(&cgroup_mutex);
	css->flags |= CSS_RELEASED;
	if (css->parent) {
		list_del_rcu(&css->sibling);
		css->parent->nr_descendants--;
	}
	mutex_unlock(&cgroup_mutex);
	if (css->ss->css_released)
		css->ss->css_released(css);
	call_rcu(&css->rcu_head, css_free_rcu);
}

void css_get_many(struct cgroup_subsys_state *css, unsigned int n)
{
	WARN_ON_ONCE(atomic_long_fetch_add(n, &css->refcnt.count) <= 0);
}

void css_get(struct cgroup_subsys_state *css)
{
	css_get_many(css, 1);
}

bool css_tryget(struct cgroup_subsys_state *css)
{
	return atomic_long_inc_not_zero(&css->refcnt.count);
}

bool css_tryget_online(struct cgroup_subsys_state *css)
{
	return !READ_ONCE(css->refcnt.dead) && css_tryget(css);
}

void css_put_many(struct cgroup_subsys_state *css, unsigned int n)
{
	long left = atomic_long_sub_return(n, &css->refcnt.count);

	WARN_ON_ONCE(left < 0);
	if (left == 0)
		css_release(css);
}

void css_put(struct cgroup_subsys_state *css)
{
	css_put_many(css, 1);
}

int kshim_css_create(struct cgroup_subsys_state *css, struct cgroup_subsys_state *parent,
		     struct cgroup_subsys *ss)
{
	int ret;

	atomic_long_set(&css->refcnt.count, 1);
	css->refcnt.dead = false;
	INIT_LIST_HEAD(&css->sibling);
	INIT_LIST_HEAD(&css->children);
	css->ss = ss;
	css->parent = parent;
	mutex_lock(&cgroup_mutex);
	css->id = idr_alloc(&css_idr, css, 1, 0, GFP_KERNEL);
	if (css->id < 0) {
		mutex_unlock(&cgroup_mutex);
		return css->id;
	}
	css->serial_nr = css_serial_nr_next++;
	if (parent) {
		css_get(parent);
		list_add_tail_rcu(&css->sibling, &parent->children);
		parent->nr_descendants++;
	}
	mutex_unlock(&cgroup_mutex);
	ret = ss->css_online ? ss->css_online(css) : 0;
	if (ret) {
		/* never went online: unlink and let the caller free it */
		mutex_lock(&cgroup_mutex);
		if (parent) {
			list_del_rcu(&css->sibling);
			parent->nr_descendants--;
		}
		idr_remove(&css_idr, css->id);
		mutex_unlock(&cgroup_mutex);
		synchronize_rcu();
		if (parent)
			css_put(parent);
		return ret;
	}
	css->flags |= CSS_ONLINE;
	atomic_inc(&css->online_cnt);
	return 0;
}

void kshim_css_kill(struct cgroup_subsys_state *css)
{
	css->flags &= ~CSS_ONLINE;
	css->flags |= CSS_DYING;
	atomic_dec(&css->online_cnt);
	WRITE_ONCE(css->refcnt.dead, true);
	if (css->ss->css_offline)
		css->ss->css_offline(css);
	css_put(css);
}

struct cgroup_subsys_state *css_next_child(struct cgroup_subsys_state *pos,
					   struct cgroup_subsys_state *parent)
{
	struct list_head *head = &parent->children, *n;
	struct cgroup_subsys_state *next;

	if (!pos) {
		n = rcu_dereference_raw(head->next);
	} else if (!(READ_ONCE(pos->flags) & CSS_RELEASED)) {
		n = rcu_dereference_raw(pos->sibling.next);
	} else {
		/* pos left the list: resume at the first younger sibling */
		for (n = rcu_dereference_raw(head->next); n != head;
		     n = rcu_dereference_raw(n->next)) {
			next = list_entry(n, struct cgroup_subsys_state, sibling);
			if (next->serial_nr > pos->serial_nr)
				break;
		}
	}
	if (n == head)
		return NULL;
	return list_entry(n, struct cgroup_subsys_state, sibling);
}

struct cgroup_subsys_state *css_next_descendant_pre(struct cgroup_subsys_state *pos,
						    struct cgroup_subsys_state *root)
{
	struct cgroup_subsys_state *next;

	if (!pos)
		return root;
	next = css_next_child(NULL, pos);
	if (next)
		return next;
	for (; pos != root; pos = pos->parent) {
		next = css_next_child(pos, pos->parent);
		if (next)
			return next;
	}
	return NULL;
}
