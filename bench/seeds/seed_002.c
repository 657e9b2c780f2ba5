// SPDX-License-Identifier: GPL-2.0-only
/*
 * Seed 002 (the multi-gen LRU's memcg LRU vs mem_cgroup_iter) on the real
 * 6.12 mm/vmscan.c, by Yu Zhao's method for the memcg LRU: 128 memcgs,
 * each a task doing random reads and writes over a mapping of its own
 * (fio --ioengine=mmap --filename=/dev/zero --rw=randrw --rate=64m,64m
 * --random_distribution=random) at that fixed virtual rate; after a
 * warm-up, rounds of "write N to the root's memory.reclaim, sleep 6 s",
 * no global pressure (RAM holds every mapping). fio's shared mapping of
 * /dev/zero is shmem: swap-backed, on the anon LRU, swapped out and
 * refaulted from swap. The world has no shmem, so each task maps private
 * anonymous memory: the same LRU, swap-out and refault path. One variant
 * per run:
 *   lru    MGLRU on, 6.12's memcg LRU (the real shrink_many())
 *   iter   MGLRU on, the seed's mem_cgroup_iter walk (mm/variants/)
 *   off    MGLRU off: the classic LRU's shrink_node_memcgs()
 * Sizes are the seed's divided by the scale: each mapping 1920 MiB / scale,
 * each write 256 MiB / scale, the accesses per 6-s round (64 MiB/s of
 * 4 KiB reads and as many writes) too; swap holds every mapping.
 * Prints one JSON object (tools/seeds/seed_002.py).
 *
 * usage: seed_002 [--nodes N] [--swap disk|zram] [--disk-write-us N] [--cpu-log FILE]
 *        [--stat-log FILE] [--populate seq|scattered]
 *        VARIANT [scale [rounds [warmup_rounds [memcgs [accesses_per_round]]]]]
 *
 * --nodes N (1..8, default 1): the seed's machine had 4 nodes. The RAM is
 * split evenly over them, the 4 CPUs in blocks, and memcg i's task runs on
 * CPU i mod 4, so its pages come from that CPU's node first; the root's
 * memory.reclaim is written from CPU 0 (node 0's zonelist walks every
 * node from node 0 on). What each node gave back per write is counted from
 * its free pages (no other task runs meanwhile).
 *
 * --swap disk (default) or zram: the swap device. A disk's writes complete
 * later, as the seed's machine's and the real-kernel guest's did: a folio
 * reclaim wrote is freed by a later pass, after its write, so a call
 * reaches further memcgs; on zram it is freed by the pass that wrote it.
 * --disk-write-us N: the disk's write latency (default the world's 20 us).
 *
 * --cpu-log FILE: where the host's CPU time goes (the process's, so on a
 * busy host it is the run's own): setup (boot and the first pass), per
 * round the root's memory.reclaim write and the round of accesses, and
 * teardown, one line each. Nothing in the results depends on it.
 *
 * --stat-log FILE: per round, after its accesses, the root's memory.stat
 * counters, swap in use and the multi-gen LRU's state summed over its
 * lruvecs (debugfs lru_gen_full: generations, seqs, the aging walks' pte
 * and pmd counts), one line of "name value" pairs (log_stats()). Nothing
 * in the results depends on it either.
 *
 * --populate seq (default) or scattered: the warm-up's first pass writes
 * each mapping in address order, so that a memcg's pages sit in the
 * memmap in the order of its page tables and of its LRU lists; scattered
 * writes it in a stride permutation (page i * s mod size, s coprime with
 * the size), so that the aging walk, in address order, reads struct pages
 * out of memmap order from the start. What the host's caches then do
 * with the multi-gen LRU's struct page reads is the point (see
 * docs/benchmarks.md, seed 002); the figures differ from seq's.
 *
 * With "kswapd VARIANT NR_MEMCGS PAGES ROUNDS" it runs the objection's
 * experiment instead: global pressure over many small memcgs, kswapd
 * reclaiming, and reports kswapd's pages reclaimed per second of its CPU
 * time (the host's thread CPU clock around the world's reclaim work).
 */
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/memcontrol.h>
#include <linux/delay.h>
#include <linux/vmstat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <time.h>
#include <kshim/testbed.h>
#include <kshim/memcg_tb.h>
#include <kshim/mem_tb.h>
#include <kshim/variants.h>

