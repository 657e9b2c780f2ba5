/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_MM_INLINE_H
#define _KSHIM_LINUX_MM_INLINE_H
#include <linux/mm_types.h>
#include <linux/page-flags.h>
#include <linux/mmzone.h>
#endif
