/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_KMEMLEAK_H
#define _KSHIM_LINUX_KMEMLEAK_H
/*
 * No kmemleak (CONFIG_DEBUG_KMEMLEAK off): LeakSanitizer sees every shim
 * allocation instead.
 */
static inline void kmemleak_update_trace(const void *ptr)
{
	(void)ptr;
}
#endif
