/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_CGROUP_H
#define _KSHIM_LINUX_CGROUP_H
/*
 * The shim's cgroup core: a css hierarchy with RCU-safe children lists,
 * css refcounts, online/offline, and pre-order descendant walks.
 */
#include <linux/cgroup-defs.h>
#include <linux/rcupdate.h>
#include <linux/rculist.h>

extern struct cgroup_subsys memory_cgrp_subsys;
DECLARE_STATIC_KEY_TRUE(memory_cgrp_subsys_enabled_key);
DECLARE_STATIC_KEY_TRUE(memory_cgrp_subsys_on_dfl_key);
#define cgroup_subsys_enabled(ss) static_branch_likely(&ss ## _enabled_key)
#define cgroup_subsys_on_dfl(ss) static_branch_likely(&ss ## _on_dfl_key)

void css_get(struct cgroup_subsys_state *css);
void css_get_many(struct cgroup_subsys_state *css, unsigned int n);
bool css_tryget(struct cgroup_subsys_state *css);
bool css_tryget_online(struct cgroup_subsys_state *css);
void css_put(struct cgroup_subsys_state *css);
void css_put_many(struct cgroup_subsys_state *css, unsigned int n);
static inline bool css_is_dying(struct cgroup_subsys_state *css)
{
	return READ_ONCE(css->refcnt.dead);
}
struct cgroup_subsys_state *css_next_child(struct cgroup_subsys_state *pos,
					   struct cgroup_subsys_state *parent);
struct cgroup_subsys_state *css_next_descendant_pre(struct cgroup_subsys_state *pos,
						    struct cgroup_subsys_state *css);
#define css_for_each_descendant_pre(pos, css) \
	for ((pos) = css_next_descendant_pre(NULL, (css)); (pos); \
	     (pos) = css_next_descendant_pre((pos), (css)))
#define css_for_each_child(pos, parent) \
	for ((pos) = css_next_child(NULL, (parent)); (pos); \
	     (pos) = css_next_child((pos), (parent)))
static inline void cgroup_file_notify(struct cgroup_file *cfile)
{
	__atomic_fetch_add(&cfile->notify_count, 1, __ATOMIC_RELAXED);
}
static inline struct cgroup *cgroup_parent(struct cgroup *cgrp)
{
	struct cgroup_subsys_state *parent_css = cgrp->self.parent;

	return parent_css ? container_of(parent_css, struct cgroup, self) : NULL;
}

/* test-bed side: the css life cycle the cgroup core drives */
int kshim_css_create(struct cgroup_subsys_state *css, struct cgroup_subsys_state *parent,
		     struct cgroup_subsys *ss);
void kshim_css_kill(struct cgroup_subsys_state *css);
#endif
