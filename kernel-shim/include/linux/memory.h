/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_MEMORY_H
#define _KSHIM_LINUX_MEMORY_H
/*
 * Memory hotplug's notifier: what a node coming online or going offline
 * tells the subsystems that follow it (the world's boot and teardown
 * bring its slow nodes on and off line, as a driver's hotplug does).
 */
#include <linux/notifier.h>

enum {
	MEM_ONLINE = 1 << 0,
	MEM_GOING_OFFLINE = 1 << 1,
	MEM_OFFLINE = 1 << 2,
	MEM_GOING_ONLINE = 1 << 3,
	MEM_CANCEL_ONLINE = 1 << 4,
	MEM_CANCEL_OFFLINE = 1 << 5,
};
struct memory_notify {
	unsigned long start_pfn;
	unsigned long nr_pages;
	int status_change_nid_normal;
	int status_change_nid;
};
#define MEMTIER_HOTPLUG_PRI	100

int register_memory_notifier(struct notifier_block *nb);
#define hotplug_memory_notifier(fn, pri) ({				\
	static struct notifier_block fn##_mem_nb =			\
		{ .notifier_call = fn, .priority = pri };		\
	register_memory_notifier(&fn##_mem_nb);				\
})
#endif
