/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_CGROUP_H
#define _KSHIM_LINUX_CGROUP_H
/*
 * The shim's cgroup core: a css hierarchy with RCU-safe children lists,
 * online/offline and pre-order walks (kernel-shim/cgroup.c). The css
 * refcounting functions are the kernel's own linux/cgroup_refcnt.h.
 */
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

/* !CONFIG_DEBUG_CGROUP_REF: the kernel includes these as static inline */
#define CGROUP_REF_FN_ATTRS static inline
#define CGROUP_REF_EXPORT(fn)
#include <linux/cgroup_refcnt.h>

void cgroup_file_notify(struct cgroup_file *cfile);
unsigned long kshim_cgroup_file_notifications(struct cgroup_file *cfile);

/* test-bed side: the css life cycle the cgroup core drives */
int kshim_css_create(struct cgroup_subsys_state *css, struct cgroup_subsys_state *parent,
		     struct cgroup_subsys *ss);
void kshim_css_kill(struct cgroup_subsys_state *css);
#endif
