/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_KSHIM_FAULT_H
#define _KSHIM_KSHIM_FAULT_H
/*
 * Allocation fault injection. Every allocation passes kshim_should_fail()
 * with its call site; a test fails the nth call, calls with probability
 * p (seeded), or calls from one function or file:line.
 */
#ifndef __ASSEMBLY__
#include <stdbool.h>
#include <stddef.h>
struct kshim_site {
	const char *file;
	int line;
	const char *func;
};
bool kshim_should_fail(const char *file, int line, const char *func, size_t size);

void kshim_fault_reset(void);
/* fail the nth matching call from now (1 = the next one), once */
void kshim_fault_nth(unsigned long n);
/* fail each matching call with this probability (per million) */
void kshim_fault_probability(unsigned int ppm, unsigned long seed);
/* only calls whose function name is func (NULL: any; "a|b": a or b) and
 * whose "file:line" ends with site (NULL: any) match */
void kshim_fault_filter(const char *func, const char *site);
unsigned long kshim_fault_calls(void);		/* matching calls seen */
unsigned long kshim_fault_injected(void);	/* failures injected */
const struct kshim_site *kshim_fault_last_site(void);

/*
 * Race injection: fn(arg) runs once, at the next allocation from cache s
 * that may sleep, before its fault check. It stands for what another CPU
 * does while this one is in the allocator, e.g. a cgroup removed in a
 * window where the caller dropped its lock to allocate. Only a blocking
 * allocation is such a point: fn may sleep, and the caller may not hold
 * a spinlock there. kshim_fault_reset() disarms it.
 */
struct kmem_cache;
void kshim_race_on_next_alloc(struct kmem_cache *s, void (*fn)(void *arg), void *arg);
unsigned long kshim_races_run(void);	/* fn calls since the reset */
/* the slab's side: an allocation from s that may sleep */
void kshim_race_point(struct kmem_cache *s);
#endif
#endif
