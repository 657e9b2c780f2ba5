/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_MEMORY_TIERS_H
#define _KSHIM_LINUX_MEMORY_TIERS_H
/*
 * Memory tiers: with CONFIG_MIGRATION the world's slow nodes form a lower
 * tier (mm/memory-tiers.c, extracted); else every node is one tier (the
 * kernel's stubs).
 */
#include <linux/types.h>
#include <linux/nodemask.h>
#include <linux/kref.h>
#include <linux/mmzone.h>
#include <linux/notifier.h>
#include <kgen/memory-tiers.h>
#endif
