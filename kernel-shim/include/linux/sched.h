/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_SCHED_H
#define _KSHIM_LINUX_SCHED_H
/*
 * The scheduler surface mm code sees: current, sleeping on virtual time,
 * cond_resched, and might_sleep() context checks.
 */
#include <linux/types.h>
#include <linux/jiffies.h>
#include <kshim/cpu.h>
#include <linux/spinlock.h>
#include <linux/nodemask.h>

struct mem_cgroup;
struct mm_struct;
struct reclaim_state;
struct signal_struct {
	struct mm_struct *oom_mm;
	bool oom_flag_origin;
	short oom_score_adj;		/* OOM_SCORE_ADJ_MIN: never killed */
};
struct task_struct {
	int pid;
	char comm[16];
	unsigned int flags;
	unsigned int __state;
	struct mm_struct *mm;
	spinlock_t alloc_lock;		/* task_lock(): mm, and its cgroups */
	struct task_struct *group_leader;	/* the world's tasks are single-threaded: itself */
	struct signal_struct *signal;
	struct reclaim_state *reclaim_state;
	struct mem_cgroup *memcg_in_oom;
	struct mem_cgroup *active_memcg;
	struct obj_cgroup *objcg;
	unsigned int memcg_nr_pages_over_high;
	gfp_t memcg_oom_gfp_mask;
	int memcg_oom_order;
	unsigned in_user_fault:1;
	unsigned in_lru_fault:1;
	unsigned in_memstall:1;
	/* the nodes its cpuset allows; empty: not bound (the root cpuset's, all) */
	nodemask_t mems_allowed;
	/* test bed: set_notify_resume(), an OOM kill, the task's memcg */
	unsigned kshim_notify_resume:1;
	unsigned kshim_oom_victim:1;
	unsigned kshim_kthread:1;	/* a world kernel thread: sleeps for real */
	u64 kshim_vclock_ns;		/* the world's virtual time this task used */
	unsigned long kshim_sigpending;	/* signals sent, bit sig - 1 (failfast.c) */
	struct cgroup_subsys_state *kshim_memcg_css;
	struct tb_task *kshim_tb;
	void *kshim_priv;
};
struct task_struct *kshim_current(void);
void kshim_set_current(struct task_struct *t);	/* NULL: the thread's own */
int kshim_new_pid(void);
#define current kshim_current()
#define get_current() kshim_current()

#define TASK_RUNNING 0x00000000
#define TASK_INTERRUPTIBLE 0x00000001
#define TASK_UNINTERRUPTIBLE 0x00000002
#define TASK_WAKEKILL 0x00000100
#define TASK_KILLABLE (TASK_WAKEKILL | TASK_UNINTERRUPTIBLE)
#define TASK_FREEZABLE 0x00002000
#define TASK_NORMAL (TASK_INTERRUPTIBLE | TASK_UNINTERRUPTIBLE)
#define MAX_SCHEDULE_TIMEOUT LONG_MAX
#define PF_MEMALLOC 0x00000800
#define PF_KSWAPD 0x00020000
#define PF_MEMALLOC_NOFS 0x00040000
#define PF_MEMALLOC_NOIO 0x00080000
#define PF_EXITING 0x00000004
#define PF_KTHREAD 0x00200000
#define PF_LOCAL_THROTTLE 0x00100000
#define PF_USER_WORKER 0x00004000
#define PF_IO_WORKER 0x00000010
/* the world's tasks are all SCHED_NORMAL (linux/sched/rt.h) */
static inline bool rt_or_dl_task(struct task_struct *p)
{
	return false;
}
/* its name before 6.11 */
static inline int rt_task(struct task_struct *p)
{
	return 0;
}
#define __set_current_state(s) (current->__state = (s))
#define set_current_state(s) (current->__state = (s))

#ifdef CONFIG_DEBUG_ATOMIC_SLEEP
#define might_sleep() kshim_might_sleep(__FILE__, __LINE__, __func__)
#else
/* benchmark builds: no context checks, as a kernel without the debug option */
#define might_sleep() do { } while (0)
#endif
#define might_sleep_if(cond) do { if (cond) might_sleep(); } while (0)
#define might_resched() do { } while (0)
#define cant_sleep() do { } while (0)
void kshim_cond_resched(const char *file, int line, const char *func);
#define cond_resched() ({ kshim_cond_resched(__FILE__, __LINE__, __func__); 0; })
#define cond_resched_rcu() do { } while (0)
#define cond_resched_tasks_rcu_qs() do { } while (0)
#define need_resched() 0
/* per task; the watchdog's SIGKILL reaches every task (failfast.c) */
bool kshim_signal_pending(struct task_struct *p);
bool kshim_fatal_signal_pending(struct task_struct *p);
void kshim_send_signal(struct task_struct *p, int sig);
void kshim_clear_signals(struct task_struct *p);
bool kshim_signal_wakes(unsigned int state);
#define signal_pending(p) kshim_signal_pending(p)
#define fatal_signal_pending(p) kshim_fatal_signal_pending(p)
long kshim_schedule_timeout(long timeout, const char *file, int line, const char *func);
#define schedule_timeout(t) kshim_schedule_timeout(t, __FILE__, __LINE__, __func__)
#define schedule_timeout_killable(t) schedule_timeout(t)
#define schedule_timeout_interruptible(t) schedule_timeout(t)
#define schedule_timeout_uninterruptible(t) schedule_timeout(t)
#define schedule_timeout_idle(t) schedule_timeout(t)
#define io_schedule_timeout(t) schedule_timeout(t)
void kshim_schedule(const char *file, int line, const char *func);
#define schedule() kshim_schedule(__FILE__, __LINE__, __func__)
/*
 * A world kernel thread (kswapd) really sleeps: the world runs it when it
 * is woken or its timeout passes in virtual time (kernel-shim/world/kswapd.c).
 */
extern long (*kshim_kthread_sleep)(long timeout);
extern void (*kshim_kthread_wake)(struct task_struct *t);
/* cond_resched() of a world kernel thread: the world may run others first */
extern void (*kshim_kthread_yield)(void);
/* the world's clock: a task slept this many virtual jiffies */
extern void (*kshim_sleep_hook)(long jiffies_slept);
void msleep(unsigned int msecs);
#define yield() sched_yield()
/* linux/sched/task.h */
static inline void task_lock(struct task_struct *p)
{
	spin_lock(&p->alloc_lock);
}
static inline void task_unlock(struct task_struct *p)
{
	spin_unlock(&p->alloc_lock);
}
/* linux/sched/prio.h's; the world schedules its kernel threads on virtual time, not by priority */
#define MAX_NICE 19
static inline void set_user_nice(struct task_struct *p, long nice)
{
}
#endif
