// SPDX-License-Identifier: GPL-2.0-only
/* mm/readahead.c's extract (#line markers into the tree) over the reclaim environment. */
#include "vmscan/reclaim_env.h"
#include <linux/blk-cgroup.h>
#include <trace/events/readahead.h>
#include KREADAHEAD_EXTRACT
