// SPDX-License-Identifier: GPL-2.0-only
/*
 * memory.high throttling in the real memcontrol.c: calculate_high_delay(),
 * the over-high flag try_charge_memcg() leaves on the task, and
 * mem_cgroup_handle_over_high() on the return to user mode (reclaim
 * retries, the HZ/100 floor, the 2 s clamp, ancestors, swap.high), plus
 * the high_work path of charges from interrupt context.
 *
 * Usages are built so that the charge that crosses memory.high is one
 * MEMCG_CHARGE_BATCH: big folios (>= 64 pages) are charged exactly with
 * memory.high at "max" (no stock, no flag), memory.high is written, and a
 * 1-page folio then charges a whole batch (63 pages go to the stock).
 */
#include <linux/kernel.h>
#include <linux/memcontrol.h>
#include <linux/sched.h>
#include <linux/sched/mm.h>
#include <linux/swap.h>
#include <linux/workqueue.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include "tb_memcg.h"

#define BATCH_BYTES (MEMCG_CHARGE_BATCH * 4096UL)
/* constants private to mm/internal.h and mm/memcontrol.c */
#define MAX_RECLAIM_RETRIES 16
#define MEMCG_MAX_HIGH_DELAY_JIFFIES (2UL * HZ)

/*
 * Raw penalty (jiffies, HZ = 1000) of one batch for high = 100M and usage
 * 100M + k MB: overage = (k MB << 20) / 100M, penalty = overage^2 * HZ >> 34
 * (the seed's table). k = 18, 19, 20 exceed MEMCG_MAX_HIGH_DELAY_JIFFIES.
 */
static const unsigned long penalty_100m[] = {
	0, 6, 25, 57, 102, 159, 230, 313, 409, 518, 639, 774, 921, 1081, 1254,
	1439, 1638, 1849,
};

/* charge bytes to current's memcg in 1M folios, then one for the rest */
static void fill(unsigned long bytes)
{
	int err;

	while (bytes) {
		unsigned long chunk = bytes >= MB ? MB : bytes;

		assert_true(chunk >= BATCH_BYTES);
		assert_non_null(tb_folio_charge(PAGES(chunk), GFP_KERNEL, &err));
		bytes -= chunk;
	}
}

/* the charge that crosses memory.high: one batch through try_charge_memcg */
static void charge_batch(gfp_t gfp)
{
	int err;

	assert_non_null(tb_folio_charge(1, gfp, &err));
	assert_int_equal(err, 0);
}

static long long events_high(const char *path)
{
	return tb_cgroup_read_key(path, "memory.events", "high");
}

/* path at usage bytes (the last batch charged with high set), task inside */
static void setup_over_high(const char *path, const char *high, unsigned long usage)
{
	assert_int_equal(tb_task_enter(path), 0);
	fill(usage - BATCH_BYTES);
	assert_write_ok(path, "memory.high", high);
	charge_batch(GFP_KERNEL);
	assert_int_equal(tb_cgroup_read_u64(path, "memory.current"), usage);
}

/* the task in p/c, a child of p */
static void enter_child(void)
{
	assert_int_equal(tb_cgroup_mkdir("p"), 0);
	assert_int_equal(tb_cgroup_mkdir("p/c"), 0);
	assert_int_equal(tb_task_enter("p/c"), 0);
}

static void test_delay_table_and_scaling(void **state)
{
	struct mem_cgroup *memcg;
	unsigned long prev = 0;
	int k, i, err;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	assert_int_equal(tb_task_enter("a"), 0);
	/* twenty 1M folios first (the oldest, uncharged first), then 100M */
	for (i = 0; i < 20; i++)
		assert_non_null(tb_folio_charge(PAGES(MB), GFP_KERNEL, &err));
	assert_non_null(tb_folio_charge(PAGES(100 * MB), GFP_KERNEL, &err));
	assert_write_ok("a", "memory.high", "100M");
	memcg = tb_memcg("a");
	for (k = 20; k >= 0; k--) {
		unsigned long d = tb_calculate_high_delay(memcg, MEMCG_CHARGE_BATCH);

		assert_int_equal(tb_cgroup_read_u64("a", "memory.current"), (100 + k) * MB);
		if (k < (int)ARRAY_SIZE(penalty_100m))
			assert_int_equal(d, penalty_100m[k]);
		else
			assert_true(d > 2 * HZ);
		/* scaled by nr_pages / MEMCG_CHARGE_BATCH, rounding down */
		assert_int_equal(tb_calculate_high_delay(memcg, 2 * MEMCG_CHARGE_BATCH), 2 * d);
		assert_int_equal(tb_calculate_high_delay(memcg, MEMCG_CHARGE_BATCH / 2), d / 2);
		assert_int_equal(tb_calculate_high_delay(memcg, 1), d / MEMCG_CHARGE_BATCH);
		/* monotonic in the overage (walking the usage down here) */
		if (k < 20)
			assert_true(d < prev);
		prev = d;
		if (k)
			assert_int_equal(tb_task_uncharge_pages(PAGES(MB)), PAGES(MB));
	}
}

