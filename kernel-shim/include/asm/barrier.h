/* SPDX-License-Identifier: GPL-2.0-only */
/* Memory barriers as C11 fences: TSan understands these, unlike inline asm. */
#ifndef _KSHIM_ASM_BARRIER_H
#define _KSHIM_ASM_BARRIER_H

#define barrier() __asm__ __volatile__("" : : : "memory")
#define mb() __atomic_thread_fence(__ATOMIC_SEQ_CST)
#define rmb() __atomic_thread_fence(__ATOMIC_ACQUIRE)
#define wmb() __atomic_thread_fence(__ATOMIC_RELEASE)
#define smp_mb() mb()
#define smp_rmb() rmb()
#define smp_wmb() wmb()
#define smp_mb__before_atomic() smp_mb()
#define smp_mb__after_atomic() smp_mb()
#define smp_mb__after_spinlock() smp_mb()
#define smp_store_mb(var, value) do { WRITE_ONCE(var, value); smp_mb(); } while (0)
#define smp_load_acquire(p) __atomic_load_n(p, __ATOMIC_ACQUIRE)
#define smp_store_release(p, v) __atomic_store_n(p, v, __ATOMIC_RELEASE)
#define smp_acquire__after_ctrl_dep() smp_rmb()
#define virt_mb() mb()
#endif
