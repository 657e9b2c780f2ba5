/* SPDX-License-Identifier: GPL-2.0-only */
/* Attributes and sparse annotations: sparse does not run here, gcc/clang do. */
#ifndef _KSHIM_LINUX_COMPILER_TYPES_H
#define _KSHIM_LINUX_COMPILER_TYPES_H
#include <linux/kconfig.h>
#include <linux/stringify.h>

#define __user
#define __kernel
#define __iomem
#define __percpu
#define __rcu
#define __force
#define __nocast
#define __safe
#define __private
#define __bitwise
#if TB_HAVE_context_analysis_h
/* the tree's lock annotations: empty without clang's context analysis */
#include <linux/compiler-context-analysis.h>
#else
#define __acquires(x)
#define __releases(x)
#define __acquire(x) (void)0
#define __release(x) (void)0
#define __cond_lock(x, c) (c)
#define __must_hold(x)
#endif
#define ACCESS_PRIVATE(p, member) ((p)->member)
/* C23's type-inferred variables, as the kernel spells them before C23 (7.x) */
#if !defined(__cplusplus) && __STDC_VERSION__ < 202311L
#define auto __auto_type
#endif

#define __always_inline inline __attribute__((__always_inline__))
#define noinline __attribute__((__noinline__))
#define noinline_for_stack noinline
#define __maybe_unused __attribute__((__unused__))
#define __always_unused __attribute__((__unused__))
#define __used __attribute__((__used__))
#define __must_check __attribute__((__warn_unused_result__))
#define __cleanup(func) __attribute__((__cleanup__(func)))
#define __nonnull_args(x...) __attribute__((__nonnull__(x)))
/* gcc 12 has no __builtin_counted_by_ref(): no counter to set */
#define __flex_counter(FAM) ((void *)NULL)
#define __cold __attribute__((__cold__))
#define __hot __attribute__((__hot__))
#define __pure __attribute__((__pure__))
#define __noreturn __attribute__((__noreturn__))
#define __packed __attribute__((__packed__))
#define __aligned(x) __attribute__((__aligned__(x)))
#define __printf(a, b) __attribute__((__format__(printf, a, b)))
#define __scanf(a, b) __attribute__((__format__(scanf, a, b)))
#define __section(s) __attribute__((__section__(s)))
#define __malloc __attribute__((__malloc__))
#define __alloc_size(x, ...) __attribute__((__alloc_size__(x, ## __VA_ARGS__)))
#define __realloc_size(x, ...)
#define __counted_by(m)
#define __nonstring
#define __randomize_layout
#define __no_randomize_layout
#define randomized_struct_fields_start
#define randomized_struct_fields_end
#define __read_mostly
#define __ro_after_init
#define __init
#define __exit
#define __initdata
#define __initconst
#define __refdata
#define __ref
#define __meminit
#define __meminitdata
#define __weak __attribute__((__weak__))
#define __visible
#define __latent_entropy
#define __no_sanitize_address
#define __no_kcsan
#define __noscs
#define notrace
#define __always_unused __attribute__((__unused__))
#define fallthrough __attribute__((__fallthrough__))
#define __diag_push()
#define __diag_pop()
#define __diag_ignore_all(o, c)

#ifndef __cplusplus
#define __same_type(a, b) __builtin_types_compatible_p(typeof(a), typeof(b))
#endif
#define __native_word(t) \
	(sizeof(t) == sizeof(char) || sizeof(t) == sizeof(short) || \
	 sizeof(t) == sizeof(int) || sizeof(t) == sizeof(long))
#define __scalar_type_to_expr_cases(type) \
	unsigned type : (unsigned type)0, signed type : (signed type)0
#define __unqual_scalar_typeof(x) typeof(_Generic((x), \
	char : (char)0, __scalar_type_to_expr_cases(char), \
	__scalar_type_to_expr_cases(short), __scalar_type_to_expr_cases(int), \
	__scalar_type_to_expr_cases(long), __scalar_type_to_expr_cases(long long), \
	default : (x)))
#define compiletime_assert(condition, msg) _Static_assert(condition, msg)
#define compiletime_assert_atomic_type(t) \
	compiletime_assert(__native_word(t), "Need native word sized stores/loads for atomicity.")

#endif