#define MIB (1024UL * 1024)
#define ROUND_MS 6000

/*
 * accesses drawn ahead of the touch, their ptes prefetched
 * (tb_touch_prefetch): at full size 16 hid more of the misses than 8, 12
 * or 32 (CPU per round of accesses ~0.59 s at 8, ~0.48 s at 16)
 */
#define AHEAD 16

struct worker {
	char cgroup[16];
	struct tb_task *task;
	struct tb_vma *vma;
	u64 rng;
	long long steal0, refault0;
	/* the task's next AHEAD accesses, in order from head (kept across rounds) */
	unsigned long ahead[AHEAD];
	bool ahead_write[AHEAD];
	unsigned int head;
	bool primed;
};

#define NR_CPUS_SEED 4

static struct {
	const char *variant;
	unsigned long scale, rounds, warmup, memcgs, file_pages, request_pages, accesses;
	u64 file_pages_m;	/* mod_u32()'s multiplier for file_pages */
	unsigned int nodes;
	bool swap_disk;
	unsigned long disk_write_us;	/* 0: the world's default latency */
	bool populate_scattered;	/* --populate scattered */
	const char *cmdline;		/* --cmdline: the kernel command line's options */
	unsigned long populate_stride;	/* 1, or coprime with file_pages */
} cfg = { .scale = 64, .rounds = 60, .warmup = 2, .memcgs = 128, .nodes = 1, .swap_disk = true };

/* pages each node gave back to the root's memory.reclaim writes, summed */
static unsigned long node_reclaimed[8];

static FILE *cpu_log;	/* --cpu-log */
static FILE *stat_log;	/* --stat-log */
static double cpu_mark;

/* seconds of the process's CPU time since the last mark, and a new mark */
static double cpu_lap(void)
{
	struct timespec t;
	double now, lap;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	now = t.tv_sec + t.tv_nsec / 1e9;
	lap = now - cpu_mark;
	cpu_mark = now;
	return lap;
}

static void die(const char *what, long err)
{
	fprintf(stderr, "seed_002: %s failed (%ld)\n", what, err);
	exit(1);
}

/* xorshift64*'s upper half: the task's own random numbers, the same for every variant */
static u32 next_random(struct worker *w)
{
	w->rng ^= w->rng >> 12;
	w->rng ^= w->rng << 25;
	w->rng ^= w->rng >> 27;
	return w->rng * 0x2545F4914F6CDD1DULL >> 32;
}

/*
 * a % d for 32-bit a and d, m = U64_MAX / d + 1: exact for every a and d
 * (Lemire, Kaser and Kurz, "Faster remainder by direct computation",
 * 2019), two multiplications where a 64-bit division was a good part of
 * an access's cost at full size
 */
static u32 mod_u32(u32 a, u64 m, u32 d)
{
	return ((unsigned __int128)(m * a) * d) >> 64;
}

/* MGLRU on for lru and iter, as an administrator does after boot */
static void switch_lru_gen(const char *v)
{
	long err;

	if (!strcmp(v, "off"))
		return;
	err = tb_sysfs_write("kernel/mm/lru_gen/enabled", "y");
	if (err != 1)
		die("lru_gen/enabled", err);
}

/* the row's walk from here on, its visits counted from zero */
static void start_measuring(void)
{
	tb_variant_memcg_iter(strcmp(cfg.variant, "iter") ? TB_MEMCG_ITER_OFF :
			      TB_MEMCG_ITER_FIXED);
}

/* the row to run, or false after one line on stderr */
static bool set_variant(const char *v)
{
	cfg.variant = v;
	if (!strcmp(v, "lru") || !strcmp(v, "iter") || !strcmp(v, "off"))
		return true;
	fprintf(stderr, "seed_002: variant %s: give lru, iter or off\n", v);
	return false;
}

