// SPDX-License-Identifier: GPL-2.0-only
/* Small library pieces the kernel gets from lib/: the PRNG; the xchg race hook. */
#include <linux/kernel.h>
#include <linux/bitops.h>
#include <linux/random.h>
#include <linux/atomic.h>

/* splitmix64: one shared sequence, reproducible for a given seed */
static u64 rng_state = 0x9e3779b97f4a7c15ULL;

void kshim_random_seed(u64 seed)
{
	__atomic_store_n(&rng_state, seed, __ATOMIC_RELAXED);
}

u64 get_random_u64(void)
{
	u64 z = __atomic_add_fetch(&rng_state, 0x9e3779b97f4a7c15ULL, __ATOMIC_RELAXED);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

u32 get_random_u32(void)
{
	return get_random_u64() >> 32;
}

void get_random_bytes(void *buf, size_t len)
{
	u8 *p = buf;

	while (len) {
		u64 r = get_random_u64();
		size_t n = len < 8 ? len : 8;

		memcpy(p, &r, n);
		p += n;
		len -= n;
	}
}

/* <linux/atomic.h>: the next xchg() on .addr runs .fn(.arg) once */
struct kshim_xchg_race kshim_xchg_race;

void kshim_xchg_race_run(void)
{
	void (*fn)(void *) = kshim_xchg_race.fn;
	void *arg = kshim_xchg_race.arg;

	/* once: whoever gets here first clears it */
	if (__atomic_exchange_n(&kshim_xchg_race.addr, NULL, __ATOMIC_SEQ_CST) && fn)
		fn(arg);
}
