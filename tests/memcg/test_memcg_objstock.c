// SPDX-License-Identifier: GPL-2.0-only
/*
 * The per-CPU object stock of the real memcontrol.c: byte-sized
 * obj_cgroup_charge/uncharge over page charges (consume_obj_stock,
 * refill_obj_stock, drain_obj_stock and objcg->nr_charged_bytes), stock
 * switching between objcgs, and the slab vmstat cache of mod_objcg_state:
 * 6.12's ("after": one byte count per item, flushed over PAGE_SIZE or on a
 * pgdat change) against seed 004's single-slot "before" variant
 * (mm/variants/obj_stock_single_slot.c), counted with tb_objstock_counts
 * (mod_objcg_state calls, __mod_objcg_mlstate flushes).
 * 7.2 (memcg_stock_slots, !mod_objcg_state): the obj stock keeps
 * NR_OBJ_STOCK objcgs, and the slab hooks account the vmstat bytes on the
 * stock they charged (__account_obj_stock()): cached only for an objcg
 * with a slot there, in one cache for one slot and node; seed 004's
 * variant, which replaces mod_objcg_state(), has nothing to replace, and
 * its comparisons do not apply. The cases charge the objcg before they
 * account its bytes, as the slab hooks do on every tree.
 * Two nodes, for the pgdat-change cases. Everything runs on CPU 0 but
 * the drain_all_stock() case, whose obj stock is CPU 1's.
 */
#include <linux/kernel.h>
#include <linux/memcontrol.h>
#include <linux/workqueue.h>
#include <stdlib.h>
#include <string.h>
#include "tb_memcg.h"

#define PG 4096

static struct obj_cgroup *objcg_of(const char *path)
{
	return tb_memcg_objcg(tb_memcg(path));
}

static unsigned int stock_bytes(struct obj_cgroup **cached)
{
	return tb_obj_stock_bytes(0, cached);
}

static int charged_bytes(struct obj_cgroup *objcg)
{
	return atomic_read(&objcg->nr_charged_bytes);
}

static void assert_stock_vmstat(int recl, int unrecl)
{
	int r, u;

	tb_stock_vmstat(0, &r, &u);
	assert_int_equal(r, recl);
	assert_int_equal(u, unrecl);
}

static unsigned long flushes(void)
{
	unsigned long mods, flush;

	tb_objstock_counts(&mods, &flush);
	return flush;
}

static unsigned long mods(void)
{
	unsigned long mods, flush;

	tb_objstock_counts(&mods, &flush);
	return mods;
}

static void start(enum tb_objstock_variant v)
{
	tb_objstock_set_variant(v);
	tb_objstock_reset_counts();
}

#define BEFORE_GONE "seed 004's single-slot variant replaces mod_objcg_state(), " \
	"which 7.2 has not (!mod_objcg_state: __account_obj_stock() on the stock's slots)"

/* whether seed 004's variant applies; if not, says why */
static bool before_applies(void)
{
	if (!TB_HAVE_mod_objcg_state)
		print_message("[  NOTE    ] the \"before\" part does not apply: %s\n", BEFORE_GONE);
	return TB_HAVE_mod_objcg_state;
}

/*
 * 100 bytes: a page is charged (try_charge_memcg takes a batch of 64,
 * 63 go to the page stock), the rest of the page, 3996 bytes, to the obj
 * stock. 1000 bytes come from the obj stock. 5000 bytes do not fit in the
 * 2996 left: 2 pages charged, the 3192 left over are added without an
 * uncharge (allow_uncharge false): 6188 bytes, over a page. Uncharging
 * 100 bytes allows it: 6288 -> one page back to the page stock, 2192 kept.
 * drain_local_stock: the 2192 bytes go to objcg->nr_charged_bytes, the
 * page stock to the counter; 2 pages remain charged (6000 bytes of objects
 * + 2192 charged bytes = 8192). The next charge (another objcg switch)
 * takes nr_charged_bytes back: 2192 + 3996 = 6188 -> one page uncharged,
 * 2092 left.
 */
static void test_obj_charge_bytes(void **state)
{
	struct obj_cgroup *objcg, *cached;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	objcg = objcg_of("a");
	assert_int_equal(tb_obj_cgroup_charge(objcg, GFP_KERNEL, 100), 0);
	assert_int_equal(stock_bytes(&cached), PG - 100);
	assert_ptr_equal(cached, objcg);
	assert_int_equal(tb_stock_pages(0, NULL), 63);
	assert_int_equal(tb_cgroup_read_u64("a", "memory.current"), 64 * PG);

	assert_int_equal(tb_obj_cgroup_charge(objcg, GFP_KERNEL, 1000), 0);
	assert_int_equal(stock_bytes(NULL), 2996);
	assert_int_equal(tb_stock_pages(0, NULL), 63);

	assert_int_equal(tb_obj_cgroup_charge(objcg, GFP_KERNEL, 5000), 0);
	assert_int_equal(stock_bytes(NULL), 6188);
	assert_int_equal(tb_stock_pages(0, NULL), 61);

	tb_obj_cgroup_uncharge(objcg, 100);
	assert_int_equal(stock_bytes(NULL), 2192);
	assert_int_equal(tb_stock_pages(0, NULL), 62);

	tb_drain_local_stock();
	assert_int_equal(stock_bytes(&cached), 0);
	assert_null(cached);
	assert_int_equal(charged_bytes(objcg), 2192);
	assert_int_equal(tb_stock_pages(0, NULL), 0);
	assert_int_equal(tb_cgroup_read_u64("a", "memory.current"), 2 * PG);

	assert_int_equal(tb_obj_cgroup_charge(objcg, GFP_KERNEL, 100), 0);
	assert_int_equal(charged_bytes(objcg), 0);
	assert_int_equal(stock_bytes(NULL), 2092);

	/* 6100 bytes of objects left: 2092 + 6100 = 8192, two pages back */
	tb_obj_cgroup_uncharge(objcg, 6100);
	assert_int_equal(stock_bytes(NULL), 0);
	tb_drain_local_stock();
	assert_int_equal(tb_cgroup_read_u64("a", "memory.current"), 0);
}

/*
 * The stock holds one objcg: charging B drains A's bytes (under a page)
 * into A->nr_charged_bytes; charging A again drains B and takes A's
 * charged bytes back (3996 + 3896 = 7892 -> one page uncharged, 3796).
 */
