/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_EVENTFD_H
#define _KSHIM_LINUX_EVENTFD_H
/* No eventfd listeners exist in the test bed (memory.pressure_level is v1). */
#include <linux/bug.h>
struct eventfd_ctx;
static inline void kshim_eventfd_signal(struct eventfd_ctx *ctx)
{
	WARN(1, "eventfd listeners are not modelled");
}
/* before 6.8 it took a count as well */
#define eventfd_signal(ctx, ...) kshim_eventfd_signal(ctx)
#endif
