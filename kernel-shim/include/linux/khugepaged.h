/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_KHUGEPAGED_H
#define _KSHIM_LINUX_KHUGEPAGED_H
/*
 * khugepaged's settings and its start and stop (kgen/khugepaged.h); its
 * thread is the world's, which collapses nothing, so no mm code runs as
 * khugepaged
 */
#include <linux/types.h>
#include <linux/sysfs.h>
static inline bool current_is_khugepaged(void)
{
	return false;
}
#include <kgen/khugepaged.h>
#endif
