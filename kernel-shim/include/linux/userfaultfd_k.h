/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_USERFAULTFD_K_H
#define _KSHIM_LINUX_USERFAULTFD_K_H
/* !CONFIG_USERFAULTFD: the kernel's stubs (kgen/userfaultfd_k.h). */
#include <linux/mm_types.h>
#include <kgen/userfaultfd_k.h>
#endif
