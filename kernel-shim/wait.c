// SPDX-License-Identifier: GPL-2.0-only
/* Wait queues: see linux/wait.h for the virtual-time model. */
#include <linux/wait.h>
#include <kshim/report.h>

void init_waitqueue_head(struct wait_queue_head *wq_head)
{
	spin_lock_init(&wq_head->lock);
	INIT_LIST_HEAD(&wq_head->head);
}

int autoremove_wake_function(struct wait_queue_entry *wq_entry, unsigned int mode,
			     int sync, void *key)
{
	struct task_struct *t = wq_entry->private;

	wq_entry->flags |= WQ_FLAG_WOKEN;
	list_del_init(&wq_entry->entry);
	if (t) {
		t->__state = TASK_RUNNING;
		if (t->kshim_kthread && kshim_kthread_wake)
			kshim_kthread_wake(t);
	}
	return 1;
}

void prepare_to_wait(struct wait_queue_head *wq_head, struct wait_queue_entry *wq_entry,
		     int state)
{
	spin_lock(&wq_head->lock);
	wq_entry->flags &= ~WQ_FLAG_EXCLUSIVE;
	if (list_empty(&wq_entry->entry))
		list_add(&wq_entry->entry, &wq_head->head);
	set_current_state(state);
	spin_unlock(&wq_head->lock);
}

/* kernel/sched/wait.c's: an entry on the queue (a waiter that sleeps on its own) */
void add_wait_queue(struct wait_queue_head *wq_head, struct wait_queue_entry *wq_entry)
{
	spin_lock(&wq_head->lock);
	wq_entry->flags &= ~WQ_FLAG_EXCLUSIVE;
	list_add(&wq_entry->entry, &wq_head->head);
	spin_unlock(&wq_head->lock);
}

void remove_wait_queue(struct wait_queue_head *wq_head, struct wait_queue_entry *wq_entry)
{
	spin_lock(&wq_head->lock);
	list_del_init(&wq_entry->entry);
	spin_unlock(&wq_head->lock);
}

void finish_wait(struct wait_queue_head *wq_head, struct wait_queue_entry *wq_entry)
{
	__set_current_state(TASK_RUNNING);
	spin_lock(&wq_head->lock);
	if (!list_empty(&wq_entry->entry))
		list_del_init(&wq_entry->entry);
	spin_unlock(&wq_head->lock);
}

void __wake_up(struct wait_queue_head *wq_head, unsigned int mode, int nr, void *key)
{
	struct wait_queue_entry *curr, *next;

	spin_lock(&wq_head->lock);
	list_for_each_entry_safe(curr, next, &wq_head->head, entry) {
		unsigned int flags = curr->flags;

		if (curr->func(curr, mode, 0, key) && (flags & WQ_FLAG_EXCLUSIVE) && !--nr)
			break;
	}
	spin_unlock(&wq_head->lock);
}

void kshim_wait_event_stuck(const char *file, int line, const char *func, const char *cond)
{
	fprintf(stderr, "kshim: wait_event(%s) still false after %d virtual seconds\n",
		cond, KSHIM_WAIT_EVENT_LIMIT / HZ);
	kshim_bug(file, line, func);
}
