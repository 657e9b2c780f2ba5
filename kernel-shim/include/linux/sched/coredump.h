/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_SCHED_COREDUMP_H
#define _KSHIM_LINUX_SCHED_COREDUMP_H
/* The MMF_* mm flags mm code tests (kgen/coredump.h, real). */
#include <kgen/coredump.h>
#endif
