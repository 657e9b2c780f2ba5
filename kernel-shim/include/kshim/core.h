/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Included first by every translation unit (-include): pulls in the C
 * library and liburcu while shadow headers forward to the system ones, so
 * that glibc's own #include <linux/...> never sees kernel definitions.
 */
#ifndef _KSHIM_CORE_H
#define _KSHIM_CORE_H

#define KSHIM_IN_SYSTEM_HEADERS 1
#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include <stdarg.h>
#include <limits.h>
#include <errno.h>
#include <string.h>
#include <stdio.h>
#include <stdlib.h>
#include <pthread.h>
#include <sched.h>
#ifndef __cplusplus
/* memb flavour: real grace periods without signals (DESIGN, pitfalls). */
#define _LGPL_SOURCE 1
#define RCU_MEMBARRIER 1
#ifndef CONFIG_PROVE_RCU
/*
 * Benchmark builds: the inline readers take no fence, as the kernel's;
 * the writer's sys_membarrier() orders them (rcu.c checks at start-up
 * that liburcu found the system call).
 */
#define CONFIG_RCU_FORCE_SYS_MEMBARRIER 1
#endif
#include <urcu.h>
/* the kernel API is spelled by linux/rcupdate.h, not by liburcu's maps */
#include <urcu/map/clear.h>
#undef rcu_dereference
#undef rcu_assign_pointer
#undef rcu_cmpxchg_pointer
#undef rcu_xchg_pointer
#undef rcu_set_pointer
#endif
#undef KSHIM_IN_SYSTEM_HEADERS

/* glibc clashes (DESIGN, pitfalls) */
#undef __always_inline
#undef abs

#include <kshim/kconfig.h>
#if !TB_HAVE_base_small_bool
/* an int option, always defined, before it became a bool; not in kconfig.h,
 * whose set kextract reads: unifdef would take the bool's
 * IS_ENABLED(CONFIG_BASE_SMALL) as true */
#define CONFIG_BASE_SMALL 0
#endif

#endif /* _KSHIM_CORE_H */
