/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Virtual CPUs. A thread runs on one virtual CPU (kshim_cpu_enter); several
 * threads may share one. A non-preemptible section (preempt_disable, irq
 * off, local_lock, spinlock) owns its CPU, so two tasks on one CPU never
 * interleave inside one, exactly what per-CPU code relies on.
 */
#ifndef _KSHIM_CPU_H
#define _KSHIM_CPU_H
#include <stdbool.h>

#define KSHIM_MAX_CPUS CONFIG_NR_CPUS

struct kshim_task_ctx {
	int cpu;		/* virtual CPU this thread runs on */
	int preempt;		/* preempt_disable depth (spinlocks included) */
	int irq_off;		/* local_irq_disable depth */
	int rcu;		/* rcu_read_lock depth */
	int in_irq;		/* running a simulated interrupt handler */
	bool registered;	/* liburcu reader registration */
};

extern __thread struct kshim_task_ctx kshim_ctx;
extern unsigned int kshim_nr_cpus;

void kshim_cpu_own(void);	/* first entry into a non-preemptible section */
void kshim_cpu_release(void);	/* last exit */
void kshim_might_sleep(const char *file, int line, const char *func);

static inline int kshim_atomic_depth(void)
{
	return kshim_ctx.preempt + kshim_ctx.irq_off;
}

static inline void kshim_preempt_inc(void)
{
	if (kshim_atomic_depth() == 0)
		kshim_cpu_own();
	kshim_ctx.preempt++;
}

static inline void kshim_preempt_dec(void)
{
	kshim_ctx.preempt--;
	if (kshim_atomic_depth() == 0)
		kshim_cpu_release();
}

static inline void kshim_irq_off(void)
{
	if (kshim_atomic_depth() == 0)
		kshim_cpu_own();
	kshim_ctx.irq_off++;
}

static inline void kshim_irq_on(void)
{
	kshim_ctx.irq_off--;
	if (kshim_atomic_depth() == 0)
		kshim_cpu_release();
}

#endif
