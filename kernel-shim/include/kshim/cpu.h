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
#define KSHIM_MAX_HELD 16

struct kshim_task_ctx {
	int cpu;		/* virtual CPU this thread runs on */
	int preempt;		/* preempt_disable depth (spinlocks included) */
	int irq_off;		/* local_irq_disable depth */
	int rcu;		/* rcu_read_lock depth */
	int in_irq;		/* running a simulated interrupt handler */
	bool registered;	/* liburcu reader registration */
	/*
	 * spinlocks this thread holds, most recent last: a test that fails
	 * inside a section has them released at teardown (failfast.c)
	 */
	int nr_held;
	void *held[KSHIM_MAX_HELD];
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

/* held spinlocks: beyond KSHIM_MAX_HELD nesting they are not tracked */
static inline void kshim_lock_held(void *lock)
{
	/* for failfast's release at teardown: test builds only */
	if (!IS_ENABLED(CONFIG_DEBUG_ATOMIC_SLEEP))
		return;
	if (kshim_ctx.nr_held < KSHIM_MAX_HELD)
		kshim_ctx.held[kshim_ctx.nr_held] = lock;
	kshim_ctx.nr_held++;
}

static inline void kshim_lock_dropped(void *lock)
{
	if (!IS_ENABLED(CONFIG_DEBUG_ATOMIC_SLEEP))
		return;
	int n = kshim_ctx.nr_held < KSHIM_MAX_HELD ? kshim_ctx.nr_held : KSHIM_MAX_HELD;
	int i = n - 1;

	/* usually the last one taken; unlock order may differ */
	while (i >= 0 && kshim_ctx.held[i] != lock)
		i--;
	for (; i >= 0 && i + 1 < n; i++)
		kshim_ctx.held[i] = kshim_ctx.held[i + 1];
	kshim_ctx.nr_held--;
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