/*
 * For every usage 100M..120M: the real handle_over_high sleeps the clamped
 * penalty if it is above HZ/100, after MAX_RECLAIM_RETRIES futile retries;
 * at or below HZ/100 it leaves after one reclaim pass without sleeping.
 */
static void test_handle_over_high_table(void **state)
{
	int k;

	for (k = 0; k <= 20; k++) {
		unsigned long raw, expect, slept, calls;
		long long ev;
		char path[16];

		snprintf(path, sizeof(path), "k%d", k);
		assert_int_equal(tb_cgroup_mkdir(path), 0);
		setup_over_high(path, "100M", (100 + k) * MB);
		/* at usage == high no flag; above, the batch that crossed it */
		assert_int_equal(current->memcg_nr_pages_over_high, k ? MEMCG_CHARGE_BATCH : 0);
		raw = tb_calculate_high_delay(tb_memcg(path), MEMCG_CHARGE_BATCH);
		expect = raw <= HZ / 100 ? 0 : min(raw, 2 * HZ);
		slept = kshim_slept_jiffies();
		calls = tb_reclaim_calls();
		ev = events_high(path);
		tb_task_return_to_user();
		assert_int_equal(kshim_slept_jiffies() - slept, expect);
		assert_int_equal(current->memcg_nr_pages_over_high, 0);
		/* one reclaim_high pass, plus MAX_RECLAIM_RETRIES if it would sleep */
		if (!k)
			assert_int_equal(tb_reclaim_calls() - calls, 0);
		else
			assert_int_equal(tb_reclaim_calls() - calls, expect ? 1 + MAX_RECLAIM_RETRIES : 1);
		/* reclaim_high raises MEMCG_HIGH once per pass it finds usage > high */
		assert_int_equal(events_high(path) - ev, tb_reclaim_calls() - calls);
		if (k >= 18)
			assert_int_equal(kshim_slept_jiffies() - slept, MEMCG_MAX_HIGH_DELAY_JIFFIES);
		tb_task_leave();
		assert_int_equal(tb_cgroup_rmdir(path), 0);
	}
}

/*
 * Reclaim that frees pages keeps handle_over_high retrying without using
 * up its retries, and it stops as soon as the penalty is <= HZ/100: from
 * 110M, one 1M folio per pass, it stops at 101M (penalty 6) and never
 * sleeps, though usage is still above memory.high.
 */
static void test_reclaim_progress_no_sleep(void **state)
{
	unsigned long slept, calls;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	setup_over_high("a", "100M", 110 * MB);
	tb_reclaim_script(TB_RECLAIM_PAGES, ULONG_MAX);
	slept = kshim_slept_jiffies();
	calls = tb_reclaim_calls();
	tb_task_return_to_user();
	assert_int_equal(kshim_slept_jiffies() - slept, 0);
	assert_int_equal(tb_reclaim_calls() - calls, 9);
	assert_int_equal(tb_reclaim_freed(), 9 * PAGES(MB));
	assert_int_equal(tb_cgroup_read_u64("a", "memory.current"), 101 * MB);
}

/* reclaim that frees the whole overage at once: no penalty left, no sleep */
static void test_reclaim_under_high_no_sleep(void **state)
{
	unsigned long slept, calls;
	int err;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	assert_int_equal(tb_task_enter("a"), 0);
	/* the oldest folio is the big one the reclaimer takes first */
	assert_non_null(tb_folio_charge(PAGES(110 * MB) - MEMCG_CHARGE_BATCH, GFP_KERNEL, &err));
	assert_write_ok("a", "memory.high", "100M");
	charge_batch(GFP_KERNEL);
	tb_reclaim_script(TB_RECLAIM_PAGES, ULONG_MAX);
	slept = kshim_slept_jiffies();
	calls = tb_reclaim_calls();
	tb_task_return_to_user();
	assert_int_equal(kshim_slept_jiffies() - slept, 0);
	assert_int_equal(tb_reclaim_calls() - calls, 1);
	assert_int_equal(tb_cgroup_read_u64("a", "memory.current"), BATCH_BYTES);
	assert_int_equal(events_high("a"), 1);
}

/*
 * memory.high 0 and reclaim that frees everything: a usage of 0 is not
 * over a high of 0 (calculate_overage()), so there is no penalty, and the
 * task does not sleep.
 */
static void test_high_of_zero_reclaimed_to_zero_no_sleep(void **state)
{
	unsigned long slept;
	int err;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	assert_write_ok("a", "memory.high", "0");
	assert_int_equal(tb_task_enter("a"), 0);
	tb_reclaim_script(TB_RECLAIM_PAGES, ULONG_MAX);
	slept = kshim_slept_jiffies();
	/* may not block: over high, it leaves the work to the return to user */
	assert_non_null(tb_folio_charge(MEMCG_CHARGE_BATCH + 1, GFP_NOWAIT, &err));
	assert_int_equal(current->memcg_nr_pages_over_high, MEMCG_CHARGE_BATCH + 1);
	tb_task_return_to_user();
	assert_int_equal(tb_cgroup_read_u64("a", "memory.current"), 0);
	assert_int_equal(kshim_slept_jiffies() - slept, 0);
}

/*
 * memory.high on the parent throttles a child without its own high: the
 * flag is set by the parent's overage, reclaim and MEMCG_HIGH go to the
 * parent only, and the delay uses the parent's overage.
 */
