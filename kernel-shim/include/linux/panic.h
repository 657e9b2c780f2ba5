/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_PANIC_H
#define _KSHIM_LINUX_PANIC_H
/* A panic ends the test at the call site, as BUG() does. */
#include <linux/bug.h>
#define panic(fmt, ...) kshim_bug(__FILE__, __LINE__, __func__)
#include <kgen/panic.h>
#endif
