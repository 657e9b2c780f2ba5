/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_MUTEX_H
#define _KSHIM_LINUX_MUTEX_H
/* Sleeping mutex: mutex_lock is a might_sleep() point, as in the kernel. */
#include <pthread.h>
#include <linux/lockdep.h>
#include <linux/sched.h>

/*
 * owner: the holding thread (0: free), as the kernel's mutex owner field;
 * only the owner may unlock (the kernel's DEBUG_MUTEXES check), and
 * lockdep_assert_held() asks it.
 */
struct mutex {
	pthread_mutex_t m;
	unsigned long owner;
};
#define __MUTEX_INITIALIZER(name) { PTHREAD_MUTEX_INITIALIZER, 0 }
#define DEFINE_MUTEX(name) struct mutex name = __MUTEX_INITIALIZER(name)
#define mutex_init(l) do { pthread_mutex_init(&(l)->m, NULL); (l)->owner = 0; } while (0)
#define mutex_destroy(l) pthread_mutex_destroy(&(l)->m)
static inline void kshim_mutex_acquired(struct mutex *l)
{
	__atomic_store_n(&l->owner, (unsigned long)pthread_self(), __ATOMIC_RELAXED);
}
#define mutex_lock(l) do { might_sleep(); pthread_mutex_lock(&(l)->m); \
	kshim_mutex_acquired(l); } while (0)
#define mutex_lock_nested(l, sub) mutex_lock(l)
#define mutex_lock_interruptible(l) ({ mutex_lock(l); 0; })
#define mutex_lock_killable(l) ({ mutex_lock(l); 0; })
#define mutex_trylock(l) ({ bool __locked = pthread_mutex_trylock(&(l)->m) == 0; \
	if (__locked) \
		kshim_mutex_acquired(l); \
	__locked; })
void kshim_mutex_unlock(struct mutex *l, const char *file, int line, const char *func);
#define mutex_unlock(l) kshim_mutex_unlock(l, __FILE__, __LINE__, __func__)
static inline bool mutex_is_locked(struct mutex *l)
{
	if (pthread_mutex_trylock(&l->m))
		return true;
	pthread_mutex_unlock(&l->m);
	return false;
}
#include <linux/cleanup.h>
DEFINE_GUARD(mutex, struct mutex *, mutex_lock(_T), mutex_unlock(_T))
#endif
