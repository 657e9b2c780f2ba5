/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_MATH_H
#define _KSHIM_LINUX_MATH_H
#include <linux/types.h>
#include <linux/minmax.h>
#define __round_mask(x, y) ((__typeof__(x))((y) - 1))
#define round_up(x, y) ((((x) - 1) | __round_mask(x, y)) + 1)
#define round_down(x, y) ((x) & ~__round_mask(x, y))
#define DIV_ROUND_UP(n, d) (((n) + (d) - 1) / (d))
#define DIV_ROUND_UP_ULL(ll, d) DIV_ROUND_UP((unsigned long long)(ll), d)
#define DIV_ROUND_CLOSEST(x, divisor) (((x) + ((divisor) / 2)) / (divisor))
#define ALIGN(x, a) (((x) + ((__typeof__(x))(a) - 1)) & ~((__typeof__(x))(a) - 1))
#define ALIGN_DOWN(x, a) ALIGN((x) - ((a) - 1), (a))
#define IS_ALIGNED(x, a) (((x) & ((__typeof__(x))(a) - 1)) == 0)
#define roundup(x, y) ((((x) + ((y) - 1)) / (y)) * (y))
#define rounddown(x, y) ((x) - ((x) % (y)))
#define abs(x) __builtin_choose_expr(sizeof(x) == sizeof(long long), \
	__builtin_llabs(x), __builtin_abs(x))
#define mult_frac(x, n, d) ({ __typeof__(x) q = (x) / (d); __typeof__(x) r = (x) % (d); \
	(q * (n)) + ((r * (n)) / (d)); })
unsigned long int_sqrt(unsigned long x);
#include <kgen/math.h>
#endif
