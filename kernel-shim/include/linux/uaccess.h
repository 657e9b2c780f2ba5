/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * One address space: user copies are plain copies, except from or to the
 * user addresses below mmap_min_addr (the zero page), which no task can
 * map: there the copy fails whole, as the kernel's does on a fault.
 */
#ifndef _KSHIM_LINUX_UACCESS_H
#define _KSHIM_LINUX_UACCESS_H
#include <linux/types.h>
/* the kernel's reaches it through linux/sched.h (7.2's lib/kstrtox.c relies on that) */
#include <linux/overflow.h>
#include <string.h>
#define KSHIM_MMAP_MIN_ADDR 4096UL
static inline bool kshim_user_unmapped(const void __user *p)
{
	return (unsigned long)p < KSHIM_MMAP_MIN_ADDR;
}
static inline unsigned long copy_from_user(void *to, const void __user *from, unsigned long n)
{
	if (kshim_user_unmapped(from))
		return n;
	memcpy(to, from, n);
	return 0;
}
static inline unsigned long copy_to_user(void __user *to, const void *from, unsigned long n)
{
	if (kshim_user_unmapped(to))
		return n;
	memcpy(to, from, n);
	return 0;
}
#endif