/* ram_pages in all, split over nodes nodes */
static void boot(unsigned long ram_pages, unsigned long swap_pages, bool kswapd,
		 unsigned int nodes)
{
	struct kshim_world_config w = { .nr_cpus = NR_CPUS_SEED, .nr_nodes = nodes, .seed = 2 };
	struct tb_mem_config m = {
		.ram_pages = DIV_ROUND_UP(ram_pages, nodes), .swap_pages = swap_pages,
		.no_kswapd = !kswapd, .swap_disk = cfg.swap_disk,
	};
	long err;

	kshim_world_boot(&w);
	if (cfg.cmdline && (err = tb_boot_cmdline(cfg.cmdline)))
		die(cfg.cmdline, err);
	if ((err = tb_memcg_boot()) || (err = tb_mem_boot(&m)))
		die("boot", err);
	if (cfg.disk_write_us) {
		struct tb_mem_costs c;

		tb_mem_get_costs(&c);
		c.swapout_ns = cfg.disk_write_us * 1000;
		tb_mem_set_costs(&c);
	}
	tb_variant_memcg_iter(TB_MEMCG_ITER_OFF);
	switch_lru_gen(cfg.variant);
}

static void start(struct worker *w, int i, unsigned long pages)
{
	int err;

	snprintf(w->cgroup, sizeof(w->cgroup), "test%d", i);
	if ((err = tb_cgroup_mkdir(w->cgroup)))
		die("mkdir", err);
	w->task = tb_task_spawn(w->cgroup, &err);
	if (!w->task)
		die("spawn", err);
	tb_task_set_cpu(w->task, i % NR_CPUS_SEED);
	tb_task_switch(w->task);
	w->vma = tb_map_anon(pages);
	if (!w->vma)
		die("map", -ENOMEM);
	tb_task_switch(NULL);
	w->rng = 0x9E3779B97F4A7C15ULL * (i + 1);
}

static void draw(struct worker *w, unsigned int slot)
{
	w->ahead[slot] = mod_u32(next_random(w), cfg.file_pages_m, cfg.file_pages);
	w->ahead_write[slot] = next_random(w) % 2;
}

/*
 * The task's next access: the same sequence as drawing each one when it
 * is made, but drawn AHEAD accesses early so that the host fetches its
 * pte meanwhile (a hit's cost is that cache miss, at full size)
 */
static unsigned long next_access(struct worker *w, bool *write)
{
	unsigned int slot = w->head, i;
	unsigned long idx;

	if (!w->primed) {
		for (i = 0; i < AHEAD; i++)
			draw(w, i);
		w->primed = true;
	}
	idx = w->ahead[slot];
	*write = w->ahead_write[slot];
	draw(w, slot);
	tb_touch_prefetch(w->vma, w->ahead[slot]);
	w->head = (slot + 1) % AHEAD;
	return idx;
}

/* n random accesses, half writes, then sleep until the world's round ends */
static void work(struct worker *w, unsigned long n, u64 until_ns)
{
	unsigned long i, idx;
	bool write;
	u64 now;
	int err;

	tb_task_switch(w->task);
	for (i = 0; i < n; i++) {
		idx = next_access(w, &write);
		err = tb_touch(w->vma, idx, write);
		if (err)
			die("touch", err);
	}
	now = tb_task_vclock_ns(w->task);
	if (now < until_ns)
		msleep((until_ns - now) / 1000000);
	tb_task_switch(NULL);
}

/*
 * the warm-up's first pass: every page written once, in address order
 * (or, --populate scattered, in a stride permutation of it)
 */
static void populate(struct worker *w)
{
	unsigned long i;
	int err;

	tb_task_switch(w->task);
	for (i = 0; i < cfg.file_pages; i++)
		if ((err = tb_touch(w->vma, i * cfg.populate_stride % cfg.file_pages, true)))
			die("touch", err);
	tb_task_switch(NULL);
}

static long long stat_of(struct worker *w, const char *key)
{
	return tb_cgroup_read_key(w->cgroup, "memory.stat", key);
}

/*
 * --stat-log: one line per round, after its accesses, of counters that
 * only grow or describe the state (read after the run, differenced per
 * round): the root's memory.stat, swap slots in use, writes in flight,
 * and from debugfs lru_gen_full, summed over every lruvec: generations
 * (max_seq - min_seq[anon] + 1), max_seq (one more per aging), min_seq
 * (one more per generation evicted), the pages of the oldest anon
 * generation, and the aging walks' mm stats (leaf ptes visited, young,
 * pmds found in and added to the Bloom filter; cumulative without
 * CONFIG_LRU_GEN_STATS); and how far the memmap's order survives: of the
 * resident pages, those whose pfn follows the previous page's in the
 * mapping (pfn_follows), and of the folios on the anon generation lists,
 * those whose pfn is next to their predecessor's (lru_pfn_adjacent),
 * both over the first 8 memcgs
 */
