/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_MIGRATE_H
#define _KSHIM_LINUX_MIGRATE_H
/* !CONFIG_MIGRATION: the kernel's stubs (no demotion between memory tiers). */
#include <linux/types.h>
#include <linux/errno.h>
#include <linux/migrate_mode.h>
#include <kgen/migrate.h>
#endif
