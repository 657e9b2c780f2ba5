/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_DAX_H
#define _KSHIM_LINUX_DAX_H
/* No DAX filesystems in the simulated machine. */
#include <linux/fs.h>
static inline bool dax_mapping(struct address_space *mapping)
{
	return false;
}
#endif
