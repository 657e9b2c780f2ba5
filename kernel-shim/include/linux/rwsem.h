/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_RWSEM_H
#define _KSHIM_LINUX_RWSEM_H
/*
 * rw_semaphore over a writer-preferring pthread rwlock: a queued writer
 * makes down_read_trylock fail, like the kernel's RWSEM_READ_FAILED_MASK.
 */
#include <pthread.h>
#include <linux/lockdep.h>
#include <linux/sched.h>

struct rw_semaphore {
	pthread_rwlock_t l;
	int waiters;	/* tasks blocked in down_read/down_write */
};
/* glibc names the writer-preferring initializer only under _GNU_SOURCE */
#ifndef PTHREAD_RWLOCK_WRITER_NONRECURSIVE_INITIALIZER_NP
#define PTHREAD_RWLOCK_WRITER_NONRECURSIVE_INITIALIZER_NP \
	{ { __PTHREAD_RWLOCK_INITIALIZER(PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP) } }
#endif
#define __RWSEM_INITIALIZER(name) { PTHREAD_RWLOCK_WRITER_NONRECURSIVE_INITIALIZER_NP, 0 }
#define DECLARE_RWSEM(name) struct rw_semaphore name = __RWSEM_INITIALIZER(name)
void kshim_init_rwsem(struct rw_semaphore *sem);
#define init_rwsem(sem) kshim_init_rwsem(sem)
/* a task that has to wait is counted, so rwsem_is_contended() sees it */
#define kshim_rwsem_wait(sem, try, lock) do {					\
	if (try(&(sem)->l)) {							\
		__atomic_fetch_add(&(sem)->waiters, 1, __ATOMIC_RELAXED);	\
		lock(&(sem)->l);						\
		__atomic_fetch_sub(&(sem)->waiters, 1, __ATOMIC_RELAXED);	\
	}									\
} while (0)
#define rwsem_is_contended(sem) (__atomic_load_n(&(sem)->waiters, __ATOMIC_RELAXED) != 0)
#define down_read(sem) do { might_sleep();						\
	kshim_rwsem_wait(sem, pthread_rwlock_tryrdlock, pthread_rwlock_rdlock); } while (0)
#define down_read_killable(sem) ({ down_read(sem); 0; })
#define down_read_trylock(sem) (pthread_rwlock_tryrdlock(&(sem)->l) == 0)
#define up_read(sem) pthread_rwlock_unlock(&(sem)->l)
#define down_write(sem) do { might_sleep();						\
	kshim_rwsem_wait(sem, pthread_rwlock_trywrlock, pthread_rwlock_wrlock); } while (0)
#define down_write_killable(sem) ({ down_write(sem); 0; })
#define down_write_trylock(sem) (pthread_rwlock_trywrlock(&(sem)->l) == 0)
#define up_write(sem) pthread_rwlock_unlock(&(sem)->l)
#define downgrade_write(sem) do { up_write(sem); down_read(sem); } while (0)
#define rwsem_is_locked(sem) ({ int __busy = pthread_rwlock_trywrlock(&(sem)->l); \
	if (!__busy) pthread_rwlock_unlock(&(sem)->l); __busy != 0; })
#endif
