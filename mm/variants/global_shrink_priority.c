// SPDX-License-Identifier: GPL-2.0-only
/*
 * Seed 000 (never merged): memory.global_shrink_priority, ported to 6.12
 * from the seed's diff as hooks around the real functions, not as copies
 * of them. In global (root) reclaim only, with the variant selected:
 *  - shrink_node_memcgs() skips a memcg whose value is below sc->priority:
 *    its "below min" test says yes (the only thing the 6.12 loop does
 *    before that test is mem_cgroup_calculate_protection(), whose result
 *    nothing else reads for a skipped memcg), so it is left out exactly
 *    where the seed's `continue` leaves it out;
 *  - shrink_lruvec() and shrink_slab() of the memcgs it keeps run at
 *    sc->priority + DEF_PRIORITY - value (2^-(12-value) of the scan);
 *  - kswapd's aging of the active anon lists (age_active_anon() in the
 *    seed's tree, kswapd_age_node() in 6.12) skips the same memcgs.
 * The value lives beside the memcg (by memcg id): struct mem_cgroup has no
 * field for it in any tree. The control file takes what the seed's does:
 * kstrtos8, -EINVAL above DEF_PRIORITY.
 * Included by mm/vmscan/vmscan_unit.c after the extract (it needs struct
 * scan_control); vmscan_unit.c routes shrink_node_memcgs()'s two calls here by
 * macro, and kextract wraps the three functions.
 */
#include <linux/kstrtox.h>
#include <linux/cgroup.h>
#include <linux/kernfs.h>
#include <kshim/variants.h>
#include <kshim/memcg_tb.h>

/* memcg ids are below 1 << MEM_CGROUP_ID_SHIFT (memcontrol.c's MEM_CGROUP_ID_MAX) */
#define SEED000_IDS (1UL << MEM_CGROUP_ID_SHIFT)
static bool seed000_on;
static s8 seed000_value_of[SEED000_IDS];
/*
 * per memcg id and sc->priority, global reclaim: pages shrink_lruvec()
 * scanned, and the evictable LRU pages it was called on (the scan rate is
 * their ratio: 2^-priority of the lists, shifted by the variant)
 */
static unsigned long seed000_scanned[SEED000_IDS][DEF_PRIORITY + 1];
static unsigned long seed000_lru_pages[SEED000_IDS][DEF_PRIORITY + 1];

static int seed000_value(struct mem_cgroup *memcg)
{
	return seed000_value_of[tb_memcg_private_id(memcg)];
}

static bool seed000_global(struct scan_control *sc)
{
	return !sc->target_mem_cgroup || mem_cgroup_is_root(sc->target_mem_cgroup);
}

static bool seed000_skip(struct mem_cgroup *memcg, struct scan_control *sc)
{
	return seed000_on && seed000_global(sc) && seed000_value(memcg) < sc->priority;
}

static int seed000_delta(struct mem_cgroup *memcg, struct scan_control *sc)
{
	if (!seed000_on || !seed000_global(sc))
		return 0;
	return DEF_PRIORITY - seed000_value(memcg);
}

static bool seed000_below_min(struct mem_cgroup *target, struct mem_cgroup *memcg,
			      struct scan_control *sc)
{
	return seed000_skip(memcg, sc) || (mem_cgroup_below_min)(target, memcg);
}

static unsigned long seed000_shrink_slab(gfp_t gfp_mask, int nid, struct mem_cgroup *memcg,
					 int priority, struct scan_control *sc)
{
	return (shrink_slab)(gfp_mask, nid, memcg, priority + seed000_delta(memcg, sc));
}

void shrink_lruvec(struct lruvec *lruvec, struct scan_control *sc)
{
	struct mem_cgroup *memcg = lruvec_memcg(lruvec);
	int delta = seed000_delta(memcg, sc), priority = sc->priority;
	unsigned long scanned = sc->nr_scanned, lru_pages = 0;
	enum lru_list lru;

	for_each_evictable_lru(lru)
		lru_pages += lruvec_lru_size(lruvec, lru, MAX_NR_ZONES);
	sc->priority += delta;
	__real_shrink_lruvec(lruvec, sc);
	sc->priority -= delta;
	/* counted with the variant off too: the control row's figures */
	if (seed000_global(sc) && !lru_gen_enabled())
		atomic_long_inc(&tb_root_visits);	/* seed 002's classic row */
	if (seed000_global(sc) && memcg && priority >= 0 && priority <= DEF_PRIORITY) {
		seed000_scanned[tb_memcg_private_id(memcg)][priority] += sc->nr_scanned - scanned;
		seed000_lru_pages[tb_memcg_private_id(memcg)][priority] += lru_pages;
	}
}

static __thread bool seed000_aging;

static void kswapd_age_node(struct pglist_data *pgdat, struct scan_control *sc)
{
	seed000_aging = true;
	__real_kswapd_age_node(pgdat, sc);
	seed000_aging = false;
}

static void shrink_active_list(unsigned long nr_to_scan, struct lruvec *lruvec,
			       struct scan_control *sc, enum lru_list lru)
{
	if (seed000_aging && seed000_on &&
	    seed000_value(lruvec_memcg(lruvec)) < sc->priority)
		return;
	__real_shrink_active_list(nr_to_scan, lruvec, sc, lru);
}

/* ---- memory.global_shrink_priority ---- */
static ssize_t seed000_write(struct kernfs_open_file *of, char *buf, size_t nbytes, loff_t off)
{
	struct mem_cgroup *memcg = mem_cgroup_from_css(of_css(of));
	s8 val;
	int ret;

	ret = kstrtos8(buf, 0, &val);
	if (ret < 0)
		return ret;
	if (val > DEF_PRIORITY)
		return -EINVAL;
	WRITE_ONCE(seed000_value_of[tb_memcg_private_id(memcg)], val);
	return nbytes;
}

static s64 seed000_read(struct cgroup_subsys_state *css, struct cftype *cft)
{
	return READ_ONCE(seed000_value_of[tb_memcg_private_id(mem_cgroup_from_css(css))]);
}

static struct cftype seed000_files[] = {
	{
		.name = "global_shrink_priority",
		.write = seed000_write,
		.read_s64 = seed000_read,
	},
	{ }	/* terminate */
};

int tb_variant_global_shrink_priority(bool on)
{
	int i, j;

	for (i = 0; i < SEED000_IDS; i++) {
		seed000_value_of[i] = DEF_PRIORITY;
		for (j = 0; j <= DEF_PRIORITY; j++)
			seed000_scanned[i][j] = seed000_lru_pages[i][j] = 0;
	}
	WRITE_ONCE(seed000_on, on);
	return on ? cgroup_add_dfl_cftypes(&memory_cgrp_subsys, seed000_files) : 0;
}

unsigned long tb_variant_global_shrink_scanned(struct mem_cgroup *memcg, int priority,
					       unsigned long *lru_pages)
{
	if (!memcg || priority < 0 || priority > DEF_PRIORITY)
		return 0;
	if (lru_pages)
		*lru_pages = seed000_lru_pages[tb_memcg_private_id(memcg)][priority];
	return seed000_scanned[tb_memcg_private_id(memcg)][priority];
}