static void test_parent_high(void **state)
{
	unsigned long slept, calls;

	enter_child();
	fill(104 * MB - BATCH_BYTES);
	assert_write_ok("p", "memory.high", "100M");
	charge_batch(GFP_KERNEL);
	/* the child's high is max: the flag comes from the parent's overage */
	assert_int_equal(current->memcg_nr_pages_over_high, MEMCG_CHARGE_BATCH);
	assert_int_equal(tb_calculate_high_delay(tb_memcg("p/c"), MEMCG_CHARGE_BATCH), 102);
	slept = kshim_slept_jiffies();
	calls = tb_reclaim_calls();
	tb_task_return_to_user();
	assert_int_equal(kshim_slept_jiffies() - slept, 102);
	assert_int_equal(tb_reclaim_calls() - calls, 1 + MAX_RECLAIM_RETRIES);
	assert_int_equal(events_high("p"), 1 + MAX_RECLAIM_RETRIES);
	assert_int_equal(events_high("p/c"), 0);
}

/* p/c at 104M with memory.high 102M, p's high as given, the task in p/c */
static void setup_child_at_104m(const char *parent_high)
{
	assert_int_equal(tb_cgroup_mkdir("p"), 0);
	assert_int_equal(tb_cgroup_mkdir("p/c"), 0);
	assert_int_equal(tb_task_enter("p/c"), 0);
	fill(104 * MB - BATCH_BYTES);
	assert_write_ok("p/c", "memory.high", "102M");
	assert_write_ok("p", "memory.high", parent_high);
	charge_batch(GFP_KERNEL);
}

/*
 * Both levels over high: the delay is the larger overage (the parent's,
 * 4M over 100M against the child's 2M over 102M), each pass reclaims at both levels, and
 * the parent's memory.events counts the child's events too (v2 events are
 * hierarchical; memory.events.local is not).
 */
static void test_max_overage_over_ancestors(void **state)
{
	unsigned long slept, calls;

	setup_child_at_104m("100M");
	assert_int_equal(tb_cgroup_read_u64("p/c", "memory.current"), 104 * MB);
	/* the child's own overage alone: 2M over 102M */
	assert_int_equal(tb_calculate_high_delay(tb_memcg("p/c"), MEMCG_CHARGE_BATCH), 102);
	slept = kshim_slept_jiffies();
	calls = tb_reclaim_calls();
	tb_task_return_to_user();
	assert_int_equal(kshim_slept_jiffies() - slept, 102);
	assert_int_equal(tb_reclaim_calls() - calls, 2 * (1 + MAX_RECLAIM_RETRIES));
	assert_int_equal(events_high("p/c"), 1 + MAX_RECLAIM_RETRIES);
	assert_int_equal(events_high("p"), 2 * (1 + MAX_RECLAIM_RETRIES));
	assert_int_equal(tb_cgroup_read_key("p", "memory.events.local", "high"),
			 1 + MAX_RECLAIM_RETRIES);
}

/*
 * reclaim_high() reclaims from a level only while its usage is above its
 * memory.high: a parent exactly at its high is passed over, the child over
 * its own is reclaimed on each of the 17 passes.
 */
static void test_ancestor_at_its_high_is_not_reclaimed(void **state)
{
	unsigned long slept, calls;

	setup_child_at_104m("104M");
	assert_int_equal(tb_cgroup_read_u64("p", "memory.current"), 104 * MB);
	/* the child's overage only: 2M over 102M */
	assert_int_equal(tb_calculate_high_delay(tb_memcg("p/c"), MEMCG_CHARGE_BATCH), 24);
	slept = kshim_slept_jiffies();
	calls = tb_reclaim_calls();
	tb_task_return_to_user();
	assert_int_equal(kshim_slept_jiffies() - slept, 24);
	assert_int_equal(tb_reclaim_calls() - calls, 1 + MAX_RECLAIM_RETRIES);
	assert_int_equal(events_high("p/c"), 1 + MAX_RECLAIM_RETRIES);
	assert_int_equal(tb_cgroup_read_key("p", "memory.events.local", "high"), 0);
}

/* each reclaim_high() pass is a memory stall for PSI, over once it returns */
static void test_over_high_reclaim_is_a_memstall(void **state)
{
	unsigned long calls, stalls;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	setup_over_high("a", "100M", 104 * MB);
	calls = tb_reclaim_calls();
	stalls = tb_reclaim_memstall_calls();
	tb_task_return_to_user();
	assert_int_equal(tb_reclaim_calls() - calls, 1 + MAX_RECLAIM_RETRIES);
	assert_int_equal(tb_reclaim_memstall_calls() - stalls, 1 + MAX_RECLAIM_RETRIES);
	assert_false(current->in_memstall);
}

/*
 * Passes that reclaim do not count against MAX_RECLAIM_RETRIES: from
 * 120M, one 1M folio per pass, handle_over_high takes 19 passes, past the
 * 17 of a futile reclaim, down to 101M (penalty 6 <= HZ/100), no sleep.
 */
