// SPDX-License-Identifier: GPL-2.0-only
/*
 * Seed 000 (memory.global_shrink_priority) on the real 6.12 mm/vmscan.c.
 * The seed's experiment: 2 CPUs, 1 GiB of RAM, 4 GiB of swap, cgroups t1
 * and t2 each running usemem (850 MiB + 8 bytes and 850 MiB of anonymous
 * memory, written once, then read again), t1's value 12 and t2's 12, 8, 6;
 * plus the control row, the real code without the variant, and the control
 * booted with transparent_hugepage=always (Debian's default). The two tasks
 * run in parallel in virtual time: the one whose clock is behind touches
 * its next page; a task exits when its read-again ends, as usemem does,
 * and its memory is freed. Prints one JSON object (tools/seeds/seed_000.py).
 *
 * usage: seed_000 [scale [reserved_mib [zram|disk]]]   (sizes divided by
 * scale, default 1; the MiB the rest of the VM holds, default 100; the swap
 * device, default zram: the oracle's VM swaps to a disk)
 */
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/memcontrol.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <kshim/testbed.h>
#include <kshim/memcg_tb.h>
#include <kshim/mem_tb.h>
#include <kshim/variants.h>

#define MIB (1024UL * 1024)
/* what the VM's kernel and other processes hold of its 1 GiB (not in the seed) */
static unsigned long reserved_mib = 100;
static bool swap_disk;

struct usemem {
	const char *cgroup;
	unsigned long pages, pos;
	int phase;			/* 0 write, 1 read again, 2 done */
	struct tb_task *task;
	struct tb_vma *vma;
	u64 phase_start, ns[2];
};

static void die(const char *what, long err)
{
	fprintf(stderr, "seed_000: %s failed (%ld)\n", what, err);
	exit(1);
}

static void boot(unsigned long scale, int t2_value, bool thp)
{
	struct kshim_world_config w = { .nr_cpus = 2, .seed = 1 };
	struct tb_mem_config m = {
		.ram_pages = (1024 * MIB / PAGE_SIZE) / scale,
		.swap_pages = (4096 * MIB / PAGE_SIZE) / scale,
		.reserved_pages = (reserved_mib * MIB / PAGE_SIZE) / scale,
		.swap_disk = swap_disk,
	};
	char val[16];
	long err;

	kshim_world_boot(&w);
	/* Debian's 6.12 boots with THP always: usemem's writes fault THPs */
	if (thp && (err = tb_boot_cmdline("transparent_hugepage=always")))
		die("transparent_hugepage=always", err);
	if ((err = tb_memcg_boot()) || (err = tb_mem_boot(&m)))
		die("boot", err);
	if ((err = tb_variant_global_shrink_priority(t2_value >= 0)))
		die("variant", err);
	if ((err = tb_cgroup_mkdir("t1")) || (err = tb_cgroup_mkdir("t2")))
		die("mkdir", err);
	if (t2_value >= 0) {
		snprintf(val, sizeof(val), "%d", t2_value);
		err = tb_cgroup_write_str("t2", "memory.global_shrink_priority", val);
		if (err < 0)
			die("memory.global_shrink_priority write", err);
	}
}

static void start(struct usemem *u)
{
	int err;

	u->task = tb_task_spawn(u->cgroup, &err);
	if (!u->task)
		die("spawn", err);
	tb_task_switch(u->task);
	u->vma = tb_map_anon(u->pages);
	if (!u->vma)
		die("map", -ENOMEM);
	tb_task_switch(NULL);
}

/* the task whose clock is behind runs next, as on two CPUs */
static struct usemem *next(struct usemem *u, int n)
{
	struct usemem *best = NULL;
	int i;

	for (i = 0; i < n; i++)
		if (u[i].phase < 2 && (!best || tb_task_vclock_ns(u[i].task) <
					       tb_task_vclock_ns(best->task)))
			best = &u[i];
	return best;
}

static void step(struct usemem *u)
{
	int err;

	tb_task_switch(u->task);
	err = tb_touch(u->vma, u->pos, u->phase == 0);
	if (err)
		die("touch", err);
	if (++u->pos == u->pages) {
		u64 now = tb_task_vclock_ns(u->task);

		u->ns[u->phase] = now - u->phase_start;
		u->phase_start = now;
		u->phase++;
		u->pos = 0;
	}
	tb_task_switch(NULL);
	/* usemem exits when its read-again ends: its memory goes back at once */
	if (u->phase == 2)
		tb_task_exit(u->task);
}

