/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_THREAD_INFO_H
#define _KSHIM_LINUX_THREAD_INFO_H
/*
 * The arch's kernel stack: x86-64's THREAD_SIZE (16 KiB without KASAN),
 * which sizes vm_event_item.h's kernel-stack histogram.
 */
#include <asm/page.h>
#define THREAD_SIZE_ORDER 2
#define THREAD_SIZE (PAGE_SIZE << THREAD_SIZE_ORDER)
#endif
