/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Helpers of the multi-gen LRU suites: the lruvec of a cgroup on node 0,
 * its generations as lru_gen_update_size() counts them, the sysfs switch
 * and the lru_gen debugfs commands, and fixtures that boot a machine with
 * MGLRU switched on before any page is faulted.
 */
#ifndef _TB_MGLRU_H
#define _TB_MGLRU_H
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/mm_inline.h>
#include <linux/memcontrol.h>
#include <linux/pagemap.h>
#include <kshim/testbed.h>
#include <stdarg.h>
#include <stdio.h>
#include "tb_reclaim.h"

#define LRU_GEN_ENABLED "kernel/mm/lru_gen/enabled"
#define LRU_GEN_MIN_TTL "kernel/mm/lru_gen/min_ttl_ms"
/* an lruvec's lrugen: struct lru_gen_folio since 6.3, lru_gen_struct before */
typedef __typeof__(((struct lruvec *)0)->lrugen) tb_lrugen_t;

static inline struct lruvec *tb_lruvec_of(const char *path)
{
	return mem_cgroup_lruvec(tb_memcg(path), NODE_DATA(0));
}

/* the id the lru_gen debugfs files name a memcg by: mem_cgroup_id() */
static inline unsigned short tb_memcg_id(const char *path)
{
	return mem_cgroup_id(tb_memcg(path));
}

/* the tier a folio is in: from its refs (7.2: and PG_workingset, the last tier) */
static inline int tb_folio_tier(struct folio *folio)
{
#if TB_HAVE_lru_tier_workingset
	return lru_tier_from_refs(folio_lru_refs(folio), folio_test_workingset(folio));
#else
	return lru_tier_from_refs(folio_lru_refs(folio));
#endif
}

/*
 * What sort_folio() protected of a type's tier in history slot hist: by
 * tier, tier 0 too, since 7.2 (lru_tier_workingset); before, tiers from
 * 1 at [tier - 1], tier 0 never protected
 */
static inline unsigned long tb_protected(struct lruvec *lruvec, int hist, int type, int tier)
{
#if TB_HAVE_lru_tier_workingset
	return READ_ONCE(lruvec->lrugen.protected[hist][type][tier]);
#else
	return tier ? READ_ONCE(lruvec->lrugen.protected[hist][type][tier - 1]) : 0;
#endif
}

/*
 * Of n pages read once in a row through one CPU's lru_add batch, those
 * lru_gen_add_folio() adds unreferenced: the last page of each full
 * batch, drained before folio_mark_accessed() marks it. 7.2
 * (lru_gen_folio_seq) puts them in the oldest generation (max_seq -
 * MAX_NR_GENS + 1), the rest, PG_referenced, in the next.
 */
static inline long tb_reads_unreferenced(long n)
{
	return n / (long)ARRAY_SIZE(((struct folio_batch *)0)->folios);
}

/* pages of one type in generation seq */
static inline long tb_gen_seq_pages(struct lruvec *lruvec, unsigned long seq, int type)
{
	int gen = lru_gen_from_seq(seq), zone;
	long n = 0;

	for (zone = 0; zone < MAX_NR_ZONES; zone++)
		n += lruvec->lrugen.nr_pages[gen][type][zone];
	return n;
}

/* pages of one type in all generations */
static inline long tb_gen_pages(struct lruvec *lruvec, int type)
{
	long n = 0;
	int gen;

	for (gen = 0; gen < MAX_NR_GENS; gen++)
		n += tb_gen_seq_pages(lruvec, gen, type);
	return n;
}

static inline void tb_mglru_switch_on(void)
{
	assert_int_equal(tb_sysfs_write(LRU_GEN_ENABLED, "y"), 1);
}

/* memcg cg made, the multi-gen LRU switched on, the test's task in cg */
static inline void tb_mglru_run_in_new(const char *cg)
{
	assert_int_equal(tb_cgroup_mkdir(cg), 0);
	tb_mglru_switch_on();
	tb_run_in(cg);
}

/* what "echo cmd > /sys/kernel/debug/lru_gen" returns */
static inline ssize_t __attribute__((format(printf, 1, 2))) tb_lru_gen_cmd(const char *fmt, ...)
{
	char cmd[128];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	return tb_debugfs_write("lru_gen", cmd);
}

/* the default machine (or tb_mem as a setup set it) with MGLRU on */
static inline int tb_mglru_setup(void **state)
{
	if (tb_reclaim_setup(state))
		return -1;
	if (tb_sysfs_write(LRU_GEN_ENABLED, "y") != 1) {
		print_error("writing y to /sys/kernel/mm/lru_gen/enabled failed\n");
		return -1;
	}
	return 0;
}

static inline int tb_mglru_setup_swap(void **state)
{
	tb_mem.swap_pages = PAGES(64 * MB);
	return tb_mglru_setup(state);
}

#define TB_MGLRU_TEST(fn) cmocka_unit_test_setup_teardown(fn, tb_mglru_setup, tb_reclaim_teardown)
#define TB_MGLRU_SWAP_TEST(fn) \
	cmocka_unit_test_setup_teardown(fn, tb_mglru_setup_swap, tb_reclaim_teardown)
#endif
