/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * percpu_ref in its atomic mode: one counter, a release callback when it
 * drops to zero after a kill, tryget_live failing once killed. The kernel
 * starts in per-CPU mode and switches to atomic on kill; the observable
 * semantics are the same, only the cost of get/put differs.
 */
#ifndef _KSHIM_LINUX_PERCPU_REFCOUNT_H
#define _KSHIM_LINUX_PERCPU_REFCOUNT_H
#include <linux/atomic.h>
#include <linux/gfp.h>
#include <linux/bug.h>

struct percpu_ref;
typedef void (percpu_ref_func_t)(struct percpu_ref *);

/* a bias keeps the count away from zero until the ref is killed */
#define KSHIM_PERCPU_REF_BIAS (1L << 40)

struct percpu_ref {
	atomic_long_t count;
	percpu_ref_func_t *release;
	bool dead;
	/* the per-CPU counter init allocates and exit frees (cpu.c) */
	unsigned long __percpu *kshim_data;
};

void kshim_percpu_ref_alloc(struct percpu_ref *ref, gfp_t gfp);
void kshim_percpu_ref_free(struct percpu_ref *ref);

#define PERCPU_REF_INIT_ATOMIC (1 << 0)
#define PERCPU_REF_INIT_DEAD (1 << 1)
#define PERCPU_REF_ALLOW_REINIT (1 << 2)

static inline int percpu_ref_init(struct percpu_ref *ref, percpu_ref_func_t *release,
				  unsigned int flags, gfp_t gfp)
{
	kshim_percpu_ref_alloc(ref, gfp);
	ref->release = release;
	ref->dead = flags & PERCPU_REF_INIT_DEAD;
	atomic_long_set(&ref->count, ref->dead ? 0 : KSHIM_PERCPU_REF_BIAS + 1);
	return 0;
}

static inline void percpu_ref_exit(struct percpu_ref *ref) { kshim_percpu_ref_free(ref); }

static inline void percpu_ref_get_many(struct percpu_ref *ref, unsigned long nr)
{
	WARN_ONCE(atomic_long_fetch_add(nr, &ref->count) <= 0,
		  "percpu_ref_get on a released ref");
}

static inline void percpu_ref_get(struct percpu_ref *ref) { percpu_ref_get_many(ref, 1); }

static inline bool percpu_ref_tryget_many(struct percpu_ref *ref, unsigned long nr)
{
	long c = atomic_long_read(&ref->count);

	do {
		if (c <= 0)
			return false;
	} while (!atomic_long_try_cmpxchg(&ref->count, &c, c + nr));
	return true;
}

static inline bool percpu_ref_tryget(struct percpu_ref *ref) { return percpu_ref_tryget_many(ref, 1); }

static inline bool percpu_ref_tryget_live(struct percpu_ref *ref)
{
	return !READ_ONCE(ref->dead) && percpu_ref_tryget(ref);
}

static inline void percpu_ref_put_many(struct percpu_ref *ref, unsigned long nr)
{
	long left = atomic_long_sub_return(nr, &ref->count);

	WARN_ONCE(left < 0, "percpu_ref underflow");
	if (left == 0)
		ref->release(ref);
}

static inline void percpu_ref_put(struct percpu_ref *ref) { percpu_ref_put_many(ref, 1); }

/*
 * As percpu_ref_kill_and_confirm(): drop the bias and the initial
 * reference; from now on the count can reach 0.
 */
static inline void percpu_ref_kill(struct percpu_ref *ref)
{
	WARN_ONCE(READ_ONCE(ref->dead), "percpu_ref_kill called more than once");
	WRITE_ONCE(ref->dead, true);
	percpu_ref_put_many(ref, KSHIM_PERCPU_REF_BIAS + 1);
}

static inline bool percpu_ref_is_dying(struct percpu_ref *ref) { return READ_ONCE(ref->dead); }

static inline bool percpu_ref_is_zero(struct percpu_ref *ref)
{
	return atomic_long_read(&ref->count) == 0;
}
#endif
