/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_MUTEX_H
#define _KSHIM_LINUX_MUTEX_H
/* Sleeping mutex: mutex_lock is a might_sleep() point, as in the kernel. */
#include <pthread.h>
#include <linux/lockdep.h>
#include <linux/sched.h>

struct mutex {
	pthread_mutex_t m;
};
#define __MUTEX_INITIALIZER(name) { PTHREAD_MUTEX_INITIALIZER }
#define DEFINE_MUTEX(name) struct mutex name = __MUTEX_INITIALIZER(name)
#define mutex_init(l) pthread_mutex_init(&(l)->m, NULL)
#define mutex_destroy(l) pthread_mutex_destroy(&(l)->m)
#define mutex_lock(l) do { might_sleep(); pthread_mutex_lock(&(l)->m); } while (0)
#define mutex_lock_nested(l, sub) mutex_lock(l)
#define mutex_lock_interruptible(l) ({ mutex_lock(l); 0; })
#define mutex_lock_killable(l) ({ mutex_lock(l); 0; })
#define mutex_trylock(l) (pthread_mutex_trylock(&(l)->m) == 0)
#define mutex_unlock(l) pthread_mutex_unlock(&(l)->m)
static inline bool mutex_is_locked(struct mutex *l)
{
	if (pthread_mutex_trylock(&l->m))
		return true;
	pthread_mutex_unlock(&l->m);
	return false;
}
#endif