static void test_reclaim_progress_outlasts_the_retries(void **state)
{
	unsigned long slept, calls;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	setup_over_high("a", "100M", 120 * MB);
	tb_reclaim_script(TB_RECLAIM_PAGES, ULONG_MAX);
	slept = kshim_slept_jiffies();
	calls = tb_reclaim_calls();
	tb_task_return_to_user();
	assert_int_equal(kshim_slept_jiffies() - slept, 0);
	assert_int_equal(tb_reclaim_calls() - calls, 19);
	assert_int_equal(tb_cgroup_read_u64("a", "memory.current"), 101 * MB);
}

/*
 * swap.high: swap charges are simulated on the swap page counter (what
 * __mem_cgroup_try_charge_swap does; swap-out is not modelled). Any charge
 * then flags the task; handle_over_high finds no memory overage, so
 * reclaim_high reclaims nothing, yet it still retries MAX_RECLAIM_RETRIES
 * times (the penalty is above HZ/100) and each pass raises MEMCG_SWAP_HIGH.
 */
static void test_swap_high(void **state)
{
	struct mem_cgroup *memcg;
	unsigned long slept, calls;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	assert_int_equal(tb_task_enter("a"), 0);
	memcg = tb_memcg("a");
	assert_write_ok("a", "memory.swap.high", "100M");
	page_counter_charge(&memcg->swap, PAGES(104 * MB));
	charge_batch(GFP_KERNEL);
	assert_int_equal(current->memcg_nr_pages_over_high, MEMCG_CHARGE_BATCH);
	slept = kshim_slept_jiffies();
	calls = tb_reclaim_calls();
	tb_task_return_to_user();
	/* the same formula as memory: 4M over 100M */
	assert_int_equal(kshim_slept_jiffies() - slept, 102);
	assert_int_equal(tb_reclaim_calls() - calls, 0);
	assert_int_equal(events_high("a"), 0);
	assert_int_equal(tb_cgroup_read_key("a", "memory.swap.events", "high"),
			 1 + MAX_RECLAIM_RETRIES);
	page_counter_uncharge(&memcg->swap, PAGES(104 * MB));
}

/* memory and swap overages each give a penalty; handle_over_high adds them */
static void test_memory_and_swap_penalties_add(void **state)
{
	struct mem_cgroup *memcg;
	unsigned long slept;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	memcg = tb_memcg("a");
	assert_write_ok("a", "memory.swap.high", "100M");
	page_counter_charge(&memcg->swap, PAGES(104 * MB));
	setup_over_high("a", "100M", 104 * MB);
	slept = kshim_slept_jiffies();
	tb_task_return_to_user();
	assert_int_equal(kshim_slept_jiffies() - slept, 102 + 102);
	page_counter_uncharge(&memcg->swap, PAGES(104 * MB));
}

/*
 * A charge that leaves more than one batch pending is handled synchronously
 * inside try_charge_memcg when it may block: the task sleeps during the
 * charge (penalty scaled by its 128 pages) and nothing is left for the
 * return to user mode. GFP_ATOMIC defers all of it to the return.
 */
static void test_sync_handle_when_blocking(void **state)
{
	unsigned long slept;
	int err;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	assert_int_equal(tb_task_enter("a"), 0);
	fill(104 * MB - 2 * BATCH_BYTES);
	assert_write_ok("a", "memory.high", "100M");
	slept = kshim_slept_jiffies();
	assert_non_null(tb_folio_charge(2 * MEMCG_CHARGE_BATCH, GFP_KERNEL, &err));
	assert_int_equal(kshim_slept_jiffies() - slept, 2 * 102);
	assert_int_equal(current->memcg_nr_pages_over_high, 0);
	/* the penalty sleep is a memory stall, left when it ends */
	assert_false(current->in_memstall);
	slept = kshim_slept_jiffies();
	tb_task_return_to_user();
	assert_int_equal(kshim_slept_jiffies() - slept, 0);
}

/*
 * Two batches over high charged by gfp, in reclaim (PF_MEMALLOC) or not,
 * with no reclaim or sleep inside the charge: all of it is left for the
 * return to user mode.
 */
static void assert_charge_deferred(gfp_t gfp, bool memalloc)
{
	unsigned long slept, calls;
	unsigned int noreclaim = 0;
	int err;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	assert_int_equal(tb_task_enter("a"), 0);
	fill(104 * MB - 2 * BATCH_BYTES);
	assert_write_ok("a", "memory.high", "100M");
	slept = kshim_slept_jiffies();
	calls = tb_reclaim_calls();
	if (memalloc)
		noreclaim = memalloc_noreclaim_save();
	assert_non_null(tb_folio_charge(2 * MEMCG_CHARGE_BATCH, gfp, &err));
	if (memalloc)
		memalloc_noreclaim_restore(noreclaim);
	assert_int_equal(kshim_slept_jiffies() - slept, 0);
	assert_int_equal(tb_reclaim_calls() - calls, 0);
	assert_int_equal(current->memcg_nr_pages_over_high, 2 * MEMCG_CHARGE_BATCH);
	tb_task_return_to_user();
	assert_int_equal(kshim_slept_jiffies() - slept, 2 * 102);
}

static void test_atomic_charge_defers_to_user_return(void **state)
{
	assert_charge_deferred(GFP_ATOMIC, false);
}

