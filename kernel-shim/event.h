/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_EVENT_H
#define _KSHIM_EVENT_H
/*
 * The shim's own hand-offs between the world's threads (a work queued for
 * a worker, a work or an RCU batch done for a flusher): a condition over
 * state guarded by a pthread mutex, as with a condition variable, but one
 * futex word per event. A wait costs one FUTEX_WAIT and a wake-up one
 * FUTEX_WAKE, and none when nobody sleeps; glibc's condition variable
 * takes two or more of each per hand-off and re-takes the mutex marked
 * contended, so that the next unlock makes one more FUTEX_WAKE.
 */
#include <limits.h>
#include <pthread.h>
#include <time.h>
#include <stdint.h>
#include <unistd.h>
#include <linux/futex.h>
#include <sys/syscall.h>

struct kshim_event {
	uint32_t seq;		/* moved by every wake-up: the futex word */
	int waiters;		/* sleeping or about to: changed under the mutex */
};

/*
 * With *lock held and the condition found false: sleep until a wake-up
 * after this call (or a spurious one); *lock is held again on return, and
 * the caller checks its condition again.
 */
static inline void kshim_event_wait(struct kshim_event *ev, pthread_mutex_t *lock)
{
	uint32_t seq = __atomic_load_n(&ev->seq, __ATOMIC_SEQ_CST);

	__atomic_add_fetch(&ev->waiters, 1, __ATOMIC_SEQ_CST);
	pthread_mutex_unlock(lock);
	syscall(SYS_futex, &ev->seq, FUTEX_WAIT_PRIVATE, seq, NULL, NULL, 0);
	pthread_mutex_lock(lock);
	__atomic_sub_fetch(&ev->waiters, 1, __ATOMIC_SEQ_CST);
}

/* kshim_event_wait(), but back after at most ns nanoseconds without one */
static inline void kshim_event_wait_ns(struct kshim_event *ev, pthread_mutex_t *lock, long ns)
{
	uint32_t seq = __atomic_load_n(&ev->seq, __ATOMIC_SEQ_CST);
	struct timespec ts = { .tv_sec = ns / 1000000000L, .tv_nsec = ns % 1000000000L };

	__atomic_add_fetch(&ev->waiters, 1, __ATOMIC_SEQ_CST);
	pthread_mutex_unlock(lock);
	syscall(SYS_futex, &ev->seq, FUTEX_WAIT_PRIVATE, seq, &ts, NULL, 0);
	pthread_mutex_lock(lock);
	__atomic_sub_fetch(&ev->waiters, 1, __ATOMIC_SEQ_CST);
}

/*
 * After the condition changed under *lock and *lock was dropped (a waiter
 * woken would otherwise block on it at once): wake every waiter. A waiter
 * that checked the condition before the change counted itself in before
 * it unlocked, so it is seen here; one that checks after sees the change.
 */
static inline void kshim_event_wake(struct kshim_event *ev)
{
	__atomic_add_fetch(&ev->seq, 1, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&ev->waiters, __ATOMIC_SEQ_CST))
		syscall(SYS_futex, &ev->seq, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
}
#endif
