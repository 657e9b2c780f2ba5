// SPDX-License-Identifier: GPL-2.0-only
/*
 * The kernel side of bench_reclaim: reclaim throughput of the real 6.12
 * mm/vmscan.c (with mm/swap.c, mm/workingset.c and mm/memcontrol.c) over
 * the simulated world, single thread.
 *
 * A world of 256 MiB RAM (65536 pages, one node, 2 CPUs, no kswapd) with
 * cgroup "b" and a task in it holding nr_pages of one kind:
 *  - RB_FILE: a file of nr_pages read once through the page cache (clean,
 *    inactive, unmapped);
 *  - RB_ANON: nr_pages of anonymous memory written once, with a 256 MiB
 *    swap device (synchronous, as zram: a page is written when
 *    swap_writepage() returns).
 * With mglru set, the multi-gen LRU is switched on (the caps "y" written to
 * /sys/kernel/mm/lru_gen/enabled, the kernel's enabled_store()) right after
 * boot, before any page is faulted: the same write then reclaims through
 * lru_gen_shrink_lruvec() (aging by the page-table walk, evict_folios()).
 * What is measured is one write of nr_pages' worth of bytes to
 * b/memory.reclaim (memory_reclaim() -> try_to_free_mem_cgroup_pages()
 * -> shrink_node() ... shrink_folio_list()): its wall time, its
 * instructions when the machine counts them, and the pages it reclaimed
 * (the memcg's memory.stat pgsteal delta; pgscan for the pages it
 * looked at). Refilling the memcg (reading
 * the file again, a refault; touching the anon pages again, a swap-in)
 * and the rstat flushes that read pgsteal are not timed.
 */
#include <linux/kernel.h>
#include <linux/errno.h>
#include <linux/mm.h>
#include <linux/mm_inline.h>
#include <kshim/testbed.h>
#include <kshim/memcg_tb.h>
#include <kshim/mem_tb.h>
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "reclaim_ops.h"

#define RB_CGROUP	"b"
#define RB_RAM_PAGES	65536UL		/* 256 MiB */
#define RB_SWAP_PAGES	65536UL		/* 256 MiB */

static enum rb_kind kind;
static unsigned long nr;
static struct tb_file *file;
static struct tb_vma *vma;
static int insn_fd = -1;
static int insn_probed;

static void insn_open(void)
{
	struct perf_event_attr attr;

	if (insn_probed)
		return;
	insn_probed = 1;
	memset(&attr, 0, sizeof(attr));
	attr.type = PERF_TYPE_HARDWARE;
	attr.size = sizeof(attr);
	attr.config = PERF_COUNT_HW_INSTRUCTIONS;
	attr.disabled = 1;
	/* the whole test bed runs in user space; the host kernel is noise */
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	insn_fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
	if (insn_fd >= 0 && ioctl(insn_fd, PERF_EVENT_IOC_ENABLE, 0)) {
		close(insn_fd);
		insn_fd = -1;
	}
}

int rb_insn_available(void)
{
	insn_open();
	return insn_fd >= 0;
}

static long long insn_read(void)
{
	long long v;

	if (insn_fd < 0 || read(insn_fd, &v, sizeof(v)) != sizeof(v))
		return -1;
	return v;
}

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int rb_refill(void)
{
	unsigned long i;
	int err;

	for (i = 0; i < nr; i++) {
		err = kind == RB_FILE ? tb_file_read(file, i) : tb_touch(vma, i, true);
		if (err) {
			fprintf(stderr, "bench_reclaim: refill of page %lu: %d\n", i, err);
			return -1;
		}
	}
	return 0;
}

int rb_setup(enum rb_kind k, unsigned long nr_pages, int mglru)
{
	struct kshim_world_config cfg = { .nr_cpus = 2, .nr_nodes = 1, .seed = 1 };
	struct tb_mem_config mem = {
		.ram_pages = RB_RAM_PAGES,
		.swap_pages = k == RB_ANON ? RB_SWAP_PAGES : 0,
		.no_kswapd = true,
	};
	struct tb_task *task;
	int err;

	kind = k;
	nr = nr_pages;
	insn_open();
	kshim_world_boot(&cfg);
	if (tb_memcg_boot() || tb_mem_boot(&mem)) {
		fprintf(stderr, "bench_reclaim: tb_memcg_boot/tb_mem_boot failed\n");
		return -1;
	}
	if (mglru && (tb_sysfs_write("kernel/mm/lru_gen/enabled", "y") != 1 ||
		      !lru_gen_enabled())) {
		fprintf(stderr, "bench_reclaim: writing y to lru_gen/enabled failed\n");
		return -1;
	}
	if (tb_cgroup_mkdir(RB_CGROUP)) {
		fprintf(stderr, "bench_reclaim: mkdir %s failed\n", RB_CGROUP);
		return -1;
	}
	task = tb_task_spawn(RB_CGROUP, &err);
	if (!task) {
		fprintf(stderr, "bench_reclaim: tb_task_spawn: %d\n", err);
		return -1;
	}
	tb_task_switch(task);
	if (kind == RB_FILE) {
		file = tb_file_create(nr);
		vma = NULL;
	} else {
		vma = tb_map_anon(nr);
		file = NULL;
	}
	if ((kind == RB_FILE && !file) || (kind == RB_ANON && !vma)) {
		fprintf(stderr, "bench_reclaim: no file/vma of %lu pages\n", nr);
		return -1;
	}
	return rb_refill();
}

