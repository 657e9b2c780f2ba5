/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_WRITEBACK_H
#define _KSHIM_LINUX_WRITEBACK_H
/*
 * struct writeback_control and the reasons are the kernel's; the flusher
 * threads that wakeup_flusher_threads() starts are the world's.
 */
#include <linux/types.h>
#include <linux/fs.h>
#include <linux/pagevec.h>
#include <kgen/backing-dev-defs.h>
#include <kgen/writeback.h>

extern int laptop_mode;
void wakeup_flusher_threads(enum wb_reason reason);
#endif
