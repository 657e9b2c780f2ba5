/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_NOTIFIER_H
#define _KSHIM_LINUX_NOTIFIER_H
/*
 * Notifier chains, called in priority order as kernel/notifier.c does
 * (a blocking chain under its lock; none of the world's sleeps inside).
 */
#include <linux/types.h>
#include <linux/mutex.h>
#include <linux/errno.h>

struct notifier_block;
typedef int (*notifier_fn_t)(struct notifier_block *nb, unsigned long action, void *data);
struct notifier_block {
	notifier_fn_t notifier_call;
	struct notifier_block *next;
	int priority;
};
struct blocking_notifier_head {
	struct mutex lock;
	struct notifier_block *head;
};
#define BLOCKING_NOTIFIER_HEAD(name) \
	struct blocking_notifier_head name = { __MUTEX_INITIALIZER(name.lock), NULL }

#define NOTIFY_DONE		0x0000
#define NOTIFY_OK		0x0001
#define NOTIFY_STOP_MASK	0x8000
#define NOTIFY_BAD		(NOTIFY_STOP_MASK | 0x0002)
#define NOTIFY_STOP		(NOTIFY_OK | NOTIFY_STOP_MASK)

static inline int notifier_from_errno(int err)
{
	return err ? NOTIFY_STOP_MASK | (NOTIFY_OK - err) : NOTIFY_OK;
}

int blocking_notifier_chain_register(struct blocking_notifier_head *nh,
				     struct notifier_block *nb);
int blocking_notifier_chain_unregister(struct blocking_notifier_head *nh,
				       struct notifier_block *nb);
int blocking_notifier_call_chain(struct blocking_notifier_head *nh,
				 unsigned long val, void *v);
#endif
