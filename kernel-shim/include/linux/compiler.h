/* SPDX-License-Identifier: GPL-2.0-only */
/* Compiler facts the kernel takes from compiler*.h, for gcc/clang in user space. */
#ifdef KSHIM_IN_SYSTEM_HEADERS
#include_next <linux/compiler.h>
#else
#ifndef _KSHIM_LINUX_COMPILER_H
#define _KSHIM_LINUX_COMPILER_H
#include <linux/compiler_types.h>
#include <asm/barrier.h>

#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#define likely_notrace(x) likely(x)
#define unlikely_notrace(x) unlikely(x)

/*
 * Atomics rather than volatile: the kernel marks its intentional races
 * with these, and TSan must see them as atomic, not as data races.
 * WRITE_ONCE is a release store (free on x86): RCU list deletion relinks
 * with WRITE_ONCE and relies on the kernel memory model's dependency
 * ordering, which C11 and TSan do not have.
 */
#define __READ_ONCE(x) ({ __typeof__(((void)0, (x))) __ro_v;			\
	__atomic_load(&(x), &__ro_v, __ATOMIC_RELAXED); __ro_v; })
#define READ_ONCE(x) ((__typeof__(x))__READ_ONCE(x))
#define WRITE_ONCE(x, val) do {							\
	__typeof__(x) __wo_v = (val);						\
	__atomic_store(&(x), &__wo_v, __ATOMIC_RELEASE);			\
} while (0)

/*
 * KCSAN's data_race() marks a race the kernel accepts: under TSan the
 * access is made with reports ignored, elsewhere it is a plain access.
 */
#ifdef __SANITIZE_THREAD__
void AnnotateIgnoreReadsBegin(const char *file, int line);
void AnnotateIgnoreReadsEnd(const char *file, int line);
void AnnotateIgnoreWritesBegin(const char *file, int line);
void AnnotateIgnoreWritesEnd(const char *file, int line);
#define data_race(expr) ({						\
	AnnotateIgnoreReadsBegin(__FILE__, __LINE__);			\
	AnnotateIgnoreWritesBegin(__FILE__, __LINE__);			\
	__auto_type __v = (expr);					\
	AnnotateIgnoreWritesEnd(__FILE__, __LINE__);			\
	AnnotateIgnoreReadsEnd(__FILE__, __LINE__);			\
	__v; })
#else
#define data_race(expr) ({ __auto_type __v = (expr); __v; })
#endif
#define ASSERT_EXCLUSIVE_ACCESS(x) do { } while (0)
#define ASSERT_EXCLUSIVE_WRITER(x) do { } while (0)
#define ASSERT_EXCLUSIVE_BITS(var, mask) do { } while (0)

#define OPTIMIZER_HIDE_VAR(var) __asm__ ("" : "=r" (var) : "0" (var))
#define __must_be_array(a) 0
#define __is_constexpr(x) __builtin_constant_p(x)
#define is_signed_type(type) (((type)(-1)) < (__force type)1)
#define is_unsigned_type(type) (!is_signed_type(type))
#define __UNIQUE_ID(prefix) __PASTE(__PASTE(__UNIQUE_ID_, prefix), __COUNTER__)
#define ___ADDRESSABLE(sym, __attrs) \
	static void * __used __attrs __UNIQUE_ID(__addressable_##sym) = (void *)&sym;
#define __ADDRESSABLE(sym) ___ADDRESSABLE(sym, )

#endif
#endif
