// SPDX-License-Identifier: GPL-2.0-only
/*
 * Seed 001 (memory.high allocator throttling) on the real memcontrol.c.
 * Prints one JSON object on stdout (tools/seeds/seed_001.py renders it):
 *
 *  penalty: high = 100M, usage 100M..120M; per step the raw
 *    calculate_high_delay() of one MEMCG_CHARGE_BATCH and what
 *    mem_cgroup_handle_over_high() really sleeps on return to user
 *    (virtual jiffies), with futile reclaim.
 *  mdf: the seed's experiment: memory.high = 100M, no swap, futile
 *    reclaim, a task touching 1 MB (256 pages, one page fault each) at a
 *    time and returning to user after each fault; virtual time per MB.
 */
#include <linux/kernel.h>
#include <linux/gfp.h>
#include <linux/memcontrol.h>
#include <stdio.h>
#include <stdlib.h>
#include <kshim/testbed.h>
#include <kshim/memcg_tb.h>

#define PAGES_PER_MB 256
#define BATCH MEMCG_CHARGE_BATCH

static void die(const char *what, long err)
{
	fprintf(stderr, "seed_001: %s failed (%ld)\n", what, err);
	exit(1);
}

static void charge(unsigned int nr_pages)
{
	int err;

	if (!tb_folio_charge(nr_pages, GFP_KERNEL, &err))
		die("charge", err);
}

static void set_high(const char *path, const char *val)
{
	long ret = tb_cgroup_write_str(path, "memory.high", val);

	if (ret < 0)
		die("memory.high write", ret);
}

/* usage mb MB, the last batch charged over high = 100M: penalty and sleep */
static void penalty_step(struct mem_cgroup *memcg, unsigned int mb, bool comma)
{
	unsigned long raw, slept, calls;

	set_high("p", "max");
	charge(mb * PAGES_PER_MB - BATCH);
	tb_drain_local_stock();
	set_high("p", "100M");
	charge(BATCH);
	raw = tb_calculate_high_delay(memcg, BATCH);
	slept = kshim_slept_jiffies();
	calls = tb_reclaim_calls();
	tb_task_return_to_user();
	slept = kshim_slept_jiffies() - slept;
	calls = tb_reclaim_calls() - calls;
	printf("%s{\"usage_mb\": %u, \"raw_jiffies\": %lu, \"slept_jiffies\": %lu, "
	       "\"reclaim_calls\": %lu}", comma ? ", " : "", mb, raw, slept, calls);
	tb_task_uncharge_pages(ULONG_MAX);
	tb_drain_local_stock();
}

static void penalty_table(void)
{
	unsigned int mb;

	if (tb_cgroup_mkdir("p") || tb_task_enter("p"))
		die("penalty set-up", 0);
	printf("\"penalty\": [");
	for (mb = 100; mb <= 120; mb++)
		penalty_step(tb_memcg("p"), mb, mb > 100);
	printf("]");
	tb_task_leave();
	tb_cgroup_rmdir("p");
}

static void mdf(unsigned int max_mb)
{
	unsigned int mb, i;
	unsigned long t;

	if (tb_cgroup_mkdir("m") || tb_task_enter("m"))
		die("mdf set-up", 0);
	set_high("m", "100M");
	printf("\"mdf\": [");
	for (mb = 1; mb <= max_mb; mb++) {
		t = kshim_slept_jiffies();
		for (i = 0; i < PAGES_PER_MB; i++) {
			charge(1);
			tb_task_return_to_user();
		}
		t = kshim_slept_jiffies() - t;
		printf("%s{\"mb\": %u, \"throttle_us\": %lu}", mb > 1 ? ", " : "", mb,
		       (unsigned long)jiffies_to_usecs(t));
	}
	printf("]");
	tb_task_leave();
	tb_cgroup_rmdir("m");
}

int main(int argc, char **argv)
{
	unsigned int max_mb = argc > 1 ? atoi(argv[1]) : 120;
	const char *err;

	kshim_world_boot(NULL);
	if (tb_memcg_boot())
		die("tb_memcg_boot", 0);
	tb_reclaim_script(TB_RECLAIM_NOTHING, 0);
	printf("{\"hz\": %d, \"charge_batch\": %d, ", HZ, BATCH);
	penalty_table();
	printf(", ");
	mdf(max_mb);
	printf("}\n");
	tb_memcg_shutdown();
	err = kshim_world_check();
	kshim_world_teardown();
	if (err) {
		fprintf(stderr, "seed_001: world check: %s\n", err);
		return 1;
	}
	return 0;
}
