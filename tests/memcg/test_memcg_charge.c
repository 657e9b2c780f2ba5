// SPDX-License-Identifier: GPL-2.0-only
/*
 * Charging through memcontrol.c's try_charge_memcg(): the per-CPU stock
 * on 4 virtual CPUs, concurrent charge/uncharge, and the limit path
 * (reclaim, drain_all_stock, OOM, forced charges) as the 6.12 code does
 * it: the counts asserted here are the retry structure of that function.
 */
#include <linux/kernel.h>
#include <string.h>
#include <pthread.h>
#include <signal.h>
#include <sched.h>
#include <linux/oom.h>
#include <kshim/testbed.h>
#include <kshim/mem_tb.h>
#include <linux/oom.h>
#include "tb_memcg.h"

#define BATCH 64	/* MEMCG_CHARGE_BATCH */

static long long current_pages(const char *path)
{
	return tb_cgroup_read_u64(path, "memory.current") / 4096;
}


static long long event(const char *path, const char *key)
{
	return tb_cgroup_read_key(path, "memory.events", key);
}

/* ---- the per-CPU stock ---- */

/* a miss charges a whole batch; the rest waits in this CPU's stock */
static void test_stock_per_cpu(void **state)
{
	struct mem_cgroup *cached;
	int cpu, i;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	assert_int_equal(tb_task_enter("a"), 0);
	for (cpu = 0; cpu < 4; cpu++) {
		kshim_cpu_switch(cpu);
		tb_charge_ok(1);
		assert_int_equal(tb_stock_pages(cpu, &cached), BATCH - 1);
		assert_ptr_equal(cached, tb_memcg("a"));
	}
	assert_int_equal(current_pages("a"), 4 * BATCH);
	/* the parent (root) is charged through the page counter hierarchy */
	kshim_cpu_switch(2);
	for (i = 0; i < BATCH - 1; i++)
		tb_charge_ok(1);
	assert_int_equal(tb_stock_pages(2, NULL), 0);
	assert_int_equal(current_pages("a"), 4 * BATCH);
	tb_charge_ok(1);
	assert_int_equal(tb_stock_pages(2, NULL), BATCH - 1);
	assert_int_equal(current_pages("a"), 5 * BATCH);
	/* other CPUs' stocks untouched */
	for (cpu = 0; cpu < 4; cpu++)
		if (cpu != 2)
			assert_int_equal(tb_stock_pages(cpu, NULL), BATCH - 1);
	kshim_cpu_switch(0);
}

/*
 * Over 64 pages consume_stock() is skipped and the batch is the folio:
 * the stock stays. A miss of a smaller folio refills batch - nr_pages on
 * top of what the stock holds (a miss means it held less than nr_pages).
 */
static void test_stock_large_and_partial(void **state)
{
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	assert_int_equal(tb_task_enter("a"), 0);
	tb_charge_ok(1);
	assert_int_equal(tb_stock_pages(0, NULL), 63);
	tb_charge_ok(65);
	assert_int_equal(tb_stock_pages(0, NULL), 63);
	assert_int_equal(current_pages("a"), 64 + 65);
	tb_charge_ok(64);	/* 63 < 64: a miss, batch 64, nothing left over */
	assert_int_equal(tb_stock_pages(0, NULL), 63);
	assert_int_equal(current_pages("a"), 64 + 65 + 64);
	tb_charge_ok(40);	/* from the stock */
	assert_int_equal(tb_stock_pages(0, NULL), 23);
	tb_charge_ok(30);	/* miss: 23 + (64 - 30) */
	assert_int_equal(tb_stock_pages(0, NULL), 57);
	assert_int_equal(current_pages("a"), 64 + 65 + 64 + 64);
}

/* refilling for another memcg drains the stock it cached (__refill_stock) */
static void test_stock_switch_drains_other(void **state)
{
	struct mem_cgroup *cached;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	assert_int_equal(tb_cgroup_mkdir("b"), 0);
	assert_int_equal(tb_task_enter("a"), 0);
	tb_charge_ok(1);
	tb_task_leave();	/* uncharge goes to the counter, not the stock */
	assert_int_equal(current_pages("a"), 63);
	assert_int_equal(tb_stock_pages(0, &cached), 63);
	assert_ptr_equal(cached, tb_memcg("a"));
	assert_int_equal(tb_task_enter("b"), 0);
	/* a charge of exactly its batch refills nothing: a's stock stays */
	tb_charge_ok(BATCH);
	assert_int_equal(tb_stock_pages(0, &cached), 63);
	assert_ptr_equal(cached, tb_memcg("a"));
	assert_int_equal(current_pages("a"), 63);
	tb_charge_ok(1);
#if TB_HAVE_memcg_stock_slots
	/*
	 * 7.2: the stock keeps several memcgs: b's batch takes a slot of its
	 * own, a's stays, and a's next charge is a hit
	 */
	assert_int_equal(tb_stock_pages_of(0, tb_memcg("a")), 63);
	assert_int_equal(tb_stock_pages_of(0, tb_memcg("b")), 63);
	assert_int_equal(current_pages("a"), 63);
	assert_int_equal(current_pages("b"), 2 * BATCH);
	tb_task_leave();
	assert_int_equal(tb_task_enter("a"), 0);
	tb_charge_ok(1);
	assert_int_equal(tb_stock_pages_of(0, tb_memcg("a")), 62);
	assert_int_equal(current_pages("a"), 63);
	/* b's task gave back its 65 pages; b's slot still holds 63 */
	assert_int_equal(tb_stock_pages_of(0, tb_memcg("b")), 63);
	assert_int_equal(current_pages("b"), BATCH - 1);
#else
	assert_int_equal(tb_stock_pages(0, &cached), 63);
	assert_ptr_equal(cached, tb_memcg("b"));
	assert_int_equal(current_pages("a"), 0);
	assert_int_equal(current_pages("b"), 2 * BATCH);
	/* a hit for "a" is impossible now: a's next charge takes a new batch */
	tb_task_leave();
	assert_int_equal(tb_task_enter("a"), 0);
	tb_charge_ok(1);
	tb_stock_pages(0, &cached);
	assert_ptr_equal(cached, tb_memcg("a"));
	assert_int_equal(current_pages("b"), 0);
#endif
}

