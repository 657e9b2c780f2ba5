/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_SPINLOCK_H
#define _KSHIM_LINUX_SPINLOCK_H
/*
 * Spinlocks as the kernel's: one lock word taken with a compare-and-swap,
 * released with one atomic instruction, waiters spinning on it (and
 * yielding the host CPU after a while: a holder here can be descheduled,
 * a kernel one cannot); preemption off while held, so a sleep inside is a
 * reported violation. The waiters are counted in the word above the
 * locked bit, as a queued spinlock's tail says it has waiters.
 */
#include <linux/preempt.h>
#include <linux/irqflags.h>
#include <linux/lockdep.h>

/*
 * magic: set by spin_lock_init() and the static initialisers, checked at
 * each lock, as CONFIG_DEBUG_SPINLOCK's "bad magic" check: a lock in
 * zeroed memory that nobody initialised WARNs once.
 */
#define KSHIM_SPINLOCK_MAGIC 0xdead4eadU
#define KSHIM_SPIN_LOCKED 1U
#define KSHIM_SPIN_WAITER 2U
typedef struct spinlock {
	unsigned int val;
	unsigned int magic;
} spinlock_t;
typedef spinlock_t raw_spinlock_t;
#define __SPIN_LOCK_UNLOCKED(name) { 0, KSHIM_SPINLOCK_MAGIC }
#define DEFINE_SPINLOCK(x) spinlock_t x = __SPIN_LOCK_UNLOCKED(x)
#define DEFINE_RAW_SPINLOCK(x) DEFINE_SPINLOCK(x)
#define spin_lock_init(l) do { __atomic_store_n(&(l)->val, 0, __ATOMIC_RELAXED); \
	(l)->magic = KSHIM_SPINLOCK_MAGIC; } while (0)
#define raw_spin_lock_init(l) spin_lock_init(l)
void kshim_spin_bad_magic(spinlock_t *l, const char *func);
void kshim_spin_lock_slowpath(spinlock_t *l);

/*
 * ThreadSanitizer sees the lock word as a lock (its lock-order inversion
 * reports and happens-before through the lock), as it saw a pthread mutex
 */
#ifdef __SANITIZE_THREAD__
#include <sanitizer/tsan_interface.h>
#define kshim_tsan_pre_lock(l, f) __tsan_mutex_pre_lock(l, f)
#define kshim_tsan_post_lock(l, f) __tsan_mutex_post_lock(l, f, 0)
#define kshim_tsan_pre_unlock(l) __tsan_mutex_pre_unlock(l, 0)
#define kshim_tsan_post_unlock(l) __tsan_mutex_post_unlock(l, 0)
#define KSHIM_TSAN_TRY __tsan_mutex_try_lock
#define KSHIM_TSAN_TRY_FAILED (__tsan_mutex_try_lock | __tsan_mutex_try_lock_failed)
#else
#define kshim_tsan_pre_lock(l, f) do { } while (0)
#define kshim_tsan_post_lock(l, f) do { } while (0)
#define kshim_tsan_pre_unlock(l) do { } while (0)
#define kshim_tsan_post_unlock(l) do { } while (0)
#define KSHIM_TSAN_TRY 0
#define KSHIM_TSAN_TRY_FAILED 0
#endif

static inline void kshim_spin_check(spinlock_t *l, const char *func)
{
	if (!IS_ENABLED(CONFIG_DEBUG_SPINLOCK))
		return;
	if (__builtin_expect(__atomic_load_n(&l->magic, __ATOMIC_RELAXED) !=
			     KSHIM_SPINLOCK_MAGIC, 0))
		kshim_spin_bad_magic(l, func);
}

static inline bool kshim_spin_trylock_word(spinlock_t *l)
{
	unsigned int old = 0;

	return __atomic_compare_exchange_n(&l->val, &old, KSHIM_SPIN_LOCKED, false,
					   __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

static inline void spin_lock(spinlock_t *l)
{
	kshim_spin_check(l, __func__);
	preempt_disable();
	kshim_tsan_pre_lock(l, 0);
	if (__builtin_expect(!kshim_spin_trylock_word(l), 0))
		kshim_spin_lock_slowpath(l);
	kshim_tsan_post_lock(l, 0);
	kshim_lock_held(l);
}
/* the word's release, without the section's end (failfast releases both) */
static inline void kshim_spin_release(spinlock_t *l)
{
	kshim_tsan_pre_unlock(l);
	__atomic_fetch_and(&l->val, ~KSHIM_SPIN_LOCKED, __ATOMIC_RELEASE);
	kshim_tsan_post_unlock(l);
}
static inline void spin_unlock(spinlock_t *l)
{
	kshim_lock_dropped(l);
	kshim_spin_release(l);
	preempt_enable();
}
static inline int spin_trylock(spinlock_t *l)
{
	kshim_spin_check(l, __func__);
	preempt_disable();
	kshim_tsan_pre_lock(l, KSHIM_TSAN_TRY);
	if (kshim_spin_trylock_word(l)) {
		kshim_tsan_post_lock(l, KSHIM_TSAN_TRY);
		kshim_lock_held(l);
		return 1;
	}
	kshim_tsan_post_lock(l, KSHIM_TSAN_TRY_FAILED);
	preempt_enable();
	return 0;
}
static inline int spin_is_contended(spinlock_t *l)
{
	return __atomic_load_n(&l->val, __ATOMIC_RELAXED) >= KSHIM_SPIN_WAITER;
}
static inline int spin_is_locked(spinlock_t *l)
{
	return __atomic_load_n(&l->val, __ATOMIC_RELAXED) & KSHIM_SPIN_LOCKED;
}
#define spin_lock_irq(l) do { local_irq_disable(); spin_lock(l); } while (0)
#define spin_unlock_irq(l) do { spin_unlock(l); local_irq_enable(); } while (0)
#define spin_lock_irqsave(l, flags) do { local_irq_save(flags); spin_lock(l); } while (0)
#define spin_unlock_irqrestore(l, flags) do { spin_unlock(l); local_irq_restore(flags); } while (0)
#define spin_lock_bh(l) spin_lock(l)
#define spin_unlock_bh(l) spin_unlock(l)
#define spin_lock_nested(l, sub) spin_lock(l)
#define raw_spin_lock(l) spin_lock(l)
#define raw_spin_unlock(l) spin_unlock(l)
#define raw_spin_lock_irq(l) spin_lock_irq(l)
#define raw_spin_unlock_irq(l) spin_unlock_irq(l)
#define raw_spin_lock_irqsave(l, f) spin_lock_irqsave(l, f)
#define spin_trylock_irqsave(l, flags) \
	({ local_irq_save(flags); spin_trylock(l) ? 1 : ({ local_irq_restore(flags); 0; }); })
#define raw_spin_unlock_irqrestore(l, f) spin_unlock_irqrestore(l, f)
#define assert_spin_locked(l) do { (void)(l); } while (0)
/* guard(spinlock)(&lock): held to the end of the scope (linux/cleanup.h) */
#include <linux/cleanup.h>
DEFINE_LOCK_GUARD_1(spinlock, spinlock_t, spin_lock(_T->lock), spin_unlock(_T->lock))
#endif
