/* SPDX-License-Identifier: GPL-2.0-only */
/* The slice of linux/mm.h that mm files here reach through other headers. */
#ifndef _KSHIM_LINUX_MM_H
#define _KSHIM_LINUX_MM_H
#include <linux/kernel.h>
#include <linux/gfp.h>
#include <linux/slab.h>
#include <linux/mmzone.h>
#include <linux/bitops.h>
#include <linux/math64.h>
#include <linux/atomic.h>
#include <linux/rcupdate.h>
#include <linux/percpu.h>
#include <linux/mm_types.h>
#include <linux/page-flags.h>
#endif
