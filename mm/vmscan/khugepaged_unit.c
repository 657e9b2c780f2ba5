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

/* khugepaged's thread function: its scan and collapse are not modelled */
static int khugepaged(void *none)
{
	WARN_ONCE(1, "tb: khugepaged never runs");
	return 0;
}

#include KKHUGEPAGED_EXTRACT
