/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What mm/memcontrol.c includes, as the test bed provides it: shadow
 * headers for the environment, real headers where they compile, and
 * the declarations of the wrappers kextract's `wrap` asks for.
 */
#ifndef _MM_MEMCONTROL_ENV_H
#define _MM_MEMCONTROL_ENV_H
#include <linux/init.h>
#include <linux/sizes.h>
#include <linux/local_lock.h>
#include <linux/cgroup-defs.h>
#include <linux/page_counter.h>
#include <linux/memcontrol.h>
#include <linux/cgroup.h>
#include <linux/sched/mm.h>
#include <linux/pagemap.h>
#include <linux/backing-dev.h>
#include <linux/vm_event_item.h>
#include <linux/smp.h>
#include <linux/page-flags.h>
#include <linux/rcupdate.h>
#include <linux/limits.h>
#include <linux/string.h>
#include <linux/export.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/seq_file.h>
#include <linux/poll.h>
#include <linux/eventfd.h>
#if !TB_HAVE_memcontrol_v1_c
#include <linux/rbtree.h>	/* v1's soft limit tree */
#endif
#include <linux/parser.h>
#include <linux/vmpressure.h>
#include <linux/mm_inline.h>
#include <linux/cpu.h>
#include <linux/oom.h>
#include <linux/lockdep.h>
#include <linux/resume_user_mode.h>
#include <linux/psi.h>
#include <linux/seq_buf.h>
#include <linux/sched/isolation.h>
#include <linux/swap.h>
#include <linux/uaccess.h>
#include <linux/xarray.h>
#include <trace/events/vmscan.h>
#include <trace/events/memcg.h>
#include <linux/swapops.h>	/* 7.2: swp_cluster_offset() of the swap charge */
#include <linux/cpuset.h>	/* 7.2: cpuset_nodes_allowed() of demotion */
#include <kgen/mm_internal_memcg.h>
#include <linux/sched/coredump.h>
#include <kshim/memcg_tb.h>
#include <kshim/cgroupfs.h>
#include <kshim/testbed.h>
#include <kshim/reclaim.h>

/* list_lru.c reparents its per-memcg lists when a memcg goes offline */
void memcg_reparent_list_lrus(struct mem_cgroup *memcg, struct mem_cgroup *parent);

#if !TB_HAVE_current_objcg
/*
 * Stubbed before 6.9: a task joins a memcg through the test bed's task
 * model (tb_task_enter), not through cgroup fork/exit; a move between
 * cgroups (tb_task_move) runs the real mem_cgroup_attach(). From 6.9 the
 * real ones keep the task's objcg, which the world's task model calls.
 */
static void mem_cgroup_fork(struct task_struct *task)
{
}

static void mem_cgroup_exit(struct task_struct *task)
{
}
#endif

#if !TB_HAVE_memcontrol_v1_c
/*
 * Stubbed before the v1 split (memcontrol.manifest): no v1 control files
 * in the v2 hierarchy, and no charge moving (a v1 memory.move_charge_at_immigrate)
 */
static struct cftype mem_cgroup_legacy_files[] = {
	{ }	/* terminate */
};
static int mem_cgroup_can_attach(struct cgroup_taskset *tset)
{
	return 0;
}
static void mem_cgroup_cancel_attach(struct cgroup_taskset *tset)
{
}
static void mem_cgroup_move_task(void)
{
}
#endif

/* kextract `wrap`: counted entry points of the obj stock (seed 004) */
struct obj_cgroup;
struct pglist_data;
#if TB_HAVE_mod_objcg_state
static void __real_mod_objcg_state(struct obj_cgroup *objcg, struct pglist_data *pgdat,
				   enum node_stat_item idx, int nr);
#endif
/* the obj stock's flush of its vmstat bytes: __mod_objcg_mlstate() since 6.10 */
#if TB_HAVE___mod_objcg_mlstate
#define tb_objcg_mlstate __mod_objcg_mlstate
#define tb_real_objcg_mlstate __real___mod_objcg_mlstate
#else
#define tb_objcg_mlstate mod_objcg_mlstate
#define tb_real_objcg_mlstate __real_mod_objcg_mlstate
#endif
static void tb_real_objcg_mlstate(struct obj_cgroup *objcg, struct pglist_data *pgdat,
				  enum node_stat_item idx, int nr);
#if TB_HAVE_mod_objcg_state
static void mod_objcg_state(struct obj_cgroup *objcg, struct pglist_data *pgdat,
			    enum node_stat_item idx, int nr);
#endif
static void tb_objcg_mlstate(struct obj_cgroup *objcg, struct pglist_data *pgdat,
			     enum node_stat_item idx, int nr);
#endif
