/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_VMSTAT_H
#define _KSHIM_LINUX_VMSTAT_H
/* Global VM event counters (the kernel's enum, real vm_event_item.h). */
#include <linux/types.h>
#include <linux/atomic.h>
#include <linux/vm_event_item.h>
#include <linux/mmzone.h>
extern atomic_long_t kshim_vm_events[NR_VM_EVENT_ITEMS];
static inline void count_vm_events(enum vm_event_item item, long delta)
{
	__atomic_fetch_add(&kshim_vm_events[item].counter, delta, __ATOMIC_RELAXED);
}
static inline void count_vm_event(enum vm_event_item item) { count_vm_events(item, 1); }
#define __count_vm_events(item, delta) count_vm_events(item, delta)
#define __count_vm_event(item) count_vm_event(item)
/* node counters: the simulated nodes' vm_stat[] (linux/mmzone.h) */
struct pglist_data;
void __mod_node_page_state(struct pglist_data *pgdat, enum node_stat_item item, long delta);
#define mod_node_page_state(pgdat, item, delta) __mod_node_page_state(pgdat, item, delta)
unsigned long node_page_state(struct pglist_data *pgdat, enum node_stat_item item);
#include <kgen/vmstat.h>

static inline unsigned long kshim_vm_event_read(enum vm_event_item item)
{
	return __atomic_load_n(&kshim_vm_events[item].counter, __ATOMIC_RELAXED);
}
#endif
