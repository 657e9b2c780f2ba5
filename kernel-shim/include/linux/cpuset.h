/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_CPUSET_H
#define _KSHIM_LINUX_CPUSET_H
/*
 * CONFIG_CPUSETS as mm code sees it: a task bound to nodes (its cpuset's
 * cpuset.mems, tb_task_bind_node()) has them in current->mems_allowed;
 * every other task is in the root cpuset, which allows every node.
 * cpusets_enabled() is the kernel's static key: true while a task is
 * bound (a cpuset other than the root has tasks).
 */
#include <linux/types.h>
#include <linux/gfp.h>
#include <linux/sched.h>
#include <linux/preempt.h>
#include <linux/oom.h>
#include <linux/mmzone.h>

extern int kshim_cpusets_bound;
extern nodemask_t kshim_all_nodes;

static inline bool cpusets_enabled(void)
{
	return READ_ONCE(kshim_cpusets_bound) > 0;
}

/*
 * 7.2: the nodes a cgroup's cpuset allows (demotion's targets): a cgroup
 * is in the root cpuset, every node
 */
struct cgroup;
static inline void cpuset_nodes_allowed(struct cgroup *cgroup, nodemask_t *mask)
{
	*mask = kshim_all_nodes;
}

static inline bool kshim_task_bound(struct task_struct *t)
{
	return !bitmap_empty(t->mems_allowed.bits, MAX_NUMNODES);
}

static inline nodemask_t *kshim_current_mems(void)
{
	return kshim_task_bound(current) ? &current->mems_allowed : &kshim_all_nodes;
}
#define cpuset_current_mems_allowed (*kshim_current_mems())

/*
 * kernel/cgroup/cpuset.c's cpuset_node_allowed() for a cpuset that is
 * neither mem_exclusive nor mem_hardwall: a __GFP_HARDWALL (user)
 * allocation stays in mems_allowed; any other may use the nearest
 * hardwall ancestor's nodes, the root's: all of them.
 */
static inline bool cpuset_node_allowed(int node, gfp_t gfp_mask)
{
	if (!cpusets_enabled() || in_interrupt() || !kshim_task_bound(current))
		return true;
	if (node_isset(node, current->mems_allowed) || tsk_is_oom_victim(current))
		return true;
	return !(gfp_mask & __GFP_HARDWALL);
}

static inline bool __cpuset_zone_allowed(struct zone *z, gfp_t gfp_mask)
{
	return cpuset_node_allowed(zone_to_nid(z), gfp_mask);
}

static inline bool cpuset_zone_allowed(struct zone *z, gfp_t gfp_mask)
{
	return __cpuset_zone_allowed(z, gfp_mask);
}
/*
 * No cpuset spreads its page cache over its nodes (cpuset.memory_spread_page
 * is cgroup v1's), and mems_allowed never changes under an allocation
 */
static inline int cpuset_do_page_mem_spread(void)
{
	return 0;
}

static inline int cpuset_mem_spread_node(void)
{
	return numa_node_id();
}

static inline unsigned int read_mems_allowed_begin(void)
{
	return 0;
}

static inline bool read_mems_allowed_retry(unsigned int seq)
{
	return false;
}
#endif