static void test_obj_stock_switch(void **state)
{
	struct obj_cgroup *a, *b, *cached;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	assert_int_equal(tb_cgroup_mkdir("b"), 0);
	a = objcg_of("a");
	b = objcg_of("b");
	assert_int_equal(tb_obj_cgroup_charge(a, GFP_KERNEL, 100), 0);
	assert_int_equal(tb_obj_cgroup_charge(b, GFP_KERNEL, 100), 0);
#if TB_HAVE_memcg_stock_slots
	/*
	 * 7.2: NR_OBJ_STOCK (5) slots. b takes a slot of its own, a keeps its
	 * bytes. A sixth objcg takes the slot stock->drain_idx names (the
	 * first, a's): a's bytes go to its nr_charged_bytes. a's next charge
	 * takes the next one (b's) and a's charged bytes back: the numbers
	 * of the single stock's switch.
	 */
	{
		static const char *const more[] = { "c", "d", "e", "f" };
		struct obj_cgroup *o[4];
		int i;

		assert_int_equal(tb_obj_stock_bytes_of(0, a), PG - 100);
		assert_int_equal(tb_obj_stock_bytes_of(0, b), PG - 100);
		assert_int_equal(charged_bytes(a), 0);
		for (i = 0; i < 4; i++) {
			assert_int_equal(tb_cgroup_mkdir(more[i]), 0);
			o[i] = objcg_of(more[i]);
			assert_int_equal(tb_obj_cgroup_charge(o[i], GFP_KERNEL, 100), 0);
		}
		assert_int_equal(tb_obj_stock_bytes_of(0, a), 0);
		assert_int_equal(charged_bytes(a), PG - 100);
		assert_int_equal(tb_obj_stock_bytes_of(0, o[3]), PG - 100);
		assert_int_equal(tb_obj_stock_bytes(0, NULL), 5 * (PG - 100));

		assert_int_equal(tb_obj_cgroup_charge(a, GFP_KERNEL, 200), 0);
		assert_int_equal(tb_obj_stock_bytes_of(0, b), 0);
		assert_int_equal(charged_bytes(b), PG - 100);
		assert_int_equal(charged_bytes(a), 0);
		assert_int_equal(tb_obj_stock_bytes_of(0, a), 3796);

		tb_obj_cgroup_uncharge(a, 300);
		tb_obj_cgroup_uncharge(b, 100);
		for (i = 0; i < 4; i++)
			tb_obj_cgroup_uncharge(o[i], 100);
		tb_drain_local_stock();
		assert_int_equal(charged_bytes(b), 0);
		for (i = 0; i < 4; i++)
			assert_int_equal(charged_bytes(o[i]), 0);
		assert_int_equal(stock_bytes(&cached), 0);
		assert_int_equal(tb_cgroup_read_u64("a", "memory.current"), 0);
		return;
	}
#endif
	assert_int_equal(stock_bytes(&cached), PG - 100);
	assert_ptr_equal(cached, b);
	assert_int_equal(charged_bytes(a), PG - 100);

	assert_int_equal(tb_obj_cgroup_charge(a, GFP_KERNEL, 200), 0);
	assert_ptr_equal((stock_bytes(&cached), cached), a);
	assert_int_equal(charged_bytes(b), PG - 100);
	assert_int_equal(charged_bytes(a), 0);
	assert_int_equal(stock_bytes(NULL), 3796);

	tb_obj_cgroup_uncharge(a, 300);
	tb_obj_cgroup_uncharge(b, 100);
	tb_drain_local_stock();
	/* b's 4096 bytes, once back in a stock, are a whole page again */
	assert_int_equal(charged_bytes(b), 0);
	assert_int_equal(stock_bytes(&cached), 0);
}

/* drain_local_stock flushes the cached vmstat bytes and drops the objcg */
static void test_drain_flushes_vmstat(void **state)
{
	struct obj_cgroup *objcg, *cached;

	start(TB_OBJSTOCK_AFTER);
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	objcg = objcg_of("a");
	assert_int_equal(tb_obj_cgroup_charge(objcg, GFP_KERNEL, 100), 0);
	tb_mod_objcg_state(objcg, NODE_DATA(0), 1, 300);
	tb_mod_objcg_state(objcg, NODE_DATA(0), 0, 500);
	assert_stock_vmstat(300, 500);
	assert_int_equal(flushes(), 0);
	tb_obj_cgroup_uncharge(objcg, 100);
	tb_drain_local_stock();
	assert_stock_vmstat(0, 0);
	assert_int_equal(flushes(), 2);
	assert_int_equal(stock_bytes(&cached), 0);
	assert_null(cached);
}

/*
 * 6.12: the first bytes of an item are cached as they are; later ones are
 * added and pushed out when the sum exceeds PAGE_SIZE. 1000 bytes a call:
 * 1000 .. 4000 cached, 5000 > 4096 flushed: one flush every five calls.
 */
static void test_after_accumulates_per_item(void **state)
{
	struct obj_cgroup *objcg;
	int i;

	start(TB_OBJSTOCK_AFTER);
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	objcg = objcg_of("a");
	assert_int_equal(tb_obj_cgroup_charge(objcg, GFP_KERNEL, 8), 0);
	for (i = 1; i <= 10; i++) {
		tb_mod_objcg_state(objcg, NODE_DATA(0), 1, 1000);
		assert_int_equal(flushes(), i / 5);
		assert_stock_vmstat(i % 5 * 1000, 0);
	}
	/* a large object is still cached once before it is pushed out */
	tb_mod_objcg_state(objcg, NODE_DATA(0), 0, 3 * PG);
	assert_stock_vmstat(0, 3 * PG);
	assert_int_equal(flushes(), 2);
	tb_mod_objcg_state(objcg, NODE_DATA(0), 0, -100);
	assert_stock_vmstat(0, 0);
	assert_int_equal(flushes(), 3);
	assert_int_equal(mods(), 12);
	tb_obj_cgroup_uncharge(objcg, 8);
	tb_drain_local_stock();
}

/*
 * 6.12's mod_objcg_state takes the stock over for another objcg: the old
 * objcg's bytes go to its nr_charged_bytes (drain_obj_stock), its vmstat
 * is flushed, and the new objcg's bytes are cached. The "before" variant
 * leaves the stock alone and outputs the other objcg's data directly.
 * 7.2: an objcg without a slot in the stock has its bytes go out directly
 * (as the "before" variant did); once it has one, the cache moves to its
 * slot, flushing the other's bytes, and both keep their slots.
 */
