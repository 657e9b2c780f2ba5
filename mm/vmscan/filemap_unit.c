// SPDX-License-Identifier: GPL-2.0-only
/* mm/filemap.c's extract (#line markers into the tree) over the reclaim environment. */
#include "vmscan/reclaim_env.h"
#include <linux/panic.h>
#include <linux/sizes.h>
#include <linux/mempolicy.h>
#include <linux/cacheflush.h>
#include <trace/events/filemap.h>
#include KFILEMAP_EXTRACT
