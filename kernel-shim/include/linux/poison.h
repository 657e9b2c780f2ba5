/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_POISON_H
#define _KSHIM_LINUX_POISON_H
/* Poison values kept distinct and unmapped so a stale list use faults. */
#define POISON_POINTER_DELTA 0
#define LIST_POISON1 ((void *)0x100 + POISON_POINTER_DELTA)
#define LIST_POISON2 ((void *)0x122 + POISON_POINTER_DELTA)
/* a tail page's mapping field while the compound page is whole */
#define TAIL_MAPPING ((void *)0x400 + POISON_POINTER_DELTA)
#endif
