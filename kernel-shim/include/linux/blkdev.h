/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_BLKDEV_H
#define _KSHIM_LINUX_BLKDEV_H
/* The world's block devices complete I/O on virtual time: plugging is a no-op. */
struct blk_plug {
	int unused;
};
static inline void blk_start_plug(struct blk_plug *plug)
{
}
static inline void blk_finish_plug(struct blk_plug *plug)
{
}
#endif
