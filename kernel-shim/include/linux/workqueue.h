/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_WORKQUEUE_H
#define _KSHIM_LINUX_WORKQUEUE_H
/*
 * Work items. The struct is what mm structures embed; queueing runs the
 * item on a worker thread bound to the target virtual CPU (workqueue.c).
 */
#include <linux/types.h>
#include <linux/atomic.h>
#include <linux/list.h>
struct work_struct;
typedef void (*work_func_t)(struct work_struct *work);
struct work_struct {
	atomic_long_t data;
	struct list_head entry;
	work_func_t func;
};
struct delayed_work {
	struct work_struct work;
	unsigned long timer_expires;
	int cpu;
};
struct rcu_work {
	struct work_struct work;
	struct rcu_head rcu;
};
struct workqueue_struct;
#define INIT_WORK(w, f) do { atomic_long_set(&(w)->data, 0); INIT_LIST_HEAD(&(w)->entry); \
	(w)->func = (f); } while (0)
#define INIT_DELAYED_WORK(dw, f) INIT_WORK(&(dw)->work, f)
#define INIT_RCU_WORK(rw, f) INIT_WORK(&(rw)->work, f)
#define WORK_CPU_UNBOUND (-1)
extern struct workqueue_struct *system_wq;
extern struct workqueue_struct *system_unbound_wq;
/* 7.0's name for the default unbound workqueue */
#define system_dfl_wq system_unbound_wq
/*
 * a workqueue of a subsystem's own (memcg's, 7.2): its works run on the
 * same per-CPU workers as everyone's; the flags say how the kernel's would
 * be bound, which the test bed's already are
 */
#define WQ_PERCPU (1 << 8)
struct workqueue_struct *alloc_workqueue(const char *fmt, unsigned int flags, int max_active, ...);
/* mm/vmstat.c's per-CPU workqueue: the system one serves here */
#define mm_percpu_wq system_wq
bool queue_work_on(int cpu, struct workqueue_struct *wq, struct work_struct *work);
bool flush_work(struct work_struct *work);
bool cancel_work_sync(struct work_struct *work);
void flush_workqueue(struct workqueue_struct *wq);
#define queue_work(wq, w) queue_work_on(WORK_CPU_UNBOUND, wq, w)
bool queue_delayed_work_on(int cpu, struct workqueue_struct *wq, struct delayed_work *dw,
			   unsigned long delay);
#define queue_delayed_work(wq, dw, delay) queue_delayed_work_on(WORK_CPU_UNBOUND, wq, dw, delay)
#define schedule_delayed_work(dw, delay) queue_delayed_work(system_wq, dw, delay)
#define cancel_delayed_work_sync(dw) cancel_work_sync(&(dw)->work)
#define flush_delayed_work(dw) flush_work(&(dw)->work)
#define to_delayed_work(w) container_of(w, struct delayed_work, work)
#define __DELAYED_WORK_INITIALIZER(n, f) {					\
	.work = { .data = { 0 }, .entry = { &(n).work.entry, &(n).work.entry },	\
		  .func = (f) } }
#define DECLARE_DELAYED_WORK(n, f) struct delayed_work n = __DELAYED_WORK_INITIALIZER(n, f)
#define DECLARE_DEFERRABLE_WORK(n, f) DECLARE_DELAYED_WORK(n, f)
/* virtual time advanced: queue the delayed works that expired */
void kshim_timers_run(void);
#define schedule_work(w) queue_work(system_wq, w)
#define schedule_work_on(cpu, w) queue_work_on(cpu, system_wq, w)
#define work_pending(w) (atomic_long_read(&(w)->data) & 1)
#define delayed_work_pending(w) work_pending(&(w)->work)
#endif
