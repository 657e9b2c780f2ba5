/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_DELAY_H
#define _KSHIM_LINUX_DELAY_H
#include <linux/sched.h>
#define udelay(n) do { } while (0)
#define ndelay(n) do { } while (0)
#define mdelay(n) do { } while (0)
#endif