static void test_other_objcg_after_takes_stock(void **state)
{
	struct obj_cgroup *a, *b, *cached;

	start(TB_OBJSTOCK_AFTER);
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	assert_int_equal(tb_cgroup_mkdir("b"), 0);
	a = objcg_of("a");
	b = objcg_of("b");
	assert_int_equal(tb_obj_cgroup_charge(a, GFP_KERNEL, 100), 0);
	tb_mod_objcg_state(a, NODE_DATA(0), 0, 100);
	tb_mod_objcg_state(b, NODE_DATA(0), 1, 500);
#if !TB_HAVE_mod_objcg_state
	assert_int_equal(flushes(), 1);		/* b's 500, directly */
	assert_int_equal(stock_bytes(&cached), PG - 100);
	assert_ptr_equal(cached, a);
	assert_int_equal(charged_bytes(a), 0);
	assert_stock_vmstat(0, 100);
	assert_int_equal(tb_obj_cgroup_charge(b, GFP_KERNEL, 100), 0);
	tb_mod_objcg_state(b, NODE_DATA(0), 1, 500);
	assert_int_equal(flushes(), 2);		/* a's 100 unreclaimable */
	assert_stock_vmstat(500, 0);
	assert_int_equal(tb_obj_stock_bytes_of(0, a), PG - 100);
	assert_int_equal(tb_obj_stock_bytes_of(0, b), PG - 100);
	tb_obj_cgroup_uncharge(b, 100);
	tb_obj_cgroup_uncharge(a, 100);
	return;
#endif
	assert_int_equal(flushes(), 1);		/* a's 100 unreclaimable */
	assert_int_equal(stock_bytes(&cached), 0);
	assert_ptr_equal(cached, b);
	assert_int_equal(charged_bytes(a), PG - 100);
	assert_stock_vmstat(500, 0);
	tb_obj_cgroup_uncharge(a, 100);
}

static void test_other_objcg_before_goes_direct(void **state)
{
	struct obj_cgroup *a, *b, *cached;

	if (!TB_HAVE_mod_objcg_state)
		tb_skip(BEFORE_GONE);
	start(TB_OBJSTOCK_BEFORE);
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	assert_int_equal(tb_cgroup_mkdir("b"), 0);
	a = objcg_of("a");
	b = objcg_of("b");
	assert_int_equal(tb_obj_cgroup_charge(a, GFP_KERNEL, 100), 0);
	tb_mod_objcg_state(a, NODE_DATA(0), 0, 100);
	tb_mod_objcg_state(b, NODE_DATA(0), 1, 500);
	assert_int_equal(flushes(), 1);		/* b's 500, directly */
	assert_int_equal(stock_bytes(&cached), PG - 100);
	assert_ptr_equal(cached, a);
	assert_int_equal(charged_bytes(a), 0);
	assert_stock_vmstat(0, 100);
	/* with nothing cached at all, the data goes out too */
	tb_drain_local_stock();
	tb_objstock_reset_counts();
	tb_mod_objcg_state(a, NODE_DATA(0), 1, 10);
	assert_int_equal(flushes(), 1);
	assert_null((stock_bytes(&cached), cached));
	tb_obj_cgroup_uncharge(a, 100);
	tb_objstock_set_variant(TB_OBJSTOCK_AFTER);
}

/* run nr alternating reclaimable/unreclaimable calls of 100 bytes */
static unsigned long alternate(enum tb_objstock_variant v, const char *path, int nr)
{
	struct obj_cgroup *objcg;
	unsigned long f;
	int i;

	start(v);
	assert_int_equal(tb_cgroup_mkdir(path), 0);
	objcg = objcg_of(path);
	assert_int_equal(tb_obj_cgroup_charge(objcg, GFP_KERNEL, 8), 0);
	for (i = 0; i < nr; i++)
		tb_mod_objcg_state(objcg, NODE_DATA(0), i & 1, 100);
	f = flushes();
	assert_int_equal(mods(), nr);
	tb_obj_cgroup_uncharge(objcg, 8);
	tb_drain_local_stock();
	tb_objstock_set_variant(TB_OBJSTOCK_AFTER);
	return f;
}

/*
 * Alternating items on one node: 6.12 keeps both byte counts, each
 * reaching 4100 > 4096 on its 41st call: 2 flushes in 100 calls. The
 * single slot flushes on every switch of item: 99.
 */
static void test_alternating_items(void **state)
{
	assert_int_equal(alternate(TB_OBJSTOCK_AFTER, "after", 100), 2);
	if (before_applies())
		assert_int_equal(alternate(TB_OBJSTOCK_BEFORE, "before", 100), 99);
}

/* one item, one node, sizes of either sign: both variants do the same */
static const int single_trace[] = {
	700, 900, -300, 1500, 2000, 40, -4000, 300, 5000, 64, 64, 128, -64,
	4097, 1, 1, 3000, -2000, 1000, 1000, 1000, 100,
};

static void run_single(enum tb_objstock_variant v, const char *path,
		       unsigned long *flush, int *recl)
{
	struct obj_cgroup *objcg;
	unsigned int i;
	int unrecl;

	start(v);
	assert_int_equal(tb_cgroup_mkdir(path), 0);
	objcg = objcg_of(path);
	assert_int_equal(tb_obj_cgroup_charge(objcg, GFP_KERNEL, 8), 0);
	for (i = 0; i < ARRAY_SIZE(single_trace); i++)
		tb_mod_objcg_state(objcg, NODE_DATA(0), 1, single_trace[i]);
	*flush = flushes();
	tb_stock_vmstat(0, recl, &unrecl);
	assert_int_equal(unrecl, 0);
	tb_obj_cgroup_uncharge(objcg, 8);
	tb_drain_local_stock();
	tb_objstock_set_variant(TB_OBJSTOCK_AFTER);
}

static void test_single_item_traces_equal(void **state)
{
	unsigned long fa, fb;
	int ra, rb;

	if (!TB_HAVE_mod_objcg_state)
		tb_skip(BEFORE_GONE);
	run_single(TB_OBJSTOCK_AFTER, "after", &fa, &ra);
	run_single(TB_OBJSTOCK_BEFORE, "before", &fb, &rb);
	assert_int_equal(fa, fb);
	assert_int_equal(ra, rb);
	assert_true(fa > 0);
}

/*
 * A pgdat change: 6.12 flushes both cached items to the old node and
 * caches the new bytes; the single slot flushes its one item. Both
 * items on node 0 then node 1: after 2 flushes, before 1 (the switch of
 * item on node 0) + 1.
 */