/* a task in reclaim may block, yet is not made to reclaim inside a charge */
static void test_memalloc_charge_defers_to_user_return(void **state)
{
	assert_charge_deferred(GFP_KERNEL, true);
}

/*
 * a dying task (PF_EXITING) is neither reclaimed for nor throttled; 6.1's
 * mem_cgroup_handle_over_high() has no task_is_dying() test: it reclaims
 * and sleeps for a dying task as for any other
 */
static void test_dying_task_not_throttled(void **state)
{
	unsigned long slept, calls;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	setup_over_high("a", "100M", 118 * MB);
	slept = kshim_slept_jiffies();
	calls = tb_reclaim_calls();
	current->flags |= PF_EXITING;
	tb_task_return_to_user();
	current->flags &= ~PF_EXITING;
#if TB_HAVE_over_high_skips_dying
	assert_int_equal(kshim_slept_jiffies() - slept, 0);
	assert_int_equal(tb_reclaim_calls() - calls, 0);
#else
	assert_true(kshim_slept_jiffies() - slept > 0);
	assert_true(tb_reclaim_calls() - calls > 0);
#endif
	assert_int_equal(current->memcg_nr_pages_over_high, 0);
}

/*
 * calculate_overage() counts a memory.high below one page as one page: at
 * memory.high 4096 and 2 pages of usage the overage is a whole high's
 * worth (1 << 20), and the raw delay for a batch (1 << 20)^2 * HZ >>
 * (20 + 14) = 64000 jiffies (mem_cgroup_handle_over_high clamps it to 2 s).
 */
static void test_high_of_one_page(void **state)
{
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	assert_int_equal(tb_task_enter("a"), 0);
	/* memory.max of 2 pages: each charge falls back from a batch to 1 page */
	assert_write_ok("a", "memory.max", "8192");
	tb_charge_ok(1);
	tb_charge_ok(1);
	assert_int_equal(tb_cgroup_read_u64("a", "memory.current"), 8192);
	assert_write_ok("a", "memory.high", "4096");
	assert_int_equal(tb_calculate_high_delay(tb_memcg("a"), MEMCG_CHARGE_BATCH), 64 * HZ);
}

/*
 * a task with SIGKILL pending is dying too: no reclaim, no sleep (6.1:
 * reclaimed for, then a killable sleep, which the kernel ends at once for
 * a pending SIGKILL and the shim's schedule_timeout_killable() does not:
 * the sleep is not asserted there)
 */
static void test_killed_task_not_throttled(void **state)
{
	unsigned long slept, calls;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	setup_over_high("a", "100M", 118 * MB);
	slept = kshim_slept_jiffies();
	calls = tb_reclaim_calls();
	kshim_send_signal(current, SIGKILL);
	tb_task_return_to_user();
	kshim_clear_signals(current);
#if TB_HAVE_over_high_skips_dying
	assert_int_equal(tb_reclaim_calls() - calls, 0);
	assert_int_equal(kshim_slept_jiffies() - slept, 0);
#else
	assert_true(tb_reclaim_calls() - calls > 0);
#endif
}

/*
 * A charge from interrupt context (kmem via obj_cgroup_charge) that finds
 * usage above high cannot flag the interrupted task: try_charge_memcg
 * schedules memcg->high_work, whose reclaim_high() pass runs on the
 * workqueue. Nobody sleeps.
 */
static void test_high_work_from_irq(void **state)
{
	struct obj_cgroup *objcg;
	unsigned long slept;
	int err;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	assert_int_equal(tb_task_enter("a"), 0);
	assert_non_null(tb_folio_charge(PAGES(2 * MB), GFP_KERNEL, &err));
	assert_write_ok("a", "memory.high", "1M");
	objcg = tb_memcg_objcg(tb_memcg("a"));
	slept = kshim_slept_jiffies();
	flush_workqueue(system_wq);
	assert_int_equal(tb_reclaim_calls(), 1 + MAX_RECLAIM_RETRIES);

	kshim_ctx.in_irq = 1;
	assert_int_equal(tb_obj_cgroup_charge(objcg, GFP_ATOMIC, 100), 0);
	kshim_ctx.in_irq = 0;
	assert_int_equal(current->memcg_nr_pages_over_high, 0);
	assert_false(current->kshim_notify_resume);
	flush_workqueue(system_wq);
	/* high_work_func: one reclaim_high pass of MEMCG_CHARGE_BATCH pages */
	assert_int_equal(tb_reclaim_calls(), 2 + MAX_RECLAIM_RETRIES);
	assert_int_equal(events_high("a"), 1);
	assert_int_equal(kshim_slept_jiffies() - slept, 0);
	tb_obj_cgroup_uncharge(objcg, 100);
}

/*
 * The larger overage wins wherever it is: the child's 4M over 100M beats
 * its parent's 1M over 103M (a delay of 102 jiffies, not the parent's 6),
 * for memory.high as for memory.swap.high.
 */
