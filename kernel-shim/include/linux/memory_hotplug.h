/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_MEMORY_HOTPLUG_H
#define _KSHIM_LINUX_MEMORY_HOTPLUG_H
/* !CONFIG_MEMORY_HOTPLUG: the world's nodes never change at run time. */
static inline void get_online_mems(void)
{
}
static inline void put_online_mems(void)
{
}
#endif