/* the stock slot of CPU 0 that caches memcg, -1 if none */
static int stock_slot_of(struct mem_cgroup *memcg)
{
	unsigned int pages;
	int i;

	for (i = 0; i < tb_stock_nr_slots(); i++)
		if (tb_stock_slot(0, i, &pages) == memcg)
			return i;
	return -1;
}

/* a task of path charges nr_pages on CPU 0 and leaves (its pages go back to the counter) */
static void charge_and_leave(const char *path, unsigned int nr_pages)
{
	assert_int_equal(tb_task_enter(path), 0);
	tb_charge_ok(nr_pages);
	tb_task_leave();
}

/*
 * The stock has tb_stock_nr_slots() slots (7.2: NR_MEMCG_STOCK; before:
 * one). Memcgs m0.. fill them in order; the next memcg's batch evicts the
 * slot stock->drain_idx names (its pages go back to the counter). A slot
 * whose memcg's charges took its last page is empty since
 * memcg_stock_frees_empty_slot, and a refill takes an empty slot before
 * evicting anyone; before, that slot keeps its memcg at 0 pages and the
 * refill evicts the next slot of the round.
 */
static void test_stock_refill_takes_an_empty_slot_before_evicting(void **state)
{
	int n = tb_stock_nr_slots(), i, k, j;
	struct mem_cgroup *m[16];
	unsigned int pages;
	char path[16];

	assert_true(n + 2 <= (int)ARRAY_SIZE(m));
	for (i = 0; i < n + 2; i++) {
		snprintf(path, sizeof(path), "m%d", i);
		assert_int_equal(tb_cgroup_mkdir(path), 0);
		m[i] = tb_memcg(path);
	}
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "m%d", i);
		charge_and_leave(path, 1);
	}
	for (i = 0; i < n; i++) {
		assert_ptr_equal(tb_stock_slot(0, i, &pages), m[i]);
		assert_int_equal(pages, BATCH - 1);
	}

	/* every slot taken: m<n>'s batch evicts one memcg, k */
	snprintf(path, sizeof(path), "m%d", n);
	charge_and_leave(path, 1);
	k = stock_slot_of(m[n]);
	assert_in_range(k, 0, n - 1);
	assert_int_equal(tb_stock_pages_of(0, m[n]), BATCH - 1);
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "m%d", i);
		assert_int_equal(current_pages(path), i == k ? 0 : BATCH - 1);
		assert_int_equal(tb_stock_pages_of(0, m[i]), i == k ? 0 : BATCH - 1);
	}

	/* m<n> takes its slot's last page */
	snprintf(path, sizeof(path), "m%d", n);
	charge_and_leave(path, BATCH - 1);
	assert_int_equal(tb_stock_pages_of(0, m[n]), 0);
	assert_int_equal(stock_slot_of(m[n]), TB_HAVE_memcg_stock_frees_empty_slot ? -1 : k);

	snprintf(path, sizeof(path), "m%d", n + 1);
	charge_and_leave(path, 1);
	j = TB_HAVE_memcg_stock_frees_empty_slot ? k : (k + 1) % n;
	assert_int_equal(stock_slot_of(m[n + 1]), j);
	assert_int_equal(tb_stock_pages_of(0, m[n + 1]), BATCH - 1);
	for (i = 0; i < n; i++) {
		if (i == k)
			continue;
		snprintf(path, sizeof(path), "m%d", i);
		assert_int_equal(current_pages(path), i == j ? 0 : BATCH - 1);
		assert_int_equal(tb_stock_pages_of(0, m[i]), i == j ? 0 : BATCH - 1);
	}
}

/*
 * drain_all_stock(root) drains every CPU whose stock caches root or a
 * descendant with pages; the local one synchronously, the others by a
 * work on their CPU. A stock with 0 pages keeps its cached memcg.
 */
static void test_drain_all_stock(void **state)
{
	struct mem_cgroup *cached;
	int cpu, i;

	assert_int_equal(tb_cgroup_mkdir("p"), 0);
	assert_int_equal(tb_cgroup_mkdir("p/a"), 0);
	assert_int_equal(tb_cgroup_mkdir("b"), 0);
	assert_int_equal(tb_task_enter("p/a"), 0);
	for (cpu = 0; cpu < 3; cpu++) {
		kshim_cpu_switch(cpu);
		tb_charge_ok(1);
	}
	kshim_cpu_switch(1);
	for (i = 0; i < 63; i++)
		tb_charge_ok(1);	/* CPU 1: cached p/a, 0 pages */
	tb_task_leave();
	assert_int_equal(tb_task_enter("b"), 0);
	kshim_cpu_switch(3);
	tb_charge_ok(1);
	kshim_cpu_switch(0);
	assert_int_equal(current_pages("p"), 63 + 63);
	/* not b's subtree */
	tb_drain_all_stock(tb_memcg("b"), true);
	assert_int_equal(tb_stock_pages(0, NULL), 63);
	assert_int_equal(tb_stock_pages(3, NULL), 0);
	assert_int_equal(current_pages("b"), 1);
	/* p covers p/a: CPUs 0 and 2; CPU 1 is skipped */
	tb_drain_all_stock(tb_memcg("p"), true);
	assert_int_equal(tb_stock_pages(0, &cached), 0);
	assert_null(cached);
	assert_int_equal(tb_stock_pages(2, &cached), 0);
	assert_null(cached);
	assert_int_equal(tb_stock_pages(1, &cached), 0);
#if TB_HAVE_memcg_stock_frees_empty_slot
	/* 7.3: the charge that took a slot's last page let go of its memcg */
	assert_null(cached);
#else
	assert_ptr_equal(cached, tb_memcg("p/a"));
#endif
	assert_int_equal(current_pages("p/a"), 0);
	assert_int_equal(current_pages("p"), 0);
}

