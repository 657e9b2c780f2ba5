/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_MMZONE_H
#define _KSHIM_LINUX_MMZONE_H
/* Real mmzone.h pieces (kgen/mmzone.h, extracted at configure time). */
#include <linux/types.h>
#include <linux/list.h>
#include <linux/spinlock.h>
#include <linux/atomic.h>
#include <linux/nodemask.h>
#include <linux/zswap.h>
#include <linux/bounds.h>
/* pg_data_t is the whole node; mm code here only passes pointers to it */
typedef struct pglist_data pg_data_t;
#include <kgen/mmzone.h>
#endif
