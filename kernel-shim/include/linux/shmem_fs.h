/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_SHMEM_FS_H
#define _KSHIM_LINUX_SHMEM_FS_H
/* The world's files are regular page cache; tmpfs is not modelled. */
#include <linux/fs.h>
static inline bool shmem_mapping(struct address_space *mapping)
{
	return false;
}
static inline bool shmem_file(struct file *file)
{
	return false;
}
static inline bool shmem_hpage_pmd_enabled(void)
{
	return false;
}
static inline pgoff_t shmem_fallocend(struct inode *inode, pgoff_t eof)
{
	return eof;
}
/* mm/shmem.c: never asked, no vma is tmpfs's (kernel-shim/world/pagecache.c) */
void shmem_uncharge(struct inode *inode, long pages);
unsigned long shmem_allowable_huge_orders(struct inode *inode, struct vm_area_struct *vma,
					  pgoff_t index, loff_t write_end, bool shmem_huge_force);
#endif
