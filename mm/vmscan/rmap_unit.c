// SPDX-License-Identifier: GPL-2.0-only
/*
 * mm/rmap.c's accounting of a folio's mappings over the reclaim
 * environment; the walks of the mappings are the world's (world/vm.c).
 */
#include "vmscan/reclaim_env.h"

#include KRMAP_EXTRACT
