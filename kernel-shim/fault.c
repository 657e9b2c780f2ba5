// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fault injection for every allocation site: nth matching call, a seeded
 * probability, and a filter by function or by "file:line" suffix.
 */
#include <linux/kernel.h>
#include <kshim/fault.h>

static struct {
	pthread_mutex_t lock;
	unsigned long nth;		/* 0: off */
	unsigned int ppm;
	u64 rng;
	const char *func;
	const char *site;
	unsigned long calls, injected;
	struct kshim_site last;
	bool armed;
	/* kshim_race_on_next_alloc()'s */
	struct kmem_cache *race_cache;
	void (*race_fn)(void *arg);
	void *race_arg;
	unsigned long races;
} f = { .lock = PTHREAD_MUTEX_INITIALIZER };

void kshim_fault_reset(void)
{
	pthread_mutex_lock(&f.lock);
	f.nth = 0;
	f.ppm = 0;
	f.func = f.site = NULL;
	f.calls = f.injected = 0;
	f.armed = false;
	memset(&f.last, 0, sizeof(f.last));
	f.race_cache = NULL;
	__atomic_store_n(&f.race_fn, NULL, __ATOMIC_RELAXED);
	f.race_arg = NULL;
	f.races = 0;
	pthread_mutex_unlock(&f.lock);
}

void kshim_race_on_next_alloc(struct kmem_cache *s, void (*fn)(void *arg), void *arg)
{
	pthread_mutex_lock(&f.lock);
	f.race_cache = s;
	f.race_arg = arg;
	__atomic_store_n(&f.race_fn, fn, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&f.lock);
}

unsigned long kshim_races_run(void)
{
	return __atomic_load_n(&f.races, __ATOMIC_RELAXED);
}

void kshim_race_point(struct kmem_cache *s)
{
	void (*fn)(void *arg) = NULL;
	void *arg = NULL;

	if (!__atomic_load_n(&f.race_fn, __ATOMIC_ACQUIRE))
		return;
	pthread_mutex_lock(&f.lock);
	if (f.race_fn && f.race_cache == s) {
		/* disarmed first: fn may allocate from s itself */
		fn = f.race_fn;
		arg = f.race_arg;
		__atomic_store_n(&f.race_fn, NULL, __ATOMIC_RELAXED);
		__atomic_fetch_add(&f.races, 1, __ATOMIC_RELAXED);
	}
	pthread_mutex_unlock(&f.lock);
	if (fn)
		fn(arg);
}

void kshim_fault_nth(unsigned long n)
{
	f.nth = n;
	f.armed = true;
}

void kshim_fault_probability(unsigned int ppm, unsigned long seed)
{
	f.ppm = ppm;
	f.rng = seed ? seed : 1;
	f.armed = true;
}

void kshim_fault_filter(const char *func, const char *site)
{
	f.func = func;
	f.site = site;
	f.armed = true;
}

/* func is one of the '|'-separated names of list */
static bool func_listed(const char *list, const char *func)
{
	size_t n = strlen(func);

	for (;;) {
		const char *end = strchr(list, '|');
		size_t len = end ? (size_t)(end - list) : strlen(list);

		if (len == n && !strncmp(list, func, n))
			return true;
		if (!end)
			return false;
		list = end + 1;
	}
}

static bool site_matches(const char *file, int line, const char *func)
{
	char buf[512];
	size_t n, m;

	if (f.func && !func_listed(f.func, func))
		return false;
	if (!f.site)
		return true;
	snprintf(buf, sizeof(buf), "%s:%d", file, line);
	n = strlen(buf);
	m = strlen(f.site);
	return m <= n && !strcmp(buf + n - m, f.site);
}

static u64 xorshift(u64 *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

bool kshim_should_fail(const char *file, int line, const char *func, size_t size)
{
	bool fail = false;

	(void)size;
	if (!__atomic_load_n(&f.armed, __ATOMIC_RELAXED))
		return false;
	pthread_mutex_lock(&f.lock);
	if (site_matches(file, line, func)) {
		f.calls++;
		if (f.nth && --f.nth == 0)
			fail = true;
		if (f.ppm && xorshift(&f.rng) % 1000000 < f.ppm)
			fail = true;
		if (fail) {
			f.injected++;
			f.last = (struct kshim_site){ file, line, func };
		}
	}
	pthread_mutex_unlock(&f.lock);
	return fail;
}

unsigned long kshim_fault_calls(void)
{
	return f.calls;
}

unsigned long kshim_fault_injected(void)
{
	return f.injected;
}

const struct kshim_site *kshim_fault_last_site(void)
{
	return &f.last;
}
