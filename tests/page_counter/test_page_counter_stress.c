// SPDX-License-Identifier: GPL-2.0-only
/*
 * 4 threads on 4 virtual CPUs charge and uncharge a 3-level hierarchy
 * with limits at every level. The counters are lockless atomics, so once
 * the threads are joined each level must hold exactly the sum of the live
 * charges below it, and no reader may ever see a negative usage.
 */
#include <linux/kernel.h>
#include <linux/page_counter.h>
#include "tb_test.h"
#include <kshim/page_counter.h>

#define NR_THREADS	4
#define NR_ITERS	100000
#define MAX_LIVE	64

/* root -> mid[0..1] -> leaf[0..3]; thread i charges leaf i */
struct stress {
	struct page_counter root, mid[2], leaf[NR_THREADS];
	unsigned long live[NR_THREADS];	/* pages, written by owner only */
	long min_seen;			/* lowest usage any reader saw */
	unsigned long failed;
};

static unsigned int next_rand(unsigned int *s)
{
	*s = *s * 1103515245 + 12345;	/* per-thread, deterministic */
	return *s >> 16;
}

static void observe(struct stress *st, struct page_counter *c)
{
	long u = (long)page_counter_read(c);
	long old = __atomic_load_n(&st->min_seen, __ATOMIC_RELAXED);

	while (u < old &&
	       !__atomic_compare_exchange_n(&st->min_seen, &old, u, false,
					    __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;
}

static void stress_thread(void *arg, unsigned int i)
{
	struct stress *st = arg;
	struct page_counter *leaf = &st->leaf[i], *fail;
	unsigned long sizes[MAX_LIVE];
	unsigned int nr = 0, seed = i + 1, n;
	unsigned long live = 0, failed = 0;

	for (n = 0; n < NR_ITERS; n++) {
		unsigned int r = next_rand(&seed);

		if (nr < MAX_LIVE && (r & 1)) {
			unsigned long pages = 1 + (r >> 1) % 8;

			if (page_counter_try_charge(leaf, pages, &fail)) {
				sizes[nr++] = pages;
				live += pages;
			} else {
				failed++;
			}
		} else if (nr) {
			unsigned int k = (r >> 1) % nr;

			page_counter_uncharge(leaf, sizes[k]);
			live -= sizes[k];
			sizes[k] = sizes[--nr];
		}
		observe(st, leaf);
		observe(st, leaf->parent);
		observe(st, &st->root);
	}
	st->live[i] = live;
	__atomic_fetch_add(&st->failed, failed, __ATOMIC_RELAXED);
}

static void stress_init(struct stress *st)
{
	int i;

	memset(st, 0, sizeof(*st));
	kshim_page_counter_init(&st->root, NULL, true);
	page_counter_set_max(&st->root, 160);
	for (i = 0; i < 2; i++) {
		kshim_page_counter_init(&st->mid[i], &st->root, true);
		page_counter_set_max(&st->mid[i], 100);
		page_counter_set_min(&st->mid[i], 20);
	}
	for (i = 0; i < NR_THREADS; i++) {
		kshim_page_counter_init(&st->leaf[i], &st->mid[i / 2], true);
		page_counter_set_max(&st->leaf[i], 64);
		page_counter_set_low(&st->leaf[i], 16);
	}
}

static void test_concurrent_charge(void **state)
{
	struct stress *st = calloc(1, sizeof(*st));
	unsigned long total = 0;
	int i;

	stress_init(st);
	tb_run_threads(NR_THREADS, stress_thread, st);

	for (i = 0; i < NR_THREADS; i++) {
		assert_int_equal(page_counter_read(&st->leaf[i]), st->live[i]);
		total += st->live[i];
	}
	assert_int_equal(page_counter_read(&st->mid[0]), st->live[0] + st->live[1]);
	assert_int_equal(page_counter_read(&st->mid[1]), st->live[2] + st->live[3]);
	assert_int_equal(page_counter_read(&st->root), total);
	assert_true(st->min_seen >= 0);
	/* the limits were hit, so the failure path ran concurrently too */
	assert_true(st->failed > 0);
	print_message("live %lu, failed try_charges %lu\n", total, st->failed);

	/* quiescent: protection bookkeeping must agree with the usage */
	for (i = 0; i < NR_THREADS; i++)
		assert_int_equal(atomic_long_read(&st->leaf[i].low_usage),
				 min(st->live[i], 16UL));
	for (i = 0; i < NR_THREADS; i++)
		page_counter_uncharge(&st->leaf[i], st->live[i]);
	assert_int_equal(page_counter_read(&st->root), 0);
	free(st);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		TB_TEST(test_concurrent_charge),
	};

	return TB_RUN(tests);
}
