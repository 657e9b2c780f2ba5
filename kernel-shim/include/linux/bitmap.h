/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_BITMAP_H
#define _KSHIM_LINUX_BITMAP_H
#include <linux/bitops.h>
#include <linux/minmax.h>
#include <linux/math.h>	/* IS_ALIGNED(): bitmap_set() */
#include <string.h>
#define BITMAP_FIRST_WORD_MASK(start) (~0UL << ((start) & (BITS_PER_LONG - 1)))
#define BITMAP_LAST_WORD_MASK(nbits) (~0UL >> (-(nbits) & (BITS_PER_LONG - 1)))
/* the real find.h insists on being reached through bitmap.h */
#define __LINUX_BITMAP_H
#include <linux/find.h>
/* before the kernel's bitmap_weight_from() (7.x), which counts with it */
static inline unsigned int bitmap_weight(const unsigned long *src, unsigned int nbits)
{
	unsigned int k, w = 0;

	for (k = 0; k < nbits; k++)
		w += test_bit(k, src);
	return w;
}
#include <kgen/bitmap.h>
/* lib/bitmap.c (mm/lib) */
unsigned long *bitmap_alloc(unsigned int nbits, gfp_t flags);
unsigned long *bitmap_zalloc(unsigned int nbits, gfp_t flags);
void bitmap_free(const unsigned long *bitmap);

static inline void bitmap_zero(unsigned long *dst, unsigned int nbits)
{
	memset(dst, 0, BITS_TO_LONGS(nbits) * sizeof(unsigned long));
}
/* lib/xarray.c marks and clears mark bitmaps whole or in ranges */
static inline void bitmap_fill(unsigned long *dst, unsigned int nbits)
{
	unsigned int k;

	for (k = 0; k < nbits; k++)
		__set_bit(k, dst);
}
static inline void bitmap_clear(unsigned long *map, unsigned int start, unsigned int len)
{
	unsigned int k;

	for (k = start; k < start + len; k++)
		__clear_bit(k, map);
}
/* lib/vsprintf.c's vsscanf() complements a %[^...] set */
static inline void bitmap_complement(unsigned long *dst, const unsigned long *src,
				     unsigned int nbits)
{
	unsigned int k;

	for (k = 0; k < BITS_TO_LONGS(nbits); k++)
		dst[k] = ~src[k];
}
static inline bool bitmap_empty(const unsigned long *src, unsigned int nbits)
{
	return find_first_bit(src, nbits) >= nbits;
}
#endif
