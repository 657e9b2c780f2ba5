/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_FS_H
#define _KSHIM_LINUX_FS_H
/*
 * The page cache's struct address_space and address_space_operations are
 * the kernel's (kgen/fs.h); the world's files, and the swap cache, are
 * address_spaces. Inodes are the world's (kernel-shim/world/).
 */
#include <linux/types.h>
#include <linux/list.h>
#include <linux/spinlock.h>
#include <linux/rwsem.h>
#include <linux/xarray.h>
#include <linux/rbtree_types.h>

#include <linux/errseq.h>
typedef u64 sector_t;
#include <linux/migrate_mode.h>
#define __randomize_layout
#include <kgen/fs.h>

/* the slices of an inode and a superblock that page-cache code reaches */
struct backing_dev_info;
struct super_block {
	errseq_t s_wb_err;
	struct backing_dev_info *s_bdi;	/* its device's readahead and writeback */
};
struct inode {
	struct super_block *i_sb;
	struct address_space *i_mapping;
	struct address_space i_data;
	spinlock_t i_lock;
	unsigned long i_ino;
	loff_t i_size;
	umode_t i_mode;			/* S_IFREG: the world's files are regular */
	atomic_t i_writecount;		/* no file is open for write */
};

/* the slice of an open file mm code reads: a mapping's vm_file, a debugfs file */
/* asm-generic/fcntl.h's, as the open file's flags hold it */
#ifndef O_NONBLOCK
#define O_NONBLOCK 00004000
#endif
struct file {
	fmode_t f_mode;
	unsigned int f_flags;
	struct address_space *f_mapping;
	struct inode *f_inode;
	const struct file_operations *f_op;
	struct file_ra_state f_ra;	/* readahead state of this open file */
	void *private_data;
	const void *kshim_aux;	/* its debugfs file's aux value (debugfs_get_aux()) */
};

/* the world's open files live as long as their file: no count to take */
static inline struct file *get_file(struct file *f)
{
	return f;
}

static inline void fput(struct file *f)
{
}

/* fs's, for the world's files (world/vm.c): POSIX_FADV_WILLNEED's readahead */
int vfs_fadvise(struct file *file, loff_t offset, loff_t len, int advice);

static inline struct inode *file_inode(const struct file *f)
{
	return f->f_inode;
}
#ifndef S_IFREG
#define S_IFMT  00170000
#define S_IFREG  0100000
#define S_ISREG(m)	(((m) & S_IFMT) == S_IFREG)
#endif
/*
 * The world's tasks own the files they map, so a mapping's pages are
 * theirs to page out (madvise's can_do_file_pageout()): fs/inode.c's
 * owner test and the security hooks' permission say yes
 */
static inline bool file_owner_or_capable(const struct file *file)
{
	return true;
}

static inline int file_permission(struct file *file, int mask)
{
	return 0;
}
/* 7.2: no file of the world is an anonymous inode's */
#define IS_ANON_FILE(inode) ((void)(inode), false)
static inline bool inode_is_open_for_write(const struct inode *inode)
{
	return atomic_read(&inode->i_writecount) > 0;
}
static inline loff_t i_size_read(const struct inode *inode)
{
	return READ_ONCE(inode->i_size);
}
static inline void i_size_write(struct inode *inode, loff_t i_size)
{
	WRITE_ONCE(inode->i_size, i_size);
}

/* no DAX (CONFIG_FS_DAX off: IS_DAX() is 0): a vma's file never is one */
#define IS_DAX(inode) ((void)(inode), false)
struct vm_area_struct;
static inline bool vma_is_dax(const struct vm_area_struct *vma)
{
	return false;
}

/* the operations of the files the test bed opens (debugfs) */
struct file_operations {
	loff_t (*llseek)(struct file *file, loff_t offset, int whence);
	ssize_t (*read)(struct file *file, char __user *buf, size_t size, loff_t *ppos);
	ssize_t (*write)(struct file *file, const char __user *buf, size_t size, loff_t *ppos);
	int (*open)(struct inode *inode, struct file *file);
	int (*release)(struct inode *inode, struct file *file);
};

/* the world's inodes have no inode LRU to put an emptied mapping's host on */
static inline void inode_add_lru(struct inode *inode)
{
}
/* its name since 7.0 */
static inline void inode_lru_list_add(struct inode *inode)
{
}
#endif
