/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_KTHREAD_H
#define _KSHIM_LINUX_KTHREAD_H
/*
 * Kernel threads are the world's (kswapd and khugepaged run on threads of
 * their own, scheduled by the world on virtual time:
 * kernel-shim/world/kswapd.c).
 */
#include <linux/types.h>
#include <linux/sched.h>
bool kthread_should_stop(void);
bool kthread_freezable_should_stop(bool *was_frozen);
/*
 * Another kernel thread (one: khugepaged), started once the machine has
 * booted; its task is a placeholder that kthread_stop() takes back
 */
struct task_struct *kshim_kthread_unscheduled(int (*threadfn)(void *data), void *data,
					      const char *name);
#define kthread_run(threadfn, data, namefmt, ...) \
	kshim_kthread_unscheduled(threadfn, data, namefmt)
int kthread_stop(struct task_struct *k);
#endif
