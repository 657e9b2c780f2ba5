/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_COMPACTION_H
#define _KSHIM_LINUX_COMPACTION_H
/* !CONFIG_COMPACTION: the kernel's stubs (kgen/compaction.h). */
#include <linux/types.h>
#include <linux/mmzone.h>
#include <kgen/compaction.h>
#endif
