/* SPDX-License-Identifier: GPL-2.0-only */
#ifdef KSHIM_IN_SYSTEM_HEADERS
#include_next <asm/bitsperlong.h>
#else
#ifndef _KSHIM_ASM_BITSPERLONG_H
#define _KSHIM_ASM_BITSPERLONG_H
#include_next <asm/bitsperlong.h>
#define BITS_PER_LONG __BITS_PER_LONG
#define BITS_PER_LONG_LONG 64
/* asm-generic/bitsperlong.h: a bitmap that fits one word, known at compile time */
#define small_const_nbits(nbits) \
	(__builtin_constant_p(nbits) && (nbits) <= BITS_PER_LONG && (nbits) > 0)
#endif
#endif