int rb_teardown(void)
{
	const char *msg;

	msg = tb_mem_teardown();
	file = NULL;
	vma = NULL;
	if (msg)
		fprintf(stderr, "bench_reclaim: memory check: %s\n", msg);
	if (!msg) {
		msg = kshim_world_check();
		if (msg)
			fprintf(stderr, "bench_reclaim: world check: %s\n", msg);
	}
	kshim_world_teardown();
	return msg ? -1 : 0;
}

/* the memcg's pgsteal and pgscan, every CPU's counters flushed first */
static int read_stats(long long *steal, long long *scan)
{
	tb_memcg_flush_stats(tb_memcg(RB_CGROUP));
	*steal = tb_cgroup_read_key(RB_CGROUP, "memory.stat", "pgsteal");
	*scan = tb_cgroup_read_key(RB_CGROUP, "memory.stat", "pgscan");
	return *steal < 0 || *scan < 0 ? -1 : 0;
}

int rb_reclaim(struct rb_result *res)
{
	char bytes[32];
	long long steal0, steal1, scan0, scan1, i0, i1, t0, t1;
	ssize_t ret;

	snprintf(bytes, sizeof(bytes), "%lu", nr * PAGE_SIZE);
	if (read_stats(&steal0, &scan0))
		return -1;
	i0 = insn_read();
	t0 = now_ns();
	ret = tb_cgroup_write_str(RB_CGROUP, "memory.reclaim", bytes);
	t1 = now_ns();
	i1 = insn_read();
	if (read_stats(&steal1, &scan1) || steal1 < steal0 || scan1 < scan0)
		return -1;
	res->ns = t1 - t0;
	res->pages = steal1 - steal0;
	res->scanned = scan1 - scan0;
	res->insns = i0 >= 0 && i1 >= 0 ? i1 - i0 : -1;
	res->err = ret < 0 ? (int)ret : 0;
	return 0;
}

/*
 * The world's cost per access (not the kernel's): a resident hit, what
 * most of seed 002's accesses are. A world of nr_pages + 1/8 of RAM, one
 * task with nr_pages of anon written once; each iteration makes n touches
 * at random indices (xorshift64*, as bench/seeds/seed_002.c), half writes.
 */
static u64 touch_rng = 0x9E3779B97F4A7C15ULL;

int rb_touch_setup(unsigned long nr_pages)
{
	struct kshim_world_config cfg = { .nr_cpus = 2, .nr_nodes = 1, .seed = 1 };
	struct tb_mem_config mem = {
		.ram_pages = nr_pages + nr_pages / 8 + 16384, .no_kswapd = true,
	};
	struct tb_task *task;
	unsigned long i;
	int err;

	nr = nr_pages;
	insn_open();
	kshim_world_boot(&cfg);
	if (tb_memcg_boot() || tb_mem_boot(&mem) || tb_cgroup_mkdir(RB_CGROUP)) {
		fprintf(stderr, "bench_reclaim: touch world boot failed\n");
		return -1;
	}
	task = tb_task_spawn(RB_CGROUP, &err);
	if (!task)
		return -1;
	tb_task_switch(task);
	vma = tb_map_anon(nr);
	file = NULL;
	if (!vma)
		return -1;
	for (i = 0; i < nr; i++)
		if (tb_touch(vma, i, true))
			return -1;
	return 0;
}

static unsigned long touch_index(unsigned long n)
{
	touch_rng ^= touch_rng >> 12;
	touch_rng ^= touch_rng << 25;
	touch_rng ^= touch_rng >> 27;
	return (touch_rng * 0x2545F4914F6CDD1DULL >> 32) % n;
}

#define RB_AHEAD 8	/* touches drawn ahead, their ptes prefetched */

int rb_touch_random(unsigned long n, int prefetch, struct rb_result *res)
{
	unsigned long ring[RB_AHEAD], i;
	long long i0, t0;
	int err = 0;

	for (i = 0; i < RB_AHEAD; i++)
		ring[i] = touch_index(nr);
	i0 = insn_read();
	t0 = now_ns();
	for (i = 0; i < n && !err; i++) {
		unsigned long idx = ring[i % RB_AHEAD];

		ring[i % RB_AHEAD] = touch_index(nr);
		if (prefetch)
			tb_touch_prefetch(vma, ring[i % RB_AHEAD]);
		err = tb_touch(vma, idx, i & 1);
	}
	res->ns = now_ns() - t0;
	res->insns = i0 < 0 ? -1 : insn_read() - i0;
	res->pages = n;
	res->scanned = 0;
	res->err = err;
	return err ? -1 : 0;
}