/* per priority 0..12: [pages scanned, LRU pages of the lruvecs scanned] */
static void print_scanned(const char *cgroup)
{
	struct mem_cgroup *memcg = tb_memcg(cgroup);
	unsigned long scanned, lru;
	int p;

	printf("\"%s\": [", cgroup);
	for (p = 0; p <= DEF_PRIORITY; p++) {
		scanned = tb_variant_global_shrink_scanned(memcg, p, &lru);
		printf("%s[%lu, %lu]", p ? ", " : "", scanned, lru);
	}
	printf("]");
}

/* memory.stat keys the oracle also reads on the real kernel (tools/tb oracle seed 000) */
static void print_stat(const char *cgroup)
{
	static const char *const keys[] = { "pgmajfault", "pgscan", "pgsteal",
					    "workingset_refault_anon" };
	unsigned int i;

	tb_memcg_flush_stats(tb_memcg(cgroup));
	printf("\"%s\": {", cgroup);
	for (i = 0; i < ARRAY_SIZE(keys); i++)
		printf("%s\"%s\": %lld", i ? ", " : "", keys[i],
		       tb_cgroup_read_key(cgroup, "memory.stat", keys[i]));
	printf("}");
}

static void run(unsigned long scale, int t2_value, bool thp, bool last)
{
	struct usemem u[2] = {
		/* usemem rounds 850 MiB + 8 bytes up to one more page */
		{ .cgroup = "t1", .pages = (850 * MIB / PAGE_SIZE) / scale + 1 },
		{ .cgroup = "t2", .pages = (850 * MIB / PAGE_SIZE) / scale },
	};
	struct usemem *cur;
	const char *msg;
	int i;

	boot(scale, t2_value, thp);
	for (i = 0; i < 2; i++)
		start(&u[i]);
	while ((cur = next(u, 2)))
		step(cur);

	printf("{\"t2_value\": %d, \"thp\": %s, \"tasks\": [", t2_value, thp ? "true" : "false");
	for (i = 0; i < 2; i++)
		printf("%s{\"cgroup\": \"%s\", \"bytes\": %lu, \"write_ns\": %llu, \"read_ns\": %llu}",
		       i ? ", " : "", u[i].cgroup, u[i].pages * PAGE_SIZE,
		       (unsigned long long)u[i].ns[0], (unsigned long long)u[i].ns[1]);
	printf("], \"scanned\": {");
	print_scanned("t1");
	printf(", ");
	print_scanned("t2");
	printf("}, \"stat\": {");
	print_stat("t1");
	printf(", ");
	print_stat("t2");
	printf("}, \"swapouts\": %lu}%s\n", tb_swap_used(), last ? "" : ",");

	msg = tb_mem_teardown();
	if (msg)
		die(msg, 0);
	msg = kshim_world_check();
	if (msg)
		die(msg, 0);
	kshim_world_teardown();
}

int main(int argc, char **argv)
{
	unsigned long scale = argc > 1 ? strtoul(argv[1], NULL, 10) : 1;

	/* t2's value (-1: the control, no variant), and THP always */
	static const struct {
		int value;
		bool thp;
	} rows[] = { { -1 }, { 12 }, { 8 }, { 6 }, { -1, true } };
	/* a tree without the world's THP (6.1) runs the first four */
	unsigned int i, n = ARRAY_SIZE(rows) - !TB_HAVE_thp_folio_split;

	if (argc > 2)
		reserved_mib = strtoul(argv[2], NULL, 10);
	if (argc > 3 && strcmp(argv[3], "disk") && strcmp(argv[3], "zram")) {
		fprintf(stderr, "seed_000: swap device %s: give zram or disk\n", argv[3]);
		return 2;
	}
	swap_disk = argc > 3 && !strcmp(argv[3], "disk");

	if (!scale || scale > 64) {
		fprintf(stderr, "seed_000: scale %s: give 1..64\n", argv[1]);
		return 2;
	}
	kshim_thread_enter(0);
	printf("{\"scale\": %lu, \"page_size\": %lu, \"rows\": [\n", scale, PAGE_SIZE);
	for (i = 0; i < n; i++)
		run(scale, rows[i].value, rows[i].thp, i + 1 == n);
	printf("]}\n");
	kshim_thread_exit();
	return 0;
}
