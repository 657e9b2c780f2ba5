// SPDX-License-Identifier: GPL-2.0-only
/*
 * The memcontrol.c side of bench_memcg: a memcg world (real 6.12
 * mm/memcontrol.c, library kmemcg) with two chains of cgroups of the
 * wanted depth, "a1/.../aN" and "b1/.../bN".
 *
 * Charges go through the real mem_cgroup_charge()/mem_cgroup_uncharge()
 * on a folio of the calling thread, charged to the thread's active memcg
 * (set_active_memcg, as for a remote charge): a thread without a task has
 * no mm, so get_mem_cgroup_from_mm() takes the active memcg. Switching it
 * between the two leaves makes every charge find the CPU's stock cached
 * for the other memcg (a stock miss: drain the old stock, then
 * page_counter_try_charge() of a whole batch up the hierarchy), without
 * the test bed's task bookkeeping in the measured loop.
 */
#include <linux/memcontrol.h>
#include <linux/sched/mm.h>
#include <linux/mmzone.h>
#include <kshim/memcg_tb.h>
#include <kshim/testbed.h>
#include <time.h>
#include "memcg_ops.h"

#define MCB_MAX_DEPTH 8

static struct mem_cgroup *leaf[2];
static struct obj_cgroup *objcg;
static __thread struct folio folio;
static __thread int thread_cpu;

static void make_chain(char prefix, unsigned int depth)
{
	char path[64] = "";
	unsigned int i;
	size_t len = 0;

	for (i = 1; i <= depth; i++) {
		len += snprintf(path + len, sizeof(path) - len, "%s%c%u",
				i > 1 ? "/" : "", prefix, i);
		if (tb_cgroup_mkdir(path))
			abort();
	}
	leaf[prefix == 'b'] = tb_memcg(path);
}

void mcb_setup(unsigned int depth)
{
	struct kshim_world_config cfg = { .nr_cpus = 4, .nr_nodes = 1, .seed = 1 };

	if (!depth || depth > MCB_MAX_DEPTH)
		abort();
	kshim_world_boot(&cfg);
	if (tb_memcg_boot())
		abort();
	make_chain('a', depth);
	make_chain('b', depth);
	objcg = tb_memcg_objcg(leaf[0]);
	if (!leaf[0] || !leaf[1] || !objcg)
		abort();
}

void mcb_teardown(void)
{
	const char *msg;

	tb_objstock_set_variant(TB_OBJSTOCK_AFTER);
	tb_memcg_shutdown();
	msg = kshim_world_check();
	if (msg) {
		fprintf(stderr, "bench_memcg: %s\n", msg);
		abort();
	}
	kshim_world_teardown();
}

void mcb_thread_enter(int cpu)
{
	kshim_thread_enter(cpu);
	thread_cpu = cpu;
}

void mcb_thread_exit(void)
{
	set_active_memcg(NULL);
	kshim_thread_exit();
}

static int charge_uncharge(struct mem_cgroup *memcg)
{
	set_active_memcg(memcg);
	kshim_folio_prep(&folio, 1, 0);
	if (mem_cgroup_charge(&folio, NULL, GFP_KERNEL))
		return -1;
	mem_cgroup_uncharge(&folio);
	return 0;
}

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/*
 * Hit: uncharge goes to the page counter, not back to the stock, so a run
 * of nr hits needs nr pages in this CPU's stock for leaf a: drain it and
 * charge one page (the miss charges a batch of 64), outside the timing.
 */
static int prepare_hits(unsigned int nr)
{
	struct mem_cgroup *cached;

	if (tb_stock_pages(thread_cpu, &cached) >= nr && cached == leaf[0])
		return 0;
	tb_drain_local_stock();
	if (charge_uncharge(leaf[0]))
		return -1;
	return tb_stock_pages(thread_cpu, &cached) >= nr && cached == leaf[0] ? 0 : -1;
}

long long mcb_charge_run(int miss, unsigned int nr)
{
	long long t0;
	unsigned int i;

	if (!miss && prepare_hits(nr))
		return -1;
	t0 = now_ns();
	for (i = 0; i < nr; i++)
		if (charge_uncharge(leaf[miss ? i & 1 : 0]))
			return -1;
	return now_ns() - t0;
}

/*
 * As in a slab allocation, where obj_cgroup_charge() comes first, this
 * CPU's obj stock is cached for the objcg before the trace starts: the
 * single-slot variant only caches vmstat data for the stock's own objcg.
 */
void mcb_objstock_begin(int before)
{
	if (tb_obj_cgroup_charge(objcg, GFP_KERNEL, 64))
		abort();
	tb_obj_cgroup_uncharge(objcg, 64);
	tb_objstock_set_variant(before ? TB_OBJSTOCK_BEFORE : TB_OBJSTOCK_AFTER);
	tb_objstock_reset_counts();
}

/*
 * Step i of a slab trace: 64-byte objects allocated in pairs and freed in
 * pairs (+,+,-,- per type), so the byte counts stay bounded; the
 * alternating trace interleaves reclaimable and unreclaimable objects,
 * the single-type trace has unreclaimable ones only.
 */
void mcb_objstock_step(unsigned long i, int alternating)
{
	int reclaimable = alternating ? (int)(i & 1) : 0;
	unsigned long k = alternating ? i >> 1 : i;

	tb_mod_objcg_state(objcg, NODE_DATA(0), reclaimable, (k & 2) ? -64 : 64);
}

void mcb_objstock_counts(unsigned long *mod_calls, unsigned long *flush_calls)
{
	tb_objstock_counts(mod_calls, flush_calls);
}
