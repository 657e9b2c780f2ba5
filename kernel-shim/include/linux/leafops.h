/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_LEAFOPS_H
#define _KSHIM_LINUX_LEAFOPS_H
/* The software entries of non-present ptes and pmds (kgen/leafops.h). */
#include <linux/swapops.h>
#include <kgen/leafops.h>
#endif
