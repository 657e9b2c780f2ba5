/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_DEBUGFS_H
#define _KSHIM_LINUX_DEBUGFS_H
/* No debugfs in the test bed (!CONFIG_DEBUG_FS): removal is a no-op. */
struct dentry;
static inline void debugfs_remove(struct dentry *dentry) { }
static inline void debugfs_remove_recursive(struct dentry *dentry) { }
#endif
