/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_BACKING_DEV_H
#define _KSHIM_LINUX_BACKING_DEV_H
/* !CONFIG_CGROUP_WRITEBACK: no per-memcg writeback state to retire. */
struct mem_cgroup;
static inline void wb_memcg_offline(struct mem_cgroup *memcg)
{
}
#endif
