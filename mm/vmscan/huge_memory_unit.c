// SPDX-License-Identifier: GPL-2.0-only
/*
 * mm/huge_memory.c's policy and mechanics of transparent huge pages: the
 * sysfs knobs and boot options, the orders a fault may take, the split
 * of a large folio and of a PMD mapping, the deferred split queue and its
 * shrinker, over the reclaim environment.
 */
#include "vmscan/reclaim_env.h"
#include <linux/swapops.h>
#include <linux/page_owner.h>
#include <linux/poison.h>
#include <asm/pgalloc.h>
#include <linux/sizes.h>

#include KHUGE_MEMORY_EXTRACT
