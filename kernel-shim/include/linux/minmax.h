/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_MINMAX_H
#define _KSHIM_LINUX_MINMAX_H
/*
 * min/max evaluating each argument once; constant expressions when both
 * arguments are, as the kernel's (page-flags-layout.h's LRU_REFS_WIDTH is
 * a min() inside a BUILD_BUG_ON).
 */
#define __cmp(op, x, y) ((x) op (y) ? (x) : (y))
#define __cmp_once(op, x, y) ({ __typeof__(x) __x = (x); __typeof__(y) __y = (y); __cmp(op, __x, __y); })
#define __careful_cmp(op, x, y) \
	__builtin_choose_expr(__is_constexpr((x) - (y)), __cmp(op, x, y), __cmp_once(op, x, y))
#define min(x, y) __careful_cmp(<, x, y)
#define max(x, y) __careful_cmp(>, x, y)
#define umin(x, y) min((x) + 0u + 0ul + 0ull, (y) + 0u + 0ul + 0ull)
#define umax(x, y) max((x) + 0u + 0ul + 0ull, (y) + 0u + 0ul + 0ull)
#define min3(x, y, z) min((__typeof__(x))min(x, y), z)
#define max3(x, y, z) max((__typeof__(x))max(x, y), z)
#define min_t(type, x, y) __cmp_once(<, (type)(x), (type)(y))
#define max_t(type, x, y) __cmp_once(>, (type)(x), (type)(y))
#define min_not_zero(x, y) ({ __typeof__(x) __x = (x); __typeof__(y) __y = (y); \
	__x == 0 ? __y : ((__y == 0) ? __x : min(__x, __y)); })
#define clamp(val, lo, hi) min((__typeof__(val))max(val, lo), hi)
#define clamp_t(type, val, lo, hi) min_t(type, max_t(type, val, lo), hi)
#define clamp_val(val, lo, hi) clamp_t(__typeof__(val), val, lo, hi)
/* val in [start, start + len), one unsigned comparison */
#define in_range(val, start, len) ((val) - (start) < (len))
#define swap(a, b) do { __typeof__(a) __tmp = (a); (a) = (b); (b) = __tmp; } while (0)
#endif
