/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_RMAP_H
#define _KSHIM_LINUX_RMAP_H
/*
 * Reverse mapping is the world's (kernel-shim/world/rmap.c): it knows
 * every mapping of a folio, reads and clears the accessed bits the
 * hardware set in them, and unmaps. The flags are the kernel's.
 */
#include <linux/types.h>
#include <linux/mm_types.h>
#include <linux/huge_mm.h>
#ifdef CONFIG_MM_ID
/* a large folio's mm ids are under a bit lock of the folio */
#include <asm/processor.h>
#include <linux/bit_spinlock.h>
#endif
#include <kgen/rmap.h>

struct mem_cgroup;
/* how many mappings referenced the folio since the last call; clears them */
int folio_referenced(struct folio *folio, int is_locked, struct mem_cgroup *memcg,
		     unsigned long *vm_flags);
/* unmap from every mapping (anon: the pte becomes the folio's swap entry) */
void try_to_unmap(struct folio *folio, enum ttu_flags flags);
#endif
