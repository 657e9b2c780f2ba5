/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_BITOPS_H
#define _KSHIM_LINUX_BITOPS_H
#include <linux/bits.h>
#include <linux/types.h>
#define BITS_PER_TYPE(type) (sizeof(type) * 8)
#define BITS_TO_LONGS(nr) __KERNEL_DIV_ROUND_UP(nr, BITS_PER_LONG)
#define BITS_TO_U64(nr) __KERNEL_DIV_ROUND_UP(nr, 64)
/*
 * atomic bitops: fully ordered when they return a value, and always
 * inlined (as x86's arch_*_bit()), also into the -Og test build
 */
static __always_inline void set_bit(long nr, volatile unsigned long *addr)
{
	__atomic_fetch_or(addr + BIT_WORD(nr), BIT_MASK(nr), __ATOMIC_RELAXED);
}
static __always_inline void clear_bit(long nr, volatile unsigned long *addr)
{
	__atomic_fetch_and(addr + BIT_WORD(nr), ~BIT_MASK(nr), __ATOMIC_RELAXED);
}
static __always_inline void change_bit(long nr, volatile unsigned long *addr)
{
	__atomic_fetch_xor(addr + BIT_WORD(nr), BIT_MASK(nr), __ATOMIC_RELAXED);
}
static __always_inline bool test_and_set_bit(long nr, volatile unsigned long *addr)
{
	return __atomic_fetch_or(addr + BIT_WORD(nr), BIT_MASK(nr), __ATOMIC_SEQ_CST) & BIT_MASK(nr);
}
static __always_inline bool test_and_clear_bit(long nr, volatile unsigned long *addr)
{
	return __atomic_fetch_and(addr + BIT_WORD(nr), ~BIT_MASK(nr), __ATOMIC_SEQ_CST) & BIT_MASK(nr);
}
static __always_inline bool test_bit(long nr, const volatile unsigned long *addr)
{
	return (__atomic_load_n(addr + BIT_WORD(nr), __ATOMIC_RELAXED) >> (nr % BITS_PER_LONG)) & 1;
}
#define __set_bit(nr, addr) set_bit(nr, addr)
#define __clear_bit(nr, addr) clear_bit(nr, addr)
#define __test_and_set_bit(nr, addr) test_and_set_bit(nr, addr)
#define __test_and_clear_bit(nr, addr) test_and_clear_bit(nr, addr)
#define clear_bit_unlock(nr, addr) do { smp_mb__before_atomic(); clear_bit(nr, addr); } while (0)
#define test_and_set_bit_lock(nr, addr) test_and_set_bit(nr, addr)
#define __clear_bit_unlock(nr, addr) clear_bit_unlock(nr, addr)
/* folio_unlock(): clear the lock bits of the low byte, report PG_waiters */
static __always_inline bool xor_unlock_is_negative_byte(unsigned long mask, volatile unsigned long *addr)
{
	return __atomic_fetch_xor(addr, mask, __ATOMIC_RELEASE) & BIT(7);
}
#define test_bit_acquire(nr, addr) test_bit(nr, addr)
#define __test_and_clear_bit_unlock(nr, addr) test_and_clear_bit(nr, addr)
static inline unsigned long __ffs(unsigned long word) { return __builtin_ctzl(word); }
static inline unsigned long __fls(unsigned long word) { return BITS_PER_LONG - 1 - __builtin_clzl(word); }
static inline int fls(unsigned int x) { return x ? 32 - __builtin_clz(x) : 0; }
static inline int fls64(u64 x) { return x ? 64 - __builtin_clzll(x) : 0; }
static inline unsigned int fls_long(unsigned long l) { return fls64(l); }
/* foldable, so it may initialise a static (as the kernel's const_ilog2) */
#define ilog2(n) ((n) ? 63 - __builtin_clzll((unsigned long long)(n)) : -1)
#define is_power_of_2(n) ((n) != 0 && (((n) & ((n) - 1)) == 0))
/* ceil(log2(n)); 0 for n 0 and 1 */
#define order_base_2(n) ((n) > 1 ? ilog2((n) - 1) + 1 : 0)
/* atomically replace the bits of mask in *ptr with bits; the old word */
#define set_mask_bits(ptr, mask, bits)					\
({									\
	const typeof(*(ptr)) mask__ = (mask), bits__ = (bits);		\
	typeof(*(ptr)) old__ = __atomic_load_n(ptr, __ATOMIC_RELAXED);	\
									\
	while (!__atomic_compare_exchange_n(ptr, &old__,		\
					    (old__ & ~mask__) | bits__, false, \
					    __ATOMIC_SEQ_CST, __ATOMIC_RELAXED)) \
		;							\
	old__;								\
})
static inline unsigned long roundup_pow_of_two(unsigned long n) { return 1UL << fls64(n - 1); }
static inline unsigned long rounddown_pow_of_two(unsigned long n) { return 1UL << __fls(n); }
#define hweight_long(w) __builtin_popcountl(w)
#define hweight32(w) __builtin_popcount(w)
#define hweight64(w) __builtin_popcountll(w)
/* asm-generic/bitops/ffz.h */
#define ffz(x) __ffs(~(x))
#include <kgen/bitops.h>
/* the kernel's find.h, reached through bitmap.h as in the kernel */
#include <linux/bitmap.h>
#endif
