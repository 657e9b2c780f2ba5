/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_CGROUP_DEFS_H
#define _KSHIM_LINUX_CGROUP_DEFS_H
/*
 * The cgroup core's types, with the kernel's field names for what mm code
 * touches. The shim's css refcount is a counter with a "killed" state,
 * standing in for percpu_ref (tryget fails once killed and released).
 */
#include <linux/types.h>
#include <linux/list.h>
#include <linux/atomic.h>
#include <linux/workqueue.h>
#include <linux/jump_label.h>
#include <linux/idr.h>
#include <linux/refcount.h>

struct cgroup;
struct cgroup_subsys;

struct percpu_ref {
	atomic_long_t count;
	bool dead;
};

enum {
	CSS_NO_REF = (1 << 0),
	CSS_ONLINE = (1 << 1),
	CSS_RELEASED = (1 << 2),
	CSS_VISIBLE = (1 << 3),
	CSS_DYING = (1 << 4),
};

struct cgroup_subsys_state {
	struct cgroup *cgroup;
	struct cgroup_subsys *ss;
	struct percpu_ref refcnt;
	struct list_head sibling;
	struct list_head children;
	int id;
	unsigned int flags;
	u64 serial_nr;
	atomic_t online_cnt;
	struct work_struct destroy_work;
	struct rcu_head rcu_head;
	struct cgroup_subsys_state *parent;
	int nr_descendants;
};

struct cgroup_file {
	struct kernfs_node *kn;
	unsigned long notified_at;
	unsigned long notify_count;	/* shim: cgroup_file_notify() calls */
};

struct cgroup {
	struct cgroup_subsys_state self;
	unsigned long flags;
	int level;
	char name[64];
};

struct cgroup_subsys {
	struct cgroup_subsys_state *(*css_alloc)(struct cgroup_subsys_state *parent_css);
	int (*css_online)(struct cgroup_subsys_state *css);
	void (*css_offline)(struct cgroup_subsys_state *css);
	void (*css_released)(struct cgroup_subsys_state *css);
	void (*css_free)(struct cgroup_subsys_state *css);
	const char *name;
	int id;
};
#endif
