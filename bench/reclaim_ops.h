/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Plain C interface to the reclaim throughput fixture (reclaim_ops.c), so
 * the C++ benchmark code never sees a kernel header.
 */
#ifndef _BENCH_RECLAIM_OPS_H
#define _BENCH_RECLAIM_OPS_H
#ifdef __cplusplus
extern "C" {
#endif

enum rb_kind {
	RB_FILE = 0,	/* clean page cache read once */
	RB_ANON = 1,	/* dirty anonymous memory, to a swap device */
};

/*
 * A fresh world: 256 MiB of RAM, no kswapd, cgroup "b" with a task in it
 * holding nr_pages of the kind (a file read once, or anon written once;
 * RB_ANON also gets a swap device); mglru: the multi-gen LRU switched on
 * (lru_gen/enabled = y) before the first page. 0, or -1 (one line on stderr).
 */
int rb_setup(enum rb_kind kind, unsigned long nr_pages, int mglru);
/* every task and file gone, every page back, the world checked; 0 or -1 */
int rb_teardown(void);
/* untimed: read the file / write-touch the anon pages again; 0 or -1 */
int rb_refill(void);

struct rb_result {
	long long ns;		/* wall time of the memory.reclaim write only */
	unsigned long pages;	/* pages it reclaimed (memory.stat pgsteal delta) */
	unsigned long scanned;	/* pages it scanned (pgscan delta) */
	long long insns;	/* instructions retired in it, -1 if not counted */
	int err;		/* the write's error (-EAGAIN: fell short), or 0 */
};
/* write nr_pages' worth to b/memory.reclaim; 0, or -1 on a broken world */
int rb_reclaim(struct rb_result *res);

/*
 * The world's resident-hit cost: a world holding nr_pages of anon written
 * once by one task (rb_teardown() ends it); n touches at random indices
 * (drawn 8 ahead), half writes. res->pages = n, res->insns for the n touches.
 */
int rb_touch_setup(unsigned long nr_pages);
/* prefetch: each touch's pte prefetched 8 touches ahead (tb_touch_prefetch) */
int rb_touch_random(unsigned long n, int prefetch, struct rb_result *res);

/* instruction counter (perf_event_open, this thread, user space: all of
 * the test bed, the kernel code included); 0 if the machine has none */
int rb_insn_available(void);

#ifdef __cplusplus
}
#endif
#endif