static void test_child_overage_larger_than_parent(void **state)
{
	struct mem_cgroup *memcg;
	unsigned long slept;
	int err;

	enter_child();
	fill(104 * MB - BATCH_BYTES);
	assert_write_ok("p/c", "memory.high", "100M");
	assert_write_ok("p", "memory.high", "103M");
	charge_batch(GFP_KERNEL);
	slept = kshim_slept_jiffies();
	tb_task_return_to_user();
	assert_int_equal(kshim_slept_jiffies() - slept, 102);

	/* swap: no memory overage left to add */
	assert_write_ok("p/c", "memory.high", "max");
	assert_write_ok("p", "memory.high", "max");
	memcg = tb_memcg("p/c");
	assert_write_ok("p/c", "memory.swap.high", "100M");
	assert_write_ok("p", "memory.swap.high", "103M");
	page_counter_charge(&memcg->swap, PAGES(104 * MB));
	/* a miss (the stock holds 63): charged as its own batch, flagged */
	assert_non_null(tb_folio_charge(MEMCG_CHARGE_BATCH, GFP_KERNEL, &err));
	slept = kshim_slept_jiffies();
	tb_task_return_to_user();
	assert_int_equal(kshim_slept_jiffies() - slept, 102);
	/* each pass raises MEMCG_SWAP_HIGH at both levels (p's count is hierarchical) */
	assert_int_equal(tb_cgroup_read_key("p", "memory.swap.events", "high"),
			 2 * (1 + MAX_RECLAIM_RETRIES));
	page_counter_uncharge(&memcg->swap, PAGES(104 * MB));
}

/* a new memcg path, memory.high 100M, the task in it nr pages over it */
static void over_high_by_pages(const char *path, unsigned long nr)
{
	int err;

	assert_int_equal(tb_cgroup_mkdir(path), 0);
	assert_int_equal(tb_task_enter(path), 0);
	fill(100 * MB);
	assert_non_null(tb_folio_charge(nr - MEMCG_CHARGE_BATCH, GFP_KERNEL, &err));
	assert_write_ok(path, "memory.high", "100M");
	charge_batch(GFP_KERNEL);
	assert_int_equal(tb_cgroup_read_u64(path, "memory.current"), 100 * MB + nr * 4096);
}

/*
 * The HZ/100 floor is inclusive: a penalty of exactly 10 jiffies (328
 * pages over a high of 100M) is not slept, after a single reclaim pass;
 * 11 jiffies (340 pages over) is slept, in a memory stall, after
 * MAX_RECLAIM_RETRIES futile retries. The first pass asks reclaim for the
 * task's batch, each retry for SWAP_CLUSTER_MAX pages.
 */
static void test_penalty_floor_is_inclusive(void **state)
{
	unsigned long slept, stalled, calls, asked;

	over_high_by_pages("a", 328);
	assert_int_equal(tb_calculate_high_delay(tb_memcg("a"), MEMCG_CHARGE_BATCH), 10);
	slept = kshim_slept_jiffies();
	calls = tb_reclaim_calls();
	asked = tb_reclaim_asked();
	tb_task_return_to_user();
	assert_int_equal(kshim_slept_jiffies() - slept, 0);
	assert_int_equal(tb_reclaim_calls() - calls, 1);
	assert_int_equal(tb_reclaim_asked() - asked, MEMCG_CHARGE_BATCH);
	tb_task_leave();

	over_high_by_pages("b", 340);
	assert_int_equal(tb_calculate_high_delay(tb_memcg("b"), MEMCG_CHARGE_BATCH), 11);
	slept = kshim_slept_jiffies();
	stalled = kshim_memstall_slept_jiffies();
	calls = tb_reclaim_calls();
	asked = tb_reclaim_asked();
	tb_task_return_to_user();
	assert_int_equal(kshim_slept_jiffies() - slept, 11);
	assert_int_equal(kshim_memstall_slept_jiffies() - stalled, 11);
	assert_false(current->in_memstall);
	assert_int_equal(tb_reclaim_calls() - calls, 1 + MAX_RECLAIM_RETRIES);
	assert_int_equal(tb_reclaim_asked() - asked,
			 MEMCG_CHARGE_BATCH + MAX_RECLAIM_RETRIES * SWAP_CLUSTER_MAX);
}

/*
 * Reclaim that keeps freeing never uses up the retries, however many
 * passes it takes: 64 one-page folios, one per pass, then the 1M ones,
 * 67 passes in all before the penalty falls to 3 jiffies; no sleep.
 */
static void test_reclaim_progress_retries_beyond_the_count(void **state)
{
	unsigned long slept, calls;
	int i;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	assert_int_equal(tb_task_enter("a"), 0);
	for (i = 0; i < MEMCG_CHARGE_BATCH; i++)
		charge_batch(GFP_KERNEL);	/* one batch, used up: no stock */
	fill(104 * MB - 2 * BATCH_BYTES);
	assert_write_ok("a", "memory.high", "100M");
	charge_batch(GFP_KERNEL);
	assert_int_equal(tb_cgroup_read_u64("a", "memory.current"), 104 * MB);
	tb_reclaim_script(TB_RECLAIM_PAGES, 1);
	slept = kshim_slept_jiffies();
	calls = tb_reclaim_calls();
	tb_task_return_to_user();
	assert_int_equal(kshim_slept_jiffies() - slept, 0);
	assert_int_equal(tb_reclaim_calls() - calls, MEMCG_CHARGE_BATCH + 3);
	assert_int_equal(tb_cgroup_read_u64("a", "memory.current"), 101 * MB - BATCH_BYTES);
}