/* memory.max below usage drains this CPU's stock before any reclaim */
static void test_max_write_drains_local_stock(void **state)
{
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	assert_int_equal(tb_task_enter("a"), 0);
	tb_charge_ok(1);
	assert_int_equal(current_pages("a"), 64);
	assert_write_ok("a", "memory.max", "4096");
	assert_int_equal(tb_stock_pages(0, NULL), 0);
	assert_int_equal(current_pages("a"), 1);
	assert_int_equal(tb_reclaim_calls(), 0);
	assert_int_equal(event("a", "max"), 0);
	assert_int_equal(event("a", "oom"), 0);
}

/* ---- 4 threads ---- */
struct conc {
	pthread_barrier_t barrier;
	const char *paths[4];
	unsigned long live[4];
	unsigned int stock[4];
	struct mem_cgroup *cached[4];
	long long usage[4], parent, parent_drained, usage_drained[4];
};

/* a fixed mix: 1, 2, 3 and 70 pages, every other step the oldest folio goes */
static void churn(unsigned int i)
{
	unsigned int k;

	for (k = 0; k < 3000; k++) {
		unsigned int nr = (k + i) % 4 == 3 ? 70 : (k + i) % 4 + 1;

		if (!tb_folio_charge(nr, GFP_KERNEL, NULL))
			return;
		if (k % 2)
			tb_task_uncharge_pages(1);
	}
}

static void conc_thread(void *arg, unsigned int i)
{
	struct conc *c = arg;

	if (tb_task_enter(c->paths[i]))
		return;
	churn(i);
	c->live[i] = tb_task_pages();
	pthread_barrier_wait(&c->barrier);
	if (i == 0) {
		for (int j = 0; j < 4; j++) {
			c->stock[j] = tb_stock_pages(j, &c->cached[j]);
			c->usage[j] = current_pages(c->paths[j]);
		}
		c->parent = current_pages("p");
	}
	pthread_barrier_wait(&c->barrier);
	tb_drain_local_stock();
	pthread_barrier_wait(&c->barrier);
	if (i == 0) {
		for (int j = 0; j < 4; j++)
			c->usage_drained[j] = current_pages(c->paths[j]);
		c->parent_drained = current_pages("p");
	}
	pthread_barrier_wait(&c->barrier);
	tb_task_leave();
}

static void run_conc(const char *const paths[4])
{
	struct conc c = { };
	long long sum_live = 0, sum_stock = 0;
	int j;

	memcpy(c.paths, paths, sizeof(c.paths));
	pthread_barrier_init(&c.barrier, NULL, 4);
	tb_run_threads(4, conc_thread, &c);
	pthread_barrier_destroy(&c.barrier);
	for (j = 0; j < 4; j++) {
		/* CPU j's stock caches thread j's memcg */
		assert_ptr_equal(c.cached[j], tb_memcg(paths[j]));
		assert_in_range(c.stock[j], 0, BATCH);
		assert_true(c.live[j] > 0);
		sum_live += c.live[j];
		sum_stock += c.stock[j];
	}
	if (strcmp(paths[0], paths[1])) {
		for (j = 0; j < 4; j++) {
			assert_int_equal(c.usage[j], c.live[j] + c.stock[j]);
			assert_int_equal(c.usage_drained[j], c.live[j]);
		}
	} else {
		assert_int_equal(c.usage[0], sum_live + sum_stock);
		assert_int_equal(c.usage_drained[0], sum_live);
	}
	assert_int_equal(c.parent, sum_live + sum_stock);
	assert_int_equal(c.parent_drained, sum_live);
	assert_int_equal(current_pages("p"), 0);
}

static void test_concurrent_siblings(void **state)
{
	static const char *const paths[4] = { "p/c0", "p/c1", "p/c2", "p/c3" };
	int j;

	assert_int_equal(tb_cgroup_mkdir("p"), 0);
	for (j = 0; j < 4; j++)
		assert_int_equal(tb_cgroup_mkdir(paths[j]), 0);
	run_conc(paths);
}

static void test_concurrent_one_memcg(void **state)
{
	static const char *const paths[4] = { "p/c", "p/c", "p/c", "p/c" };

	assert_int_equal(tb_cgroup_mkdir("p"), 0);
	assert_int_equal(tb_cgroup_mkdir("p/c"), 0);
	run_conc(paths);
}

/* ---- memory.max: reclaim, OOM, and the gfp flags ---- */

/* reclaim that frees enough: one "max" event, the charge fits under max */
static void test_max_reclaim_succeeds(void **state)
{
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	assert_write_ok("a", "memory.max", "1M");
	assert_int_equal(tb_task_enter("a"), 0);
	tb_charge_ok(100);
	tb_charge_ok(100);
	tb_reclaim_script(TB_RECLAIM_PAGES, 1000);
	tb_charge_ok(100);
	assert_int_equal(tb_reclaim_calls(), 1);
	assert_int_equal(tb_reclaim_freed(), 100);
	assert_int_equal(current_pages("a"), 200);
	assert_int_equal(tb_task_pages(), 200);
	assert_int_equal(event("a", "max"), 1);
	assert_int_equal(event("a", "oom"), 0);
	assert_int_equal(tb_oom_kills(), 0);
}

