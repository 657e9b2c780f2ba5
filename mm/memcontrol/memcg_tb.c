// SPDX-License-Identifier: GPL-2.0-only
/*
 * Test-bed accessors compiled in memcontrol.c's translation unit (after
 * the extract), where struct memcg_stock_pcp and the file's static
 * functions are visible. Included by memcg_unit.c only.
 */

/* ---- seed 004: counted obj-stock entry points, and the variant switch ---- */
static enum tb_objstock_variant objstock_variant;
static atomic_long_t objstock_mod_calls, objstock_flush_calls;

#if TB_HAVE_mod_objcg_state
/* the "before" mod_objcg_state (mm/variants/obj_stock_single_slot.c) */
static void single_slot_mod_objcg_state(struct obj_cgroup *objcg, struct pglist_data *pgdat,
					enum node_stat_item idx, int nr);

static void mod_objcg_state(struct obj_cgroup *objcg, struct pglist_data *pgdat,
			    enum node_stat_item idx, int nr)
{
	atomic_long_inc(&objstock_mod_calls);
	if (READ_ONCE(objstock_variant) == TB_OBJSTOCK_BEFORE)
		single_slot_mod_objcg_state(objcg, pgdat, idx, nr);
	else
		__real_mod_objcg_state(objcg, pgdat, idx, nr);
}
#endif

/* 6.12's name for what the seed calls __mod_objcg_state (6.1: mod_objcg_mlstate) */
static void tb_objcg_mlstate(struct obj_cgroup *objcg, struct pglist_data *pgdat,
			     enum node_stat_item idx, int nr)
{
	atomic_long_inc(&objstock_flush_calls);
	tb_real_objcg_mlstate(objcg, pgdat, idx, nr);
}

void tb_objstock_set_variant(enum tb_objstock_variant v)
{
	/* the variant replaces mod_objcg_state(), which 7.2 has not */
	WARN_ON_ONCE(v == TB_OBJSTOCK_BEFORE && !TB_HAVE_mod_objcg_state);
	WRITE_ONCE(objstock_variant, v);
}

void tb_objstock_counts(unsigned long *mod_calls, unsigned long *flush_calls)
{
	*mod_calls = atomic_long_read(&objstock_mod_calls);
	*flush_calls = atomic_long_read(&objstock_flush_calls);
}

void tb_objstock_reset_counts(void)
{
	atomic_long_set(&objstock_mod_calls, 0);
	atomic_long_set(&objstock_flush_calls, 0);
}

/* ---- per-CPU stock ---- */
#if !TB_HAVE_memcg_stock_slots
unsigned int tb_stock_pages(int cpu, struct mem_cgroup **cached)
{
	struct memcg_stock_pcp *stock = &per_cpu(memcg_stock, cpu);

	if (cached)
		*cached = READ_ONCE(stock->cached);
	return READ_ONCE(stock->nr_pages);
}

unsigned int tb_stock_pages_of(int cpu, struct mem_cgroup *memcg)
{
	struct memcg_stock_pcp *stock = &per_cpu(memcg_stock, cpu);

	return READ_ONCE(stock->cached) == memcg ? READ_ONCE(stock->nr_pages) : 0;
}

unsigned int tb_obj_stock_bytes(int cpu, struct obj_cgroup **cached)
{
	struct memcg_stock_pcp *stock = &per_cpu(memcg_stock, cpu);

	if (cached)
		*cached = READ_ONCE(stock->cached_objcg);
	return READ_ONCE(stock->nr_bytes);
}

int tb_stock_nr_slots(void)
{
	return 1;
}

struct mem_cgroup *tb_stock_slot(int cpu, int i, unsigned int *pages)
{
	struct mem_cgroup *memcg;

	*pages = tb_stock_pages(cpu, &memcg);
	return memcg;
}

int tb_obj_stock_nr_slots(void)
{
	return 1;
}

struct obj_cgroup *tb_obj_stock_slot(int cpu, int i, unsigned int *bytes)
{
	struct obj_cgroup *objcg;

	*bytes = tb_obj_stock_bytes(cpu, &objcg);
	return objcg;
}

