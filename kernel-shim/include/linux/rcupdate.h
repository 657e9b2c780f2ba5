/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_RCUPDATE_H
#define _KSHIM_LINUX_RCUPDATE_H
/*
 * Kernel RCU on liburcu's memb flavour: real grace periods, so the kernel
 * code's use-after-free windows are exercised, not hidden. Reader depth is
 * tracked per thread for might_sleep().
 */
#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/bug.h>
#include <kshim/cpu.h>

void kshim_rcu_read_lock(void);
void kshim_rcu_read_unlock(void);
int kshim_rcu_depth(void);
void kshim_rcu_release_all(void);
void kshim_synchronize_rcu(const char *file, int line, const char *func);
void kshim_call_rcu(struct rcu_head *head, rcu_callback_t func);
void kshim_rcu_barrier(void);
void kshim_kvfree_rcu(void *ptr, struct rcu_head *head);
void kshim_kvfree_rcu_mightsleep(void *ptr, const char *file, int line, const char *func);

#ifdef CONFIG_PROVE_RCU
/* test builds: the depth is tracked so might_sleep() in a reader is caught */
#define rcu_read_lock() kshim_rcu_read_lock()
#define rcu_read_unlock() kshim_rcu_read_unlock()
#define rcu_read_lock_held() (kshim_ctx.rcu > 0)
#else
/*
 * Benchmark builds follow CONFIG_PREEMPT_RCU without lockdep (Debian's
 * PREEMPT_DYNAMIC kernels): the kernel's reader bumps a nesting count in
 * task_struct and checks a flag on the way out. liburcu memb's reader,
 * inlined, does the same with a per-thread counter (a grace-period
 * snapshot at the outermost level) and a waiter check on the way out
 * (liburcu's static inline reader: kshim/core.h).
 */
#define rcu_read_lock() _urcu_memb_read_lock()
#define rcu_read_unlock() _urcu_memb_read_unlock()
#define rcu_read_lock_held() (!!_urcu_memb_read_ongoing())
#endif
#define rcu_read_lock_sched() preempt_disable()
#define rcu_read_unlock_sched() preempt_enable()
#define rcu_read_lock_bh() rcu_read_lock()
#define rcu_read_unlock_bh() rcu_read_unlock()
#define synchronize_rcu() kshim_synchronize_rcu(__FILE__, __LINE__, __func__)
#define synchronize_rcu_expedited() synchronize_rcu()
#define call_rcu(head, func) kshim_call_rcu(head, func)
#define rcu_barrier() kshim_rcu_barrier()
#define rcu_read_lock_any_held() (rcu_read_lock_held() || kshim_atomic_depth() > 0)
#define rcu_read_lock_sched_held() (kshim_atomic_depth() > 0)

/* acquire, not consume: compilers promote it anyway and TSan models it */
#define rcu_dereference_raw(p) __atomic_load_n(&(p), __ATOMIC_ACQUIRE)
#define rcu_dereference_check(p, c) rcu_dereference_raw(p)
#define rcu_dereference(p) rcu_dereference_raw(p)
/*
 * CONFIG_PROVE_RCU: a protected dereference whose condition is false is
 * "suspicious rcu_dereference_protected() usage"; lockdep_is_held() is 1
 * here, so only a condition false by itself (a literal false) fires.
 */
#define rcu_dereference_protected(p, c) ({					\
	WARN_ONCE(!(c), "suspicious rcu_dereference_protected() usage");	\
	rcu_dereference_raw(p); })
#define rcu_dereference_sched(p) rcu_dereference_raw(p)
#define rcu_dereference_bh(p) rcu_dereference_raw(p)
#define rcu_access_pointer(p) READ_ONCE(p)
#define rcu_assign_pointer(p, v) __atomic_store_n(&(p), (v), __ATOMIC_RELEASE)
#define RCU_INIT_POINTER(p, v) WRITE_ONCE(p, v)
#define RCU_INITIALIZER(v) (v)
#define rcu_replace_pointer(rcu_ptr, ptr, c) ({ __typeof__(ptr) __tmp = rcu_dereference_protected((rcu_ptr), (c)); \
	rcu_assign_pointer((rcu_ptr), (ptr)); __tmp; })
#define unrcu_pointer(p) (p)
#define RCU_LOCKDEP_WARN(c, s) do { } while (0)
#define rcu_sleep_check() do { } while (0)
#define rcu_head_init(h) do { } while (0)

/* kfree_rcu/kvfree_rcu: one grace period, then kvfree of the object. */
/* as the kernel's: ptr is evaluated once, and NULL is a no-op */
#define kvfree_rcu(ptr, rhf) do { __typeof__(ptr) ___p = (ptr);		\
	if (___p)							\
		kshim_kvfree_rcu(___p, &___p->rhf);			\
} while (0)
#define kfree_rcu(ptr, rhf) kvfree_rcu(ptr, rhf)
#define kvfree_rcu_mightsleep(ptr) kshim_kvfree_rcu_mightsleep((ptr), __FILE__, __LINE__, __func__)
#define kfree_rcu_mightsleep(ptr) kvfree_rcu_mightsleep(ptr)

/* guard(rcu)(): a read-side section for the rest of the scope */
#include <linux/cleanup.h>
DEFINE_LOCK_GUARD_0(rcu, rcu_read_lock(), rcu_read_unlock())
#endif
