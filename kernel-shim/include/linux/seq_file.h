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
	size_t from;		/* seq_read(): where the text not yet read starts */
	size_t count;
	loff_t index;		/* seq_read(): the record ->start() goes on from */
	loff_t read_pos;	/* seq_read(): the bytes read so far */
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
 * file; seq_read() prints its records into a kernel buffer of a page and
 * gives the reader what fits, going on at the next read() from the record
 * it stopped at (kernel-shim/kernfs.c), as fs/seq_file.c does.
 */
int seq_open(struct file *file, const struct seq_operations *op);
ssize_t seq_read(struct file *file, char __user *buf, size_t size, loff_t *ppos);
loff_t seq_lseek(struct file *file, loff_t offset, int whence);
int seq_release(struct inode *inode, struct file *file);
#endif
