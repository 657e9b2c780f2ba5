// SPDX-License-Identifier: GPL-2.0-only
/*
 * mm/khugepaged.c's settings, its start and stop and the free-memory
 * reserve of THP, over the reclaim environment. The thread it starts is
 * never scheduled (linux/kthread.h): it scans and collapses nothing.
 */
#include "vmscan/reclaim_env.h"
#include <linux/khugepaged.h>
#include <linux/sizes.h>
#include KMM_SLOT_H
/* hugepage_madvise()'s MADV_ values: the uapi's, as the world's tb_madvise() passes them */
#include <sys/mman.h>

/* khugepaged's thread function: its scan and collapse are not modelled */
static int khugepaged(void *none)
{
	WARN_ONCE(1, "tb: khugepaged never runs");
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
