// SPDX-License-Identifier: GPL-2.0-only
/* mm/vmscan.c's extract (#line markers into the tree) over the reclaim environment. */
#include "vmscan/reclaim_env.h"
#include KVMSCAN_EXTRACT