/*
 * The first failure drains the stocks (drain_all_stock) and retries: a
 * stock of the memcg's own on this CPU is enough to make room.
 */
static void test_charge_drains_stock_before_oom(void **state)
{
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	assert_int_equal(tb_task_enter("a"), 0);
	tb_charge_ok(1);
	assert_write_ok("a", "memory.max", "520192");	/* 127 pages */
	tb_charge_ok(64);
	assert_int_equal(tb_reclaim_calls(), 1);
	assert_int_equal(event("a", "max"), 1);
	assert_int_equal(tb_stock_pages(0, NULL), 0);
	assert_int_equal(current_pages("a"), 65);
}

struct oom2 {
	pthread_barrier_t barrier;
	int err;
	bool holder_killed, charger_killed;
	unsigned long holder_pages, charger_pages;
	long long usage;
};

/* thread 0 holds 300 pages, thread 1 100 and charges past max */
static void oom2_thread(void *arg, unsigned int i)
{
	struct oom2 *o = arg;
	int k;

	if (tb_task_enter("a"))
		return;
	for (k = 0; k < (i ? 1 : 3); k++)
		tb_folio_charge(100, GFP_KERNEL, NULL);
	pthread_barrier_wait(&o->barrier);
	if (i == 1) {
		tb_cgroup_write_str("a", "memory.max", "1638400");	/* 400 pages */
		tb_folio_charge(1, GFP_KERNEL, &o->err);
		o->charger_killed = tb_task_oom_killed();
		o->charger_pages = tb_task_pages();
		o->usage = current_pages("a");
	}
	pthread_barrier_wait(&o->barrier);
	if (i == 0) {
		o->holder_killed = tb_task_oom_killed();
		o->holder_pages = tb_task_pages();
	}
	tb_task_leave();
}

static void test_max_futile_oom_kills_largest(void **state)
{
	struct oom2 o = { .err = 1 };

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	pthread_barrier_init(&o.barrier, NULL, 2);
	tb_run_threads(2, oom2_thread, &o);
	pthread_barrier_destroy(&o.barrier);
	assert_int_equal(o.err, 0);
	assert_true(o.holder_killed);
	assert_int_equal(o.holder_pages, 0);
	assert_false(o.charger_killed);
	assert_int_equal(o.charger_pages, 101);
	/* 100 + the 1 page: the retry after the kill charges nr_pages only */
	assert_int_equal(o.usage, 101);
	assert_int_equal(tb_reclaim_calls(), 18);
	assert_int_equal(tb_oom_kills(), 1);
	assert_int_equal(event("a", "max"), 18);
	assert_int_equal(event("a", "oom"), 1);
	assert_int_equal(event("a", "oom_kill"), 1);
}

struct oom_wait {
	pthread_barrier_t barrier;
	int err;
	bool killed;
};

/*
 * thread 0 holds 65 pages (memory.max) and oom_lock until thread 1's
 * charge has raised its OOM event, then frees one page and lets it go on
 */
static void oom_wait_thread(void *arg, unsigned int i)
{
	struct oom_wait *o = arg;
	struct folio *one = NULL;

	if (tb_task_enter("a"))
		return;
	if (i == 0) {
		/* no asserts off the test's thread: the main one checks */
		one = tb_folio_charge(1, GFP_KERNEL, NULL);
		tb_drain_local_stock();
		tb_folio_charge(BATCH, GFP_KERNEL, NULL);
		tb_cgroup_write_str("a", "memory.max", "266240");	/* 65 pages */
		mutex_lock(&oom_lock);
	}
	pthread_barrier_wait(&o->barrier);
	if (i == 1) {
		tb_folio_charge(1, GFP_KERNEL, &o->err);
		o->killed = tb_task_oom_killed();
	} else {
		/* mem_cgroup_oom() raises the event before it takes oom_lock */
		while (event("a", "oom") < 1)
			sched_yield();
		tb_folio_uncharge(one);
		mutex_unlock(&oom_lock);
	}
	pthread_barrier_wait(&o->barrier);
	tb_task_leave();
}

/*
 * mem_cgroup_out_of_memory() looks at the margin again once it holds
 * oom_lock: a page freed while the charge waited for the lock (another
 * OOM's kill, an uncharge) is room enough, nobody is killed and the
 * charge goes through on its retry.
 */
static void test_oom_waiting_for_the_lock_finds_room(void **state)
{
	struct oom_wait o = { .err = 1 };

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	pthread_barrier_init(&o.barrier, NULL, 2);
	tb_run_threads(2, oom_wait_thread, &o);
	pthread_barrier_destroy(&o.barrier);
	assert_int_equal(o.err, 0);
	assert_false(o.killed);
	assert_int_equal(tb_oom_kills(), 0);
	assert_int_equal(event("a", "oom"), 1);
	assert_int_equal(event("a", "oom_kill"), 0);
	assert_int_equal(current_pages("a"), 0);
}

/* hold n pages in "a" with memory.max = n pages; stock empty */
static void full(unsigned int n)
{
	char buf[32];
	unsigned int i;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	assert_int_equal(tb_task_enter("a"), 0);
	for (i = 0; i < n / 64; i++)
		tb_charge_ok(64);
	snprintf(buf, sizeof(buf), "%u", n * 4096);
	assert_write_ok("a", "memory.max", buf);
	assert_int_equal(current_pages("a"), n);
}

/*
 * __GFP_NORETRY: reclaim, drain_all_stock, retry, reclaim again, give up.
 * Two reclaim calls and two "max" events, no OOM.
 */
