/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_MMDEBUG_H
#define _KSHIM_LINUX_MMDEBUG_H
/* CONFIG_DEBUG_VM's checks are always on: they report through linux/bug.h. */
#include <linux/bug.h>
struct page;
#include <kgen/mmdebug.h>
#endif
