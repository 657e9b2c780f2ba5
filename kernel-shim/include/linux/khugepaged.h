/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_KHUGEPAGED_H
#define _KSHIM_LINUX_KHUGEPAGED_H
/* !CONFIG_TRANSPARENT_HUGEPAGE: there is no khugepaged. */
#include <linux/types.h>
static inline bool current_is_khugepaged(void)
{
	return false;
}
#endif