static void test_noretry_reclaims_twice(void **state)
{
	int err;

	full(256);
	assert_null(tb_folio_charge(1, GFP_KERNEL | __GFP_NORETRY, &err));
	assert_int_equal(err, -ENOMEM);
	assert_int_equal(tb_reclaim_calls(), 2);
	assert_int_equal(event("a", "max"), 2);
	assert_int_equal(event("a", "oom"), 0);
	assert_false(tb_task_oom_killed());
	assert_int_equal(current_pages("a"), 256);
}

/* __GFP_RETRY_MAYFAIL: all 18 reclaim attempts, then -ENOMEM without OOM */
static void test_retry_mayfail_no_oom(void **state)
{
	int err;

	full(256);
	assert_null(tb_folio_charge(1, GFP_KERNEL | __GFP_RETRY_MAYFAIL, &err));
	assert_int_equal(err, -ENOMEM);
	assert_int_equal(tb_reclaim_calls(), 18);
	assert_int_equal(event("a", "max"), 18);
	assert_int_equal(event("a", "oom"), 0);
	assert_int_equal(tb_oom_kills(), 0);
	/* each reclaim is a memory stall (PSI), left when it returns */
	assert_int_equal(tb_reclaim_memstall_calls(), 18);
	assert_false(current->in_memstall);
}

/*
 * A charge that may not block fails before reclaim; since 6.12.118 the
 * rejection raises the max event (before: only a forced charge did).
 */
static void test_nowait_fails_at_once(void **state)
{
	int err;

	full(256);
	assert_null(tb_folio_charge(1, GFP_NOWAIT, &err));
	assert_int_equal(err, -ENOMEM);
	assert_int_equal(tb_reclaim_calls(), 0);
	assert_int_equal(event("a", "max"), TB_HAVE_memcg_max_event_on_reject);
	assert_int_equal(current_pages("a"), 256);
}

/* __GFP_HIGH (GFP_ATOMIC) may not block but is forced over max, one event */
static void test_atomic_forced_over_max(void **state)
{
	int err;

	full(256);
	assert_non_null(tb_folio_charge(1, GFP_ATOMIC, &err));
	assert_int_equal(err, 0);
	assert_int_equal(tb_reclaim_calls(), 0);
	assert_int_equal(event("a", "max"), 1);
	/* forced: nr_pages, no batch, no stock */
	assert_int_equal(current_pages("a"), 257);
	assert_int_equal(tb_stock_pages(0, NULL), 0);
	assert_int_equal(tb_cgroup_read_u64("a", "memory.max"), 256 * 4096);
}

/*
 * A charge without a reclaim bit may not even spin (kmalloc_nolock(),
 * alloc_pages_nolock()); with __GFP_HIGH it is forced over max as
 * GFP_ATOMIC's is, one max event in memory.events and memory.events.local.
 * Since memcg_charge_nospin that event notifies no file: a notification
 * takes locks such a context may not take.
 */
static void test_nospin_forced_over_max_notifies_no_file(void **state)
{
	unsigned long notified = TB_HAVE_memcg_charge_nospin ? 0 : 1, events, local;
	int err;

	full(256);
	events = tb_cgroup_events_notified("a");
	local = tb_cgroup_events_local_notified("a");
	assert_non_null(tb_folio_charge(1, __GFP_HIGH, &err));
	assert_int_equal(err, 0);
	assert_int_equal(tb_reclaim_calls(), 0);
	assert_int_equal(current_pages("a"), 257);
	assert_int_equal(event("a", "max"), 1);
	assert_int_equal(tb_cgroup_read_key("a", "memory.events.local", "max"), 1);
	assert_int_equal(tb_cgroup_events_notified("a") - events, notified);
	assert_int_equal(tb_cgroup_events_local_notified("a") - local, notified);
}

/*
 * Under its limit a charge that may not spin charges just its pages
 * (memcg_charge_nospin: no batch, nothing for the stock, which it may
 * not lock); before, a batch as any other.
 */
static void test_nospin_charge_takes_no_batch(void **state)
{
	unsigned int batch = TB_HAVE_memcg_charge_nospin ? 1 : BATCH;
	int err;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	assert_int_equal(tb_task_enter("a"), 0);
	assert_non_null(tb_folio_charge(1, __GFP_HIGH, &err));
	assert_int_equal(err, 0);
	assert_int_equal(current_pages("a"), batch);
	assert_int_equal(tb_stock_pages(0, NULL), batch - 1);
}

/*
 * memory.max 0 and nothing to kill: GFP_KERNEL gets -ENOMEM after 18
 * reclaim calls and an OOM that found no victim; __GFP_NOFAIL is then
 * forced over max without a further "max" event.
 */
static void test_nofail_forced_when_oom_fails(void **state)
{
	int err;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	assert_write_ok("a", "memory.max", "0");
	assert_int_equal(tb_task_enter("a"), 0);
	assert_null(tb_folio_charge(1, GFP_KERNEL, &err));
	assert_int_equal(err, -ENOMEM);
	assert_int_equal(tb_reclaim_calls(), 18);
	assert_int_equal(event("a", "max"), 18);
	assert_int_equal(event("a", "oom"), 1);
	assert_int_equal(event("a", "oom_kill"), 0);
	assert_non_null(tb_folio_charge(1, GFP_KERNEL | __GFP_NOFAIL, &err));
	assert_int_equal(err, 0);
	assert_int_equal(tb_reclaim_calls(), 36);
	assert_int_equal(event("a", "max"), 36);
	assert_int_equal(event("a", "oom"), 2);
	assert_int_equal(current_pages("a"), 1);
	assert_int_equal(tb_oom_kills(), 0);
}

