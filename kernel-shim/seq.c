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

struct fmt_out {
	char *buf;
	size_t size, len;	/* len: what the whole output takes */
};

/* n bytes of s, as much as fits before the NUL's byte */
static void out_mem(struct fmt_out *o, const char *s, size_t n)
{
	size_t room = o->len + 1 < o->size ? o->size - 1 - o->len : 0;

	memcpy(o->buf + o->len, s, n < room ? n : room);
	o->len += n;
}

static void out_num(struct fmt_out *o, unsigned long long v, bool neg, unsigned int base)
{
	char digits[24];
	int n = sizeof(digits);

	do {
		digits[--n] = "0123456789abcdef"[v % base];
		v /= base;
	} while (v);
	if (neg)
		digits[--n] = '-';
	out_mem(o, digits + n, sizeof(digits) - n);
}

/*
 * vsnprintf() for the formats the mm code prints its counters with
 * (memory.stat: a line of "%s %llu\n" per counter, and the checks of
 * every fuzz operation read several): text, %%, %c, %s, and %d %i %u %x
 * with hh, h, l, ll, z or t, no flag, width or precision. glibc's
 * vsnprintf() costs some hundreds of instructions to set up per call,
 * more than such a line costs to print. Any other conversion: -1, and the
 * caller takes vsnprintf() with the arguments from the start.
 */
static int fmt_simple_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct fmt_out o = { .buf = buf, .size = size };

	for (; *fmt; fmt++) {
		const char *pct = strchr(fmt, '%') ?: fmt + strlen(fmt);
		int l = 0, h = 0;
		char c;

		if (pct != fmt) {
			out_mem(&o, fmt, pct - fmt);
			fmt = pct - 1;
			continue;
		}
		for (c = *++fmt; c == 'h' || c == 'l' || c == 'z' || c == 't'; c = *++fmt) {
			if (c == 'h')
				h++;
			else
				l = c == 'l' ? l + 1 : 3;	/* 3: size_t, ptrdiff_t */
		}
		switch (c) {
		case '%':
			out_mem(&o, "%", 1);
			break;
		case 'c': {
			char ch = va_arg(ap, int);

			out_mem(&o, &ch, 1);
			break;
		}
		case 's': {
			const char *str = va_arg(ap, const char *) ?: "(null)";

			out_mem(&o, str, strlen(str));
			break;
		}
		case 'd':
		case 'i': {
			long long v = l == 3 ? (long long)va_arg(ap, ptrdiff_t) :
				      l == 2 ? va_arg(ap, long long) :
				      l == 1 ? va_arg(ap, long) : va_arg(ap, int);

			if (h == 1)
				v = (short)v;
			else if (h > 1)
				v = (signed char)v;
			out_num(&o, v < 0 ? -(unsigned long long)v : v, v < 0, 10);
			break;
		}
		case 'u':
		case 'x': {
			unsigned long long v = l == 3 ? va_arg(ap, size_t) :
					       l == 2 ? va_arg(ap, unsigned long long) :
					       l == 1 ? va_arg(ap, unsigned long) :
					       va_arg(ap, unsigned int);

			if (h == 1)
				v = (unsigned short)v;
			else if (h > 1)
				v = (unsigned char)v;
			out_num(&o, v, false, c == 'x' ? 16 : 10);
			break;
		}
		default:
			return -1;
		}
	}
	if (size)
		buf[o.len < size ? o.len : size - 1] = '\0';
	return o.len;
}

static int seq_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	va_list aq;
	int n;

	va_copy(aq, ap);
	n = fmt_simple_vsnprintf(buf, size, fmt, aq);
	va_end(aq);
	return n >= 0 ? n : vsnprintf(buf, size, fmt, ap);
}

static void seq_vprintf(struct seq_file *m, const char *fmt, va_list ap)
{
	size_t room;
	int n;

	if (m->count >= m->size)
		return;
	room = m->size - m->count;
	n = seq_vsnprintf(m->buf + m->count, room, fmt, ap);
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
	n = room ? seq_vsnprintf(s->buffer + s->len, room, fmt, ap) : 0;
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
