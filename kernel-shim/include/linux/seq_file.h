/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_SEQ_FILE_H
#define _KSHIM_LINUX_SEQ_FILE_H
/*
 * A seq_file that prints into one buffer (kernel-shim/seq.c): what a
 * cgroup control file's seq_show writes is what the test reads.
 */
#include <linux/types.h>
#include <linux/compiler.h>
struct seq_file {
	char *buf;
	size_t size;
	size_t count;
	void *private;
};
__printf(2, 3) void seq_printf(struct seq_file *m, const char *fmt, ...);
void seq_puts(struct seq_file *m, const char *s);
void seq_putc(struct seq_file *m, char c);
static inline bool seq_has_overflowed(struct seq_file *m)
{
	return m->count == m->size;
}
#endif
