/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_MEMORY_TIERS_H
#define _KSHIM_LINUX_MEMORY_TIERS_H
/* Every node of the simulated machine is one tier: the kernel's stubs. */
#include <linux/types.h>
#include <linux/nodemask.h>
#include <linux/mmzone.h>
#include <kgen/memory-tiers.h>
#endif
