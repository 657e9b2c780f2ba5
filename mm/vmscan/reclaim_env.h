/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What mm/vmscan.c, mm/swap.c and mm/workingset.c include, as the test bed
 * provides it: shadow headers for the environment (with real pieces of
 * the kernel's headers in them), mm/internal.h's pieces, and the
 * declarations of what the simulated world does for reclaim (rmap,
 * swap cache, page cache, writeback: kernel-shim/world/).
 */
#ifndef _MM_VMSCAN_RECLAIM_ENV_H
#define _MM_VMSCAN_RECLAIM_ENV_H
#include <linux/init.h>
#include <linux/mm.h>
#include <linux/sched/mm.h>
#include <linux/gfp.h>
#include <linux/swap.h>
#include <linux/pagemap.h>
#include <linux/vmpressure.h>
#include <linux/vmstat.h>
#include <linux/mm_inline.h>
#include <linux/backing-dev.h>
#include <linux/rmap.h>
#include <linux/cpu.h>
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/freezer.h>
#include <linux/memcontrol.h>
#include <linux/migrate.h>
#include <linux/oom.h>
#include <linux/pagevec.h>
#include <linux/printk.h>
#include <linux/psi.h>
#include <linux/random.h>
#include <linux/local_lock.h>
#include <linux/huge_mm.h>
#include <linux/compaction.h>
#include <linux/xarray.h>
#include <linux/writeback.h>
#include <linux/memory-tiers.h>
#include <linux/dax.h>
#include <linux/shmem_fs.h>
#include <linux/khugepaged.h>
#include <linux/delayacct.h>
#include <linux/cpuset.h>
#include <linux/buffer_head.h>
#include <linux/blkdev.h>
#include <linux/sched/sysctl.h>
#include <linux/pageblock-flags.h>
#include <linux/pgtable.h>
#include <linux/pagewalk.h>
#include <linux/mmu_notifier.h>
#include <linux/hugetlb_inline.h>
#include <linux/hash.h>
#include <linux/rculist_nulls.h>
#include <linux/ctype.h>
#include <linux/debugfs.h>
#include <linux/kobject.h>
#include <linux/memory_hotplug.h>
#include <linux/uaccess.h>
#include <linux/string.h>
#include <linux/parser.h>
#include <trace/events/vmscan.h>
#include <trace/events/pagemap.h>
#include <kgen/mm_internal_reclaim.h>
#if !TB_HAVE_page_flags_idle
#include <kgen/page_idle.h>
#endif
#include <kshim/reclaim.h>
#endif
