/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_OOM_H
#define _KSHIM_LINUX_OOM_H
/*
 * The OOM request is the real struct oom_control (kgen/oom.h); the kill
 * is simulated by the test bed (kernel-shim/world/memcg_task.c).
 */
#include <linux/types.h>
#include <linux/nodemask.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/mm_types.h>		/* check_stable_address_space() */
#include <linux/sched/coredump.h>
struct zonelist;
#include <kgen/oom.h>
/* OOM_SCORE_ADJ_MIN/MAX: the uapi header */
#include_next <linux/oom.h>

extern struct mutex oom_lock;
bool out_of_memory(struct oom_control *oc);
static inline bool tsk_is_oom_victim(struct task_struct *tsk)
{
	return tsk->kshim_oom_victim;
}
#endif
