/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_OVERFLOW_H
#define _KSHIM_LINUX_OVERFLOW_H
#include <linux/types.h>
#define check_add_overflow(a, b, d) __builtin_add_overflow(a, b, d)
#define check_sub_overflow(a, b, d) __builtin_sub_overflow(a, b, d)
#define check_mul_overflow(a, b, d) __builtin_mul_overflow(a, b, d)
static inline size_t size_mul(size_t a, size_t b)
{
	size_t r;

	return __builtin_mul_overflow(a, b, &r) ? SIZE_MAX : r;
}
static inline size_t size_add(size_t a, size_t b)
{
	size_t r;

	return __builtin_add_overflow(a, b, &r) ? SIZE_MAX : r;
}
#define struct_size(p, member, count) size_add(sizeof(*(p)), size_mul(sizeof(*(p)->member), count))
#define struct_size_t(type, member, count) struct_size((type *)NULL, member, count)
#define flex_array_size(p, member, count) size_mul(count, sizeof(*(p)->member))
#include <kgen/overflow.h>
#endif