/*
 * An OOM victim whose mm was reaped (MMF_OOM_SKIP) fails its charges over
 * the limit at once: no reclaim, no "max" event. Under the limit it still
 * charges. The kill itself: 18 reclaims (the first, the one after draining
 * the stocks, 16 retries), mem_cgroup_oom() kills the charging task, 17
 * more while its pages stay (they go when it leaves the kernel), then
 * passed_oom && task_is_dying(). Without memcg_oom_skip_bail (6.1, and
 * 6.12 before 6.12.117: no MMF_OOM_SKIP test in try_charge_memcg()) a
 * reaped victim fails late, the same way.
 */
static void test_oom_victim_charge_fails(void **state)
{
	int err;

	full(256);
	assert_null(tb_folio_charge(1, GFP_KERNEL, &err));
	assert_int_equal(err, -ENOMEM);
	assert_true(tb_task_oom_killed());
	assert_int_equal(tb_reclaim_calls(), 18 + 17);
	assert_int_equal(current_pages("a"), 256);
	tb_task_return_to_user();
	assert_int_equal(current_pages("a"), 0);
	tb_charge_ok(100);
	assert_write_ok("a", "memory.max", "409600");	/* 100 pages */
	assert_null(tb_folio_charge(1, GFP_KERNEL, &err));
	assert_int_equal(err, -ENOMEM);
#if TB_HAVE_memcg_oom_skip_bail
	assert_int_equal(tb_reclaim_calls(), 35);
	/* the reaped victim's rejection: one more max event since 6.12.118 */
	assert_int_equal(event("a", "max"), 35 + TB_HAVE_memcg_max_event_on_reject);
	assert_int_equal(event("a", "oom"), 1);
#else
	assert_int_equal(tb_reclaim_calls(), 35 + 18 + 17);
	assert_int_equal(event("a", "max"), 35 + 18 + 17);
	assert_int_equal(event("a", "oom"), 2);
#endif
}

/*
 * mem_cgroup_oom() is for charges of at most 1 << PAGE_ALLOC_COSTLY_ORDER
 * pages: a futile 9-page charge (order 4) fails after its reclaims with
 * no OOM; an 8-page one (order 3) OOMs and kills the charging task.
 */
static void test_oom_only_up_to_the_costly_order(void **state)
{
	int err;

	full(256);
	assert_null(tb_folio_charge(9, GFP_KERNEL, &err));
	assert_int_equal(err, -ENOMEM);
	assert_int_equal(event("a", "oom"), 0);
	assert_false(tb_task_oom_killed());
	assert_null(tb_folio_charge(8, GFP_KERNEL, &err));
	assert_int_equal(err, -ENOMEM);
	assert_int_equal(event("a", "oom"), 1);
	assert_true(tb_task_oom_killed());
	assert_int_equal(tb_oom_kills(), 1);
}

/* the current task in "a", charged up to its memory.max of 256 pages */
static void enter_full_at_256_pages(void)
{
	int i;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	assert_int_equal(tb_task_enter("a"), 0);
	for (i = 0; i < 256; i++)
		tb_charge_ok(1);
	assert_write_ok("a", "memory.max", "1048576");	/* 256 pages */
}

/*
 * Reclaim progress buys retries that do not count only for charges of at
 * most 1 << PAGE_ALLOC_COSTLY_ORDER pages. A 32-page charge, each reclaim
 * freeing one page, gets the counted 18 rounds and fails (no OOM with
 * __GFP_RETRY_MAYFAIL): 18 pages freed, short of 32.
 */
static void test_costly_charge_retries_are_counted(void **state)
{
	int err;

	enter_full_at_256_pages();
	tb_reclaim_script(TB_RECLAIM_PAGES, 1);
	assert_null(tb_folio_charge(32, GFP_KERNEL | __GFP_RETRY_MAYFAIL, &err));
	assert_int_equal(err, -ENOMEM);
	assert_int_equal(tb_reclaim_calls(), 18);
	assert_int_equal(tb_reclaim_freed(), 18);
}

/*
 * A charge whose margin is reached in the last counted round still goes
 * through: mem_cgroup_margin() is checked before the retry count. 36
 * pages, each reclaim freeing 2: the 18th round makes room and charges.
 */
static void test_margin_reached_in_the_last_round(void **state)
{
	int err;

	enter_full_at_256_pages();
	tb_reclaim_script(TB_RECLAIM_PAGES, 2);
	assert_non_null(tb_folio_charge(36, GFP_KERNEL | __GFP_RETRY_MAYFAIL, &err));
	assert_int_equal(err, 0);
	assert_int_equal(tb_reclaim_calls(), 18);
	assert_int_equal(current_pages("a"), 256);
}

/*
 * On cgroup v2 mem_cgroup_margin() is memory.max's room alone: memory.swap.max
 * at 0 does not shrink it. A __GFP_NORETRY charge of 10 pages at max, each
 * reclaim freeing 6: the first leaves 6 pages of room (drain, retry), the
 * second 12, and the charge goes through.
 */
static void test_noretry_margin_ignores_swap_max(void **state)
{
	int err;

	enter_full_at_256_pages();
	assert_write_ok("a", "memory.swap.max", "0");
	tb_reclaim_script(TB_RECLAIM_PAGES, 6);
	assert_non_null(tb_folio_charge(10, GFP_KERNEL | __GFP_NORETRY, &err));
	assert_int_equal(err, 0);
	assert_int_equal(tb_reclaim_calls(), 2);
	assert_int_equal(current_pages("a"), 256 - 12 + 10);
}

/*
 * Reclaim progress buys uncounted retries up to 1 << PAGE_ALLOC_COSTLY_ORDER
 * pages inclusive: an 8-page charge 30 pages over memory.max (forced
 * charges), each reclaim freeing one page, takes 38 rounds and succeeds,
 * far past the 18 counted ones; a 9-page one gets those 18 only.
 */