static void test_pgdat_change(void **state)
{
	struct obj_cgroup *a, *b;

	assert_int_equal(tb_cgroup_mkdir("after"), 0);
	assert_int_equal(tb_cgroup_mkdir("before"), 0);
	a = objcg_of("after");
	b = objcg_of("before");

	start(TB_OBJSTOCK_AFTER);
	assert_int_equal(tb_obj_cgroup_charge(a, GFP_KERNEL, 8), 0);
	tb_mod_objcg_state(a, NODE_DATA(0), 1, 1000);
	tb_mod_objcg_state(a, NODE_DATA(0), 0, 2000);
	assert_int_equal(flushes(), 0);
	tb_mod_objcg_state(a, NODE_DATA(1), 1, 300);
	assert_int_equal(flushes(), 2);
	assert_stock_vmstat(300, 0);
	/* back to node 0: node 1's 300 flushed */
	tb_mod_objcg_state(a, NODE_DATA(0), 1, 300);
	assert_int_equal(flushes(), 3);
	tb_obj_cgroup_uncharge(a, 8);
	tb_drain_local_stock();

	if (!before_applies())
		return;
	start(TB_OBJSTOCK_BEFORE);
	assert_int_equal(tb_obj_cgroup_charge(b, GFP_KERNEL, 8), 0);
	tb_mod_objcg_state(b, NODE_DATA(0), 1, 1000);
	tb_mod_objcg_state(b, NODE_DATA(0), 0, 2000);
	assert_int_equal(flushes(), 1);
	assert_stock_vmstat(0, 2000);
	tb_mod_objcg_state(b, NODE_DATA(1), 1, 300);
	assert_int_equal(flushes(), 2);
	assert_stock_vmstat(300, 0);
	tb_mod_objcg_state(b, NODE_DATA(0), 1, 300);
	assert_int_equal(flushes(), 3);
	tb_obj_cgroup_uncharge(b, 8);
	tb_drain_local_stock();
	tb_objstock_set_variant(TB_OBJSTOCK_AFTER);
}

/* the periodic flusher (flush_memcg_stats_dwork, every 2 s) */
static void flush_stats(void)
{
	kshim_jiffies_advance(2 * HZ);
	flush_workqueue(system_unbound_wq);
}

/*
 * The read-side flush threshold's unit differs. 6.12: a memcg's
 * memcg_rstat_updated() counts pages (memcg_state_val_in_pages(): a byte
 * item is val * 1 / PAGE_SIZE, at least 1) and memcg_vmstats_needs_flush()
 * wants > MEMCG_CHARGE_BATCH * nr_cpus of them. 6.1: one global per-CPU
 * stats_updates counts each item's own unit (slab: bytes, kmem: pages),
 * each overflow past MEMCG_CHARGE_BATCH adds x / MEMCG_CHARGE_BATCH to
 * stats_flush_threshold, and mem_cgroup_flush_stats() wants it > nr_cpus
 * (4 here).
 */
#define BYTES_COUNT_AS_UNITS	(!TB_HAVE_do_flush_stats && !TB_HAVE_memcg_flush_force)

/*
 * memory.stat flushes only when enough updates are pending: 300 bytes stay
 * invisible to a read until the periodic flush (6.1: 300 / 64 = 4 batches,
 * not > 4). 320 more are 5 batches on 6.1, and the read flushes; on 6.12
 * they are 1 page.
 */
static void test_stat_read_flush_threshold(void **state)
{
	start(TB_OBJSTOCK_AFTER);
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_mod_objcg_state(objcg_of("a"), NODE_DATA(0), 1, 300);
	tb_drain_local_stock();
	assert_int_equal(flushes(), 1);
	assert_int_equal(tb_cgroup_read_key("a", "memory.stat", "slab_reclaimable"), 0);
	flush_stats();
	assert_int_equal(tb_cgroup_read_key("a", "memory.stat", "slab_reclaimable"), 300);
	tb_mod_objcg_state(objcg_of("a"), NODE_DATA(0), 1, 320);
	tb_drain_local_stock();
	assert_int_equal(tb_cgroup_read_key("a", "memory.stat", "slab_reclaimable"),
			 BYTES_COUNT_AS_UNITS ? 620 : 300);
}

/* one per-CPU batch of rstat updates: 64 pages of slab_reclaimable */
static void batch_update(const char *path)
{
	tb_mod_objcg_state(objcg_of(path), NODE_DATA(0), 1, MEMCG_CHARGE_BATCH * PAGE_SIZE);
	tb_drain_local_stock();
}

static long long slab_bytes(const char *path)
{
	return tb_cgroup_read_key(path, "memory.stat", "slab_reclaimable");
}

/* node 0's slab_reclaimable in memory.numa_stat ("... N0=bytes ...") */
static long long slab_bytes_n0(const char *path)
{
	static char buf[16384];
	const char *p;

	assert_true(tb_cgroup_read(path, "memory.numa_stat", buf, sizeof(buf) - 1) > 0);
	p = strstr(buf, "slab_reclaimable N0=");
	assert_non_null(p);
	return strtoll(p + strlen("slab_reclaimable N0="), NULL, 10);
}

/*
 * The read-side threshold is strict and counted afresh after each flush:
 * 4 batches of 64 pages (= MEMCG_CHARGE_BATCH * 4 CPUs) pending leave
 * memory.stat stale, the fifth makes the read flush; after that flush,
 * 4 more batches stay pending again. On 6.1 one batch of slab bytes is
 * already 4096 of its batches: every read flushes.
 */
static void test_stat_read_flush_threshold_is_strict(void **state)
{
	const long long batch = MEMCG_CHARGE_BATCH * PAGE_SIZE;
	int i;

	start(TB_OBJSTOCK_AFTER);
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	for (i = 0; i < 4; i++)
		batch_update("a");
	assert_int_equal(slab_bytes("a"), BYTES_COUNT_AS_UNITS ? 4 * batch : 0);
	batch_update("a");
	assert_int_equal(slab_bytes("a"), 5 * batch);
	for (i = 0; i < 4; i++)
		batch_update("a");
	assert_int_equal(slab_bytes("a"), BYTES_COUNT_AS_UNITS ? 9 * batch : 5 * batch);
	flush_stats();
	assert_int_equal(slab_bytes("a"), 9 * batch);
}

/*
 * memcg_rstat_updated() keeps a CPU's updates to itself until they make a
 * batch: 63 pages on each of the 4 CPUs, then 5 more on CPU 0, bring only
 * CPU 0's 68 to the read-side count (not > 256), so memory.stat stays
 * stale; the periodic flush shows all 257 pages. On 6.1 a byte is a unit:
 * the read flushes.
 */
static void test_updates_under_a_batch_stay_on_their_cpu(void **state)
{
	const long long total = (4 * (MEMCG_CHARGE_BATCH - 1) + 5) * PAGE_SIZE;
	int cpu;

	start(TB_OBJSTOCK_AFTER);
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	for (cpu = 0; cpu < 4; cpu++) {
		kshim_cpu_switch(cpu);
		tb_mod_objcg_state(objcg_of("a"), NODE_DATA(0), 1,
				   (MEMCG_CHARGE_BATCH - 1) * PAGE_SIZE);
		tb_drain_local_stock();
	}
	kshim_cpu_switch(0);
	tb_mod_objcg_state(objcg_of("a"), NODE_DATA(0), 1, 5 * PAGE_SIZE);
	tb_drain_local_stock();
	assert_int_equal(slab_bytes("a"), BYTES_COUNT_AS_UNITS ? total : 0);
	flush_stats();
	assert_int_equal(slab_bytes("a"), total);
}

