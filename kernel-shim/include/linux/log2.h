/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_LOG2_H
#define _KSHIM_LINUX_LOG2_H
/* ilog2() and is_power_of_2() are the shim's bitops.h's */
#include <linux/bitops.h>
#endif
