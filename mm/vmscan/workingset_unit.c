// SPDX-License-Identifier: GPL-2.0-only
/* mm/workingset.c's extract (#line markers into the tree) over the reclaim environment. */
#include "vmscan/reclaim_env.h"
#include KWORKINGSET_EXTRACT