/*
 * A ratelimited flush (reclaim's, a refault's) flushes only when the
 * periodic flusher is a whole cycle late: more than 2 * FLUSH_TIME (4 s)
 * after the root's last flush. With that flusher held off, five batches
 * pending in "a" stay unflushed by a call 4 s after the root's flush; a
 * call one jiffy later folds them in.
 */
static void test_ratelimited_flush_waits_a_whole_late_cycle(void **state)
{
#if !TB_HAVE_memcg_flush_last_time
	tb_skip("the ratelimited flush counts from the last flush since 6.8");
#else
	const long long batch = MEMCG_CHARGE_BATCH * PAGE_SIZE;
	struct mem_cgroup *a;
	int i;

	start(TB_OBJSTOCK_AFTER);
	tb_memcg_hold_periodic_flush();
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	a = tb_memcg("a");
	tb_memcg_flush_stats(NULL);
	for (i = 0; i < 5; i++)
		batch_update("a");
	assert_int_equal(tb_memcg_stat(a, NR_SLAB_RECLAIMABLE_B), 0);
	kshim_jiffies_advance(4 * HZ);
	mem_cgroup_flush_stats_ratelimited(a);
	assert_int_equal(tb_memcg_stat(a, NR_SLAB_RECLAIMABLE_B), 0);
	kshim_jiffies_advance(1);
	mem_cgroup_flush_stats_ratelimited(a);
	assert_int_equal(tb_memcg_stat(a, NR_SLAB_RECLAIMABLE_B), 5 * batch);
#endif
}

/*
 * A flush starts each CPU's count of pending updates afresh
 * (mem_cgroup_css_rstat_flush() zeroes stats_updates): 63 pages kept on
 * CPU 0 are flushed by the periodic flush, and the 4 batches after it
 * are 256 pages, not > 256: memory.stat shows only the 63.
 */
static void test_flush_zeroes_the_cpu_pending_count(void **state)
{
	const long long some = (MEMCG_CHARGE_BATCH - 1) * PAGE_SIZE;
	int i;

	if (BYTES_COUNT_AS_UNITS)
		tb_skip("asserts 6.12's per-memcg threshold; 6.1's is one global count of bytes");
	start(TB_OBJSTOCK_AFTER);
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_mod_objcg_state(objcg_of("a"), NODE_DATA(0), 1, some);
	tb_drain_local_stock();
	flush_stats();
	assert_int_equal(slab_bytes("a"), some);
	for (i = 0; i < 4; i++)
		batch_update("a");
	assert_int_equal(slab_bytes("a"), some);
	flush_stats();
	assert_int_equal(slab_bytes("a"), some + 4 * MEMCG_CHARGE_BATCH * PAGE_SIZE);
}

/*
 * A read of memory.numa_stat flushes as memory.stat does
 * (mem_cgroup_flush_stats()): five batches pending are past the
 * threshold, and the first read to come shows them.
 */
static void test_numa_stat_read_flushes_past_the_threshold(void **state)
{
	int i;

	start(TB_OBJSTOCK_AFTER);
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	for (i = 0; i < 5; i++)
		batch_update("a");
	assert_int_equal(slab_bytes_n0("a"), 5 * MEMCG_CHARGE_BATCH * PAGE_SIZE);
}

/*
 * A child's updates count toward its ancestors' thresholds: five batches
 * in p/c make a read of p flush; flushed counts move up once, not again
 * at the next flush.
 */
static void test_child_updates_flush_parent_reads(void **state)
{
	const long long batch = MEMCG_CHARGE_BATCH * PAGE_SIZE;
	int i;

	start(TB_OBJSTOCK_AFTER);
	assert_int_equal(tb_cgroup_mkdir("p"), 0);
	assert_int_equal(tb_cgroup_mkdir("p/c"), 0);
	for (i = 0; i < 5; i++)
		batch_update("p/c");
	assert_int_equal(slab_bytes("p"), 5 * batch);
	for (i = 0; i < 5; i++)
		batch_update("p/c");
	assert_int_equal(slab_bytes("p"), 10 * batch);
	assert_int_equal(slab_bytes("p/c"), 10 * batch);
	/* and so do the per-node counts of memory.numa_stat */
	assert_int_equal(slab_bytes_n0("p"), 10 * batch);
}

/*
 * Kernel memory is counted in pages: a kmem charge of 300 pages is past
 * 6.12's threshold (256 pages) by itself, so the next read shows it. On
 * 6.1 it is 300 / 64 = 4 batches, not > 4: the read stays stale until the
 * periodic flush.
 */
static void test_kmem_charge_past_threshold_shows_at_once(void **state)
{
	start(TB_OBJSTOCK_AFTER);
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	assert_int_equal(tb_obj_cgroup_charge(objcg_of("a"), GFP_KERNEL, 300 * PAGE_SIZE), 0);
	assert_int_equal(tb_cgroup_read_key("a", "memory.stat", "kernel"),
			 BYTES_COUNT_AS_UNITS ? 0 : 300 * PAGE_SIZE);
	flush_stats();
	assert_int_equal(tb_cgroup_read_key("a", "memory.stat", "kernel"), 300 * PAGE_SIZE);
	tb_obj_cgroup_uncharge(objcg_of("a"), 300 * PAGE_SIZE);
}

/*
 * A kernel stack is counted in KB (fork's mod_lruvec_page_state(), 16 KB
 * a stack), toward the read-side flush threshold in pages: 80 stacks are
 * 320 pages, past 256, so the next memory.stat read flushes and shows
 * them, in bytes.
 */
static void test_kernel_stack_kb_count_in_pages(void **state)
{
	struct folio *folio;
	int i;

	start(TB_OBJSTOCK_AFTER);
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	assert_int_equal(tb_task_enter("a"), 0);
	folio = tb_charge_ok(4);
	flush_stats();
	for (i = 0; i < 80; i++)
		mod_lruvec_page_state(folio_page(folio, 0), NR_KERNEL_STACK_KB, 16);
	assert_int_equal(tb_cgroup_read_key("a", "memory.stat", "kernel_stack"), 80 * 16 * 1024);
	for (i = 0; i < 80; i++)
		mod_lruvec_page_state(folio_page(folio, 0), NR_KERNEL_STACK_KB, -16);
	flush_stats();
	assert_int_equal(tb_cgroup_read_key("a", "memory.stat", "kernel_stack"), 0);
}