unsigned int tb_obj_stock_bytes_of(int cpu, struct obj_cgroup *objcg)
{
	struct memcg_stock_pcp *stock = &per_cpu(memcg_stock, cpu);

	return objcg && READ_ONCE(stock->cached_objcg) == objcg ? READ_ONCE(stock->nr_bytes) : 0;
}

void tb_stock_vmstat(int cpu, int *reclaimable_b, int *unreclaimable_b)
{
	struct memcg_stock_pcp *stock = &per_cpu(memcg_stock, cpu);

	*reclaimable_b = READ_ONCE(stock->nr_slab_reclaimable_b);
	*unreclaimable_b = READ_ONCE(stock->nr_slab_unreclaimable_b);
}

void tb_drain_local_stock(void)
{
	drain_local_stock(&this_cpu_ptr(&memcg_stock)->work);
}

#else
/*
 * 7.2: the charge stock has NR_MEMCG_STOCK slots of (memcg, pages), the
 * object stock NR_OBJ_STOCK slots of (objcg, bytes) and one vmstat cache
 * for the slot stock->index: the pages (bytes) of every slot, and the
 * memcg (objcg) of the first slot that holds one
 */
unsigned int tb_stock_pages(int cpu, struct mem_cgroup **cached)
{
	struct memcg_stock_pcp *stock = &per_cpu(memcg_stock, cpu);
	unsigned int n = 0;
	int i;

	if (cached)
		*cached = NULL;
	for (i = 0; i < NR_MEMCG_STOCK; i++) {
		struct mem_cgroup *memcg = READ_ONCE(stock->cached[i]);

		if (!memcg)
			continue;
		if (cached && !*cached)
			*cached = memcg;
		n += READ_ONCE(stock->nr_pages[i]);
	}
	return n;
}

unsigned int tb_stock_pages_of(int cpu, struct mem_cgroup *memcg)
{
	struct memcg_stock_pcp *stock = &per_cpu(memcg_stock, cpu);
	int i;

	for (i = 0; i < NR_MEMCG_STOCK; i++)
		if (memcg && READ_ONCE(stock->cached[i]) == memcg)
			return READ_ONCE(stock->nr_pages[i]);
	return 0;
}

unsigned int tb_obj_stock_bytes(int cpu, struct obj_cgroup **cached)
{
	struct obj_stock_pcp *stock = &per_cpu(obj_stock, cpu);
	unsigned int n = 0;
	int i;

	if (cached)
		*cached = NULL;
	for (i = 0; i < NR_OBJ_STOCK; i++) {
		struct obj_cgroup *objcg = READ_ONCE(stock->cached[i]);

		if (!objcg)
			continue;
		if (cached && !*cached)
			*cached = objcg;
		n += READ_ONCE(stock->nr_bytes[i]);
	}
	return n;
}

int tb_stock_nr_slots(void)
{
	return NR_MEMCG_STOCK;
}

struct mem_cgroup *tb_stock_slot(int cpu, int i, unsigned int *pages)
{
	struct memcg_stock_pcp *stock = &per_cpu(memcg_stock, cpu);

	*pages = READ_ONCE(stock->nr_pages[i]);
	return READ_ONCE(stock->cached[i]);
}

int tb_obj_stock_nr_slots(void)
{
	return NR_OBJ_STOCK;
}

struct obj_cgroup *tb_obj_stock_slot(int cpu, int i, unsigned int *bytes)
{
	struct obj_stock_pcp *stock = &per_cpu(obj_stock, cpu);

	*bytes = READ_ONCE(stock->nr_bytes[i]);
	return READ_ONCE(stock->cached[i]);
}

unsigned int tb_obj_stock_bytes_of(int cpu, struct obj_cgroup *objcg)
{
	struct obj_stock_pcp *stock = &per_cpu(obj_stock, cpu);
	int i;

	for (i = 0; i < NR_OBJ_STOCK; i++)
		if (objcg && READ_ONCE(stock->cached[i]) == objcg)
			return READ_ONCE(stock->nr_bytes[i]);
	return 0;
}

void tb_stock_vmstat(int cpu, int *reclaimable_b, int *unreclaimable_b)
{
	struct obj_stock_pcp *stock = &per_cpu(obj_stock, cpu);

	*reclaimable_b = READ_ONCE(stock->nr_slab_reclaimable_b);
	*unreclaimable_b = READ_ONCE(stock->nr_slab_unreclaimable_b);
}

