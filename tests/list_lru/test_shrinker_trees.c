// SPDX-License-Identifier: GPL-2.0-only
/*
 * The shrinker code of both trees (6.1 vmscan.c, 6.12 shrinker.c) with a
 * list_lru behind it: every allocation of a mount that grows the memcgs'
 * shrinker_info failed in turn, memcg online failing in alloc_shrinker_info.
 * Each failure must leave nothing behind (world check) and the earlier
 * mounts working.
 */
#include <kshim/memcg.h>
#include <kshim/fault.h>
#include "tb_lru_test.h"

#define MAX_MOUNTS 256

static void test_expand_fails_each_allocation(void **state)
{
	const struct tb_fs_ops *o = *state;
	struct tb_mount *m[MAX_MOUNTS], *last;
	struct mem_cgroup *root, *a, *b;
	int nr = 0, boundary, i;
	unsigned long k;

	root = kshim_memcg_create(NULL);
	a = kshim_memcg_create(root);
	b = kshim_memcg_create(a);
	assert_non_null(b);
	/* fill the unit: the next mount's id needs a larger shrinker_info */
	for (;;) {
		assert_true(nr < MAX_MOUNTS);
		m[nr] = o->mount();
		assert_non_null(m[nr]);
		boundary = o->map_nr_max(a);
		if (o->shrinker_id(m[nr++]) == boundary - 1)
			break;
	}
	for (k = 1;; k++) {
		kshim_fault_reset();
		kshim_fault_nth(k);
		last = o->mount();
		if (!kshim_fault_injected())
			break;
		assert_null(last);
		/*
		 * a failure after the expansion (list_lru init) keeps the
		 * larger info: expansions are never undone
		 */
		assert_in_range(o->map_nr_max(a), boundary, boundary + 64);
	}
	kshim_fault_reset();
	assert_non_null(last);
	assert_true(k > 3);
	assert_int_equal(o->shrinker_id(last), boundary);
	assert_int_equal(o->map_nr_max(a), boundary + 64);
	/* the new bit works in an expanded info, the old ones still do */
	assert_int_equal(o->add(last, b, 0, 5), 0);
	assert_int_equal(o->add(m[0], b, 0, 3), 0);
	assert_true(o->bit(last, b, 0));
	assert_true(o->bit(m[0], b, 0));
	while (o->shrink_memcgs(NULL, 0, 0, NULL))
		;
	assert_int_equal(o->freed(last), 5);
	assert_int_equal(o->freed(m[0]), 3);
	o->umount(last);
	for (i = 0; i < nr; i++)
		o->umount(m[i]);
	kshim_memcg_destroy(b);
	kshim_memcg_destroy(a);
	kshim_memcg_destroy(root);
}

static void test_online_fails_in_alloc_shrinker_info(void **state)
{
	const struct tb_fs_ops *o = *state;
	struct mem_cgroup *root, *a;
	struct tb_mount *m;
	char fn[64];

	root = kshim_memcg_create(NULL);
	m = o->mount();
	assert_non_null(m);
	snprintf(fn, sizeof(fn), "%salloc_shrinker_info", o->prefix);
	kshim_fault_filter(fn, NULL);
	kshim_fault_nth(1);
	assert_null(kshim_memcg_create(root));
	assert_int_equal(kshim_fault_injected(), 1);
	kshim_fault_reset();
	a = kshim_memcg_create(root);
	assert_non_null(a);
	assert_int_equal(o->add(m, a, 0, 2), 0);
	assert_true(o->bit(m, a, 0));
	o->umount(m);
	kshim_memcg_destroy(a);
	kshim_memcg_destroy(root);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		TB_LRU_BOTH(test_expand_fails_each_allocation),
		TB_LRU_BOTH(test_online_fails_in_alloc_shrinker_info),
	};

	return TB_RUN(tests);
}
