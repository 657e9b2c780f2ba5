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
#include <linux/lockdep.h>
typedef unsigned int __poll_t;

#include <linux/kernfs.h>
#include <kgen/cgroup-defs.h>

/* one controller in the test bed: memory */
enum cgroup_subsys_id {
	memory_cgrp_id,
	CGROUP_SUBSYS_COUNT,
};

struct cgroup {
	struct cgroup_subsys_state self;
	int level;
	/* its directory: kernfs's node, whose id is the cgroup's (cgroup_id()) */
	struct kernfs_node *kn;
	struct kernfs_node kshim_kn;
	/* test bed: the directory tree of kernel-shim/world/cgroupfs.c */
	struct cgroup *kshim_parent;
	struct cgroup_subsys_state *subsys[CGROUP_SUBSYS_COUNT];
	struct list_head kshim_children;
	struct list_head kshim_sibling;
	char kshim_name[64];
	bool kshim_fs;		/* allocated by cgroupfs, freed with its css */
	/* rstat: the CPUs on whose updated tree the cgroup is (cgroup.c) */
	DECLARE_BITMAP(kshim_rstat_updated, CONFIG_NR_CPUS);
	/* the cgroup core's path from the root: ancestors[level] is itself */
	struct cgroup *ancestors[];
};

/* the default hierarchy's root: only its mount flags are read */
struct cgroup_root {
	unsigned int flags;
};
extern struct cgroup_root cgrp_dfl_root;
#endif