#define LAYOUT_MEMCGS 8UL

static const char *const stat_keys[] = {
	"anon", "swapcached", "pgscan", "pgsteal", "workingset_refault_anon",
	"workingset_activate_anon", "workingset_restore_anon",
	"pgactivate", "pgdeactivate", "pgrefill", "pgmajfault",
};

/* line's blank-separated fields, at most max (the kernel's sscanf has no %*s) */
static unsigned int split(char *line, char **t, unsigned int max)
{
	unsigned int n = 0;
	char *save;

	for (t[n] = strtok_r(line, " ", &save); t[n] && ++n < max; )
		t[n] = strtok_r(NULL, " ", &save);
	return n;
}

static void log_stats(unsigned long round, struct worker *ws)
{
	static char *buf;
	const size_t size = 64 << 20;
	unsigned long resident = 0, contig = 0, lruvecs = 0, gens = 0, max_sum = 0, min_sum = 0;
	unsigned long oldest = 0;
	unsigned long mm[4] = { 0 }, seq, last = 0, first_anon = 0;
	bool have = false, anon_seen = false;
	char *line, *save, *t[8];
	unsigned int i, nt;

	if (!buf && !(buf = malloc(size)))
		die("malloc", -ENOMEM);
	fprintf(stat_log, "round %lu", round);
	for (i = 0; i < ARRAY_SIZE(stat_keys); i++)
		fprintf(stat_log, " %s %lld", stat_keys[i],
			tb_cgroup_read_key("", "memory.stat", stat_keys[i]));
	fprintf(stat_log, " swap_used %lu inflight %lu", tb_swap_used(), tb_writeback_inflight());
	if (tb_debugfs_read("lru_gen_full", buf, size) < 0)
		die("lru_gen_full", 0);
	/* per lruvec: " node N", then per seq a line "seq age anon[x] file[x]" */
	for (line = strtok_r(buf, "\n", &save); ; line = strtok_r(NULL, "\n", &save)) {
		if (!line || !strncmp(line, " node", 5) || !strncmp(line, "memcg", 5)) {
			if (have) {
				lruvecs++;
				gens += last - first_anon + 1;
				max_sum += last;
				min_sum += first_anon;
			}
			have = false;
			if (!line)
				break;
			continue;
		}
		nt = split(line, t, ARRAY_SIZE(t));
		if (nt == 4 && strchr("TYFAx", t[0][strlen(t[0]) - 1])) {
			/* the mm line: counts at max_seq only */
			for (i = 0; i < 4; i++)
				mm[i] += strtoul(t[i], NULL, 10);
			continue;
		}
		/* a seq line "seq age anon[x] file[x]"; tier lines have 7 fields */
		if (nt != 4)
			continue;
		seq = strtoul(t[0], NULL, 10);
		if (!have)
			anon_seen = false;
		if (!anon_seen && t[2][strlen(t[2]) - 1] != 'x') {
			first_anon = seq;
			oldest += strtoul(t[2], NULL, 10);
			anon_seen = true;
		}
		last = seq;
		have = true;
	}
	/*
	 * resident pages whose pfn follows the previous resident page's: the
	 * memmap's order (over the first LAYOUT_MEMCGS memcgs, a sample: the
	 * lists' walk misses the host's caches at every folio)
	 */
	for (i = 0; i < min(cfg.memcgs, LAYOUT_MEMCGS); i++) {
		unsigned long idx, prev = 0, pfn;
		struct folio *f;

		for (idx = 0; idx < cfg.file_pages; idx++) {
			f = tb_vma_folio(ws[i].vma, idx);
			if (!f)
				continue;
			pfn = folio_pfn(f);
			resident++;
			contig += pfn == prev + 1;
			prev = pfn;
		}
	}
	fprintf(stat_log, " resident %lu pfn_follows %lu", resident, contig);
	/* the same along the multi-gen LRU's anon lists, the order eviction reads them in */
	contig = resident = 0;
	for (i = 0; i < min(cfg.memcgs, LAYOUT_MEMCGS); i++) {
		struct mem_cgroup *memcg = tb_memcg(ws[i].cgroup);
		unsigned int nid, gen, zone;
		struct lruvec *lruvec;
		struct folio *f;

		for (nid = 0; nid < cfg.nodes; nid++) {
			lruvec = mem_cgroup_lruvec(memcg, NODE_DATA(nid));
			spin_lock_irq(&lruvec->lru_lock);
			for (gen = 0; gen < MAX_NR_GENS; gen++)
				for (zone = 0; zone < MAX_NR_ZONES; zone++) {
					unsigned long prev = 0, pfn;

					list_for_each_entry(f, &lruvec->lrugen.folios[gen][LRU_GEN_ANON][zone], lru) {
						pfn = folio_pfn(f);
						resident++;
						contig += pfn == prev + 1 || pfn + 1 == prev;
						prev = pfn;
					}
				}
			spin_unlock_irq(&lruvec->lru_lock);
		}
	}
	fprintf(stat_log, " lru_folios %lu lru_pfn_adjacent %lu", resident, contig);
	fprintf(stat_log, " lruvecs %lu gens %lu max_seq %lu min_seq %lu oldest_anon %lu "
		"walk_leaf %lu walk_young %lu pmd_found %lu pmd_added %lu\n",
		lruvecs, gens, max_sum, min_sum, oldest, mm[0], mm[1], mm[2], mm[3]);
}

