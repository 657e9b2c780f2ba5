/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_POLL_H
#define _KSHIM_LINUX_POLL_H
/*
 * The poll table a v1 memcg event embeds (mm/memcontrol.c before 6.11);
 * no file is polled in the test bed.
 */
#include <linux/cgroup-defs.h>
#include <linux/wait.h>
struct file;
typedef struct poll_table_struct {
	void (*_qproc)(struct file *filp, wait_queue_head_t *wait_address,
		       struct poll_table_struct *p);
	__poll_t _key;
} poll_table;
#endif
