// SPDX-License-Identifier: GPL-2.0-only
/*
 * Seed 002 (an RFC, in no tree; 6.12 is its "before"): the multi-gen LRU's
 * root reclaim walks the memcgs with mem_cgroup_iter() and a per-node
 * reclaim cookie, as shrink_node_memcgs() does, instead of the per-node
 * memcg LRU. Written from the seed's diff:
 *  - shrink_many() takes mem_cgroup_iter() from the reclaim target, with
 *    the node's cookie (none for kswapd or a full walk), checks each
 *    memcg's protection itself and stops with mem_cgroup_iter_break()
 *    once nr_to_reclaim is met;
 *  - shrink_one() returns nothing: no rotation outcome;
 *  - lru_gen_shrink_lruvec() (memcg reclaim) no longer rotates the memcg.
 * The memcg LRU's bookkeeping (online, offline, release, soft reclaim)
 * is left as 6.12 has it, as the seed leaves it: nothing reads it.
 * As posted, the walk leaks a css reference: without a cookie (kswapd, a
 * full walk) mem_cgroup_iter() returns each memcg with a reference taken,
 * and the seed's break on should_abort_scan() drops it only "if (cookie)".
 * TB_MEMCG_ITER_AS_POSTED keeps that, to show it; TB_MEMCG_ITER_FIXED
 * drops it on every break, as mem_cgroup_iter_break() allows for either
 * walk (it is what the experiments run).
 * Included by mm/vmscan/vmscan_unit.c after the extract (it needs the
 * file-static functions); kextract wraps the four real functions it
 * replaces or counts, and with the variant off they run untouched.
 */
#include <linux/memcontrol.h>
#include <kshim/variants.h>

static enum tb_memcg_iter seed002_mode;
/* lru_gen_shrink_lruvec() of the variant runs on this thread */
static __thread bool seed002_no_rotate;

static void seed002_shrink_one(struct lruvec *lruvec, struct scan_control *sc)
{
	unsigned long scanned = sc->nr_scanned;
	unsigned long reclaimed = sc->nr_reclaimed;
	struct pglist_data *pgdat = lruvec_pgdat(lruvec);
	struct mem_cgroup *memcg = lruvec_memcg(lruvec);

	atomic_long_inc(&tb_root_visits);
	try_to_shrink_lruvec(lruvec, sc);
	shrink_slab(sc->gfp_mask, pgdat->node_id, memcg, sc->priority);
	if (!sc->proactive)
#if TB_HAVE_vmpressure_order
		vmpressure(sc->gfp_mask, sc->order, memcg, false, sc->nr_scanned - scanned,
			   sc->nr_reclaimed - reclaimed);
#else
		vmpressure(sc->gfp_mask, memcg, false, sc->nr_scanned - scanned,
			   sc->nr_reclaimed - reclaimed);
#endif
	flush_reclaim_state(sc);
}

/* the seed's shrink_many(): false to go on with the next memcg */
static bool seed002_shrink_memcg(struct mem_cgroup *target, struct mem_cgroup *memcg,
				 struct pglist_data *pgdat, struct scan_control *sc)
{
	struct lruvec *lruvec = mem_cgroup_lruvec(memcg, pgdat);

	mem_cgroup_calculate_protection(target, memcg);
	if (mem_cgroup_below_min(target, memcg))
		return false;
	if (mem_cgroup_below_low(target, memcg)) {
		if (!sc->memcg_low_reclaim) {
			sc->memcg_low_skipped = 1;
			return false;
		}
		memcg_memory_event(memcg, MEMCG_LOW);
	}
	seed002_shrink_one(lruvec, sc);
	return should_abort_scan(lruvec, sc);
}

static void seed002_shrink_many(struct pglist_data *pgdat, struct scan_control *sc)
{
	struct mem_cgroup *target = sc->target_mem_cgroup;
	struct mem_cgroup_reclaim_cookie reclaim = { .pgdat = pgdat };
	struct mem_cgroup_reclaim_cookie *cookie = &reclaim;
	struct mem_cgroup *memcg;

	if (current_is_kswapd() || sc->memcg_full_walk)
		cookie = NULL;

	for (memcg = mem_cgroup_iter(target, NULL, cookie); memcg;
	     memcg = mem_cgroup_iter(target, memcg, cookie)) {
		cond_resched();
		if (seed002_shrink_memcg(target, memcg, pgdat, sc)) {
			if (cookie || seed002_mode == TB_MEMCG_ITER_FIXED)
				mem_cgroup_iter_break(target, memcg);
			break;
		}
		if (cookie && sc->nr_reclaimed >= sc->nr_to_reclaim) {
			mem_cgroup_iter_break(target, memcg);
			break;
		}
	}
}

static void shrink_many(struct pglist_data *pgdat, struct scan_control *sc)
{
	if (READ_ONCE(seed002_mode))
		seed002_shrink_many(pgdat, sc);
	else
		__real_shrink_many(pgdat, sc);
}

/* 6.12's walk: each lruvec it hands to shrink_one() is a visit */
static int shrink_one(struct lruvec *lruvec, struct scan_control *sc)
{
	atomic_long_inc(&tb_root_visits);
	return __real_shrink_one(lruvec, sc);
}

static void lru_gen_shrink_lruvec(struct lruvec *lruvec, struct scan_control *sc)
{
	seed002_no_rotate = READ_ONCE(seed002_mode) != TB_MEMCG_ITER_OFF;
	__real_lru_gen_shrink_lruvec(lruvec, sc);
	seed002_no_rotate = false;
}

static void lru_gen_rotate_memcg(struct lruvec *lruvec, int op)
{
	if (!seed002_no_rotate)
		__real_lru_gen_rotate_memcg(lruvec, op);
}

void tb_variant_memcg_iter(enum tb_memcg_iter mode)
{
	WRITE_ONCE(seed002_mode, mode);
	atomic_long_set(&tb_root_visits, 0);
}

unsigned long tb_variant_memcg_iter_visits(void)
{
	return atomic_long_read(&tb_root_visits);
}
