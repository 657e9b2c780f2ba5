/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_KTHREAD_H
#define _KSHIM_LINUX_KTHREAD_H
/*
 * Kernel threads are the world's (kswapd runs on a thread of its own,
 * scheduled by the world: kernel-shim/world/kswapd.c).
 */
#include <linux/types.h>
#include <linux/sched.h>
bool kthread_should_stop(void);
bool kthread_freezable_should_stop(bool *was_frozen);
/*
 * Any other kernel thread is made and never scheduled (khugepaged: its
 * scan is not modelled); kthread_stop() of it returns at once
 */
struct task_struct *kshim_kthread_unscheduled(int (*threadfn)(void *data), void *data,
					      const char *name);
#define kthread_run(threadfn, data, namefmt, ...) \
	kshim_kthread_unscheduled(threadfn, data, namefmt)
int kthread_stop(struct task_struct *k);
#endif
