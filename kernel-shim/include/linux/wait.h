/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_WAIT_H
#define _KSHIM_LINUX_WAIT_H
/*
 * Wait queues on virtual time. A waiter sleeps with schedule_timeout(),
 * which advances virtual jiffies (and lets the world's kernel threads run
 * meanwhile); a wake_up() removes the entries it wakes (autoremove, as
 * DEFINE_WAIT's) and marks them woken. A wait_event*() whose condition
 * never comes true fails the test (kshim_bug) instead of spinning forever
 * (DESIGN, principle 4).
 */
#include <linux/list.h>
#include <linux/spinlock.h>
#include <linux/sched.h>

/* the types, DEFINE_WAIT and waitqueue_active() are the kernel's */
#include <kgen/wait.h>

void init_waitqueue_head(struct wait_queue_head *wq_head);
void prepare_to_wait(struct wait_queue_head *wq_head, struct wait_queue_entry *wq_entry,
		     int state);
void finish_wait(struct wait_queue_head *wq_head, struct wait_queue_entry *wq_entry);
void add_wait_queue(struct wait_queue_head *wq_head, struct wait_queue_entry *wq_entry);
void remove_wait_queue(struct wait_queue_head *wq_head, struct wait_queue_entry *wq_entry);
void __wake_up(struct wait_queue_head *wq_head, unsigned int mode, int nr, void *key);
#define wake_up(x) __wake_up(x, TASK_NORMAL, 1, NULL)
#define wake_up_all(x) __wake_up(x, TASK_NORMAL, 0, NULL)
#define wake_up_interruptible(x) __wake_up(x, TASK_INTERRUPTIBLE, 1, NULL)
#define wake_up_interruptible_all(x) __wake_up(x, TASK_INTERRUPTIBLE, 0, NULL)

/* the longest a wait_event*() may sleep, in virtual jiffies, before it fails */
#define KSHIM_WAIT_EVENT_LIMIT (600 * HZ)
void kshim_wait_event_stuck(const char *file, int line, const char *func, const char *cond);

/*
 * The waiter is on wq_head while it sleeps (waitqueue_active() sees it, a
 * wake_up() takes it off) and looks at condition again every jiffy, as
 * ___wait_event() does after each wake-up.
 */
#define __kshim_wait_event(wq_head, condition, timeout, state)		\
({										\
	long __left = (timeout), __waited = 0;					\
	bool __sig = false;							\
	DEFINE_WAIT(__wait);							\
	for (;;) {								\
		prepare_to_wait(&(wq_head), &__wait, (state));			\
		if ((condition) || __left <= 0)					\
			break;							\
		if (kshim_signal_wakes(state)) {				\
			__sig = true;						\
			break;							\
		}								\
		schedule_timeout(1);						\
		__left--;							\
		if (++__waited > KSHIM_WAIT_EVENT_LIMIT) {			\
			kshim_wait_event_stuck(__FILE__, __LINE__, __func__,	\
					       #condition);			\
			break;							\
		}								\
	}									\
	finish_wait(&(wq_head), &__wait);					\
	__sig ? -ERESTARTSYS : (condition) ? (__left ? __left : 1) : 0;	\
})
#define wait_event_interruptible_timeout(wq_head, condition, timeout)		\
	__kshim_wait_event(wq_head, condition, (long)(timeout), TASK_INTERRUPTIBLE)
#define wait_event_timeout(wq_head, condition, timeout)			\
	__kshim_wait_event(wq_head, condition, (long)(timeout), TASK_UNINTERRUPTIBLE)
#define wait_event_killable(wq_head, condition)				\
	({ long __r = __kshim_wait_event(wq_head, condition, LONG_MAX, TASK_KILLABLE);	\
	   __r < 0 ? (int)__r : 0; })
#define wait_event(wq_head, condition)						\
	do { __kshim_wait_event(wq_head, condition, LONG_MAX, TASK_UNINTERRUPTIBLE); } while (0)

/*
 * A kernel thread's freezable wait (nothing is frozen here): it sleeps
 * until a wake_up() or the timeout, as ___wait_event()'s schedule() does,
 * and the world runs it again then (kernel-shim/world/kswapd.c); what is
 * left of the timeout, at least 1, once condition holds, else 0
 */
#define __kshim_wait_event_sleep(wq_head, condition, timeout)			\
({										\
	long __left = (timeout);						\
	DEFINE_WAIT(__wait);							\
	for (;;) {								\
		prepare_to_wait(&(wq_head), &__wait, TASK_INTERRUPTIBLE);	\
		if ((condition) || __left <= 0)					\
			break;							\
		__left = schedule_timeout(__left);				\
	}									\
	finish_wait(&(wq_head), &__wait);					\
	(condition) ? (__left > 0 ? __left : 1) : 0;				\
})
#define wait_event_freezable_timeout(wq_head, condition, timeout)		\
	__kshim_wait_event_sleep(wq_head, condition, (long)(timeout))
#define wait_event_freezable(wq_head, condition)				\
	({ __kshim_wait_event_sleep(wq_head, condition, LONG_MAX); 0; })
#endif