static void round_of_work(struct worker *ws, struct tb_task *ctl)
{
	u64 until = tb_task_vclock_ns(ctl);
	unsigned long i;

	for (i = 0; i < cfg.memcgs; i++)
		work(&ws[i], cfg.accesses, until);
}

/* echo N > memory.reclaim of the root, then sleep 6 s */
static int reclaim_round(struct tb_task *ctl, const char *req)
{
	unsigned long before[8];
	unsigned int nid;
	ssize_t ret;

	tb_task_switch(ctl);
	for (nid = 0; nid < cfg.nodes; nid++)
		before[nid] = tb_free_pages(nid);
	ret = tb_cgroup_write_str("", "memory.reclaim", req);
	for (nid = 0; nid < cfg.nodes; nid++)
		node_reclaimed[nid] += tb_free_pages(nid) - before[nid];
	msleep(ROUND_MS);
	tb_task_switch(NULL);
	if (ret < 0 && ret != -EAGAIN)
		die("memory.reclaim", ret);
	return ret < 0;
}

static void teardown(void)
{
	const char *msg;

	if (cpu_log)
		cpu_lap();
	msg = tb_mem_teardown();
	if (cpu_log)
		fprintf(cpu_log, "teardown %.3f\n", cpu_lap());

	if (!msg)
		msg = kshim_world_check();
	if (msg)
		die(msg, 0);
	kshim_world_teardown();
}

static void print_list(const char *key, struct worker *ws, const char *stat, bool steal)
{
	unsigned long i;

	printf("\"%s\": [", key);
	for (i = 0; i < cfg.memcgs; i++)
		printf("%s%lld", i ? ", " : "",
		       stat_of(&ws[i], stat) - (steal ? ws[i].steal0 : ws[i].refault0));
	printf("]");
}

