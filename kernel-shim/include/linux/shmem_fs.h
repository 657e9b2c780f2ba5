/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_SHMEM_FS_H
#define _KSHIM_LINUX_SHMEM_FS_H
/* The world's files are regular page cache; tmpfs is not modelled. */
#include <linux/fs.h>
static inline bool shmem_mapping(struct address_space *mapping)
{
	return false;
}
#endif
