/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_KERNFS_H
#define _KSHIM_LINUX_KERNFS_H
/*
 * An open control file of the test bed's cgroupfs (kernel-shim/world/cgroupfs.c):
 * what of_css(), of_cft(), of_peak() and seq_css() read.
 */
#include <linux/types.h>
#include <linux/list.h>
struct seq_file;
struct file;
struct cftype;
struct cgroup_subsys_state;

/*
 * A cgroup's directory: only its id is read (cgroup_id(), which is
 * mem_cgroup_id() since 7.2), as kernfs numbers its nodes from 1
 */
struct kernfs_node {
	u64 id;
};

/* the peak watermark a memory.peak file descriptor keeps (cgroup-defs.h) */
struct kshim_of_peak {
	unsigned long value;
	struct list_head list;
};

struct kernfs_open_file {
	struct kernfs_node *kn;
	struct file *file;	/* the open file: its f_flags (O_NONBLOCK) */
	struct seq_file *seq_file;
	void *priv;
	struct cgroup_subsys_state *kshim_css;
	struct cftype *kshim_cft;
	/* layout-compatible with struct cgroup_of_peak */
	struct kshim_of_peak kshim_peak;
};
#endif