static void run_fairness(void)
{
	struct worker *ws = calloc(cfg.memcgs, sizeof(*ws));
	unsigned long i, eagain = 0, calls0, asked0, freed0, pswpout0, rotated0;
	struct tb_task *ctl;
	char req[32];
	int err;

	if (!ws)
		die("calloc", -ENOMEM);
	/* every mapping fits, with room above the watermarks: no global pressure */
	boot(cfg.memcgs * cfg.file_pages + cfg.memcgs * cfg.file_pages / 4 + 16384,
	     min(cfg.memcgs * cfg.file_pages, 64UL << (30 - PAGE_SHIFT)), false, cfg.nodes);
	ctl = tb_task_spawn("", &err);
	if (!ctl)
		die("spawn", err);
	for (i = 0; i < cfg.memcgs; i++)
		start(&ws[i], i, cfg.file_pages);
	for (i = 0; i < cfg.memcgs; i++)
		populate(&ws[i]);
	if (cpu_log)
		fprintf(cpu_log, "setup %.3f\n", cpu_lap());
	for (i = 0; i < cfg.warmup; i++) {
		tb_task_switch(ctl);
		msleep(ROUND_MS);
		tb_task_switch(NULL);
		round_of_work(ws, ctl);
	}
	for (i = 0; i < cfg.memcgs; i++) {
		ws[i].steal0 = stat_of(&ws[i], "pgsteal");
		ws[i].refault0 = stat_of(&ws[i], "workingset_refault_anon");
	}
	start_measuring();
	calls0 = tb_reclaim_calls();
	pswpout0 = kshim_vm_event_read(PSWPOUT);
	rotated0 = kshim_vm_event_read(PGROTATED);
	asked0 = tb_reclaim_asked();
	freed0 = tb_reclaim_freed();
	snprintf(req, sizeof(req), "%lu", cfg.request_pages * PAGE_SIZE);
	if (cpu_log)
		fprintf(cpu_log, "warmup %.3f\n", cpu_lap());
	for (i = 0; i < cfg.rounds; i++) {
		eagain += reclaim_round(ctl, req);
		if (cpu_log)
			fprintf(cpu_log, "round %lu reclaim %.3f", i, cpu_lap());
		round_of_work(ws, ctl);
		if (cpu_log)
			fprintf(cpu_log, " accesses %.3f\n", cpu_lap());
		if (stat_log) {
			log_stats(i, ws);
			if (cpu_log)
				cpu_lap();	/* not a round's */
		}
		/* a full-size run takes minutes: where it is, on stderr */
		if (cfg.rounds >= 100 && (i + 1) % 50 == 0)
			fprintf(stderr, "seed_002: round %lu of %lu\n", i + 1, cfg.rounds);
	}
	printf("{\"variant\": \"%s\", \"scale\": %lu, \"rounds\": %lu, \"warmup_rounds\": %lu, "
	       "\"memcgs\": %lu, \"file_pages\": %lu, \"request_pages\": %lu, "
	       "\"accesses_per_round\": %lu, \"eagain\": %lu, \"visits\": %lu, ",
	       cfg.variant, cfg.scale, cfg.rounds, cfg.warmup, cfg.memcgs, cfg.file_pages,
	       cfg.request_pages, cfg.accesses, eagain, tb_variant_memcg_iter_visits());
	/* pages written, and written pages rotated for a later pass to free */
	printf("\"swap\": \"%s\", \"pswpout\": %lu, \"pgrotated\": %lu, ",
	       cfg.swap_disk ? "disk" : "zram", kshim_vm_event_read(PSWPOUT) - pswpout0,
	       kshim_vm_event_read(PGROTATED) - rotated0);
	printf("\"nodes\": %u, \"reclaim_calls\": %lu, \"reclaim_asked\": %lu, "
	       "\"reclaim_freed\": %lu, \"node_reclaimed\": [",
	       cfg.nodes, tb_reclaim_calls() - calls0, tb_reclaim_asked() - asked0,
	       tb_reclaim_freed() - freed0);
	for (i = 0; i < cfg.nodes; i++)
		printf("%s%lu", i ? ", " : "", node_reclaimed[i]);
	printf("], ");
	print_list("pgsteal", ws, "pgsteal", true);
	printf(", ");
	print_list("refaults", ws, "workingset_refault_anon", false);
	printf("}\n");
	free(ws);
	teardown();
}

/*
 * The objection's experiment: many memcgs, each a task streaming through a
 * file of its own with read() (clean page cache, as dd), twice the RAM in
 * all, so kswapd reclaims; what its reclaim costs per page it frees.
 */
static struct {
	unsigned long memcgs, pages, passes;
} kcfg = { .memcgs = 1024, .pages = 256, .passes = 4 };

struct reader {
	char cgroup[24];
	struct tb_task *task;
	struct tb_file *file;
	long long steal0;
};

static void read_chunk(struct reader *r, unsigned long from, unsigned long n)
{
	unsigned long i;
	int err;

	tb_task_switch(r->task);
	/* one CPU for the readers: a turn starts when the last one ended */
	if (tb_world_ns() > tb_task_vclock_ns(r->task) + 1000000)
		msleep((tb_world_ns() - tb_task_vclock_ns(r->task)) / 1000000);
	for (i = from; i < from + n && i < kcfg.pages; i++)
		if ((err = tb_file_read(r->file, i)))
			die("read", err);
	tb_task_switch(NULL);
}

