/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __LINUX_BOUNDS_H__
#define __LINUX_BOUNDS_H__
/*
 * kbuild generates this from kernel/bounds.c; the values follow from the
 * test bed's CONFIG set (kconfig.h) and are checked against the real enums
 * at build time (kernel-shim/bounds_check.c).
 */
#define NR_PAGEFLAGS 20		/* __NR_PAGEFLAGS with CONFIG_MMU */
#define MAX_NR_ZONES 2		/* ZONE_NORMAL, ZONE_MOVABLE */
#define NR_CPUS_BITS 6		/* CONFIG_NR_CPUS 64 */
#define SPINLOCK_SIZE 4
#define LRU_GEN_WIDTH 3		/* order_base_2(MAX_NR_GENS + 1) */
#define __LRU_REFS_WIDTH 2	/* MAX_NR_TIERS - 2 */
#endif