static void test_costly_order_charge_retries_while_reclaim_frees(void **state)
{
	int err, i;

	enter_full_at_256_pages();
	for (i = 0; i < 30; i++)
		assert_non_null(tb_folio_charge(1, GFP_ATOMIC, &err));
	assert_int_equal(current_pages("a"), 286);
	tb_reclaim_script(TB_RECLAIM_PAGES, 1);
	assert_non_null(tb_folio_charge(8, GFP_KERNEL | __GFP_RETRY_MAYFAIL, &err));
	assert_int_equal(err, 0);
	assert_int_equal(tb_reclaim_calls(), 38);
	assert_int_equal(current_pages("a"), 256);
	/* 9 pages are costly: the 18 counted rounds, 18 pages, and -ENOMEM */
	for (i = 0; i < 30; i++)
		assert_non_null(tb_folio_charge(1, GFP_ATOMIC, &err));
	assert_null(tb_folio_charge(9, GFP_KERNEL | __GFP_RETRY_MAYFAIL, &err));
	assert_int_equal(err, -ENOMEM);
	assert_int_equal(tb_reclaim_calls(), 38 + 18);
	assert_int_equal(current_pages("a"), 286 - 18);
}

/*
 * A task with SIGKILL pending is dying (task_is_dying): its charge over
 * max goes through the OOM path once, where mem_cgroup_out_of_memory()
 * kills nobody for it and reports progress (from 7.2 through
 * out_of_memory(), whose task_will_free_mem() marks the task itself a
 * victim); after the MAX_RECLAIM_RETRIES that follow, "passed_oom &&
 * task_is_dying()" gives -ENOMEM.
 */
static void test_killed_task_charge_fails_after_oom(void **state)
{
	int err;

	full(256);
	kshim_send_signal(current, SIGKILL);
	assert_null(tb_folio_charge(1, GFP_KERNEL, &err));
	kshim_clear_signals(current);
	assert_int_equal(err, -ENOMEM);
	assert_int_equal(event("a", "oom"), 1);
	assert_int_equal(event("a", "oom_kill"), 0);
	assert_int_equal(tb_task_oom_killed(), !TB_HAVE_memcg_oom_passes_dying);
	/* 18 reclaims before the OOM (as above), 17 after: no second drain pass */
	assert_int_equal(tb_reclaim_calls(), 18 + 17);
}

/* a task of its own in path holding nr pages (charged while switched in) */
static struct tb_task *holder(const char *path, unsigned int nr)
{
	struct tb_task *t;
	int err;

	t = tb_task_spawn(path, &err);
	assert_non_null(t);
	tb_task_switch(t);
	assert_non_null(tb_folio_charge(nr, GFP_KERNEL, &err));
	tb_task_switch(NULL);
	return t;
}

/*
 * An OOM kill that does not make room is followed, after the
 * MAX_RECLAIM_RETRIES that it bought, by another OOM for a task that is
 * not dying: an 8-page charge (a costly order never OOMs) at memory.max
 * kills the 5-page task, retries 17 times, then kills the 4-page one and
 * fits. The charging task is exempt (OOM_SCORE_ADJ_MIN).
 */
static void test_oom_again_when_the_first_kill_is_not_enough(void **state)
{
	struct tb_task *x, *y;
	int err;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	x = holder("a", 5);
	y = holder("a", 4);
	assert_int_equal(tb_task_enter("a"), 0);
	tb_task_set_oom_score_adj(current->kshim_tb, OOM_SCORE_ADJ_MIN);
	tb_charge_ok(BATCH);
	tb_drain_local_stock();
	assert_int_equal(current_pages("a"), 73);
	assert_write_ok("a", "memory.max", "299008");	/* 73 pages */
	tb_reclaim_script(TB_RECLAIM_NOTHING, 0);
	assert_non_null(tb_folio_charge(8, GFP_KERNEL, &err));
	assert_int_equal(err, 0);
	assert_true(tb_task_is_oom_victim(x));
	assert_true(tb_task_is_oom_victim(y));
	assert_false(tb_task_oom_killed());
	assert_int_equal(tb_oom_kills(), 2);
	assert_int_equal(tb_reclaim_calls(), 18 + 17);
	assert_int_equal(event("a", "oom"), 2);
	assert_int_equal(current_pages("a"), 72);
	tb_task_exit(x);
	tb_task_exit(y);
}

/*
 * A task whose memcg was removed (offlined: the task's reference keeps
 * it) charges the offline memcg, whose memory.max still applies; the
 * parent sees the charges. The real cgroup core refuses to rmdir a
 * populated cgroup; this is the state of an mm whose owner's memcg died.
 */
