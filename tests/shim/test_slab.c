// SPDX-License-Identifier: GPL-2.0-only
/*
 * Allocators and fault injection: zeroing, live counts that feed the leak
 * check, and fault injection precise enough to walk the kernel code's
 * error paths one site at a time, reproducibly.
 */
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include "tb_test.h"

#define NR_CALLS 1000

struct obj {
	long a[16];
};

static DEFINE_SPINLOCK(lock);

static void test_kzalloc_zeroes(void **state)
{
	unsigned char *p;
	size_t i;

	/* dirty the heap first, so an unzeroed block would show */
	p = kmalloc(4096, GFP_KERNEL);
	assert_non_null(p);
	memset(p, 0xa5, 4096);
	kfree(p);
	p = kzalloc(4096, GFP_KERNEL);
	assert_non_null(p);
	for (i = 0; i < 4096; i++)
		assert_int_equal(p[i], 0);
	kfree(p);
	p = kcalloc(64, 64, GFP_KERNEL);
	assert_non_null(p);
	for (i = 0; i < 4096; i++)
		assert_int_equal(p[i], 0);
	kvfree(p);
}

static void test_slab_live_counts(void **state)
{
	unsigned long base = kshim_slab_live();
	void *a = kmalloc(8, GFP_KERNEL), *b = kvzalloc(1 << 20, GFP_KERNEL);

	assert_int_equal(kshim_slab_live(), base + 2);
	kfree(a);
	kvfree(b);
	kfree(NULL);
	assert_int_equal(kshim_slab_live(), base);
}

static void ctor_mark(void *p)
{
	((struct obj *)p)->a[0] = 0x5eed;
}

static void test_kmem_cache_counts(void **state)
{
	struct kmem_cache *s = kmem_cache_create("obj", sizeof(struct obj), 0, 0, ctor_mark);
	struct obj *a, *b;

	assert_non_null(s);
	a = kmem_cache_alloc(s, GFP_KERNEL);
	b = kmem_cache_zalloc(s, GFP_KERNEL);
	assert_non_null(a);
	assert_non_null(b);
	assert_int_equal(a->a[0], 0x5eed);
	assert_int_equal(s->live, 2);
	kmem_cache_free(s, a);
	kmem_cache_free(s, b);
	assert_int_equal(s->live, 0);
	kmem_cache_destroy(s);
	assert_int_equal(kshim_warn_count(), 0);
}

static void test_kmem_cache_destroy_with_objects_warns(void **state)
{
	struct kmem_cache *s = KMEM_CACHE(obj, 0);
	struct obj *a = kmem_cache_alloc(s, GFP_KERNEL);

	assert_non_null(a);
	kshim_expect_warns(1);
	kmem_cache_destroy(s);
	assert_int_equal(kshim_warn_count(), 1);
	assert_non_null(strstr(kshim_last_report(), "still has objects"));
	kfree(a);
}

static void test_leaked_kmalloc_reported(void **state)
{
	void *p = kmalloc(32, GFP_KERNEL);
	const char *msg;

	assert_non_null(p);
	msg = kshim_world_check();
	assert_non_null(msg);
	assert_non_null(strstr(msg, "1 slab object(s) leaked"));
	kfree(p);
	assert_null(kshim_world_check());
}

static void test_fault_nth_fails_once(void **state)
{
	void *p[10];
	int i;

	kshim_fault_filter(__func__, NULL);
	kshim_fault_nth(3);
	for (i = 0; i < 10; i++)
		p[i] = kmalloc(16, GFP_KERNEL);
	for (i = 0; i < 10; i++) {
		if (i == 2)
			assert_null(p[i]);
		else
			assert_non_null(p[i]);
		kfree(p[i]);
	}
	assert_int_equal(kshim_fault_calls(), 10);
	assert_int_equal(kshim_fault_injected(), 1);
	assert_string_equal(kshim_fault_last_site()->func, __func__);
}