/*
 * Swap usage equal to memory.swap.high is not over it: no flag; a page
 * more is. The charges are 64-page folios, each a batch of its own (a
 * charge served from the stock never looks at high).
 */
static void test_swap_at_swap_high_does_not_flag(void **state)
{
	struct mem_cgroup *memcg;
	int err;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	assert_int_equal(tb_task_enter("a"), 0);
	memcg = tb_memcg("a");
	assert_write_ok("a", "memory.swap.high", "4096");
	page_counter_charge(&memcg->swap, 1);
	assert_non_null(tb_folio_charge(MEMCG_CHARGE_BATCH, GFP_KERNEL, &err));
	assert_int_equal(current->memcg_nr_pages_over_high, 0);
	page_counter_charge(&memcg->swap, 1);
	assert_non_null(tb_folio_charge(MEMCG_CHARGE_BATCH, GFP_KERNEL, &err));
	assert_int_equal(current->memcg_nr_pages_over_high, MEMCG_CHARGE_BATCH);
	tb_task_return_to_user();
	page_counter_uncharge(&memcg->swap, 2);
}

/*
 * From interrupt context only the first memcg found over its high gets
 * its high_work queued, not its ancestors too: c's work reclaims at c
 * and at p (reclaim_high() walks up), so p's own work would be one more
 * pass.
 */
static void test_high_work_from_irq_only_the_first_memcg_over_high(void **state)
{
	struct obj_cgroup *objcg;
	unsigned long calls;
	int err;

	enter_child();
	assert_non_null(tb_folio_charge(PAGES(2 * MB), GFP_KERNEL, &err));
	assert_write_ok("p/c", "memory.high", "1M");
	assert_write_ok("p", "memory.high", "1M");
	objcg = tb_memcg_objcg(tb_memcg("p/c"));
	flush_workqueue(system_wq);
	calls = tb_reclaim_calls();

	kshim_ctx.in_irq = 1;
	assert_int_equal(tb_obj_cgroup_charge(objcg, GFP_ATOMIC, 100), 0);
	kshim_ctx.in_irq = 0;
	flush_workqueue(system_wq);
	assert_int_equal(tb_reclaim_calls() - calls, 2);
	assert_int_equal(tb_cgroup_read_key("p/c", "memory.events.local", "high"), 1);
	assert_int_equal(tb_cgroup_read_key("p", "memory.events.local", "high"), 1);
	tb_obj_cgroup_uncharge(objcg, 100);
}

/*
 * A write of memory.high below the usage drains the per-CPU stocks before
 * it reclaims, and checks the usage again: a page charged as a batch of
 * 64 (63 in this CPU's stock) is 1 page once drained, under a high of 2.
 */
static void test_high_write_drains_the_stock_before_reclaiming(void **state)
{
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	assert_int_equal(tb_task_enter("a"), 0);
	tb_charge_ok(1);
	assert_int_equal(tb_cgroup_read_u64("a", "memory.current"), 64 * 4096);
	tb_reclaim_script(TB_RECLAIM_PAGES, 1000);
	assert_write_ok("a", "memory.high", "8192");
	assert_int_equal(tb_reclaim_calls(), 0);
	assert_int_equal(tb_stock_pages(0, NULL), 0);
	assert_int_equal(tb_cgroup_read_u64("a", "memory.current"), 4096);
}

/*
 * A write of memory.max below the usage reclaims down to the new limit
 * (up to MAX_RECLAIM_RETRIES futile tries) before it would declare an OOM:
 * with reclaim that frees, no OOM event.
 */
static void test_max_write_reclaims_down_to_the_new_limit(void **state)
{
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	assert_int_equal(tb_task_enter("a"), 0);
	tb_charge_ok(64);
	tb_charge_ok(64);
	tb_reclaim_script(TB_RECLAIM_PAGES, 1000);
	assert_write_ok("a", "memory.max", "4096");
	assert_true(tb_reclaim_calls() >= 1);
	/* the 127 pages asked are reclaimed in SWAP_CLUSTER_MAX batches: all 128 */
	assert_int_equal(tb_cgroup_read_u64("a", "memory.current"), 0);
	assert_int_equal(tb_cgroup_read_key("a", "memory.events", "oom"), 0);
	assert_int_equal(tb_oom_kills(), 0);
}

/* a's task holds one folio of 100 pages; reclaim frees whole folios */
static void hold_100_pages_in_a(void)
{
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	assert_int_equal(tb_task_enter("a"), 0);
	tb_charge_ok(100);
	tb_reclaim_script(TB_RECLAIM_PAGES, 1000);
}

/*
 * memory_high_write() reclaims only above the new high, and asks for the
 * excess: at a high equal to the usage (100 pages) it neither drains nor
 * reclaims; at 60 pages one call asks for the 40 over it.
 */
static void test_high_write_asks_for_the_excess_only(void **state)
{
	hold_100_pages_in_a();
	assert_write_ok("a", "memory.high", "409600");
	assert_int_equal(tb_reclaim_calls(), 0);
	assert_int_equal(tb_cgroup_read_u64("a", "memory.current"), 100 * 4096);
	assert_write_ok("a", "memory.high", "245760");
	assert_int_equal(tb_reclaim_calls(), 1);
	assert_int_equal(tb_reclaim_asked(), 40);
	assert_int_equal(tb_cgroup_read_u64("a", "memory.current"), 0);
}