/* memory.stat's "slab" is slab_unreclaimable plus slab_reclaimable */
static void test_stat_slab_is_the_sum_of_both_items(void **state)
{
	start(TB_OBJSTOCK_AFTER);
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_mod_objcg_state(objcg_of("a"), NODE_DATA(0), 1, 3 * PAGE_SIZE);
	tb_mod_objcg_state(objcg_of("a"), NODE_DATA(0), 0, 5 * PAGE_SIZE);
	tb_drain_local_stock();
	flush_stats();
	assert_int_equal(tb_cgroup_read_key("a", "memory.stat", "slab_reclaimable"),
			 3 * PAGE_SIZE);
	assert_int_equal(tb_cgroup_read_key("a", "memory.stat", "slab_unreclaimable"),
			 5 * PAGE_SIZE);
	assert_int_equal(tb_cgroup_read_key("a", "memory.stat", "slab"), 8 * PAGE_SIZE);
}

/* an item's bytes are pushed out past PAGE_SIZE only: a page's worth stays */
static void test_bytes_summing_to_a_page_stay_cached(void **state)
{
	struct obj_cgroup *objcg;

	start(TB_OBJSTOCK_AFTER);
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	objcg = objcg_of("a");
	assert_int_equal(tb_obj_cgroup_charge(objcg, GFP_KERNEL, 8), 0);
	tb_mod_objcg_state(objcg, NODE_DATA(0), 1, PG / 2);
	tb_mod_objcg_state(objcg, NODE_DATA(0), 1, PG / 2);
	assert_stock_vmstat(PG, 0);
	assert_int_equal(flushes(), 0);
	tb_mod_objcg_state(objcg, NODE_DATA(0), 1, 1);
	assert_stock_vmstat(0, 0);
	assert_int_equal(flushes(), 1);
	tb_obj_cgroup_uncharge(objcg, 8);
	tb_drain_local_stock();
}

/* a charge of whole pages leaves no spare bytes in the stock */
static void test_page_sized_charge_leaves_no_bytes_in_the_stock(void **state)
{
	struct obj_cgroup *objcg, *cached;

	start(TB_OBJSTOCK_AFTER);
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	objcg = objcg_of("a");
	assert_int_equal(tb_obj_cgroup_charge(objcg, GFP_KERNEL, 2 * PG), 0);
	assert_int_equal(stock_bytes(&cached), 0);
	/* nor does it take the stock over for its objcg */
	assert_null(cached);
	tb_obj_cgroup_uncharge(objcg, 2 * PG);
	tb_drain_local_stock();
	assert_int_equal(tb_cgroup_read_u64("a", "memory.current"), 0);
}

/* a failed charge puts no bytes in the stock: none were charged */
static void test_failed_charge_leaves_no_bytes_in_the_stock(void **state)
{
	struct obj_cgroup *objcg, *cached;

	start(TB_OBJSTOCK_AFTER);
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	assert_write_ok("a", "memory.max", "0");
	objcg = objcg_of("a");
	assert_int_equal(tb_obj_cgroup_charge(objcg, GFP_NOWAIT, 100), -ENOMEM);
	assert_int_equal(stock_bytes(&cached), 0);
	assert_int_equal(tb_cgroup_read_u64("a", "memory.current"), 0);
}

/*
 * The whole pages a drained obj stock gives back leave the memcg's kernel
 * memory: 100 bytes charge a page (MEMCG_KMEM + 1); uncharged, the stock
 * holds that page's 4096 bytes until the drain returns it.
 */
static void test_drained_pages_leave_the_kernel_stat(void **state)
{
	struct obj_cgroup *objcg;

	start(TB_OBJSTOCK_AFTER);
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	objcg = objcg_of("a");
	assert_int_equal(tb_obj_cgroup_charge(objcg, GFP_KERNEL, 100), 0);
	flush_stats();
	assert_int_equal(tb_cgroup_read_key("a", "memory.stat", "kernel"), PG);
	tb_obj_cgroup_uncharge(objcg, 100);
	assert_int_equal(stock_bytes(NULL), PG);
	tb_drain_local_stock();
	flush_stats();
	assert_int_equal(tb_cgroup_read_key("a", "memory.stat", "kernel"), 0);
	assert_int_equal(tb_cgroup_read_u64("a", "memory.current"), 0);
}

/*
 * The page stock holds up to MEMCG_CHARGE_BATCH pages. Object uncharges
 * give back whole pages until it holds exactly 64 (kept); a charge of 64
 * pages is served from it; 64 pages more given back make 127, past the
 * batch: all of them go back to the counter.
 */
static void test_page_stock_holds_up_to_a_batch(void **state)
{
	struct obj_cgroup *objcg;
	struct mem_cgroup *cached;

	start(TB_OBJSTOCK_AFTER);
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	assert_int_equal(tb_task_enter("a"), 0);
	objcg = objcg_of("a");
	/* as test_obj_charge_bytes: 63 pages in stock, then 61, 62, 64 */
	assert_int_equal(tb_obj_cgroup_charge(objcg, GFP_KERNEL, 100), 0);
	assert_int_equal(tb_obj_cgroup_charge(objcg, GFP_KERNEL, 5000), 0);
	tb_obj_cgroup_uncharge(objcg, 100);
	tb_obj_cgroup_uncharge(objcg, 5000);
	assert_int_equal(stock_bytes(NULL), 0);
	assert_int_equal(tb_stock_pages(0, &cached), MEMCG_CHARGE_BATCH);
	assert_ptr_equal(cached, tb_memcg("a"));
	assert_int_equal(tb_cgroup_read_u64("a", "memory.current"), 64 * PG);

	tb_charge_ok(MEMCG_CHARGE_BATCH);
	assert_int_equal(tb_stock_pages(0, NULL), 0);
	assert_int_equal(tb_cgroup_read_u64("a", "memory.current"), 64 * PG);

	/* a new batch (63 in stock), then 64 pages charged past the stock */
	assert_int_equal(tb_obj_cgroup_charge(objcg, GFP_KERNEL, 100), 0);
	assert_int_equal(tb_obj_cgroup_charge(objcg, GFP_KERNEL, 64 * PG), 0);
	assert_int_equal(tb_stock_pages(0, NULL), MEMCG_CHARGE_BATCH - 1);
	assert_int_equal(tb_cgroup_read_u64("a", "memory.current"), 192 * PG);
	tb_obj_cgroup_uncharge(objcg, 64 * PG);
	assert_int_equal(tb_stock_pages(0, NULL), 0);
	assert_int_equal(stock_bytes(NULL), PG - 100);
	assert_int_equal(tb_cgroup_read_u64("a", "memory.current"), 65 * PG);

	tb_obj_cgroup_uncharge(objcg, 100);
	tb_drain_local_stock();
	assert_int_equal(tb_cgroup_read_u64("a", "memory.current"), 64 * PG);
}

/*
 * Whole pages that an uncharge frees from the obj stock leave the memcg's
 * kernel memory at once (obj_cgroup_uncharge_pages), into the page stock.
 */
