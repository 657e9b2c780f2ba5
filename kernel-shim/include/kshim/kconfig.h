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
/* kmem accounting: its own option, default y with MEMCG, until 6.10 folded
 * it into CONFIG_MEMCG (older trees test it) */
#define CONFIG_MEMCG_KMEM 1
#define CONFIG_SWAP 1
#define CONFIG_NODES_SHIFT 3
#define CONFIG_NR_CPUS 64
#define CONFIG_HZ 1000
#define CONFIG_PAGE_SHIFT 12
#define CONFIG_VM_EVENT_COUNTERS 1
/* the multi-gen LRU is built in, off at boot (no CONFIG_LRU_GEN_ENABLED):
 * /sys/kernel/mm/lru_gen/enabled switches it at run time */
#define CONFIG_LRU_GEN 1
/* x86-64: the MMU sets accessed bits, also in non-leaf pmds, so the
 * multi-gen LRU walks page tables (asm/pgtable.h) */
#define CONFIG_LRU_GEN_WALKS_MMU 1
#define CONFIG_ARCH_HAS_HW_PTE_YOUNG 1
#if TB_HAVE_nonleaf_pmd_young_no_pfn
#define CONFIG_ARCH_HAS_NONLEAF_PMD_YOUNG 1
#endif
/*
 * Not before 6.2: walk_pmd_range_locked() passes a non-leaf pmd to
 * get_pmd_pfn(), whose pfn_valid() WARNs on the world's page tables (host
 * memory, not pages of the simulated RAM); without the option the walk
 * reads every pte table, as on hardware without non-leaf accessed bits.
 */
#define CONFIG_PGTABLE_LEVELS 4
/*
 * Reclaim for high orders works with compaction (should_continue_reclaim(),
 * compaction_ready(), kcompactd's wake-ups): compaction_suitable() is the
 * kernel's (mm/compaction/), kcompactd is woken but never runs (the world)
 */
#define CONFIG_COMPACTION 1
/*
 * Page migration, for demotion to a lower memory tier: the world migrates
 * (kernel-shim/world/migrate.c) and builds the tiers with
 * mm/memory-tiers.c where the tree's memory tiers are those it follows
 */
#if TB_HAVE_memory_tier_late_init
#define CONFIG_MIGRATION 1
/* NUMA && MMU, default y, selects MIGRATION: demotion's option (7.2) */
#define CONFIG_NUMA_MIGRATION 1
#endif

/*
 * Transparent huge pages as Debian builds them (x86-64): always at boot
 * unless the command line says otherwise, THP swap-out; on the trees the
 * world's THP is ported to (6.12 on: mm/vmscan/huge_memory.manifest)
 */
#if TB_HAVE_thp_folio_split
#define CONFIG_HAVE_ARCH_TRANSPARENT_HUGEPAGE 1
#define CONFIG_TRANSPARENT_HUGEPAGE 1
#define CONFIG_TRANSPARENT_HUGEPAGE_ALWAYS 1
#define CONFIG_ARCH_WANTS_THP_SWAP 1
#define CONFIG_THP_SWAP 1
#define CONFIG_PGTABLE_HAS_HUGE_LEAVES 1
/* def_bool !NO_PAGE_MAPCOUNT (7.x): a large folio's pages keep their own mapcounts */
#define CONFIG_PAGE_MAPCOUNT 1
/* THP selects it: a large folio is one multi-index entry of the page cache */
#define CONFIG_XARRAY_MULTI 1
#endif
/* THP selects MM_ID where the tree has it (6.15): a large folio's mms */
#if TB_HAVE_mm_id
#define CONFIG_MM_ID 1
#endif

#endif /* _KSHIM_KCONFIG_H */
