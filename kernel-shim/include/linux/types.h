/* SPDX-License-Identifier: GPL-2.0-only */
#ifdef KSHIM_IN_SYSTEM_HEADERS
#include_next <linux/types.h>
#else
#ifndef _KSHIM_LINUX_TYPES_H
#define _KSHIM_LINUX_TYPES_H
/* Kernel scalar and list types; the uapi ones come from the system. */
#include_next <linux/types.h>
#include <linux/compiler.h>

typedef __u8 u8;
typedef __u16 u16;
typedef __u32 u32;
typedef __u64 u64;
typedef __s8 s8;
typedef __s16 s16;
typedef __s32 s32;
typedef __s64 s64;
typedef unsigned int gfp_t;
typedef unsigned int slab_flags_t;
typedef unsigned int fmode_t;
typedef u64 phys_addr_t;
typedef phys_addr_t resource_size_t;
typedef unsigned long pgoff_t;
typedef unsigned long irq_hw_number_t;
typedef unsigned short umode_t;
typedef unsigned int uint;
typedef unsigned long ulong;

typedef struct {
	int counter;
} atomic_t;
typedef struct {
	s64 counter;
} atomic64_t;
#define ATOMIC_INIT(i) { (i) }

#define DECLARE_BITMAP(name, bits) unsigned long name[((bits) + 63) / 64]

#include <kgen/types.h>

/* The kernel's callback_head is liburcu's rcu_head: call_rcu() takes it. */
#define callback_head rcu_head
struct rcu_head;
typedef void (*rcu_callback_t)(struct rcu_head *head);
#endif
#endif
