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
#endif
#endif
