// SPDX-License-Identifier: GPL-2.0-only
/*
 * WARN/BUG/context reports from the kernel code. Counted so a test can
 * assert "no unexpected WARN"; the last one is kept for the failure text.
 */
#include <linux/kernel.h>
#include <linux/panic.h>
#include <kshim/report.h>
#include <string.h>

bool kshim_quiet = true;
static unsigned int warns, expected_warns, violations;
static char last[512];
static pthread_mutex_t report_lock = PTHREAD_MUTEX_INITIALIZER;

static void vrecord(const char *kind, const char *file, int line, const char *func,
		    const char *what, const char *fmt, va_list ap)
{
	int n;

	pthread_mutex_lock(&report_lock);
	n = snprintf(last, sizeof(last), "%s at %s:%d %s(): %s", kind, file, line, func, what);
	if (fmt && n > 0 && (size_t)n < sizeof(last) - 2) {
		last[n++] = ' ';
		vsnprintf(last + n, sizeof(last) - n, fmt, ap);
	}
	pthread_mutex_unlock(&report_lock);
	if (!kshim_quiet || getenv("KSHIM_VERBOSE"))
		fprintf(stderr, "kshim: %s\n", last);
}

/* the kernel log since boot, as dmesg reads it; the oldest text goes first when full */
static char log_buf[1 << 16];
static size_t log_len;

static void log_append(const char *fmt, va_list ap)
{
	char line[1024];
	int n = vsnprintf(line, sizeof(line), fmt, ap);

	if (n <= 0)
		return;
	if ((size_t)n >= sizeof(line))
		n = sizeof(line) - 1;
	pthread_mutex_lock(&report_lock);
	if (log_len + n >= sizeof(log_buf)) {
		size_t drop = log_len + n - sizeof(log_buf) + 1;

		memmove(log_buf, log_buf + drop, log_len - drop);
		log_len -= drop;
	}
	memcpy(log_buf + log_len, line, n);
	log_len += n;
	log_buf[log_len] = '\0';
	pthread_mutex_unlock(&report_lock);
}

void kshim_printk(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_append(fmt, ap);
	va_end(ap);
	if (kshim_quiet && !getenv("KSHIM_VERBOSE"))
		return;
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
}

size_t tb_dmesg(char *buf, size_t size)
{
	size_t n;

	pthread_mutex_lock(&report_lock);
	n = log_len < size ? log_len : size - 1;
	memcpy(buf, log_buf + log_len - n, n);
	buf[n] = '\0';
	pthread_mutex_unlock(&report_lock);
	return n;
}

void kshim_warn(const char *file, int line, const char *func, const char *cond,
		const char *fmt, ...)
{
	va_list ap;

	__atomic_fetch_add(&warns, 1, __ATOMIC_RELAXED);
	va_start(ap, fmt);
	vrecord("WARNING", file, line, func, cond, fmt, ap);
	va_end(ap);
}

/*
 * kernel/panic.c: the kernel found itself broken (a bad page): the test
 * fails as at a WARN it did not announce
 */
void add_taint(unsigned int flag, enum lockdep_ok lockdep_ok)
{
	kshim_warn(__FILE__, __LINE__, __func__, "add_taint", "taint %u\n", flag);
}

void kshim_bug(const char *file, int line, const char *func)
{
	fprintf(stderr, "kshim: BUG at %s:%d %s()\n", file, line, func);
	abort();
}

void kshim_context_violation(const char *file, int line, const char *func, const char *what)
{
	va_list ap;

	__atomic_fetch_add(&violations, 1, __ATOMIC_RELAXED);
	memset(&ap, 0, sizeof(ap));
	vrecord("BUG: sleeping function called from invalid context", file, line, func,
		what, NULL, ap);
}

void kshim_expect_warns(unsigned int n)
{
	__atomic_fetch_add(&expected_warns, n, __ATOMIC_RELAXED);
}

unsigned int kshim_warn_count(void)
{
	return __atomic_load_n(&warns, __ATOMIC_RELAXED);
}

unsigned int kshim_unexpected_warns(void)
{
	unsigned int w = kshim_warn_count(), e = expected_warns;

	return w > e ? w - e : 0;
}

unsigned int kshim_context_violations(void)
{
	return __atomic_load_n(&violations, __ATOMIC_RELAXED);
}

const char *kshim_last_report(void)
{
	return last;
}

void kshim_report_reset(void)
{
	warns = expected_warns = violations = 0;
	last[0] = '\0';
	pthread_mutex_lock(&report_lock);
	log_len = 0;
	log_buf[0] = '\0';
	pthread_mutex_unlock(&report_lock);
}
