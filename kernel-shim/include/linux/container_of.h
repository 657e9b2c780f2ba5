/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_CONTAINER_OF_H
#define _KSHIM_LINUX_CONTAINER_OF_H
#include <linux/build_bug.h>
#include <linux/stddef.h>
#define container_of(ptr, type, member) ({				\
	void *__mptr = (void *)(ptr);					\
	((type *)(__mptr - offsetof(type, member))); })
#define container_of_const(ptr, type, member) container_of(ptr, type, member)
#endif
