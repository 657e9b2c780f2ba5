/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_BOUNDS_H
#define _KSHIM_LINUX_BOUNDS_H
/* include/generated/bounds.h is made by kbuild; derived here from the enums. */
#define MAX_NR_ZONES __MAX_NR_ZONES
#endif