static long long sum_stat(struct reader *rs, const char *key)
{
	long long n = 0;
	unsigned long i;

	for (i = 0; i < kcfg.memcgs; i++)
		n += tb_cgroup_read_key(rs[i].cgroup, "memory.stat", key);
	return n;
}

static void run_kswapd(void)
{
	struct reader *rs = calloc(kcfg.memcgs, sizeof(*rs));
	unsigned long i, p, off;
	u64 cpu0;
	int err;

	if (!rs)
		die("calloc", -ENOMEM);
	boot(kcfg.memcgs * kcfg.pages / 2 + 8192, 0, true, 1);
	for (i = 0; i < kcfg.memcgs; i++) {
		snprintf(rs[i].cgroup, sizeof(rs[i].cgroup), "r%lu", i);
		if ((err = tb_cgroup_mkdir(rs[i].cgroup)))
			die("mkdir", err);
		rs[i].task = tb_task_spawn(rs[i].cgroup, &err);
		if (!rs[i].task)
			die("spawn", err);
		rs[i].file = tb_file_create(kcfg.pages);
		if (!rs[i].file)
			die("file", -ENOMEM);
	}
	start_measuring();
	cpu0 = tb_kswapd_cpu_ns(0);
	/* the readers take turns of 32 pages, as concurrent dd's would interleave */
	for (p = 0; p < kcfg.passes; p++)
		for (off = 0; off < kcfg.pages; off += 32)
			for (i = 0; i < kcfg.memcgs; i++)
				read_chunk(&rs[i], off, 32);
	printf("{\"variant\": \"%s\", \"memcgs\": %lu, \"pages\": %lu, \"passes\": %lu, "
	       "\"kswapd_cpu_ns\": %llu, \"visits\": %lu, \"pgsteal_kswapd\": %lld, "
	       "\"pgsteal_direct\": %lld, \"pgscan_kswapd\": %lld, \"pgsteal\": [",
	       cfg.variant, kcfg.memcgs, kcfg.pages, kcfg.passes,
	       (unsigned long long)(tb_kswapd_cpu_ns(0) - cpu0), tb_variant_memcg_iter_visits(),
	       sum_stat(rs, "pgsteal_kswapd"), sum_stat(rs, "pgsteal_direct"),
	       sum_stat(rs, "pgscan_kswapd"));
	for (i = 0; i < kcfg.memcgs; i++)
		printf("%s%lld", i ? ", " : "",
		       tb_cgroup_read_key(rs[i].cgroup, "memory.stat", "pgsteal"));
	printf("]}\n");
	free(rs);
	teardown();
}

static int main_kswapd(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: seed_002 kswapd lru|iter|off [memcgs [pages [passes]]]\n");
		return 2;
	}
	if (!set_variant(argv[2]))
		return 2;
	if (argc > 3)
		kcfg.memcgs = strtoul(argv[3], NULL, 0);
	if (argc > 4)
		kcfg.pages = strtoul(argv[4], NULL, 0);
	if (argc > 5)
		kcfg.passes = strtoul(argv[5], NULL, 0);
	if (!kcfg.memcgs || kcfg.pages < 64 || !kcfg.passes) {
		fprintf(stderr, "seed_002: kswapd: memcgs, passes positive and pages >= 64\n");
		return 2;
	}
	kshim_thread_enter(0);
	run_kswapd();
	kshim_thread_exit();
	return 0;
}

/*
 * --nodes N, --swap disk|zram, --disk-write-us N, --cpu-log FILE; false
 * after one line on stderr
 */