static void test_offline_memcg_charge(void **state)
{
	assert_int_equal(tb_cgroup_mkdir("p"), 0);
	assert_int_equal(tb_cgroup_mkdir("p/a"), 0);
	assert_write_ok("p/a", "memory.max", "614400");	/* 150 pages */
	assert_int_equal(tb_task_enter("p/a"), 0);
	tb_charge_ok(100);
	assert_int_equal(tb_cgroup_rmdir("p/a"), 0);
	assert_null(tb_memcg("p/a"));
	tb_charge_ok(40);
	assert_int_equal(current_pages("p"), 140);
	tb_reclaim_script(TB_RECLAIM_PAGES, 1000);
#if TB_HAVE_lru_folio_reparent
	/*
	 * 7.2: offlining gave p/a's objcgs to p, and a folio charged since
	 * takes p's objcg (p/a has none left): p/a's counter is charged, but
	 * every folio uncharges p. Reclaim frees all 140 pages from p, p/a's
	 * usage stays 140, its margin never reaches 100: the first reclaim,
	 * the one after draining the stocks, 16 retries, then -ENOMEM: no OOM
	 * for 100 pages (order 7 > PAGE_ALLOC_COSTLY_ORDER).
	 */
	{
		int err;

		assert_null(tb_folio_charge(100, GFP_KERNEL, &err));
		assert_int_equal(err, -ENOMEM);
	}
	assert_int_equal(tb_reclaim_calls(), 18);
	assert_int_equal(tb_reclaim_freed(), 140);
	assert_int_equal(current_pages("p"), 0);
	assert_int_equal(event("p", "max"), 18);
	assert_int_equal(event("p", "oom"), 0);
	assert_int_equal(tb_oom_kills(), 0);
	tb_task_leave();
	assert_int_equal(current_pages("p"), 0);
	return;
#endif
	tb_charge_ok(100);
	assert_int_equal(tb_reclaim_calls(), 1);
	assert_int_equal(tb_reclaim_freed(), 100);
	assert_int_equal(current_pages("p"), 140);
	assert_int_equal(event("p", "max"), 1);
	assert_int_equal(event("p", "oom"), 0);
	tb_task_leave();
	assert_int_equal(current_pages("p"), 0);
}

/*
 * A limit on an ancestor: page_counter_try_charge() charges the levels
 * below it before failing there, so c and d keep the transient usage as
 * their watermark. d's memory.peak (300 pages) ends above its ancestor
 * b's (200), though d never held more than 200.
 */
static void test_ancestor_limit(void **state)
{
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	assert_int_equal(tb_cgroup_mkdir("a/b"), 0);
	assert_int_equal(tb_cgroup_mkdir("a/b/c"), 0);
	assert_int_equal(tb_cgroup_mkdir("a/b/c/d"), 0);
	assert_write_ok("a/b", "memory.max", "1M");
	assert_int_equal(tb_task_enter("a/b/c/d"), 0);
	tb_charge_ok(100);
	tb_charge_ok(100);
	tb_reclaim_script(TB_RECLAIM_PAGES, 1000);
	tb_charge_ok(100);
	assert_int_equal(tb_reclaim_calls(), 1);
	assert_int_equal(current_pages("a/b/c/d"), 200);
	assert_int_equal(current_pages("a"), 200);
	assert_int_equal(tb_cgroup_read_key("a/b", "memory.events.local", "max"), 1);
	assert_int_equal(event("a", "max"), 1);
	assert_int_equal(event("a/b/c/d", "max"), 0);
	assert_int_equal(tb_cgroup_read_u64("a/b/c/d", "memory.peak") / 4096, 300);
	assert_int_equal(tb_cgroup_read_u64("a/b/c", "memory.peak") / 4096, 300);
	assert_int_equal(tb_cgroup_read_u64("a/b", "memory.peak") / 4096, 200);
	assert_int_equal(tb_cgroup_read_u64("a", "memory.peak") / 4096, 200);
	/* futile now: NORETRY fails at b, d's usage unchanged */
	tb_reclaim_script(TB_RECLAIM_NOTHING, 0);
	tb_charge_ok(50);
	assert_null(tb_folio_charge(20, GFP_KERNEL | __GFP_NORETRY, NULL));
	/* 200 + a batch of 64 fails at b; the retry with 50 pages fits: no event */
	assert_int_equal(current_pages("a/b/c/d"), 250);
	assert_int_equal(tb_cgroup_read_key("a/b", "memory.events.local", "max"), 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		TB_MEMCG_TEST(test_stock_per_cpu),
		TB_MEMCG_TEST(test_stock_large_and_partial),
		TB_MEMCG_TEST(test_stock_switch_drains_other),
		TB_MEMCG_TEST(test_stock_refill_takes_an_empty_slot_before_evicting),
		TB_MEMCG_TEST(test_drain_all_stock),
		TB_MEMCG_TEST(test_max_write_drains_local_stock),
		TB_MEMCG_TEST(test_concurrent_siblings),
		TB_MEMCG_TEST(test_concurrent_one_memcg),
		TB_MEMCG_TEST(test_max_reclaim_succeeds),
		TB_MEMCG_TEST(test_charge_drains_stock_before_oom),
		TB_MEMCG_TEST(test_max_futile_oom_kills_largest),
		TB_MEMCG_TEST(test_noretry_reclaims_twice),
		TB_MEMCG_TEST(test_retry_mayfail_no_oom),
		TB_MEMCG_TEST(test_nowait_fails_at_once),
		TB_MEMCG_TEST(test_atomic_forced_over_max),
		TB_MEMCG_TEST(test_nospin_forced_over_max_notifies_no_file),
		TB_MEMCG_TEST(test_nospin_charge_takes_no_batch),
		TB_MEMCG_TEST(test_nofail_forced_when_oom_fails),
		TB_MEMCG_TEST(test_oom_victim_charge_fails),
		TB_MEMCG_TEST(test_killed_task_charge_fails_after_oom),
		TB_MEMCG_TEST(test_costly_charge_retries_are_counted),
		TB_MEMCG_TEST(test_margin_reached_in_the_last_round),
		TB_MEMCG_TEST(test_noretry_margin_ignores_swap_max),
		TB_MEMCG_TEST(test_oom_only_up_to_the_costly_order),
		TB_MEMCG_TEST(test_oom_waiting_for_the_lock_finds_room),
		TB_MEMCG_TEST(test_offline_memcg_charge),
		TB_MEMCG_TEST(test_ancestor_limit),
		TB_MEMCG_TEST(test_costly_order_charge_retries_while_reclaim_frees),
		TB_MEMCG_TEST(test_oom_again_when_the_first_kill_is_not_enough),
	};

	tb_world.nr_cpus = 4;
	return TB_RUN(tests);
}
