/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_BUFFER_HEAD_H
#define _KSHIM_LINUX_BUFFER_HEAD_H
/* Buffer heads of the world's page cache (kernel-shim/world/pagecache.c). */
#include <linux/types.h>
struct folio;
#define buffer_heads_over_limit 0
bool try_to_free_buffers(struct folio *folio);
#endif
