// SPDX-License-Identifier: GPL-2.0-only
/*
 * Memory tiers. Firmware describes some nodes as slow memory (CXL or
 * PMEM given to the dax/kmem driver: tb_mem_config.slow_nodes); as
 * dev_dax_kmem_probe() does, the driver gives each the memory type of
 * its abstract distance before the node's memory comes online, and the
 * online is told to the hotplug notifier. Which tier a node falls in and
 * where each node demotes to is mm/memory-tiers.c's (extracted): the
 * world runs its initcalls at boot, in the kernel's order, and takes the
 * nodes off line through the same notifier at the end of a world.
 * Without slow nodes the world builds no tiers: no node has a demotion
 * target, as when node_demotion[] is unallocated.
 */
#include <linux/kernel.h>
#include <linux/memory.h>
#include <linux/node.h>
#include <linux/memory-tiers.h>
#include <linux/slab.h>
#include "world.h"

#if TB_HAVE_memory_tier_late_init
/* drivers/dax/kmem.c: a dax device's memory is five times DRAM's distance */
#define KMEM_DEFAULT_ADISTANCE (MEMTIER_ADISTANCE_DRAM * 5)

int memory_tier_init(void);
int memory_tier_late_init(void);
int numa_init_sysfs(void);
extern struct demotion_nodes *node_demotion;
extern struct list_head default_memory_types;

static BLOCKING_NOTIFIER_HEAD(memory_chain);
static LIST_HEAD(kmem_memory_types);
static unsigned long slow;

int register_memory_notifier(struct notifier_block *nb)
{
	return blocking_notifier_chain_register(&memory_chain, nb);
}

static void memory_notify(unsigned long action, int nid)
{
	struct memory_notify arg = {
		.start_pfn = NODE_DATA(nid)->node_start_pfn,
		.nr_pages = NODE_DATA(nid)->node_present_pages,
		.status_change_nid = nid,
		.status_change_nid_normal = nid,
	};

	blocking_notifier_call_chain(&memory_chain, action, &arg);
}

#if TB_HAVE_node_notify
/*
 * 7.2: a node that gets its first memory or loses its last is told to the
 * node notifier, around the memory notifier's online and offline, as
 * online_pages() and offline_pages() do
 */
static BLOCKING_NOTIFIER_HEAD(node_chain);

int register_node_notifier(struct notifier_block *nb)
{
	return blocking_notifier_chain_register(&node_chain, nb);
}

void unregister_node_notifier(struct notifier_block *nb)
{
	blocking_notifier_chain_unregister(&node_chain, nb);
}

int node_notify(unsigned long val, void *v)
{
	return blocking_notifier_call_chain(&node_chain, val, v);
}

static void hotplug_notify(bool online, int nid)
{
	struct node_notify nn = { .nid = nid };

	node_notify(online ? NODE_ADDING_FIRST_MEMORY : NODE_REMOVING_LAST_MEMORY, &nn);
	memory_notify(online ? MEM_ONLINE : MEM_OFFLINE, nid);
	node_notify(online ? NODE_ADDED_FIRST_MEMORY : NODE_REMOVED_LAST_MEMORY, &nn);
}
#else
static void hotplug_notify(bool online, int nid)
{
	memory_notify(online ? MEM_ONLINE : MEM_OFFLINE, nid);
}
#endif

/* dev_dax_kmem_probe(): the node's memory type, then its memory online */
static void kmem_probe(int nid)
{
	struct memory_dev_type *mtype;
	int adist = KMEM_DEFAULT_ADISTANCE;

	mt_calc_adistance(nid, &adist);
	mtype = mt_find_alloc_memory_type(adist, &kmem_memory_types);
	if (WARN_ON_ONCE(IS_ERR(mtype)))
		return;
	init_node_memory_type(nid, mtype);
	hotplug_notify(true, nid);
}

void tb_tiers_boot(unsigned long slow_nodes)
{
	int nid;

	numa_demotion_enabled = false;	/* the kernel's default, each boot */
	slow = slow_nodes;
	if (!slow)
		return;
	memory_tier_init();		/* subsys_initcall */
	numa_init_sysfs();		/* subsys_initcall */
	for_each_node(nid)		/* device_initcall: dax_kmem_init() */
		if (slow & BIT(nid))
			kmem_probe(nid);
	memory_tier_late_init();	/* late_initcall */
}

/* every node off line, each memory type dropped, as if unplugged */
void tb_tiers_shutdown(void)
{
	int nid;

	if (!slow)
		return;
	for_each_node(nid)
		hotplug_notify(false, nid);
	for_each_node(nid)
		clear_node_memory_type(nid, NULL);
	mt_put_memory_types(&kmem_memory_types);
	mt_put_memory_types(&default_memory_types);
	default_dram_type = NULL;
	kfree(node_demotion);
	node_demotion = NULL;
	memory_chain.head = NULL;
#if TB_HAVE_node_notify
	node_chain.head = NULL;
#endif
	slow = 0;
}
#else
void tb_tiers_boot(unsigned long slow_nodes)
{
	numa_demotion_enabled = false;
}

void tb_tiers_shutdown(void)
{
}
#endif
