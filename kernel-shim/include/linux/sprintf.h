/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_SPRINTF_H
#define _KSHIM_LINUX_SPRINTF_H
/*
 * lib/vsprintf.c's bounded printers over the C library's vsnprintf; its
 * scanner is the kernel's own (mm/lib, extracted): glibc's sscanf takes
 * "-1" for %u and %lu and saturates on overflow, the kernel's does
 * neither. Renamed so the C library's stays the C library's.
 */
#include <linux/compiler.h>
#include <stdarg.h>
#include <stdio.h>

#define vsscanf kshim_vsscanf
#define sscanf kshim_sscanf
int vsscanf(const char *buf, const char *fmt, va_list args);
__scanf(2, 3) int sscanf(const char *buf, const char *fmt, ...);

/* the characters written into buf, not those that would have been */
static inline int vscnprintf(char *buf, size_t size, const char *fmt, va_list args)
{
	int n;

	if (!size)
		return 0;
	n = vsnprintf(buf, size, fmt, args);
	if (n < 0)
		return 0;
	return (size_t)n < size ? n : (int)size - 1;
}

static inline __printf(3, 4) int scnprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vscnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}
#endif