/*
 * memory_high_write() counts only futile reclaims against its
 * MAX_RECLAIM_RETRIES: 20 calls that each free one folio of 65 pages
 * bring the usage down to a high of 0.
 */
static void test_high_write_retries_as_long_as_reclaim_frees(void **state)
{
	int i;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	assert_int_equal(tb_task_enter("a"), 0);
	for (i = 0; i < 20; i++)
		tb_charge_ok(65);
	tb_reclaim_script(TB_RECLAIM_PAGES, 1);
	assert_write_ok("a", "memory.high", "0");
	assert_int_equal(tb_reclaim_calls(), 20);
	assert_int_equal(tb_cgroup_read_u64("a", "memory.current"), 0);
}

/* memory_max_write() asks reclaim for the excess over the new max: 40 of 100 pages */
static void test_max_write_asks_for_the_excess(void **state)
{
	hold_100_pages_in_a();
	assert_write_ok("a", "memory.max", "245760");
	assert_int_equal(tb_reclaim_calls(), 1);
	assert_int_equal(tb_reclaim_asked(), 40);
	assert_int_equal(tb_cgroup_read_u64("a", "memory.current"), 0);
	assert_int_equal(tb_cgroup_read_key("a", "memory.events", "oom"), 0);
}

/*
 * memory_max_write() over pages nobody in the memcg can free (charged
 * from outside, through the active memcg): MAX_RECLAIM_RETRIES futile
 * reclaims, one OOM event, and with no task to kill the write gives up,
 * the usage left above the new max.
 */
static void test_max_write_without_a_victim_gives_up_after_one_oom(void **state)
{
	struct mem_cgroup *old;
	struct folio *f;
	int err;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	old = set_active_memcg(tb_memcg("a"));
	f = tb_folio_charge(100, GFP_KERNEL, &err);
	set_active_memcg(old);
	assert_non_null(f);
	tb_reclaim_script(TB_RECLAIM_NOTHING, 0);
	assert_write_ok("a", "memory.max", "204800");
	assert_int_equal(tb_reclaim_calls(), MAX_RECLAIM_RETRIES);
	assert_int_equal(tb_cgroup_read_key("a", "memory.events", "oom"), 1);
	assert_int_equal(tb_cgroup_read_key("a", "memory.events", "oom_kill"), 0);
	assert_int_equal(tb_oom_kills(), 0);
	assert_int_equal(tb_cgroup_read_u64("a", "memory.current"), 100 * 4096);
	tb_folio_uncharge(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		TB_MEMCG_TEST(test_delay_table_and_scaling),
		TB_MEMCG_TEST(test_handle_over_high_table),
		TB_MEMCG_TEST(test_high_write_drains_the_stock_before_reclaiming),
		TB_MEMCG_TEST(test_max_write_reclaims_down_to_the_new_limit),
		TB_MEMCG_TEST(test_high_write_asks_for_the_excess_only),
		TB_MEMCG_TEST(test_high_write_retries_as_long_as_reclaim_frees),
		TB_MEMCG_TEST(test_max_write_asks_for_the_excess),
		TB_MEMCG_TEST(test_max_write_without_a_victim_gives_up_after_one_oom),
		TB_MEMCG_TEST(test_reclaim_progress_no_sleep),
		TB_MEMCG_TEST(test_reclaim_under_high_no_sleep),
		TB_MEMCG_TEST(test_high_of_zero_reclaimed_to_zero_no_sleep),
		TB_MEMCG_TEST(test_parent_high),
		TB_MEMCG_TEST(test_max_overage_over_ancestors),
		TB_MEMCG_TEST(test_ancestor_at_its_high_is_not_reclaimed),
		TB_MEMCG_TEST(test_reclaim_progress_outlasts_the_retries),
		TB_MEMCG_TEST(test_over_high_reclaim_is_a_memstall),
		TB_MEMCG_TEST(test_swap_high),
		TB_MEMCG_TEST(test_memory_and_swap_penalties_add),
		TB_MEMCG_TEST(test_sync_handle_when_blocking),
		TB_MEMCG_TEST(test_atomic_charge_defers_to_user_return),
		TB_MEMCG_TEST(test_memalloc_charge_defers_to_user_return),
		TB_MEMCG_TEST(test_dying_task_not_throttled),
		TB_MEMCG_TEST(test_killed_task_not_throttled),
		TB_MEMCG_TEST(test_high_of_one_page),
		TB_MEMCG_TEST(test_high_work_from_irq),
		TB_MEMCG_TEST(test_child_overage_larger_than_parent),
		TB_MEMCG_TEST(test_penalty_floor_is_inclusive),
		TB_MEMCG_TEST(test_reclaim_progress_retries_beyond_the_count),
		TB_MEMCG_TEST(test_swap_at_swap_high_does_not_flag),
		TB_MEMCG_TEST(test_high_work_from_irq_only_the_first_memcg_over_high),
	};

	return TB_RUN(tests);
}
