// SPDX-License-Identifier: GPL-2.0-only
/*
 * kmalloc/kvmalloc/kmem_cache on the C heap, so ASan and LSan watch the
 * kernel code's objects. Live objects are counted per world for the
 * teardown leak check; blocking allocations are might_sleep() points.
 */
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sched.h>
#include <linux/bug.h>
#include <malloc.h>

static long slab_live;
static unsigned long slab_charged;

static unsigned long fail_warnings;

/*
 * A failed allocation says so, as SLUB's slab_out_of_memory() and the
 * page allocator's warn_alloc() do (a message, not a WARN), unless the
 * caller asked for silence with __GFP_NOWARN
 */
static void *alloc_failed(gfp_t gfp, size_t size, const char *func)
{
	if (!(gfp & __GFP_NOWARN)) {
		__atomic_fetch_add(&fail_warnings, 1, __ATOMIC_RELAXED);
		pr_warn("%s: allocation failure: %zu bytes, mode:%#x\n", func, size,
			(unsigned int)gfp);
	}
	return NULL;
}

unsigned long kshim_slab_fail_warnings(void)
{
	return __atomic_load_n(&fail_warnings, __ATOMIC_RELAXED);
}

/*
 * charged: the kernel's slab would charge the object to the current
 * memcg's obj_cgroup (memcg_slab_post_alloc_hook()); the shim charges no
 * memcg for it, it counts it (kshim_slab_charged_allocs()).
 */
static void *heap_alloc(size_t size, gfp_t gfp, bool charged, const char *file, int line,
			const char *func)
{
	void *p;

	if (gfp & __GFP_DIRECT_RECLAIM)
		kshim_might_sleep(file, line, func);
	/* as failslab: __GFP_NOFAIL is no fault point (nor counted as one) */
	if (!(gfp & __GFP_NOFAIL) && kshim_should_fail(file, line, func, size))
		return alloc_failed(gfp, size, func);
	p = (gfp & __GFP_ZERO) ? calloc(1, size ? size : 1) : malloc(size ? size : 1);
	if (p)
		__atomic_fetch_add(&slab_live, 1, __ATOMIC_RELAXED);
	if (p && charged)
		__atomic_fetch_add(&slab_charged, 1, __ATOMIC_RELAXED);
	return p;
}

void *kshim_kmalloc(size_t size, gfp_t gfp, const char *file, int line, const char *func)
{
	if (size > KMALLOC_MAX_SIZE)
		return NULL;
	return heap_alloc(size, gfp, gfp & __GFP_ACCOUNT, file, line, func);
}

void *kshim_kvmalloc(size_t size, gfp_t gfp, const char *file, int line, const char *func)
{
	if (size > INT_MAX)
		return NULL;
	return heap_alloc(size, gfp, gfp & __GFP_ACCOUNT, file, line, func);
}

void *kshim_krealloc(const void *p, size_t size, gfp_t gfp, const char *file, int line,
		     const char *func)
{
	void *n;

	if (!p)
		return kshim_kmalloc(size, gfp, file, line, func);
	if (kshim_should_fail(file, line, func, size))
		return alloc_failed(gfp, size, func);
	n = realloc((void *)p, size);
	return n;
}

void kshim_kfree(const void *p)
{
	if (!p)
		return;
	__atomic_fetch_sub(&slab_live, 1, __ATOMIC_RELAXED);
	free((void *)p);
}

size_t kshim_ksize(const void *p)
{
	return malloc_usable_size((void *)p);
}

unsigned long kshim_slab_live(void)
{
	return __atomic_load_n(&slab_live, __ATOMIC_RELAXED);
}

unsigned long kshim_slab_charged_allocs(void)
{
	return __atomic_load_n(&slab_charged, __ATOMIC_RELAXED);
}

struct kmem_cache *kmem_cache_create(const char *name, unsigned int size, unsigned int align,
				     slab_flags_t flags, void (*ctor)(void *))
{
	struct kmem_cache *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->name = name;
	s->size = size;
	s->align = align;
	s->flags = flags;
	s->ctor = ctor;
	return s;
}

void kmem_cache_destroy(struct kmem_cache *s)
{
	if (!s)
		return;
	WARN(s->live, "kmem_cache_destroy %s: Slab cache still has objects", s->name);
	free(s);
}

void *kshim_kmem_cache_alloc(struct kmem_cache *s, gfp_t gfp, const char *file, int line,
			     const char *func)
{
	void *p;

	/* where another CPU's work may run beside a sleeping allocation */
	if (gfp & __GFP_DIRECT_RECLAIM)
		kshim_race_point(s);
	p = heap_alloc(s->size, gfp, (gfp & __GFP_ACCOUNT) || (s->flags & SLAB_ACCOUNT), file,
		       line, func);

	if (p) {
		__atomic_fetch_add(&s->live, 1, __ATOMIC_RELAXED);
		if (s->ctor)
			s->ctor(p);
	}
	return p;
}

void kmem_cache_free(struct kmem_cache *s, void *obj)
{
	if (!obj)
		return;
	__atomic_fetch_sub(&s->live, 1, __ATOMIC_RELAXED);
	kshim_kfree(obj);
}

char *kstrdup(const char *s, gfp_t gfp)
{
	size_t len;
	char *p;

	if (!s)
		return NULL;
	len = strlen(s) + 1;
	p = kmalloc(len, gfp);
	if (p)
		memcpy(p, s, len);
	return p;
}

/* mm/util.c's: len bytes of s and a NUL (lib/parser.c's match_strdup) */
char *kmemdup_nul(const char *s, size_t len, gfp_t gfp)
{
	char *p;

	if (!s)
		return NULL;
	p = kmalloc(len + 1, gfp);
	if (p) {
		memcpy(p, s, len);
		p[len] = '\0';
	}
	return p;
}

const char *kstrdup_const(const char *s, gfp_t gfp)
{
	return kstrdup(s, gfp);
}

char *kvasprintf(gfp_t gfp, const char *fmt, va_list ap)
{
	va_list aq;
	int len;
	char *p;

	va_copy(aq, ap);
	len = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	p = kmalloc(len + 1, gfp);
	if (p)
		vsnprintf(p, len + 1, fmt, ap);
	return p;
}

const char *kvasprintf_const(gfp_t gfp, const char *fmt, va_list ap)
{
	return kvasprintf(gfp, fmt, ap);
}

char *kasprintf(gfp_t gfp, const char *fmt, ...)
{
	va_list ap;
	char *p;

	va_start(ap, fmt);
	p = kvasprintf(gfp, fmt, ap);
	va_end(ap);
	return p;
}
