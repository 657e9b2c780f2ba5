/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_KERNEL_H
#define _KSHIM_LINUX_KERNEL_H
#include <linux/stddef.h>
#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/limits.h>
#include <linux/bits.h>
#include <linux/bug.h>
#include <linux/container_of.h>
#include <linux/math.h>
#include <linux/minmax.h>
#include <linux/printk.h>
#include <linux/sprintf.h>
#include <linux/kstrtox.h>
#include <linux/export.h>
#include <linux/sched.h>
#include <linux/err.h>

#define _THIS_IP_ ({ __label__ __here; __here: (unsigned long)&&__here; })
#define _RET_IP_ ((unsigned long)__builtin_return_address(0))
#define ARRAY_SIZE(arr) (sizeof(arr) / sizeof((arr)[0]))
#define REPEAT_BYTE(x) ((~0ul / 0xff) * (x))
#define typecheck(type, x) ({ type __dummy; __typeof__(x) __dummy2; (void)(&__dummy == &__dummy2); 1; })
#define lower_32_bits(n) ((u32)((n) & 0xffffffff))
#define upper_32_bits(n) ((u32)(((n) >> 16) >> 16))

unsigned long long memparse(const char *ptr, char **retptr);
#endif
