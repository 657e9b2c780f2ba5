/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_FALLBACK_LINUX_SCHED_MM_H
#define _KSHIM_FALLBACK_LINUX_SCHED_MM_H
/*
 * Searched after every other include directory (-idirafter): linux/xarray.h
 * needs only might_alloc() of linux/sched/mm.h. The shim's own
 * kernel-shim/include/linux/sched/mm.h takes precedence once it exists.
 */
#include <linux/sched.h>
#include <linux/gfp.h>
#include <linux/kernel.h>

/* an allocation that may block may sleep */
#define might_alloc(gfp) do { if (gfpflags_allow_blocking(gfp)) might_sleep(); } while (0)
#endif