/* one bit per call: which of NR_CALLS allocations failed */
static unsigned int fault_pattern(unsigned long seed, unsigned char *failed)
{
	unsigned int i, nr = 0;
	void *p;

	kshim_fault_reset();
	kshim_fault_filter(__func__, NULL);
	kshim_fault_probability(100000, seed);	/* 10% */
	for (i = 0; i < NR_CALLS; i++) {
		p = kmalloc(8, GFP_KERNEL);
		failed[i] = !p;
		nr += !p;
		kfree(p);
	}
	assert_int_equal(kshim_fault_injected(), nr);
	kshim_fault_reset();
	return nr;
}

static void test_fault_probability_reproducible(void **state)
{
	unsigned char a[NR_CALLS], b[NR_CALLS], c[NR_CALLS];
	unsigned int na, nb;

	na = fault_pattern(1234, a);
	nb = fault_pattern(1234, b);
	assert_int_equal(na, nb);
	assert_memory_equal(a, b, NR_CALLS);
	/* about 100 of 1000; 60..140 is > 4 sigma either way */
	assert_in_range(na, 60, 140);
	fault_pattern(4321, c);
	assert_memory_not_equal(a, c, NR_CALLS);
}

static noinline void *alloc_a(void)
{
	return kmalloc(8, GFP_KERNEL);
}

static noinline void *alloc_b(void)
{
	return kmalloc(8, GFP_KERNEL);
}

static void test_fault_filter_by_function(void **state)
{
	void *a, *b;

	kshim_fault_filter("alloc_a", NULL);
	kshim_fault_probability(1000000, 1);	/* every matching call */
	a = alloc_a();
	b = alloc_b();
	assert_null(a);
	assert_non_null(b);
	assert_int_equal(kshim_fault_calls(), 1);
	kfree(b);
}

static int site_line;

static noinline void *alloc_at_site(void)
{
	site_line = __LINE__ + 1;
	return kmalloc(8, GFP_KERNEL);
}

static void test_fault_filter_by_site(void **state)
{
	char site[64];
	void *a, *b;

	kfree(alloc_at_site());	/* learn the line (fault injection is off) */
	snprintf(site, sizeof(site), "test_slab.c:%d", site_line);
	kshim_fault_filter(NULL, site);
	kshim_fault_probability(1000000, 1);
	a = alloc_at_site();
	b = alloc_a();
	assert_null(a);
	assert_non_null(b);
	assert_int_equal(kshim_fault_last_site()->line, site_line);
	kfree(b);
	/* a different line of the same file does not match */
	snprintf(site, sizeof(site), "test_slab.c:%d", site_line + 1);
	kshim_fault_filter(NULL, site);
	a = alloc_at_site();
	assert_non_null(a);
	kfree(a);
}

/* __GFP_NOFAIL is not a fault point: it neither fails nor uses up the nth. */
static void test_gfp_nofail_never_fails(void **state)
{
	void *p, *q;

	kshim_fault_filter(__func__, NULL);
	kshim_fault_probability(1000000, 1);
	p = kmalloc(8, GFP_KERNEL | __GFP_NOFAIL);
	assert_non_null(p);
	assert_int_equal(kshim_fault_injected(), 0);
	kfree(p);
	kshim_fault_reset();
	kshim_fault_filter(__func__, NULL);
	kshim_fault_nth(1);
	p = kzalloc(8, GFP_KERNEL | __GFP_NOFAIL);
	q = kmalloc(8, GFP_KERNEL);
	assert_non_null(p);
	assert_null(q);
	assert_int_equal(kshim_fault_injected(), 1);
	kfree(p);
}

/*
 * A failed allocation reports itself (slab_out_of_memory(), warn_alloc())
 * unless the caller passed __GFP_NOWARN, whatever the call it failed in
 */
