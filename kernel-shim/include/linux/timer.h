/* SPDX-License-Identifier: GPL-2.0-only */
/* Timers are embedded by mm structures; none fires in the test bed. */
#ifndef _KSHIM_LINUX_TIMER_H
#define _KSHIM_LINUX_TIMER_H
#include <linux/types.h>
struct timer_list {
	struct hlist_node entry;
	unsigned long expires;
	void (*function)(struct timer_list *);
	u32 flags;
};
#endif
