// SPDX-License-Identifier: GPL-2.0-only
/* mm/memory-tiers.c's extract (#line markers into the tree). */
#include <linux/kernel.h>
#include <linux/panic.h>
#include <linux/slab.h>
#include <linux/lockdep.h>
#include <linux/sysfs.h>
#include <linux/kobject.h>
#include <linux/device.h>
#include <linux/memory.h>
#include <linux/memory_hotplug.h>
#include <linux/memory-tiers.h>
#include <linux/node.h>
#include <linux/notifier.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/topology.h>
#include <linux/kstrtox.h>
#include <linux/string_choices.h>
#include <linux/mm.h>

/* mm/internal.h: page_alloc.c's (kpage_alloc) */
int find_next_best_node(int node, nodemask_t *used_node_mask);

#include KMEMORY_TIERS_EXTRACT