static void test_uncharged_pages_leave_the_kernel_stat(void **state)
{
	struct obj_cgroup *objcg;

	start(TB_OBJSTOCK_AFTER);
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	objcg = objcg_of("a");
	assert_int_equal(tb_obj_cgroup_charge(objcg, GFP_KERNEL, 2 * PG), 0);
	flush_stats();
	assert_int_equal(tb_cgroup_read_key("a", "memory.stat", "kernel"), 2 * PG);
	tb_obj_cgroup_uncharge(objcg, 2 * PG);
	assert_int_equal(stock_bytes(NULL), 0);
	assert_int_equal(tb_stock_pages(0, NULL), 64);
	flush_stats();
	assert_int_equal(tb_cgroup_read_key("a", "memory.stat", "kernel"), 0);
}

/* an item's sum over PAGE_SIZE is pushed out whole, the cached part too */
static void test_bytes_over_a_page_are_pushed_out_whole(void **state)
{
	start(TB_OBJSTOCK_AFTER);
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_mod_objcg_state(objcg_of("a"), NODE_DATA(0), 0, 100);
	tb_mod_objcg_state(objcg_of("a"), NODE_DATA(0), 0, PG);
	assert_stock_vmstat(0, 0);
	flush_stats();
	assert_int_equal(tb_cgroup_read_key("a", "memory.stat", "slab_unreclaimable"), PG + 100);
}

/* the obj stock slot of CPU 0 that caches objcg, -1 if none */
static int obj_slot_of(struct obj_cgroup *objcg)
{
	unsigned int bytes;
	int i;

	for (i = 0; i < tb_obj_stock_nr_slots(); i++)
		if (tb_obj_stock_slot(0, i, &bytes) == objcg)
			return i;
	return -1;
}

/*
 * The obj stock has tb_obj_stock_nr_slots() slots (7.2: NR_OBJ_STOCK;
 * before: one). Objcgs take the empty slots from the first; with every
 * slot taken the next one evicts the slot stock->drain_idx names, and
 * after a drain the slots are taken from the first again, wherever
 * drain_idx points.
 */
static void test_obj_stock_takes_empty_slots_from_the_first(void **state)
{
	int n = tb_obj_stock_nr_slots(), used = n + 1, i, k;
	struct obj_cgroup *o[16];
	unsigned int charged[16] = { 0 };
	char path[16];

	start(TB_OBJSTOCK_AFTER);
	assert_true(n + 2 <= (int)ARRAY_SIZE(o));
	for (i = 0; i < n + 2; i++) {
		snprintf(path, sizeof(path), "o%d", i);
		assert_int_equal(tb_cgroup_mkdir(path), 0);
		o[i] = objcg_of(path);
	}
	for (i = 0; i < n; i++) {
		assert_int_equal(tb_obj_cgroup_charge(o[i], GFP_KERNEL, 100), 0);
		charged[i] += 100;
		assert_int_equal(obj_slot_of(o[i]), i);
	}
	assert_int_equal(tb_obj_cgroup_charge(o[n], GFP_KERNEL, 100), 0);
	charged[n] += 100;
	k = obj_slot_of(o[n]);
	assert_in_range(k, 0, n - 1);
	/* a second eviction when the first left drain_idx at slot 0 */
	if (k == n - 1) {
		assert_int_equal(tb_obj_cgroup_charge(o[n + 1], GFP_KERNEL, 100), 0);
		charged[n + 1] += 100;
		assert_int_equal(obj_slot_of(o[n + 1]), 0);
		used = n + 2;
	}

	tb_drain_local_stock();
	for (i = 0; i < n; i++) {
		assert_int_equal(tb_obj_cgroup_charge(o[i], GFP_KERNEL, 100), 0);
		charged[i] += 100;
		assert_int_equal(obj_slot_of(o[i]), i);
	}

	for (i = 0; i < used; i++)
		tb_obj_cgroup_uncharge(o[i], charged[i]);
	tb_drain_local_stock();
}

/*
 * An update larger than the stock's 16-bit byte counts (7.2,
 * !mod_objcg_state) goes straight to the memcg's stat: none of it stays
 * cached, none is lost. Before, the stock's int counts hold it, as any
 * update into an empty count, until a drain.
 */
static void test_update_over_s16_max_is_not_cached(void **state)
{
	struct obj_cgroup *objcg;

	start(TB_OBJSTOCK_AFTER);
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	objcg = objcg_of("a");
	/*
	 * 7.2 (!mod_objcg_state): an update is cached only on the slot of an
	 * objcg the stock holds (before: the update takes the stock over)
	 */
	if (!TB_HAVE_mod_objcg_state)
		assert_int_equal(tb_obj_cgroup_charge(objcg, GFP_KERNEL, 8), 0);
	tb_mod_objcg_state(objcg, NODE_DATA(0), 0, 40000);
	if (TB_HAVE_mod_objcg_state) {
		assert_stock_vmstat(0, 40000);
		tb_drain_local_stock();
	}
	assert_stock_vmstat(0, 0);
	flush_stats();
	assert_int_equal(tb_cgroup_read_key("a", "memory.stat", "slab_unreclaimable"), 40000);
	if (!TB_HAVE_mod_objcg_state)
		tb_obj_cgroup_uncharge(objcg, 8);
	tb_drain_local_stock();
}

/* a charge of exactly the bytes the obj stock holds is served from it */
static void test_charge_of_the_stocked_bytes_uses_them(void **state)
{
	struct obj_cgroup *objcg, *cached;

	start(TB_OBJSTOCK_AFTER);
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	objcg = objcg_of("a");
	assert_int_equal(tb_obj_cgroup_charge(objcg, GFP_KERNEL, 100), 0);
	assert_int_equal(tb_obj_cgroup_charge(objcg, GFP_KERNEL, PG - 100), 0);
	assert_int_equal(stock_bytes(&cached), 0);
	assert_ptr_equal(cached, objcg);
	assert_int_equal(tb_stock_pages(0, NULL), 63);
	tb_obj_cgroup_uncharge(objcg, PG);
}

/*
 * drain_all_stock(root) drains another CPU whose obj stock caches an
 * objcg of root's subtree, and leaves one of another subtree alone. The
 * charge is over a batch, so no page stock of b's makes CPU 1 drain.
 */
static void test_drain_all_drains_obj_stocks_of_the_subtree_only(void **state)
{
	struct obj_cgroup *b, *cached;
	const size_t size = 64 * PG + 100;

	start(TB_OBJSTOCK_AFTER);
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	assert_int_equal(tb_cgroup_mkdir("b"), 0);
	b = objcg_of("b");
	kshim_cpu_switch(1);
	assert_int_equal(tb_obj_cgroup_charge(b, GFP_KERNEL, size), 0);
	kshim_cpu_switch(0);
	assert_int_equal(tb_stock_pages(1, NULL), 0);
	assert_int_equal(tb_obj_stock_bytes(1, &cached), PG - 100);
	assert_ptr_equal(cached, b);
	tb_drain_all_stock(tb_memcg("a"), true);
	assert_int_equal(tb_obj_stock_bytes(1, &cached), PG - 100);
	assert_ptr_equal(cached, b);
	tb_drain_all_stock(tb_memcg("b"), true);
	assert_int_equal(tb_obj_stock_bytes(1, &cached), 0);
	assert_null(cached);
	assert_int_equal(charged_bytes(b), PG - 100);
	tb_obj_cgroup_uncharge(b, size);
}

