/* SPDX-License-Identifier: GPL-2.0-only */
#ifdef KSHIM_IN_SYSTEM_HEADERS
#include_next <linux/errno.h>
#else
#ifndef _KSHIM_LINUX_ERRNO_H
#define _KSHIM_LINUX_ERRNO_H
#include <errno.h>
/* kernel-internal codes, never seen by user space */
#define ERESTARTSYS 512
#define ENOTSUPP 524
#endif
#endif