/* both stocks of this CPU, as drain_all_stock()'s works drain them */
void tb_drain_local_stock(void)
{
	drain_local_memcg_stock(&this_cpu_ptr(&memcg_stock)->work);
	drain_local_obj_stock(&this_cpu_ptr(&obj_stock)->work);
}

#endif

/*
 * The stocks hold css and objcg references: drain every CPU's, on each
 * CPU in turn from this thread (what drain_all_stock()'s works would do
 * there, without a hand-off to each CPU's worker), after the works queued
 * so far, a drain among them, have run
 */
static void drain_every_stock(void)
{
	int cpu, home = kshim_ctx.cpu;

	flush_workqueue(system_wq);
	for_each_possible_cpu(cpu) {
		kshim_cpu_switch(cpu);
		tb_drain_local_stock();
	}
	kshim_cpu_switch(home);
}

void tb_drain_all_stock(struct mem_cgroup *root, bool wait)
{
	drain_all_stock(root);
	if (wait)
		flush_workqueue(system_wq);
}

/* the penalty of mem_cgroup_handle_over_high() before its clamp */
unsigned long tb_calculate_high_delay(struct mem_cgroup *memcg, unsigned int nr_pages)
{
	return calculate_high_delay(memcg, nr_pages, mem_find_max_overage(memcg));
}

/* ---- obj stock ---- */
struct obj_cgroup *tb_memcg_objcg(struct mem_cgroup *memcg)
{
#if TB_HAVE_objcg_per_node
	/* 7.2: the objcg of this CPU's node, which a task here charges */
	return rcu_dereference_protected(memcg->nodeinfo[numa_node_id()]->objcg, true);
#else
	return rcu_dereference_protected(memcg->objcg, true);
#endif
}

int tb_obj_cgroup_charge(struct obj_cgroup *objcg, gfp_t gfp, size_t size)
{
	return obj_cgroup_charge(objcg, gfp, size);
}

void tb_obj_cgroup_uncharge(struct obj_cgroup *objcg, size_t size)
{
	obj_cgroup_uncharge(objcg, size);
}

void tb_mod_objcg_state(struct obj_cgroup *objcg, struct pglist_data *pgdat,
			int reclaimable, int nr)
{
	enum node_stat_item idx = reclaimable ? NR_SLAB_RECLAIMABLE_B : NR_SLAB_UNRECLAIMABLE_B;
#if TB_HAVE_mod_objcg_state
	mod_objcg_state(objcg, pgdat, idx, nr);
#else
	/*
	 * 7.2: the slab hooks account on the stock their charge or uncharge
	 * locked (__memcg_slab_post_alloc_hook(), __memcg_slab_free_hook()):
	 * the slot of objcg if it has one, else straight to the vmstat arrays
	 */
	struct obj_stock_pcp *stock = trylock_stock();

	atomic_long_inc(&objstock_mod_calls);
	__account_obj_stock(objcg, stock, nr, pgdat, idx);
	unlock_stock(stock);
#endif
}

/* ---- the world: what mem_cgroup_init() and boot would set up ---- */
#if TB_HAVE_memcg_cachep
/*
 * mem_cgroup_init()'s caches, which a kernel keeps for good: the world's
 * end destroys them once the last memcg is freed (the next boot makes its
 * own)
 */
static void tb_memcg_destroy_caches(void)
{
	kmem_cache_destroy(memcg_cachep);
	kmem_cache_destroy(memcg_pn_cachep);
	memcg_cachep = memcg_pn_cachep = NULL;
}
#endif


/*
 * memcontrol.c's file statics that a booting kernel has at zero and a run
 * changes: the periodic stats flush's clock (a ratelimited flush flushes
 * only when that flush is a cycle late, so a stale time from an earlier
 * world, or from before a rewind of virtual time, changes what reclaim
 * reads); and, before the per-memcg vmstats->stats_updates of 6.12's
 * memcg_rstat_updated(), 6.1's global read-side flush threshold
 * (stats_flush_threshold and the per-CPU stats_updates), which would
 * otherwise carry one world's updates into the next one's first reads
 */
