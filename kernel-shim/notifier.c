// SPDX-License-Identifier: GPL-2.0-only
/* Blocking notifier chains: kept in priority order, called in turn. */
#include <linux/notifier.h>

int blocking_notifier_chain_register(struct blocking_notifier_head *nh,
				     struct notifier_block *nb)
{
	struct notifier_block **p;

	mutex_lock(&nh->lock);
	for (p = &nh->head; *p && (*p)->priority >= nb->priority; p = &(*p)->next)
		if (*p == nb)
			break;
	if (*p != nb) {
		nb->next = *p;
		*p = nb;
	}
	mutex_unlock(&nh->lock);
	return 0;
}

int blocking_notifier_chain_unregister(struct blocking_notifier_head *nh,
				       struct notifier_block *nb)
{
	struct notifier_block **p;
	int ret = -ENOENT;

	mutex_lock(&nh->lock);
	for (p = &nh->head; *p; p = &(*p)->next) {
		if (*p == nb) {
			*p = nb->next;
			ret = 0;
			break;
		}
	}
	mutex_unlock(&nh->lock);
	return ret;
}

int blocking_notifier_call_chain(struct blocking_notifier_head *nh,
				 unsigned long val, void *v)
{
	struct notifier_block *nb;
	int ret = NOTIFY_DONE;

	mutex_lock(&nh->lock);
	for (nb = nh->head; nb; nb = nb->next) {
		ret = nb->notifier_call(nb, val, v);
		if (ret & NOTIFY_STOP_MASK)
			break;
	}
	mutex_unlock(&nh->lock);
	return ret;
}
