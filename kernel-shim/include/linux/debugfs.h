/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_DEBUGFS_H
#define _KSHIM_LINUX_DEBUGFS_H
/*
 * debugfs as a table of top-level files (kernel-shim/kernfs.c): what an
 * initcall creates, a test opens, reads and writes through the file's own
 * operations (tb_debugfs_read/tb_debugfs_write, kshim/testbed.h).
 */
#include <linux/types.h>
#include <linux/fs.h>
struct dentry;
struct dentry *debugfs_create_file(const char *name, umode_t mode, struct dentry *parent,
				   void *data, const struct file_operations *fops);
/* a file whose operations read back a value of their creator's (6.14) */
struct dentry *debugfs_create_file_aux(const char *name, umode_t mode, struct dentry *parent,
				       void *data, const void *aux,
				       const struct file_operations *fops);
void *debugfs_get_aux(const struct file *file);
/* the tree's wrappers of the two (debugfs_create_file_aux_num(), ...) */
#include <kgen/debugfs.h>
static inline const struct file_operations *debugfs_real_fops(const struct file *filp)
{
	return filp->f_op;
}
static inline void debugfs_remove(struct dentry *dentry) { }
static inline void debugfs_remove_recursive(struct dentry *dentry) { }
#endif
