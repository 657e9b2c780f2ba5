/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The test bed's kernel configuration. tools/kextract gets the same set
 * from cmake/kconfig.cmake, so extracted code and headers agree.
 */
#ifndef _KSHIM_KCONFIG_H
#define _KSHIM_KCONFIG_H

#define CONFIG_64BIT 1
#define CONFIG_SMP 1
#define CONFIG_MMU 1
#define CONFIG_NUMA 1
#define CONFIG_CGROUPS 1
#define CONFIG_MEMCG 1
#define CONFIG_SWAP 1
#define CONFIG_NODES_SHIFT 2
#define CONFIG_NR_CPUS 64
#define CONFIG_HZ 1000
#define CONFIG_PAGE_SHIFT 12
#define CONFIG_VM_EVENT_COUNTERS 1

#endif /* _KSHIM_KCONFIG_H */
