/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_INIT_H
#define _KSHIM_LINUX_INIT_H
/*
 * No initcalls: the test bed calls what a subsystem would run at boot
 * (mem_cgroup_init, ...) from its world set-up. Section markers are in
 * compiler_types.h.
 */
#include <linux/compiler_types.h>
#define subsys_initcall(fn)
#define core_initcall(fn)
#define __setup(str, fn)
#endif
