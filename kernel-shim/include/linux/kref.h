/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_KREF_H
#define _KSHIM_LINUX_KREF_H
/* A refcount with a release at zero (memory types of the memory tiers). */
#include <linux/refcount.h>

struct kref {
	refcount_t refcount;
};
static inline void kref_init(struct kref *kref)
{
	refcount_set(&kref->refcount, 1);
}
static inline unsigned int kref_read(const struct kref *kref)
{
	return refcount_read(&kref->refcount);
}
static inline void kref_get(struct kref *kref)
{
	refcount_inc(&kref->refcount);
}
static inline int kref_put(struct kref *kref, void (*release)(struct kref *kref))
{
	if (refcount_dec_and_test(&kref->refcount)) {
		release(kref);
		return 1;
	}
	return 0;
}
#endif
