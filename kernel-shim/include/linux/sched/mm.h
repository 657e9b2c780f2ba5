/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_SCHED_MM_H
#define _KSHIM_LINUX_SCHED_MM_H
/* The mm side of a task: its mm_struct, its active memcg. */
#include <linux/sched.h>
#include <linux/gfp.h>
#include <linux/percpu.h>

#include <linux/mm_types.h>

DECLARE_PER_CPU(struct mem_cgroup *, int_active_memcg);

/* an mm_struct's own reference (mmgrab, mmdrop), lockdep's fs_reclaim map */
#include <kgen/sched_mm.h>

/* an mm's users: its task, and a page-table walker holding it */
static inline bool mmget_not_zero(struct mm_struct *mm)
{
	return atomic_inc_not_zero(&mm->mm_users);
}
void mmput(struct mm_struct *mm);	/* kernel-shim/world/vm.c */
#define mmput_async(mm) mmput(mm)

static inline struct mem_cgroup *set_active_memcg(struct mem_cgroup *memcg)
{
	struct mem_cgroup *old = current->active_memcg;

	current->active_memcg = memcg;
	return old;
}

/* an allocation that may block is a might_sleep() point */
static inline void might_alloc(gfp_t gfp_mask)
{
	might_sleep_if(gfpflags_allow_blocking(gfp_mask));
}

static inline gfp_t current_gfp_context(gfp_t flags)
{
	return flags;
}

/* lockdep's fs_reclaim map: no lockdep here */
static inline void __fs_reclaim_acquire(unsigned long ip)
{
}
static inline void __fs_reclaim_release(unsigned long ip)
{
}

static inline unsigned int memalloc_noreclaim_save(void)
{
	unsigned int flags = current->flags & PF_MEMALLOC;

	current->flags |= PF_MEMALLOC;
	return flags;
}

static inline void memalloc_noreclaim_restore(unsigned int flags)
{
	current->flags = (current->flags & ~PF_MEMALLOC) | flags;
}
#endif
