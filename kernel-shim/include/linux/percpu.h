/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_PERCPU_H
#define _KSHIM_LINUX_PERCPU_H
/*
 * Per-CPU data over virtual CPUs. DEFINE_PER_CPU variables live in section
 * "kshim_percpu" (the template); each CPU gets a copy at boot. Dynamic
 * areas (alloc_percpu) are placed so that CPU c's copy of p is at
 * p + c * KSHIM_PCPU_UNIT, zeroed, and counted so leaks show.
 *
 * Each module has a section of its own: the executable, and in the plain
 * test build each kernel library, a shared object (kernel-shim/percpu_module.c).
 * Its bounds and its copies' offsets are hidden symbols, so the code of a
 * module finds its own variables' copies.
 */
#include <linux/types.h>
#include <linux/preempt.h>
#include <linux/smp.h>
#include <linux/gfp.h>

#define KSHIM_PCPU_UNIT (1UL << 26)
extern char __start_kshim_percpu[] __attribute__((__visibility__("hidden")));
extern char __stop_kshim_percpu[] __attribute__((__visibility__("hidden")));
extern long kshim_pcpu_static_off[KSHIM_MAX_CPUS] __attribute__((__visibility__("hidden")));
/* a shared object's section, its copies' offsets filled in at each boot */
void kshim_percpu_module(char *start, char *stop, long *off);
extern char *kshim_pcpu_dyn_base;

static inline void *kshim_pcpu_ptr(const void *p, int cpu)
{
	const char *c = (const char *)p;

	if (c >= __start_kshim_percpu && c < __stop_kshim_percpu)
		return (char *)c + kshim_pcpu_static_off[cpu];
	return (char *)c + (unsigned long)cpu * KSHIM_PCPU_UNIT;
}

#define DEFINE_PER_CPU(type, name) \
	__attribute__((__section__("kshim_percpu"), __used__)) __typeof__(type) name
#define DEFINE_PER_CPU_ALIGNED(type, name) DEFINE_PER_CPU(type, name)
#define DEFINE_PER_CPU_SHARED_ALIGNED(type, name) DEFINE_PER_CPU(type, name)
#define DECLARE_PER_CPU(type, name) extern __typeof__(type) name
#define per_cpu_ptr(ptr, cpu) ((__typeof__(ptr))kshim_pcpu_ptr((ptr), (cpu)))
#define per_cpu(var, cpu) (*per_cpu_ptr(&(var), cpu))
#define this_cpu_ptr(ptr) per_cpu_ptr(ptr, smp_processor_id())
#define raw_cpu_ptr(ptr) this_cpu_ptr(ptr)
#define get_cpu_ptr(ptr) ({ preempt_disable(); this_cpu_ptr(ptr); })
#define put_cpu_ptr(ptr) do { (void)(ptr); preempt_enable(); } while (0)
#define get_cpu_var(var) (*({ preempt_disable(); this_cpu_ptr(&(var)); }))
#define put_cpu_var(var) preempt_enable()

/* this_cpu ops are one instruction in the kernel: atomic w.r.t. this CPU. */
#define this_cpu_read(pcp) __atomic_load_n(this_cpu_ptr(&(pcp)), __ATOMIC_RELAXED)
#define this_cpu_write(pcp, val) __atomic_store_n(this_cpu_ptr(&(pcp)), val, __ATOMIC_RELAXED)
#define this_cpu_add(pcp, val) ((void)__atomic_fetch_add(this_cpu_ptr(&(pcp)), val, __ATOMIC_RELAXED))
#define this_cpu_sub(pcp, val) this_cpu_add(pcp, -(__typeof__(pcp))(val))
#define this_cpu_inc(pcp) this_cpu_add(pcp, 1)
#define this_cpu_dec(pcp) this_cpu_sub(pcp, 1)
#define __this_cpu_add_return(pcp, val) this_cpu_add_return(pcp, val)
#define this_cpu_add_return(pcp, val) __atomic_add_fetch(this_cpu_ptr(&(pcp)), val, __ATOMIC_RELAXED)
#define this_cpu_xchg(pcp, val) __atomic_exchange_n(this_cpu_ptr(&(pcp)), val, __ATOMIC_RELAXED)
#define this_cpu_cmpxchg(pcp, o, n) ({ __typeof__(pcp) __o = (o);		\
	__atomic_compare_exchange_n(this_cpu_ptr(&(pcp)), &__o, n, 0,		\
				    __ATOMIC_RELAXED, __ATOMIC_RELAXED); __o; })
#define __this_cpu_read(pcp) this_cpu_read(pcp)
#define __this_cpu_write(pcp, val) this_cpu_write(pcp, val)
#define __this_cpu_add(pcp, val) this_cpu_add(pcp, val)
#define __this_cpu_sub(pcp, val) this_cpu_sub(pcp, val)
#define __this_cpu_inc(pcp) this_cpu_inc(pcp)
#define __this_cpu_dec(pcp) this_cpu_dec(pcp)
#define raw_cpu_read(pcp) this_cpu_read(pcp)
#define raw_cpu_write(pcp, val) this_cpu_write(pcp, val)
#define raw_cpu_add(pcp, val) this_cpu_add(pcp, val)

void *kshim_alloc_percpu(size_t size, size_t align, gfp_t gfp,
			 const char *file, int line, const char *func);
void kshim_free_percpu(void *ptr);
#define alloc_percpu_gfp(type, gfp) ((__typeof__(type) __percpu *)kshim_alloc_percpu( \
	sizeof(type), __alignof__(type), gfp, __FILE__, __LINE__, __func__))
#define alloc_percpu(type) alloc_percpu_gfp(type, GFP_KERNEL)
#define __alloc_percpu_gfp(size, align, gfp) kshim_alloc_percpu(size, align, gfp, \
	__FILE__, __LINE__, __func__)
#define __alloc_percpu(size, align) __alloc_percpu_gfp(size, align, GFP_KERNEL)
#define free_percpu(ptr) kshim_free_percpu(ptr)
#endif
