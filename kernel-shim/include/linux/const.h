/* SPDX-License-Identifier: GPL-2.0-only */
#ifdef KSHIM_IN_SYSTEM_HEADERS
#include_next <linux/const.h>
#else
#ifndef _KSHIM_LINUX_CONST_H
#define _KSHIM_LINUX_CONST_H
#define _AC(X, Y) (X##Y)
#define _AT(T, X) ((T)(X))
#define _UL(x) (_AC(x, UL))
#define _ULL(x) (_AC(x, ULL))
#define UL(x) (_UL(x))
#define ULL(x) (_ULL(x))
#define __KERNEL_DIV_ROUND_UP(n, d) (((n) + (d) - 1) / (d))
#endif
#endif
