/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_RESUME_USER_MODE_H
#define _KSHIM_LINUX_RESUME_USER_MODE_H
/*
 * set_notify_resume() marks the task; the test bed's task model calls
 * its return-to-user point (mem_cgroup_handle_over_high) when marked.
 */
#include <linux/sched.h>
#define TIF_NOTIFY_RESUME_FLAG 0x1
#define set_notify_resume(task) ((task)->kshim_notify_resume = 1)
#endif
