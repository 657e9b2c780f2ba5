/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_VMPRESSURE_H
#define _KSHIM_LINUX_VMPRESSURE_H
#include <linux/types.h>
#include <linux/list.h>
#include <linux/spinlock.h>
#include <linux/mutex.h>
#include <linux/workqueue.h>
#include <linux/gfp.h>
struct mem_cgroup;
#include <kgen/vmpressure.h>
#endif
