/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_CGROUP_H
#define _KSHIM_LINUX_CGROUP_H
/*
 * The shim's cgroup core: a css hierarchy with RCU-safe children lists,
 * online/offline and pre-order walks (kernel-shim/cgroup.c). The css
 * refcounting functions are the kernel's own linux/cgroup_refcnt.h.
 */
#include <linux/mutex.h>
#include <linux/cgroup-defs.h>
#include <linux/rcupdate.h>
#include <linux/rculist.h>

extern struct cgroup_subsys memory_cgrp_subsys;
DECLARE_STATIC_KEY_TRUE(memory_cgrp_subsys_enabled_key);
DECLARE_STATIC_KEY_TRUE(memory_cgrp_subsys_on_dfl_key);

struct cgroup_subsys_state *css_next_child(struct cgroup_subsys_state *pos,
					   struct cgroup_subsys_state *parent);
struct cgroup_subsys_state *css_next_descendant_pre(struct cgroup_subsys_state *pos,
						    struct cgroup_subsys_state *css);
#include <kgen/cgroup.h>

#if TB_HAVE_cgroup_refcnt_h
/* !CONFIG_DEBUG_CGROUP_REF: the kernel includes these as static inline */
#define CGROUP_REF_FN_ATTRS static inline
#define CGROUP_REF_EXPORT(fn)
#include <linux/cgroup_refcnt.h>
#endif /* else: in kgen/cgroup.h, from the tree's linux/cgroup.h */

#include <linux/kernfs.h>
#include <linux/seq_file.h>

/* an open control file (linux/kernfs.h) */
static inline struct cgroup_subsys_state *of_css(struct kernfs_open_file *of)
{
	return of->kshim_css;
}

static inline struct cftype *of_cft(struct kernfs_open_file *of)
{
	return of->kshim_cft;
}

static inline struct cgroup_of_peak *of_peak(struct kernfs_open_file *of)
{
	return (struct cgroup_of_peak *)&of->kshim_peak;
}

static inline struct cgroup_subsys_state *seq_css(struct seq_file *seq)
{
	return of_css(seq->private);
}

static inline bool cgroup_is_descendant(struct cgroup *cgrp, struct cgroup *ancestor)
{
	for (; cgrp; cgrp = cgrp->kshim_parent)
		if (cgrp == ancestor)
			return true;
	return false;
}

/*
 * rstat: an update marks the cgroup and its ancestors on the CPU, as the
 * kernel links them into that CPU's updated tree; a flush folds in only
 * the marked ones (kernel-shim/cgroup.c).
 */
void __cgroup_rstat_updated(struct cgroup *cgrp, int cpu);
#define cgroup_rstat_updated(cgrp, cpu) __cgroup_rstat_updated(cgrp, cpu)
void cgroup_rstat_flush(struct cgroup *cgrp);
/* before 6.6: the flush from a context that cannot sleep */
void cgroup_rstat_flush_irqsafe(struct cgroup *cgrp);
/* 7.2: by css (the test bed's one controller: its cgroup's) */
static inline void __css_rstat_updated(struct cgroup_subsys_state *css, int cpu)
{
	__cgroup_rstat_updated(css->cgroup, cpu);
}
static inline void css_rstat_updated(struct cgroup_subsys_state *css, int cpu)
{
	__cgroup_rstat_updated(css->cgroup, cpu);
}
static inline void css_rstat_flush(struct cgroup_subsys_state *css)
{
	cgroup_rstat_flush(css->cgroup);
}
/*
 * a cgroup by its id (cgroup_id(), its kernfs node's), referenced, and the
 * css of a controller it has (kernel-shim/world/cgroupfs.c)
 */
struct cgroup *cgroup_get_from_id(u64 id);
struct cgroup_subsys_state *cgroup_get_e_css(struct cgroup *cgrp, struct cgroup_subsys *ss);
void cgroup_put(struct cgroup *cgrp);
struct cgroup_subsys_state *css_next_descendant_post(struct cgroup_subsys_state *pos,
						     struct cgroup_subsys_state *css);
int cgroup_add_dfl_cftypes(struct cgroup_subsys *ss, struct cftype *cfts);

/* a task's css: the test bed's task model keeps its memory css */
#define task_css(task, id) ((void)(id), (task)->kshim_memcg_css)

/*
 * The tasks of one migration, as the cgroup core hands them to a
 * controller's ->attach() (kernel/cgroup/cgroup-internal.h has the
 * kernel's): the world moves one task at a time (tb_task_move()).
 */
struct cgroup_taskset {
	struct task_struct *task;
	struct cgroup_subsys_state *dst_css;
	bool walked;
};

struct task_struct *cgroup_taskset_first(struct cgroup_taskset *tset,
					 struct cgroup_subsys_state **dst_cssp);
struct task_struct *cgroup_taskset_next(struct cgroup_taskset *tset,
					struct cgroup_subsys_state **dst_cssp);

void cgroup_file_notify(struct cgroup_file *cfile);
/* the cgroup core's big lock (kernel/cgroup/cgroup.c) */
extern struct mutex cgroup_mutex;
static inline void cgroup_lock(void)
{
	mutex_lock(&cgroup_mutex);
}
static inline void cgroup_unlock(void)
{
	mutex_unlock(&cgroup_mutex);
}
/* the path below the root, "/" for the root, as kernfs prints it */
int cgroup_path(struct cgroup *cgrp, char *buf, size_t buflen);
unsigned long kshim_cgroup_file_notifications(struct cgroup_file *cfile);

/* test-bed side: the css life cycle the cgroup core drives */
int kshim_css_create(struct cgroup_subsys_state *css, struct cgroup_subsys_state *parent,
		     struct cgroup_subsys *ss);
void kshim_css_kill(struct cgroup_subsys_state *css);
#endif
