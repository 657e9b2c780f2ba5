/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_MIGRATE_H
#define _KSHIM_LINUX_MIGRATE_H
/*
 * With CONFIG_MIGRATION the prototypes of the world's migration
 * (kernel-shim/world/migrate.c); else the kernel's stubs (no demotion).
 */
#include <linux/types.h>
#include <linux/errno.h>
#include <linux/migrate_mode.h>
#include <kgen/migrate.h>
#endif
