// SPDX-License-Identifier: GPL-2.0-only
/*
 * mm/memory.c's anonymous fault of a pte (do_anonymous_page() and
 * alloc_anon_folio(): a small folio or an mTHP), over the reclaim
 * environment and the world's page tables.
 */
#include "vmscan/reclaim_env.h"
#include <linux/userfaultfd_k.h>
#include <linux/swapops.h>
#if TB_HAVE_leafops_h
#include <linux/leafops.h>
#endif
#include <asm-generic/pgtable_uffd.h>
#include <asm/pgalloc.h>

#include KMEMORY_EXTRACT
