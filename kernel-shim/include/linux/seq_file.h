/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_SEQ_FILE_H
#define _KSHIM_LINUX_SEQ_FILE_H
/*
 * A seq_file that prints into one buffer (kernel-shim/seq.c): what a
 * cgroup control file's seq_show writes is what the test reads.
 */
#include <linux/types.h>
#include <linux/compiler.h>
struct seq_file;
struct file;
struct inode;
struct seq_operations {
	void *(*start)(struct seq_file *m, loff_t *pos);
	void (*stop)(struct seq_file *m, void *v);
	void *(*next)(struct seq_file *m, void *v, loff_t *pos);
	int (*show)(struct seq_file *m, void *v);
};
struct seq_file {
	char *buf;
	size_t size;
	size_t count;
	void *private;
	const struct seq_operations *op;
	struct file *file;
};
__printf(2, 3) void seq_printf(struct seq_file *m, const char *fmt, ...);
void seq_puts(struct seq_file *m, const char *s);
void seq_putc(struct seq_file *m, char c);
static inline bool seq_has_overflowed(struct seq_file *m)
{
	return m->count == m->size;
}
/*
 * A seq_operations file (debugfs): seq_open() attaches a seq_file to the
 * file; seq_read() runs start/show/next/stop once over the reader's whole
 * buffer (an overflow is reported as -EFBIG, not retried).
 */
int seq_open(struct file *file, const struct seq_operations *op);
ssize_t seq_read(struct file *file, char __user *buf, size_t size, loff_t *ppos);
loff_t seq_lseek(struct file *file, loff_t offset, int whence);
int seq_release(struct inode *inode, struct file *file);
#endif
