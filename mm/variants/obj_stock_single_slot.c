// SPDX-License-Identifier: GPL-2.0-only
/*
 * Seed 004's "before": the per-CPU object stock caches ONE vmstat slot
 * (one item, one node) instead of one byte count per slab item. Written
 * from the seed's description, not from a kernel tree: 6.1 and 6.12 both
 * hold the "after" code.
 *
 * It runs on 6.12's struct memcg_stock_pcp: the single slot is whichever
 * of nr_slab_reclaimable_b / nr_slab_unreclaimable_b is non-zero (never
 * both), so 6.12's own drain_obj_stock() flushes it unchanged.
 */
static int *single_slot(struct memcg_stock_pcp *stock, enum node_stat_item *idx)
{
	if (stock->nr_slab_reclaimable_b) {
		*idx = NR_SLAB_RECLAIMABLE_B;
		return &stock->nr_slab_reclaimable_b;
	}
	if (stock->nr_slab_unreclaimable_b) {
		*idx = NR_SLAB_UNRECLAIMABLE_B;
		return &stock->nr_slab_unreclaimable_b;
	}
	return NULL;
}

static int *slot_for(struct memcg_stock_pcp *stock, enum node_stat_item idx)
{
	return idx == NR_SLAB_RECLAIMABLE_B ? &stock->nr_slab_reclaimable_b :
					      &stock->nr_slab_unreclaimable_b;
}

/* fold nr into the slot; returns what must go to the vmstat arrays now */
static int single_slot_account(struct memcg_stock_pcp *stock, struct obj_cgroup *objcg,
			       struct pglist_data *pgdat, enum node_stat_item idx, int nr)
{
	enum node_stat_item cached_idx;
	int *slot = single_slot(stock, &cached_idx);

	if (!slot) {
		/* empty: save the current data */
		*slot_for(stock, idx) = nr;
		stock->cached_pgdat = pgdat;
		return 0;
	}
	if (stock->cached_pgdat != pgdat || cached_idx != idx) {
		/* another slot: flush the cached one, cache the current */
		tb_objcg_mlstate(objcg, stock->cached_pgdat, cached_idx, *slot);
		*slot = 0;
		*slot_for(stock, idx) = nr;
		stock->cached_pgdat = pgdat;
		return 0;
	}
	*slot += nr;
	if (abs(*slot) > PAGE_SIZE) {
		nr = *slot;
		*slot = 0;
		return nr;
	}
	return 0;
}

static void single_slot_mod_objcg_state(struct obj_cgroup *objcg, struct pglist_data *pgdat,
					enum node_stat_item idx, int nr)
{
	struct memcg_stock_pcp *stock;
	unsigned long flags;

	local_lock_irqsave(&memcg_stock.stock_lock, flags);
	stock = this_cpu_ptr(&memcg_stock);
	if (READ_ONCE(stock->cached_objcg) != objcg) {
		/* another objcg: its data goes out as it is */
		tb_objcg_mlstate(objcg, pgdat, idx, nr);
		nr = 0;
	} else {
		nr = single_slot_account(stock, objcg, pgdat, idx, nr);
	}
	if (nr)
		tb_objcg_mlstate(objcg, pgdat, idx, nr);
	local_unlock_irqrestore(&memcg_stock.stock_lock, flags);
}
