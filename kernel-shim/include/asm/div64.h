/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_ASM_DIV64_H
#define _KSHIM_ASM_DIV64_H
#include <linux/types.h>
#define do_div(n, base) ({ u32 __base = (base); u32 __rem; \
	__rem = ((u64)(n)) % __base; (n) = ((u64)(n)) / __base; __rem; })
/*
 * x86-64's own (a 128-bit product, then divq), which math64.h leaves to
 * the arch; the quotient must fit 64 bits, as divq's must. Since 7.2
 * math64.h builds mul_u64_u64_div_u64() on mul_u64_add_u64_div_u64()
 * (the product plus an addend), and the arch provides that one.
 */
#if TB_HAVE_mul_u64_add_u64_div_u64
static inline u64 mul_u64_add_u64_div_u64(u64 a, u64 mul, u64 add, u64 div)
{
	return (u64)(((unsigned __int128)a * mul + add) / div);
}
#define mul_u64_add_u64_div_u64 mul_u64_add_u64_div_u64
#else
static inline u64 mul_u64_u64_div_u64(u64 a, u64 mul, u64 div)
{
	return (u64)(((unsigned __int128)a * mul) / div);
}
#define mul_u64_u64_div_u64 mul_u64_u64_div_u64
#endif
#endif
