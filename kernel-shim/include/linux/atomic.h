/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_ATOMIC_H
#define _KSHIM_LINUX_ATOMIC_H
/*
 * Kernel atomics on the compiler's __atomic builtins: visible to TSan and
 * with the kernel's ordering (value-returning ops fully ordered, the
 * others relaxed).
 */
#include <linux/types.h>
#include <linux/compiler.h>
#include <asm/barrier.h>

typedef struct {
	long counter;
} atomic_long_t;
#define ATOMIC_LONG_INIT(i) { (i) }
#define ATOMIC64_INIT(i) { (i) }

#define KSHIM_ATOMIC_OPS(pfx, T, V)						\
static inline V pfx##_read(const T *v)						\
{ return __atomic_load_n(&v->counter, __ATOMIC_RELAXED); }			\
static inline V pfx##_read_acquire(const T *v)					\
{ return __atomic_load_n(&v->counter, __ATOMIC_ACQUIRE); }			\
static inline void pfx##_set(T *v, V i)						\
{ __atomic_store_n(&v->counter, i, __ATOMIC_RELAXED); }				\
static inline void pfx##_set_release(T *v, V i)					\
{ __atomic_store_n(&v->counter, i, __ATOMIC_RELEASE); }				\
static inline void pfx##_add(V i, T *v)						\
{ __atomic_fetch_add(&v->counter, i, __ATOMIC_RELAXED); }			\
static inline void pfx##_sub(V i, T *v)						\
{ __atomic_fetch_sub(&v->counter, i, __ATOMIC_RELAXED); }			\
static inline void pfx##_inc(T *v) { pfx##_add(1, v); }				\
static inline void pfx##_dec(T *v) { pfx##_sub(1, v); }				\
static inline void pfx##_or(V i, T *v)						\
{ __atomic_fetch_or(&v->counter, i, __ATOMIC_RELAXED); }			\
static inline void pfx##_and(V i, T *v)						\
{ __atomic_fetch_and(&v->counter, i, __ATOMIC_RELAXED); }			\
static inline V pfx##_add_return(V i, T *v)					\
{ return __atomic_add_fetch(&v->counter, i, __ATOMIC_SEQ_CST); }		\
static inline V pfx##_add_return_relaxed(V i, T *v)				\
{ return __atomic_add_fetch(&v->counter, i, __ATOMIC_RELAXED); }		\
static inline V pfx##_sub_return(V i, T *v)					\
{ return __atomic_sub_fetch(&v->counter, i, __ATOMIC_SEQ_CST); }		\
static inline V pfx##_sub_return_relaxed(V i, T *v)				\
{ return __atomic_sub_fetch(&v->counter, i, __ATOMIC_RELAXED); }		\
static inline V pfx##_inc_return(T *v) { return pfx##_add_return(1, v); }	\
static inline V pfx##_dec_return(T *v) { return pfx##_sub_return(1, v); }	\
static inline V pfx##_fetch_add(V i, T *v)					\
{ return __atomic_fetch_add(&v->counter, i, __ATOMIC_SEQ_CST); }		\
static inline V pfx##_fetch_sub(V i, T *v)					\
{ return __atomic_fetch_sub(&v->counter, i, __ATOMIC_SEQ_CST); }		\
static inline bool pfx##_dec_and_test(T *v)					\
{ return pfx##_sub_return(1, v) == 0; }						\
static inline bool pfx##_inc_and_test(T *v)					\
{ return pfx##_add_return(1, v) == 0; }						\
static inline bool pfx##_sub_and_test(V i, T *v)				\
{ return pfx##_sub_return(i, v) == 0; }						\
static inline bool pfx##_add_negative(V i, T *v)				\
{ return pfx##_add_return(i, v) < 0; }						\
static inline V pfx##_xchg(T *v, V n)						\
{ return __atomic_exchange_n(&v->counter, n, __ATOMIC_SEQ_CST); }		\
static inline V pfx##_cmpxchg(T *v, V o, V n)					\
{										\
	__atomic_compare_exchange_n(&v->counter, &o, n, 0, __ATOMIC_SEQ_CST,	\
				    __ATOMIC_SEQ_CST);				\
	return o;								\
}										\
static inline bool pfx##_try_cmpxchg(T *v, V *o, V n)				\
{										\
	return __atomic_compare_exchange_n(&v->counter, o, n, 0,		\
					   __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);	\
}										\
static inline bool pfx##_add_unless(T *v, V a, V u)				\
{										\
	V c = pfx##_read(v);							\
	do {									\
		if (c == u)							\
			return false;						\
	} while (!pfx##_try_cmpxchg(v, &c, c + a));				\
	return true;								\
}										\
static inline bool pfx##_inc_not_zero(T *v) { return pfx##_add_unless(v, 1, 0); }

KSHIM_ATOMIC_OPS(atomic, atomic_t, int)
KSHIM_ATOMIC_OPS(atomic_long, atomic_long_t, long)
KSHIM_ATOMIC_OPS(atomic64, atomic64_t, s64)

/*
 * Another CPU's step between two of this CPU's instructions, made
 * deterministic: a test names an address and a function, and the next
 * xchg() on that address runs the function (once) right after the
 * exchange, as if another CPU acted there (page_counter_set_max() re-reads
 * the usage after its xchg of the limit to catch a charge that raced it).
 */
struct kshim_xchg_race {
	void *addr;
	void (*fn)(void *arg);
	void *arg;
};
extern struct kshim_xchg_race kshim_xchg_race;
void kshim_xchg_race_run(void);

static inline void kshim_after_xchg(void *addr)
{
	if (__builtin_expect(__atomic_load_n(&kshim_xchg_race.addr, __ATOMIC_RELAXED) == addr, 0))
		kshim_xchg_race_run();
}

#define xchg(ptr, v) ({ __typeof__(*(ptr)) __x = __atomic_exchange_n(ptr, v, __ATOMIC_SEQ_CST); \
	kshim_after_xchg((void *)(ptr)); __x; })
#define cmpxchg(ptr, o, n) ({ __typeof__(*(ptr)) __o = (o);			\
	__atomic_compare_exchange_n(ptr, &__o, n, 0, __ATOMIC_SEQ_CST,		\
				    __ATOMIC_SEQ_CST); __o; })
#define try_cmpxchg(ptr, po, n) __atomic_compare_exchange_n(ptr, po, n, 0,	\
				    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)
#define cmpxchg_relaxed cmpxchg
#define xchg_relaxed xchg
#endif
