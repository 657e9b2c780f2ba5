// SPDX-License-Identifier: GPL-2.0-only
/*
 * The shim's primitives one at a time, PRIM_N per call of a prim_* loop,
 * in the build they are measured in: the release preset's TB_KERNEL_COST
 * build, where they stand in for the kernel's on the benchmarks' hot
 * paths. tools/tb bench counts each loop's instructions (callgrind) and
 * divides by PRIM_N; the README sets them beside the kernel's.
 */
#include <linux/kernel.h>
#include <linux/atomic.h>
#include <linux/bitmap.h>
#include <linux/idr.h>
#include <linux/jiffies.h>
#include <linux/local_lock.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/percpu-refcount.h>
#include <linux/rcupdate.h>
#include <linux/refcount.h>
#include <linux/rwsem.h>
#include <linux/sched.h>
#include <linux/spinlock.h>
#include <trace/events/vmscan.h>
#include <kshim/testbed.h>
#include "prim_ops.h"

#define NR_IDS 4001	/* seed 003's shrinkers: one per memcg's mount */

static DEFINE_SPINLOCK(spin);
static DEFINE_MUTEX(mtx);
static DECLARE_RWSEM(sem);
static atomic_long_t counter;
static refcount_t ref;
static struct percpu_ref pref;
static DEFINE_PER_CPU(long, pcpu_count);
static DEFINE_PER_CPU(local_lock_t, llock) = INIT_LOCAL_LOCK(llock);
static DEFINE_IDR(idr);
static unsigned long one_word;
static unsigned long sink;
static int ids[NR_IDS];

static void pref_release(struct percpu_ref *r)
{
}

void prim_setup(void)
{
	int i;

	kshim_world_boot(NULL);
	kshim_thread_enter(0);
	refcount_set(&ref, 1);
	percpu_ref_init(&pref, pref_release, 0, GFP_KERNEL);
	for (i = 0; i < NR_IDS; i++)
		ids[i] = idr_alloc(&idr, &ids[i], 0, 0, GFP_KERNEL);
	one_word = 1UL << 63;
}

void prim_teardown(void)
{
	idr_destroy(&idr);
	percpu_ref_exit(&pref);
	kshim_world_teardown();
}

/* each loop body is one primitive (or a lock/unlock pair) */
#define PRIM_LOOP(name, body)						\
static noinline void prim_##name(void)					\
{									\
	int i;								\
									\
	for (i = 0; i < PRIM_N; i++) {					\
		body;							\
		barrier();						\
	}								\
}

PRIM_LOOP(rcu_read_lock_unlock, { rcu_read_lock(); rcu_read_unlock(); })
PRIM_LOOP(preempt_disable_enable, { preempt_disable(); preempt_enable(); })
PRIM_LOOP(local_lock_unlock, { local_lock(&llock); local_unlock(&llock); })
PRIM_LOOP(spin_lock_unlock, { spin_lock(&spin); spin_unlock(&spin); })
PRIM_LOOP(mutex_lock_unlock, { mutex_lock(&mtx); mutex_unlock(&mtx); })
PRIM_LOOP(down_read_trylock_up_read, { if (down_read_trylock(&sem)) up_read(&sem); })
PRIM_LOOP(atomic_long_inc, atomic_long_inc(&counter))
PRIM_LOOP(refcount_inc_dec, { refcount_inc(&ref); refcount_dec(&ref); })
PRIM_LOOP(percpu_ref_tryget_put, { if (percpu_ref_tryget(&pref)) percpu_ref_put(&pref); })
PRIM_LOOP(this_cpu_add, this_cpu_add(pcpu_count, 1))
PRIM_LOOP(find_next_bit_one_word, {
	unsigned long w = one_word;

	/* the word is opaque: no hoisting of the search out of the loop */
	asm volatile("" : "+r"(w));
	sink += find_next_bit(&w, BITS_PER_LONG, 0);
})
PRIM_LOOP(idr_find, sink += (unsigned long)idr_find(&idr, (i * 97) % NR_IDS))
PRIM_LOOP(jiffies_read, sink += READ_ONCE(jiffies))
PRIM_LOOP(cond_resched, cond_resched())
PRIM_LOOP(tracepoint_off, trace_mm_shrink_slab_end(NULL, 0, 0, 0, 0, 0))

static const struct {
	const char *name;
	void (*run)(void);
} prims[] = {
#define P(n) { #n, prim_##n }
	P(rcu_read_lock_unlock), P(preempt_disable_enable), P(local_lock_unlock),
	P(spin_lock_unlock), P(mutex_lock_unlock), P(down_read_trylock_up_read),
	P(atomic_long_inc), P(refcount_inc_dec), P(percpu_ref_tryget_put), P(this_cpu_add),
	P(find_next_bit_one_word), P(idr_find), P(jiffies_read), P(cond_resched),
	P(tracepoint_off),
#undef P
};

const char *prim_name(unsigned int i)
{
	return i < ARRAY_SIZE(prims) ? prims[i].name : NULL;
}

void prim_run(unsigned int i)
{
	prims[i].run();
}
