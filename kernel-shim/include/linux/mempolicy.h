/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_MEMPOLICY_H
#define _KSHIM_LINUX_MEMPOLICY_H
/*
 * What page_alloc.c's zonelist building calls: check_highest_zone()
 * records policy_zone for mm/mempolicy.c, which is not brought in (a
 * task's binding is its cpuset's mems_allowed, linux/cpuset.h).
 */
#include <linux/mmzone.h>

static inline void check_highest_zone(enum zone_type k)
{
}

/* an allocation under a policy that does not interleave (no policy is ever given) */
#define NO_INTERLEAVE_INDEX (-1UL)
#endif