/*
 * drain_all_stock() drains the obj stock of the CPU it runs on itself,
 * at once, and that CPU's next drain_all_stock() drains it again.
 */
static void test_drain_all_drains_the_local_obj_stock(void **state)
{
	struct obj_cgroup *a, *cached;
	int round;

	start(TB_OBJSTOCK_AFTER);
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	a = objcg_of("a");
	for (round = 0; round < 2; round++) {
		assert_int_equal(tb_obj_cgroup_charge(a, GFP_KERNEL, 100), 0);
		assert_int_equal(tb_obj_stock_bytes(0, &cached), PG - 100);
		assert_ptr_equal(cached, a);
		tb_drain_all_stock(tb_memcg("a"), false);
		assert_int_equal(tb_obj_stock_bytes(0, &cached), 0);
		assert_null(cached);
		assert_int_equal(tb_stock_pages(0, NULL), 0);
		/* the drained bytes wait in the objcg for its next charge */
		assert_int_equal(charged_bytes(a), PG - 100);
		tb_obj_cgroup_uncharge(a, 100);
		tb_drain_local_stock();
	}
}

/* a mixed trace over two nodes; returns the byte totals per item */
static void run_mixed(enum tb_objstock_variant v, const char *path, long *recl, long *unrecl)
{
	struct obj_cgroup *objcg;
	int i;

	start(v);
	assert_int_equal(tb_cgroup_mkdir(path), 0);
	objcg = objcg_of(path);
	assert_int_equal(tb_obj_cgroup_charge(objcg, GFP_KERNEL, 8), 0);
	*recl = *unrecl = 0;
	for (i = 0; i < 600; i++) {
		int nr = (i * 37) % 900 + 50, item = i % 3 == 0, nid = i / 7 % 2;

		if (i % 5 == 4)
			nr = -nr / 4;
		tb_mod_objcg_state(objcg, NODE_DATA(nid), item, nr);
		*(item ? recl : unrecl) += nr;
	}
	tb_obj_cgroup_uncharge(objcg, 8);
	tb_drain_local_stock();
	tb_objstock_set_variant(TB_OBJSTOCK_AFTER);
}

/* once drained and flushed, both variants account the same bytes */
static void test_stat_totals_equal(void **state)
{
	long ra, ua, rb, ub;
	unsigned long fa, fb;

	run_mixed(TB_OBJSTOCK_AFTER, "after", &ra, &ua);
	fa = flushes();
	assert_true(ra > 0 && ua > 0);
	if (!before_applies()) {
		flush_stats();
		assert_int_equal(tb_cgroup_read_key("after", "memory.stat", "slab_reclaimable"), ra);
		assert_int_equal(tb_cgroup_read_key("after", "memory.stat", "slab_unreclaimable"),
				 ua);
		return;
	}
	run_mixed(TB_OBJSTOCK_BEFORE, "before", &rb, &ub);
	fb = flushes();
	assert_int_equal(ra, rb);
	/* the single slot pays for the mixed items */
	assert_true(fb > fa);
	print_message("mixed trace: %lu flushes after, %lu before\n", fa, fb);
	flush_stats();
	assert_int_equal(tb_cgroup_read_key("after", "memory.stat", "slab_reclaimable"), ra);
	assert_int_equal(tb_cgroup_read_key("after", "memory.stat", "slab_unreclaimable"), ua);
	assert_int_equal(tb_cgroup_read_key("before", "memory.stat", "slab_reclaimable"), rb);
	assert_int_equal(tb_cgroup_read_key("before", "memory.stat", "slab_unreclaimable"), ub);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		TB_MEMCG_TEST(test_obj_charge_bytes),
		TB_MEMCG_TEST(test_obj_stock_switch),
		TB_MEMCG_TEST(test_drain_flushes_vmstat),
		TB_MEMCG_TEST(test_after_accumulates_per_item),
		TB_MEMCG_TEST(test_other_objcg_after_takes_stock),
		TB_MEMCG_TEST(test_other_objcg_before_goes_direct),
		TB_MEMCG_TEST(test_alternating_items),
		TB_MEMCG_TEST(test_single_item_traces_equal),
		TB_MEMCG_TEST(test_pgdat_change),
		TB_MEMCG_TEST(test_stat_read_flush_threshold),
		TB_MEMCG_TEST(test_stat_read_flush_threshold_is_strict),
		TB_MEMCG_TEST(test_updates_under_a_batch_stay_on_their_cpu),
		TB_MEMCG_TEST(test_ratelimited_flush_waits_a_whole_late_cycle),
		TB_MEMCG_TEST(test_flush_zeroes_the_cpu_pending_count),
		TB_MEMCG_TEST(test_numa_stat_read_flushes_past_the_threshold),
		TB_MEMCG_TEST(test_child_updates_flush_parent_reads),
		TB_MEMCG_TEST(test_kmem_charge_past_threshold_shows_at_once),
		TB_MEMCG_TEST(test_kernel_stack_kb_count_in_pages),
		TB_MEMCG_TEST(test_stat_slab_is_the_sum_of_both_items),
		TB_MEMCG_TEST(test_bytes_summing_to_a_page_stay_cached),
		TB_MEMCG_TEST(test_page_sized_charge_leaves_no_bytes_in_the_stock),
		TB_MEMCG_TEST(test_failed_charge_leaves_no_bytes_in_the_stock),
		TB_MEMCG_TEST(test_drained_pages_leave_the_kernel_stat),
		TB_MEMCG_TEST(test_page_stock_holds_up_to_a_batch),
		TB_MEMCG_TEST(test_stat_totals_equal),
		TB_MEMCG_TEST(test_uncharged_pages_leave_the_kernel_stat),
		TB_MEMCG_TEST(test_bytes_over_a_page_are_pushed_out_whole),
		TB_MEMCG_TEST(test_charge_of_the_stocked_bytes_uses_them),
		TB_MEMCG_TEST(test_drain_all_drains_obj_stocks_of_the_subtree_only),
		TB_MEMCG_TEST(test_drain_all_drains_the_local_obj_stock),
		TB_MEMCG_TEST(test_update_over_s16_max_is_not_cached),
		TB_MEMCG_TEST(test_obj_stock_takes_empty_slots_from_the_first),
	};

	tb_world.nr_nodes = 2;
	return TB_RUN(tests);
}