static void test_failure_warns_unless_gfp_nowarn(void **state)
{
	unsigned long warnings = kshim_slab_fail_warnings();
	void *p;

	kshim_fault_filter(__func__, NULL);
	kshim_fault_probability(1000000, 1);
	assert_null(kmalloc(8, GFP_KERNEL));
	assert_int_equal(kshim_slab_fail_warnings(), warnings + 1);
	assert_null(kzalloc(8, GFP_KERNEL | __GFP_NOWARN));
	assert_null(kmalloc(8, GFP_NOWAIT | __GFP_NOWARN));
	assert_int_equal(kshim_slab_fail_warnings(), warnings + 1);
	kshim_fault_reset();
	p = kmalloc(8, GFP_KERNEL);
	assert_non_null(p);
	kshim_fault_filter(__func__, NULL);
	kshim_fault_nth(1);
	assert_null(krealloc(p, 64, GFP_KERNEL));
	assert_int_equal(kshim_slab_fail_warnings(), warnings + 2);
	assert_int_equal(kshim_fault_injected(), 1);
	kfree(p);
}

static void test_kmem_cache_alloc_fault(void **state)
{
	struct kmem_cache *s = KMEM_CACHE(obj, 0);
	struct obj *a;

	kshim_fault_filter(__func__, NULL);
	kshim_fault_nth(1);
	a = kmem_cache_alloc(s, GFP_KERNEL);
	assert_null(a);
	assert_int_equal(s->live, 0);
	a = kmem_cache_alloc(s, GFP_KERNEL);
	assert_non_null(a);
	kmem_cache_free(s, a);
	kmem_cache_destroy(s);
}

static void test_gfp_kernel_in_spinlock_is_violation(void **state)
{
	void *p;
	int line;

	spin_lock(&lock);
	line = __LINE__ + 1;
	p = kmalloc(8, GFP_KERNEL);
	spin_unlock(&lock);
	kfree(p);
	assert_int_equal(kshim_context_violations(), 1);
	{
		char site[64];

		snprintf(site, sizeof(site), "test_slab.c:%d", line);
		assert_non_null(strstr(kshim_last_report(), site));
	}
	kshim_report_reset();
}

static void test_gfp_atomic_in_spinlock_is_fine(void **state)
{
	void *p, *q;

	spin_lock(&lock);
	p = kmalloc(8, GFP_ATOMIC);
	q = kzalloc(8, GFP_NOWAIT);
	spin_unlock(&lock);
	assert_non_null(p);
	assert_non_null(q);
	kfree(p);
	kfree(q);
	assert_int_equal(kshim_context_violations(), 0);
}

/*
 * kshim_slab_charged_allocs(): the allocations the kernel's slab charges
 * to a memcg, __GFP_ACCOUNT ones and a SLAB_ACCOUNT cache's; not a failed
 * one.
 */
static void test_charged_allocs_counted(void **state)
{
	struct kmem_cache *s = KMEM_CACHE(obj, SLAB_ACCOUNT), *t = KMEM_CACHE(obj, 0);
	unsigned long base = kshim_slab_charged_allocs();
	void *a, *b, *c, *d, *e, *f;

	a = kmalloc(8, GFP_KERNEL);
	b = kmalloc(8, GFP_KERNEL_ACCOUNT);
	c = kvzalloc(8, GFP_KERNEL_ACCOUNT);
	d = kmem_cache_alloc(s, GFP_KERNEL);
	e = kmem_cache_alloc(t, GFP_KERNEL);
	assert_int_equal(kshim_slab_charged_allocs(), base + 3);
	f = kmem_cache_alloc(t, GFP_KERNEL_ACCOUNT);
	assert_int_equal(kshim_slab_charged_allocs(), base + 4);
	kshim_fault_filter(__func__, NULL);
	kshim_fault_nth(1);
	assert_null(kmalloc(8, GFP_KERNEL_ACCOUNT));
	assert_int_equal(kshim_slab_charged_allocs(), base + 4);
	kfree(a);
	kfree(b);
	kvfree(c);
	kmem_cache_free(s, d);
	kmem_cache_free(t, e);
	kmem_cache_free(t, f);
	kmem_cache_destroy(s);
	kmem_cache_destroy(t);
}

