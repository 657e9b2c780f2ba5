/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_RWSEM_H
#define _KSHIM_LINUX_RWSEM_H
/*
 * rw_semaphore with the kernel's fast paths: one count word (a writer bit,
 * a waiters bit, readers above), so an uncontended down_read_trylock is
 * one compare-and-swap and up_read one atomic add, as in kernel/locking/
 * rwsem.c. A reader's trylock fails while a writer holds it or anyone
 * waits (RWSEM_READ_FAILED_MASK); waiters sleep on a mutex and condition
 * variable (kernel-shim/rwsem.c), and rwsem_is_contended() sees them.
 */
#include <pthread.h>
#include <linux/lockdep.h>
#include <linux/sched.h>

#define KSHIM_RWSEM_WRITER	1L
#define KSHIM_RWSEM_WAITERS	2L
#define KSHIM_RWSEM_READER	256L

struct rw_semaphore {
	long count;
	int waiters;		/* tasks asleep in down_read/down_write */
	pthread_mutex_t wait_lock;
	pthread_cond_t wake;
};
#define __RWSEM_INITIALIZER(name) \
	{ 0, 0, PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER }
#define DECLARE_RWSEM(name) struct rw_semaphore name = __RWSEM_INITIALIZER(name)
void kshim_init_rwsem(struct rw_semaphore *sem);
#define init_rwsem(sem) kshim_init_rwsem(sem)

void kshim_rwsem_sleep(struct rw_semaphore *sem, bool write);
void kshim_rwsem_wake(struct rw_semaphore *sem);

static inline bool kshim_down_read_trylock(struct rw_semaphore *sem)
{
	long c = __atomic_load_n(&sem->count, __ATOMIC_RELAXED);

	while (!(c & (KSHIM_RWSEM_WRITER | KSHIM_RWSEM_WAITERS)))
		if (__atomic_compare_exchange_n(&sem->count, &c, c + KSHIM_RWSEM_READER, false,
						__ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
			return true;
	return false;
}

static inline bool kshim_down_write_trylock(struct rw_semaphore *sem)
{
	long c = 0;

	return __atomic_compare_exchange_n(&sem->count, &c, KSHIM_RWSEM_WRITER, false,
					   __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

static inline void kshim_up_read(struct rw_semaphore *sem)
{
	long c = __atomic_sub_fetch(&sem->count, KSHIM_RWSEM_READER, __ATOMIC_RELEASE);

	if (unlikely(c & KSHIM_RWSEM_WAITERS))
		kshim_rwsem_wake(sem);
}

static inline void kshim_up_write(struct rw_semaphore *sem)
{
	long c = __atomic_and_fetch(&sem->count, ~KSHIM_RWSEM_WRITER, __ATOMIC_RELEASE);

	if (unlikely(c & KSHIM_RWSEM_WAITERS))
		kshim_rwsem_wake(sem);
}

#define down_read(sem) do { might_sleep();				\
	if (!kshim_down_read_trylock(sem))				\
		kshim_rwsem_sleep(sem, false); } while (0)
#define down_read_killable(sem) ({ down_read(sem); 0; })
#define down_read_trylock(sem) kshim_down_read_trylock(sem)
#define up_read(sem) kshim_up_read(sem)
#define down_write(sem) do { might_sleep();				\
	if (!kshim_down_write_trylock(sem))				\
		kshim_rwsem_sleep(sem, true); } while (0)
#define down_write_killable(sem) ({ down_write(sem); 0; })
#define down_write_trylock(sem) kshim_down_write_trylock(sem)
#define up_write(sem) kshim_up_write(sem)
#define downgrade_write(sem) do { up_write(sem); down_read(sem); } while (0)
#define rwsem_is_contended(sem) \
	((__atomic_load_n(&(sem)->count, __ATOMIC_RELAXED) & KSHIM_RWSEM_WAITERS) != 0)
#define rwsem_is_locked(sem) \
	((__atomic_load_n(&(sem)->count, __ATOMIC_RELAXED) & ~KSHIM_RWSEM_WAITERS) != 0)
#endif
