/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_PREEMPT_H
#define _KSHIM_LINUX_PREEMPT_H
#include <linux/compiler.h>
#include <kshim/cpu.h>
#define preempt_disable() kshim_preempt_inc()
#define preempt_enable() kshim_preempt_dec()
#define preempt_enable_no_resched() kshim_preempt_dec()
#define preempt_disable_notrace() kshim_preempt_inc()
#define preempt_enable_notrace() kshim_preempt_dec()
#define preempt_disable_nested() do { } while (0)
#define preempt_enable_nested() do { } while (0)
#define migrate_disable() kshim_preempt_inc()
#define migrate_enable() kshim_preempt_dec()
#define preempt_count() (kshim_ctx.preempt)
#define preemptible() (kshim_atomic_depth() == 0)
#define in_task() (!kshim_ctx.in_irq)
#define in_interrupt() (kshim_ctx.in_irq)
#define in_irq() (kshim_ctx.in_irq)
#define in_hardirq() (kshim_ctx.in_irq)
#define in_nmi() 0
#define in_atomic() (kshim_atomic_depth() != 0)
#endif
