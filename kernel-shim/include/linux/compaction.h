/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_COMPACTION_H
#define _KSHIM_LINUX_COMPACTION_H
/*
 * CONFIG_COMPACTION: the kernel's declarations (kgen/compaction.h); the
 * decisions are mm/compaction.c's own (mm/compaction/), kcompactd is the
 * world's (kernel-shim/world/kcompactd.c)
 */
#include <linux/types.h>
#include <linux/mmzone.h>
#include <kgen/compaction.h>
#endif