static void memcg_statics_reset(void)
{
#if TB_HAVE_memcg_flush_last_time
	WRITE_ONCE(flush_last_time, 0);
#else
	WRITE_ONCE(flush_next_time, 0);
#endif
#if !TB_HAVE_do_flush_stats && !TB_HAVE_memcg_flush_force
	{
		int cpu;

		atomic_set(&stats_flush_threshold, 0);
		for_each_possible_cpu(cpu)
			per_cpu(stats_updates, cpu) = 0;
	}
#endif
}

int tb_memcg_boot(void)
{
	int ret, nid;

	tb_memcg_world_reset();
	memcg_statics_reset();
	/*
	 * mm_init's pgdat part of the multi-gen LRU (memcgs go on the node's
	 * memcg LRU as they come online), then its initcall: sysfs
	 * lru_gen/{enabled,min_ttl_ms} and debugfs lru_gen{,_full}
	 */
#if TB_HAVE_mglru_memcg
	for_each_node(nid)
		lru_gen_init_pgdat(NODE_DATA(nid));
#endif
	init_lru_gen();
	mem_cgroup_init();
#if TB_HAVE_memcg_cachep
	kshim_at_world_teardown(tb_memcg_destroy_caches);
#endif
	ret = kshim_cgroupfs_mount(&memory_cgrp_subsys, "memory");
	if (!ret && !mem_cgroup_disabled())
		ret = cgroup_add_dfl_cftypes(&memory_cgrp_subsys, swap_files);
	return ret;
}

/*
 * The next world boots with the multi-gen LRU off, as a fresh kernel.
 * Switching it off moves what is left on the generations to the classic
 * lists: the world calls this while its memory is still there (a failed
 * case may leave folios behind, which the teardown then reports).
 */
void tb_memcg_lru_gen_reset(void)
{
	tb_sysfs_write("kernel/mm/lru_gen/enabled", "n");
	tb_sysfs_write("kernel/mm/lru_gen/min_ttl_ms", "0");
}

void tb_memcg_shutdown(void)
{
	WARN(!tb_memcg_tasks_empty(), "tasks left in the memcg world at shutdown");
	kshim_async_inline(true);
	tb_memcg_lru_gen_reset();
	drain_every_stock();
	kshim_cgroupfs_rmdir_all();
	/* releases and frees are works after grace periods: let them all run */
	kshim_rcu_quiesce();
	/*
	 * Offlining refilled stocks: obj_cgroup_release() of a reparented
	 * objcg with charged bytes left gives its pages to this CPU's stock
	 * (refill_stock, with a css reference). Drain them too.
	 */
	drain_every_stock();
	kshim_rcu_quiesce();
#if TB_HAVE_objcg_per_node
	/*
	 * A kernel never offlines its root memcg, nor does the world's end
	 * (kshim_css_kill()): the root's objcgs, which a removed memcg's
	 * offline kills after reparenting them, die here; orig_objcg goes
	 * too, or the root's css_free would read the freed objcg
	 * (__mem_cgroup_free(): obj_cgroup_put() tests obj_cgroup_is_root())
	 */
	{
		int nid;

		for_each_node(nid) {
			struct mem_cgroup_per_node *pn = root_mem_cgroup->nodeinfo[nid];
			struct obj_cgroup *objcg = rcu_replace_pointer(pn->objcg, NULL, true);

			pn->orig_objcg = NULL;
			if (objcg)
				percpu_ref_kill(&objcg->refcnt);
		}
	}
#endif
	/* the root goes last: the children's frees reach it */
	kshim_cgroupfs_umount();
	kshim_rcu_quiesce();
	root_mem_cgroup = NULL;
	/*
	 * the root's id, which only its offline (never, in a kernel) gives
	 * up, goes with the map's nodes
	 */
#if TB_HAVE_memcg_private_id
	xa_destroy(&mem_cgroup_private_ids);
#elif !TB_HAVE_mem_cgroup_idr
	xa_destroy(&mem_cgroup_ids);
#endif
#if TB_HAVE_mem_cgroup_idr
	/*
	 * every id is gone; the kernel's IDR frees its nodes as ids go, the
	 * shim's keeps its slot array until destroyed
	 */
	idr_destroy(&mem_cgroup_idr);
#endif
#if !TB_HAVE_memcontrol_v1_c
	/* mem_cgroup_init()'s per-node soft limit trees (v1, before 6.11) */
	{
		int nid;

		for_each_node(nid) {
			kfree(soft_limit_tree.rb_tree_per_node[nid]);
			soft_limit_tree.rb_tree_per_node[nid] = NULL;
		}
	}
#endif
	/* the next world boots without this one's boot options */
	cgroup_memory_nokmem = cgroup_memory_nosocket = false;
#if TB_HAVE_cgroup_memory_nobpf
	cgroup_memory_nobpf = false;
#endif
	static_branch_enable(&memory_cgrp_subsys_enabled_key);
	kshim_async_inline(false);
}

