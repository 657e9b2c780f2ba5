/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_BUILD_BUG_H
#define _KSHIM_LINUX_BUILD_BUG_H
#include <linux/compiler.h>
#define BUILD_BUG_ON_ZERO(e) ((int)(sizeof(struct { int:(-!!(e)); })))
#define BUILD_BUG_ON_MSG(cond, msg) _Static_assert(!(cond), msg)
#ifdef __clang__
/*
 * clang takes no pointer cast as an integer constant expression
 * (mm/page_alloc.c's (unsigned long)LIST_POISON1 & 1): checked where the
 * condition folds to a constant, as the kernel's compiletime_assert() is
 */
#define BUILD_BUG_ON(condition) MAYBE_BUILD_BUG_ON(condition)
#else
#define BUILD_BUG_ON(condition) BUILD_BUG_ON_MSG(condition, "BUILD_BUG_ON failed: " #condition)
#endif
/*
 * The kernel's BUILD_BUG() fails only if the optimiser cannot drop the
 * call (e.g. the !CONFIG_LRU_GEN stubs behind lru_gen_enabled()); at -O0
 * nothing is dropped, so here reaching one at run time is the bug.
 */
#define BUILD_BUG() kshim_bug(__FILE__, __LINE__, __func__)
/* CONFIG_DEBUG_VM's compile-time checks of values not always constant */
#define MAYBE_BUILD_BUG_ON(cond) ((void)sizeof(char[1 - 2 * !!(__builtin_constant_p(cond) && (cond))]))
#define BUILD_BUG_ON_NOT_POWER_OF_2(n) BUILD_BUG_ON((n) == 0 || (((n) & ((n) - 1)) != 0))
#undef static_assert
#define static_assert(expr, ...) __static_assert(expr, ##__VA_ARGS__, #expr)
#define __static_assert(expr, msg, ...) _Static_assert(expr, msg)
#endif
