/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Stands in for mm/internal.h when mm/shrinker.c is compiled: only the
 * pieces shrinker.c uses, extracted from the tree's own mm/internal.h.
 */
#ifndef _KSHIM_MM_SHRINKER_INTERNAL_H
#define _KSHIM_MM_SHRINKER_INTERNAL_H
#include <kshim/core.h>
#include <linux/types.h>
#include <linux/gfp.h>
#include <kgen/mm_internal_shrinker.h>
#endif
