/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_LOCAL_LOCK_H
#define _KSHIM_LINUX_LOCAL_LOCK_H
/* !PREEMPT_RT local locks: preemption (and irqs) off on this CPU. */
#include <linux/percpu.h>
#include <linux/irqflags.h>
typedef struct {
	int owner_cpu;
} local_lock_t;
typedef local_lock_t local_trylock_t;
#define INIT_LOCAL_LOCK(lockname) { 0 }
#define local_lock_init(l) do { (void)(l); } while (0)
#define local_lock(l) do { (void)(l); preempt_disable(); } while (0)
#define local_unlock(l) do { (void)(l); preempt_enable(); } while (0)
#define local_lock_irq(l) do { (void)(l); local_irq_disable(); } while (0)
#define local_unlock_irq(l) do { (void)(l); local_irq_enable(); } while (0)
#define local_lock_irqsave(l, flags) do { (void)(l); local_irq_save(flags); } while (0)
#define local_unlock_irqrestore(l, flags) do { (void)(l); local_irq_restore(flags); } while (0)
#define local_lock_nested_bh(l) do { (void)(l); } while (0)
/*
 * 6.15's trylock: it fails only when this CPU holds the lock, which on a
 * CPU whose section is non-preemptible and takes no interrupts is never
 */
#define INIT_LOCAL_TRYLOCK(lockname) { 0 }
#define local_trylock_init(l) do { (void)(l); } while (0)
#define local_trylock(l) ({ (void)(l); preempt_disable(); true; })
#define local_trylock_irqsave(l, flags) ({ (void)(l); local_irq_save(flags); true; })
#define local_unlock_nested_bh(l) do { (void)(l); } while (0)
#endif
