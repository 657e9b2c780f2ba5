/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_KREF_H
#define _KSHIM_LINUX_KREF_H
/* A refcount with a release at zero (memory types of the memory tiers). */
#include <linux/refcount.h>
#include <kgen/kref.h>
#endif
