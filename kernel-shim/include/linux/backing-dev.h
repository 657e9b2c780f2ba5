/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_BACKING_DEV_H
#define _KSHIM_LINUX_BACKING_DEV_H
/* !CONFIG_CGROUP_WRITEBACK: no per-memcg writeback state to retire. */
struct mem_cgroup;
static inline void wb_memcg_offline(struct mem_cgroup *memcg)
{
}
/*
 * The world's writeback is per folio (kernel-shim/world/writeback.c): no
 * bdi_writeback keeps counts an inode's writes would reach
 */
struct inode;
struct bdi_writeback;
static inline struct bdi_writeback *inode_to_wb(struct inode *inode)
{
	return NULL;
}
/* every file of the world is written back (world/writeback.c) */
struct address_space;
static inline bool mapping_can_writeback(struct address_space *mapping)
{
	return true;
}
#endif