static bool parse_option(const char *opt, const char *val)
{
	char *end;

	if (!strcmp(opt, "--nodes")) {
		cfg.nodes = strtoul(val, &end, 10);
		if (!*end && cfg.nodes >= 1 && cfg.nodes <= 8)
			return true;
		fprintf(stderr, "seed_002: --nodes wants 1 to 8 nodes, not '%s'\n", val);
		return false;
	}
	if (!strcmp(opt, "--disk-write-us")) {
		cfg.disk_write_us = strtoul(val, &end, 10);
		if (!*end && cfg.disk_write_us >= 1 && cfg.disk_write_us <= 1000000)
			return true;
		fprintf(stderr, "seed_002: --disk-write-us wants 1 to 1000000, not '%s'\n", val);
		return false;
	}
	if (!strcmp(opt, "--cpu-log")) {
		cpu_log = fopen(val, "w");
		/* line by line: a full-size run takes long enough to be watched */
		if (cpu_log && !setvbuf(cpu_log, NULL, _IOLBF, 0))
			return true;
		fprintf(stderr, "seed_002: --cpu-log %s: %s\n", val, strerror(errno));
		return false;
	}
	if (!strcmp(opt, "--stat-log")) {
		stat_log = fopen(val, "w");
		if (stat_log && !setvbuf(stat_log, NULL, _IOLBF, 0))
			return true;
		fprintf(stderr, "seed_002: --stat-log %s: %s\n", val, strerror(errno));
		return false;
	}
	if (!strcmp(opt, "--populate") && (!strcmp(val, "seq") || !strcmp(val, "scattered"))) {
		cfg.populate_scattered = !strcmp(val, "scattered");
		return true;
	}
	if (!strcmp(opt, "--cmdline")) {
		cfg.cmdline = val;
		return true;
	}
	if (!strcmp(opt, "--swap") && (!strcmp(val, "disk") || !strcmp(val, "zram"))) {
		cfg.swap_disk = !strcmp(val, "disk");
		return true;
	}
	fprintf(stderr, "seed_002: %s %s: give --nodes 1..8, --swap disk|zram, "
		"--disk-write-us 1..1000000, --cpu-log FILE, --stat-log FILE "
		"or --populate seq|scattered\n", opt, val);
	return false;
}

/* a and b have a common divisor above 1 */
static bool coprime_not(unsigned long a, unsigned long b)
{
	while (b) {
		unsigned long t = a % b;

		a = b;
		b = t;
	}
	return a != 1;
}

int main(int argc, char **argv)
{
	while (argc > 2 && !strncmp(argv[1], "--", 2)) {
		if (!parse_option(argv[1], argv[2]))
			return 2;
		argc -= 2;
		argv += 2;
	}
	if (argc > 1 && !strcmp(argv[1], "kswapd"))
		return main_kswapd(argc, argv);
	if (argc < 2) {
		fprintf(stderr, "usage: seed_002 [--nodes N] [--swap disk|zram] [--disk-write-us N] "
			"[--cpu-log FILE] [--stat-log FILE] [--populate seq|scattered] "
			"[--cmdline OPTIONS]\n"
			"       lru|iter|off [scale [rounds [warmup [memcgs [accesses]]]]]\n");
		return 2;
	}
	if (!set_variant(argv[1]))
		return 2;
	if (argc > 2)
		cfg.scale = strtoul(argv[2], NULL, 0);
	if (argc > 3)
		cfg.rounds = strtoul(argv[3], NULL, 0);
	if (argc > 4)
		cfg.warmup = strtoul(argv[4], NULL, 0);
	if (argc > 5)
		cfg.memcgs = strtoul(argv[5], NULL, 0);
	if (!cfg.scale || cfg.scale > 1024 || !cfg.memcgs) {
		fprintf(stderr, "seed_002: give a scale 1..1024 and memcgs > 0\n");
		return 2;
	}
	cfg.file_pages = 1920 * MIB / PAGE_SIZE / cfg.scale;
	cfg.file_pages_m = U64_MAX / cfg.file_pages + 1;
	/* an odd stride near 0.618 of the mapping, coprime with its size */
	cfg.populate_stride = 1;
	if (cfg.populate_scattered && cfg.file_pages > 2) {
		cfg.populate_stride = cfg.file_pages * 618 / 1000 | 1;
		while (coprime_not(cfg.populate_stride, cfg.file_pages))
			cfg.populate_stride += 2;
	}
	cfg.request_pages = 256 * MIB / PAGE_SIZE / cfg.scale;
	/* fio --rate=64m,64m: 128 MiB/s of 4 KiB accesses for 6 s, scaled */
	cfg.accesses = argc > 6 ? strtoul(argv[6], NULL, 0) :
		128 * MIB / PAGE_SIZE * (ROUND_MS / 1000) / cfg.scale;
	kshim_thread_enter(0);
	run_fairness();
	kshim_thread_exit();
	if (cpu_log)
		fclose(cpu_log);
	if (stat_log)
		fclose(stat_log);
	return 0;
}