/*
 * the periodic flush (flush_memcg_stats_dwork) as if it had just run: every
 * per-CPU counter folded into memcg's subtree, so memory.stat is exact
 */
void tb_memcg_flush_stats(struct mem_cgroup *memcg)
{
#if TB_HAVE_do_flush_stats
	do_flush_stats(memcg ? memcg : root_mem_cgroup);
#elif TB_HAVE_memcg_flush_force
	__mem_cgroup_flush_stats(memcg ? memcg : root_mem_cgroup, true);
#else
	__mem_cgroup_flush_stats();	/* before 6.2 every flush is the root's */
#endif
}

/*
 * the periodic flusher late: its work cancelled (a starved kworker), until
 * the next boot queues it again from the root's css_online
 */
void tb_memcg_hold_periodic_flush(void)
{
	cancel_delayed_work_sync(&stats_flush_dwork);
}

unsigned long tb_memcg_stat(struct mem_cgroup *memcg, int item)
{
	return memcg_page_state_output(memcg, item);
}

/* the periodic flush (flush_memcg_stats_dwork) waits for its timer */
bool tb_memcg_stats_flush_queued(void)
{
	return delayed_work_pending(&stats_flush_dwork);
}

/* the memcg's own count of item, without its descendants' (after a flush) */
unsigned long tb_memcg_stat_local(struct mem_cgroup *memcg, int item)
{
#if TB_HAVE_memcg_local_stats_v1
	/*
	 * 7.2 reads a memcg's own counts with cgroup v1 only: a node item's
	 * are its lruvecs' own (lruvec_page_state_local())
	 */
	unsigned long n = 0;
	int nid;

	if (WARN_ON_ONCE(item >= NR_VM_NODE_STAT_ITEMS))
		return 0;
	for_each_node(nid)
		n += lruvec_page_state_local(mem_cgroup_lruvec(memcg, NODE_DATA(nid)), item);
	return n;
#else
	return memcg_page_state_local(memcg, item);
#endif
}

/* a vm event of memcg's subtree, or of memcg alone (after a flush) */
unsigned long tb_memcg_events(struct mem_cgroup *memcg, int event, bool local)
{
#if TB_HAVE_memcg_local_stats_v1
	/* 7.2 reads a memcg's own events with cgroup v1 only: as they are kept */
	if (local) {
		int i = memcg_events_index(event);

		if (WARN_ON_ONCE(BAD_STAT_IDX(i)))
			return 0;
		return READ_ONCE(memcg->vmstats->events_local[i]);
	}
	return memcg_events(memcg, event);
#else
	return local ? memcg_events_local(memcg, event) : memcg_events(memcg, event);
#endif
}

/* pgrefill, pgscan_* or pgsteal_*: an event, or a node item on 7.2 */
unsigned long tb_memcg_reclaim_events(struct mem_cgroup *memcg, int item, bool local)
{
#if TB_HAVE_reclaim_stats_per_node
	return local ? tb_memcg_stat_local(memcg, item) : memcg_page_state(memcg, item);
#else
	return tb_memcg_events(memcg, item, local);
#endif
}

/*
 * A reused world made as a booted one (fuzz harnesses, after undoing an
 * input and before rewinding virtual time): the root's statistics flushed
 * (a fresh root's are zero with nothing pending) and the flush clock as
 * at boot.
 */
void tb_memcg_rewind(void)
{
	tb_memcg_flush_stats(NULL);
	memcg_statics_reset();
}
