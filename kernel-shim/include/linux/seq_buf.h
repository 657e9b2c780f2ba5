/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_SEQ_BUF_H
#define _KSHIM_LINUX_SEQ_BUF_H
/* seq_buf over a caller's buffer (kernel-shim/seq.c). */
#include <linux/types.h>
#include <linux/compiler.h>
struct seq_buf {
	char *buffer;
	size_t size;
	size_t len;
};
static inline void seq_buf_init(struct seq_buf *s, char *buf, unsigned int size)
{
	s->buffer = buf;
	s->size = size;
	s->len = 0;
	if (size)
		buf[0] = '\0';
}
static inline bool seq_buf_has_overflowed(struct seq_buf *s)
{
	return s->len > s->size;
}
static inline const char *seq_buf_str(struct seq_buf *s)
{
	return s->buffer;
}
__printf(2, 3) int seq_buf_printf(struct seq_buf *s, const char *fmt, ...);
int seq_buf_puts(struct seq_buf *s, const char *str);
#endif
