/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_ASM_DIV64_H
#define _KSHIM_ASM_DIV64_H
#include <linux/types.h>
#define do_div(n, base) ({ u32 __base = (base); u32 __rem; \
	__rem = ((u64)(n)) % __base; (n) = ((u64)(n)) / __base; __rem; })
#endif