struct race {
	struct kmem_cache *s;
	long seen;	/* the cache's live objects when fn ran */
	int calls;
	void *nested;	/* an allocation fn made from the same cache */
};

static void race_fn(void *arg)
{
	struct race *r = arg;

	r->seen = r->s->live;
	r->calls++;
	r->nested = kmem_cache_alloc(r->s, GFP_KERNEL);
}

/*
 * kshim_race_on_next_alloc(): fn runs once, before the next allocation
 * from its cache that may sleep; not at one that may not (GFP_NOWAIT,
 * which may be under a spinlock), nor at another cache's, nor after
 * kshim_fault_reset(). fn may allocate from the cache: it is disarmed.
 */
static void test_race_on_next_blocking_alloc(void **state)
{
	struct kmem_cache *s = KMEM_CACHE(obj, 0), *other = KMEM_CACHE(obj, 0);
	struct race r = { .s = s };
	struct obj *a, *b, *c, *d;

	kshim_race_on_next_alloc(s, race_fn, &r);
	a = kmem_cache_alloc(other, GFP_KERNEL);
	b = kmem_cache_alloc(s, GFP_NOWAIT);
	assert_int_equal(r.calls, 0);
	c = kmem_cache_alloc(s, GFP_KERNEL);
	assert_int_equal(r.calls, 1);
	assert_int_equal(kshim_races_run(), 1);
	/* before c's allocation: b only */
	assert_int_equal(r.seen, 1);
	assert_non_null(r.nested);
	d = kmem_cache_alloc(s, GFP_KERNEL);
	assert_int_equal(r.calls, 1);
	kshim_race_on_next_alloc(s, race_fn, &r);
	kshim_fault_reset();
	assert_int_equal(kshim_races_run(), 0);
	kmem_cache_free(s, r.nested);
	r.nested = kmem_cache_alloc(s, GFP_KERNEL);
	assert_int_equal(r.calls, 1);
	kmem_cache_free(other, a);
	kmem_cache_free(s, b);
	kmem_cache_free(s, c);
	kmem_cache_free(s, d);
	kmem_cache_free(s, r.nested);
	kmem_cache_destroy(s);
	kmem_cache_destroy(other);
}

/*
 * get_order() as asm-generic/getorder.h computes it: a size of 0 wraps to
 * order BITS_PER_LONG - PAGE_SHIFT (memcg OOM skips such a "costly" order)
 */
static void test_get_order_as_asm_generic(void **state)
{
	volatile unsigned long zero = 0;

	assert_int_equal(get_order(zero), 64 - PAGE_SHIFT);
	assert_int_equal(get_order(1), 0);
	assert_int_equal(get_order(PAGE_SIZE), 0);
	assert_int_equal(get_order(PAGE_SIZE + 1), 1);
	assert_int_equal(get_order(8 * PAGE_SIZE), 3);
	assert_int_equal(get_order(8 * PAGE_SIZE + 1), 4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		TB_TEST(test_kzalloc_zeroes),
		TB_TEST(test_slab_live_counts),
		TB_TEST(test_kmem_cache_counts),
		TB_TEST(test_kmem_cache_destroy_with_objects_warns),
		TB_TEST(test_leaked_kmalloc_reported),
		TB_TEST(test_fault_nth_fails_once),
		TB_TEST(test_fault_probability_reproducible),
		TB_TEST(test_fault_filter_by_function),
		TB_TEST(test_fault_filter_by_site),
		TB_TEST(test_gfp_nofail_never_fails),
		TB_TEST(test_failure_warns_unless_gfp_nowarn),
		TB_TEST(test_kmem_cache_alloc_fault),
		TB_TEST(test_gfp_kernel_in_spinlock_is_violation),
		TB_TEST(test_gfp_atomic_in_spinlock_is_fine),
		TB_TEST(test_charged_allocs_counted),
		TB_TEST(test_race_on_next_blocking_alloc),
		TB_TEST(test_get_order_as_asm_generic),
	};

	return TB_RUN(tests);
}
