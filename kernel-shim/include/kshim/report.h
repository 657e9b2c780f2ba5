/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the kernel code reports to the test bed: WARNs, BUGs, context
 * violations (might_sleep in atomic context) and printk. Tests announce
 * the WARNs they expect; anything else fails kshim_world_check().
 */
#ifndef _KSHIM_REPORT_H
#define _KSHIM_REPORT_H
#include <stdbool.h>

void kshim_printk(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void kshim_warn(const char *file, int line, const char *func,
		const char *cond, const char *fmt, ...);
void kshim_bug(const char *file, int line, const char *func) __attribute__((noreturn));
void kshim_context_violation(const char *file, int line, const char *func,
			     const char *what);

/* test side */
void kshim_expect_warns(unsigned int n);
unsigned int kshim_warn_count(void);
unsigned int kshim_unexpected_warns(void);
unsigned int kshim_context_violations(void);
const char *kshim_last_report(void);
void kshim_report_reset(void);
/* Silence printk unless KSHIM_VERBOSE is set in the environment. */
extern bool kshim_quiet;

#endif
