// SPDX-License-Identifier: GPL-2.0-only
/*
 * seq_file and seq_buf printing into one caller-sized buffer. A seq_file
 * that fills up is marked overflowed (count == size), as the kernel's is
 * before it retries with a bigger buffer; the cgroupfs reports that.
 */
#include <linux/seq_file.h>
#include <linux/seq_buf.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static void seq_vprintf(struct seq_file *m, const char *fmt, va_list ap)
{
	size_t room;
	int n;

	if (m->count >= m->size)
		return;
	room = m->size - m->count;
	n = vsnprintf(m->buf + m->count, room, fmt, ap);
	/* keep one byte for the reader's NUL */
	if (n < 0 || (size_t)n >= room - 1)
		m->count = m->size;
	else
		m->count += n;
}

void seq_printf(struct seq_file *m, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	seq_vprintf(m, fmt, ap);
	va_end(ap);
}

void seq_puts(struct seq_file *m, const char *s)
{
	seq_printf(m, "%s", s);
}

void seq_putc(struct seq_file *m, char c)
{
	seq_printf(m, "%c", c);
}

int seq_buf_printf(struct seq_buf *s, const char *fmt, ...)
{
	va_list ap;
	size_t room = s->len < s->size ? s->size - s->len : 0;
	int n;

	va_start(ap, fmt);
	n = room ? vsnprintf(s->buffer + s->len, room, fmt, ap) : 0;
	va_end(ap);
	if (!room || n < 0 || (size_t)n >= room) {
		s->len = s->size + 1;	/* overflowed, as the kernel marks it */
		return -1;
	}
	s->len += n;
	return 0;
}

int seq_buf_puts(struct seq_buf *s, const char *str)
{
	return seq_buf_printf(s, "%s", str);
}
