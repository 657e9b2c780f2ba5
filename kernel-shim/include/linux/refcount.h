/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_REFCOUNT_H
#define _KSHIM_LINUX_REFCOUNT_H
/* refcount_t with the kernel's saturation WARNs: a use-after-free shows. */
#include <linux/atomic.h>
#include <linux/bug.h>

typedef struct refcount_struct {
	atomic_t refs;
} refcount_t;
#define REFCOUNT_INIT(n) { .refs = ATOMIC_INIT(n) }

static inline void refcount_set(refcount_t *r, int n) { atomic_set(&r->refs, n); }
static inline unsigned int refcount_read(const refcount_t *r) { return atomic_read(&r->refs); }
static inline bool refcount_inc_not_zero(refcount_t *r)
{
	int old = atomic_read(&r->refs);

	do {
		if (!old)
			return false;
	} while (!atomic_try_cmpxchg(&r->refs, &old, old + 1));
	WARN_ONCE(old < 0, "refcount_t: saturated");
	return true;
}
static inline bool refcount_add_not_zero(int i, refcount_t *r)
{
	int old = atomic_read(&r->refs);

	do {
		if (!old)
			return false;
	} while (!atomic_try_cmpxchg(&r->refs, &old, old + i));
	WARN_ONCE(old < 0 || old + i < 0, "refcount_t: saturated");
	return true;
}
static inline void refcount_inc(refcount_t *r)
{
	int old = atomic_fetch_add(1, &r->refs);

	WARN_ONCE(old <= 0, "refcount_t: addition on 0; use-after-free.");
}
static inline void refcount_add(int i, refcount_t *r)
{
	int old = atomic_fetch_add(i, &r->refs);

	WARN_ONCE(old <= 0, "refcount_t: addition on 0; use-after-free.");
}
static inline bool refcount_sub_and_test(int i, refcount_t *r)
{
	int old = atomic_fetch_sub(i, &r->refs);

	if (old == i)
		return true;
	WARN_ONCE(old < i, "refcount_t: underflow; use-after-free.");
	return false;
}
static inline bool refcount_dec_and_test(refcount_t *r) { return refcount_sub_and_test(1, r); }
static inline void refcount_dec(refcount_t *r)
{
	WARN_ONCE(atomic_fetch_sub(1, &r->refs) <= 1, "refcount_t: decrement hit 0; leaking memory.");
}
#endif
