// SPDX-License-Identifier: GPL-2.0-only
/*
 * WARN/BUG/context reports from the kernel code. Counted so a test can
 * assert "no unexpected WARN"; the last one is kept for the failure text.
 */
#include <linux/kernel.h>
#include <kshim/report.h>

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

void kshim_printk(const char *fmt, ...)
{
	va_list ap;

	if (kshim_quiet && !getenv("KSHIM_VERBOSE"))
		return;
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
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
}
