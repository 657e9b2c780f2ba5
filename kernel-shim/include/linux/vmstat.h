/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_VMSTAT_H
#define _KSHIM_LINUX_VMSTAT_H
/*
 * VM event counters are global atomics (the kernel's are per-CPU sums);
 * node and zone counters are the nodes' and zones' own vm_stat[] arrays,
 * updated at once (a stat threshold of 0: no per-CPU differential), so a
 * test reads exact values. The folio and zone helpers are the kernel's
 * (kgen/vmstat.h).
 */
#include <linux/types.h>
#include <linux/atomic.h>
#include <linux/cpumask.h>
#include <linux/percpu.h>
#include <linux/vm_event_item.h>
#include <linux/mmzone.h>
#include <linux/mm.h>
extern atomic_long_t kshim_vm_events[NR_VM_EVENT_ITEMS];
static inline void count_vm_events(enum vm_event_item item, long delta)
{
	__atomic_fetch_add(&kshim_vm_events[item].counter, delta, __ATOMIC_RELAXED);
}
static inline void count_vm_event(enum vm_event_item item) { count_vm_events(item, 1); }
#define __count_vm_events(item, delta) count_vm_events(item, delta)
#define __count_vm_event(item) count_vm_event(item)
struct pglist_data;
struct zone;
void __mod_node_page_state(struct pglist_data *pgdat, enum node_stat_item item, long delta);
#define mod_node_page_state(pgdat, item, delta) __mod_node_page_state(pgdat, item, delta)
void __mod_zone_page_state(struct zone *zone, enum zone_stat_item item, long delta);
#define mod_zone_page_state(zone, item, delta) __mod_zone_page_state(zone, item, delta)
unsigned long node_page_state(struct pglist_data *pgdat, enum node_stat_item item);
unsigned long node_page_state_pages(struct pglist_data *pgdat, enum node_stat_item item);
unsigned long sum_zone_node_page_state(int node, enum zone_stat_item item);
unsigned long global_node_page_state(enum node_stat_item item);
unsigned long global_zone_page_state(enum zone_stat_item item);
/* the stat threshold is always 0 here (mm/vmstat.c computes it per zone) */
int calculate_pressure_threshold(struct zone *zone);
int calculate_normal_threshold(struct zone *zone);
static inline void set_pgdat_percpu_threshold(pg_data_t *pgdat, int (*calc)(struct zone *))
{
}
#include <kgen/vmstat.h>

static inline unsigned long kshim_vm_event_read(enum vm_event_item item)
{
	return __atomic_load_n(&kshim_vm_events[item].counter, __ATOMIC_RELAXED);
}

/*
 * pgrefill, pgscan_* and pgsteal_* as /proc/vmstat shows them: vm events,
 * or node stat items summed over the nodes (7.2, reclaim_stats_per_node)
 */
static inline unsigned long kshim_reclaim_event_read(int item)
{
#if TB_HAVE_reclaim_stats_per_node
	return global_node_page_state((enum node_stat_item)item);
#else
	return kshim_vm_event_read((enum vm_event_item)item);
#endif
}
#endif
