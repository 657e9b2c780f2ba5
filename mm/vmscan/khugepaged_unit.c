// SPDX-License-Identifier: GPL-2.0-only
/*
 * mm/khugepaged.c's settings, its start and stop, its thread and the
 * free-memory reserve of THP, over the reclaim environment. The thread
 * start_stop_khugepaged() starts while THP is on is scheduled by the
 * world on virtual time (world/kswapd.c): it scans every
 * scan_sleep_millisecs, as the kernel's; a test may also run one pass of
 * its scan and collapse itself (tb_khugepaged_scan()), and MADV_COLLAPSE
 * runs the collapse of a range (madvise_collapse()).
 */
#include "vmscan/reclaim_env.h"
#include <linux/khugepaged.h>
#include <linux/sizes.h>
#include KMM_SLOT_H
/* hugepage_madvise()'s MADV_ values: the uapi's, as the world's tb_madvise() passes them */
#include <sys/mman.h>

#if !TB_HAVE_thp_folio_split
/* 6.1: the world builds no THP, so start_stop_khugepaged() never starts it */
static int khugepaged(void *none)
{
	WARN_ONCE(1, "tb: khugepaged never runs");
	return 0;
}
#endif

#include <linux/swapops.h>
#include <linux/userfaultfd_k.h>
#include <linux/mmu_notifier.h>
#include <linux/highmem.h>
#include <linux/ksm.h>
#include <asm/pgalloc.h>
#include <asm-generic/tlb.h>
#include <asm-generic/pgtable_uffd.h>
#include <trace/events/huge_memory.h>
#if TB_HAVE_collapse_scan_result
#include <linux/leafops.h>
#endif

/*
 * MADV_COLLAPSE of a file or shmem range: not built (CONFIG_SHMEM off).
 * The stubs return 0, SCAN_FAIL (enum scan_result is the extract's own).
 */
struct collapse_control;
#if TB_HAVE_collapse_scan_result
static int collapse_scan_file(struct mm_struct *mm, unsigned long addr, struct file *file,
			      pgoff_t start, struct collapse_control *cc)
{
	WARN_ONCE(1, "tb: no file collapse");
	return 0;
}

static int try_collapse_pte_mapped_thp(struct mm_struct *mm, unsigned long addr,
				       bool install_pmd)
{
	WARN_ONCE(1, "tb: no file collapse");
	return 0;
}
#else
static int hpage_collapse_scan_file(struct mm_struct *mm, unsigned long addr,
				    struct file *file, pgoff_t start,
				    struct collapse_control *cc)
{
	WARN_ONCE(1, "tb: no file collapse");
	return 0;
}

int collapse_pte_mapped_thp(struct mm_struct *mm, unsigned long addr, bool install_pmd)
{
	WARN_ONCE(1, "tb: no file collapse");
	return 0;
}
#endif

/* the file branch's writeback, never reached */
int filemap_write_and_wait_range(struct address_space *mapping, loff_t lstart, loff_t lend)
{
	WARN_ONCE(1, "tb: no file collapse");
	return 0;
}

#include KKHUGEPAGED_EXTRACT

/* khugepaged's settings as a kernel boots with them (khugepaged_init() sets the rest) */
static unsigned int scan_sleep_at_boot, alloc_sleep_at_boot;

static __attribute__((constructor)) void khugepaged_boot_values(void)
{
	scan_sleep_at_boot = khugepaged_scan_sleep_millisecs;
	alloc_sleep_at_boot = khugepaged_alloc_sleep_millisecs;
}

void tb_khugepaged_reset(void)
{
	khugepaged_scan_sleep_millisecs = scan_sleep_at_boot;
	khugepaged_alloc_sleep_millisecs = alloc_sleep_at_boot;
	khugepaged_pages_collapsed = khugepaged_full_scans = 0;
}

#if TB_HAVE_thp_folio_split
/*
 * khugepaged()'s exit, for the world's shutdown: the slot of the mm its
 * scan was at (a pass of tb_khugepaged_scan() leaves one too) is collected,
 * its mm dropped if the task has exited
 */
void tb_khugepaged_drop_scan(void)
{
	typeof(khugepaged_scan.mm_slot) slot;

	spin_lock(&khugepaged_mm_lock);
	slot = khugepaged_scan.mm_slot;
	khugepaged_scan.mm_slot = NULL;
	if (slot)
		collect_mm_slot(slot);
	spin_unlock(&khugepaged_mm_lock);
}
#else
void tb_khugepaged_drop_scan(void)
{
}
#endif

/*
 * One wake-up of khugepaged: khugepaged_do_scan() over the mms on its list
 * (up to pages_to_scan ptes), as its thread runs every
 * scan_sleep_millisecs; the world runs it when a test asks
 */
void tb_khugepaged_scan(void)
{
	khugepaged_do_scan(&khugepaged_collapse_control);
}
