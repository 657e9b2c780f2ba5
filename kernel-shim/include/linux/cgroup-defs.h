/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_CGROUP_DEFS_H
#define _KSHIM_LINUX_CGROUP_DEFS_H
/*
 * The css and the CSS_* flags are the real ones (kgen/cgroup-defs.h). The
 * cgroup and subsystem descriptors are the shim's: only the test-bed
 * cgroup core (kernel-shim/cgroup.c) looks inside them.
 */
#include <linux/types.h>
#include <linux/list.h>
#include <linux/atomic.h>
#include <linux/workqueue.h>
#include <linux/jump_label.h>
#include <linux/idr.h>
#include <linux/refcount.h>
#include <linux/percpu-refcount.h>
#include <linux/timer.h>

struct kernfs_node;
#include <kgen/cgroup-defs.h>

struct cgroup {
	struct cgroup_subsys_state self;
	int level;
};

/* life-cycle hooks the shim's cgroup core calls, as kernel/cgroup does */
struct cgroup_subsys {
	const char *name;
	void (*css_free)(struct cgroup_subsys_state *);
	void (*css_released)(struct cgroup_subsys_state *);
	void (*css_offline)(struct cgroup_subsys_state *);
	int (*css_online)(struct cgroup_subsys_state *);
};
#endif
