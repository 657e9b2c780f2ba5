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
#include <linux/fs.h>
struct bdi_writeback;
static inline struct bdi_writeback *inode_to_wb(struct inode *inode)
{
	return NULL;
}

/*
 * The slice of a device's backing_dev_info that page-cache code reads:
 * its readahead window and I/O size in pages, and whether it writes back
 * (BDI_CAP_WRITEBACK). Each world file has its own (kernel-shim/world/).
 */
struct backing_dev_info {
	unsigned long ra_pages;
	unsigned long io_pages;
	unsigned int capabilities;
};

static inline struct backing_dev_info *inode_to_bdi(struct inode *inode)
{
	return inode->i_sb->s_bdi;
}
#include <kgen/backing-dev.h>
#endif
