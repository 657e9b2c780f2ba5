/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_FREEZER_H
#define _KSHIM_LINUX_FREEZER_H
/* The simulated machine never suspends: nothing is frozen. */
#include <linux/sched.h>
static inline bool freezing(struct task_struct *p)
{
	return false;
}
static inline void set_freezable(void)
{
}
static inline bool try_to_freeze(void)
{
	return false;
}
#endif
