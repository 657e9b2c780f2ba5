// SPDX-License-Identifier: GPL-2.0-only
/*
 * The shrinker code of the 6.1 tree's mm/vmscan.c, extracted function by
 * function (vmscan_shrinker.manifest). vmscan.c's own includes are the
 * whole reclaim world: the extract drops them and gets its environment
 * from here.
 */
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/idr.h>
#include <linux/list.h>
#include <linux/debugfs.h>
#include <linux/vmstat.h>
#include <linux/memcontrol.h>
#include <trace/events/vmscan.h>
#include "env.h"

/* give-ups of shrink_slab{,_memcg}: a failed trylock, a contended break */
#undef down_read_trylock
#define down_read_trylock(sem) k61_down_read_trylock(sem)
#undef rwsem_is_contended
#define rwsem_is_contended(sem) k61_rwsem_is_contended(sem)

#include "vmscan_shrinker.extract.c"
