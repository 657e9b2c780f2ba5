// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz target "reclaim": the real 6.12 mm/vmscan.c, mm/swap.c,
 * mm/workingset.c and mm/memcontrol.c over the simulated memory of
 * kernel-shim/world/ (kshim/mem_tb.h): tasks in cgroups fault anonymous
 * and file pages in, read and write files through the page cache, and
 * kswapd, direct reclaim, memcg reclaim (limits, memory.reclaim) and
 * the OOM killer take them back.
 *
 * Input: four boot bytes, then operations.
 *   byte 0: RAM per node, 1024 + (b % 13) * 256 pages (4 to 16 MiB)
 *   byte 1: bits 0-1 swap (0, 256, 1024, 8192 pages), bit 2 two nodes,
 *           bit 3 no kswapd, bit 4 cgroup.memory=nokmem, bit 5
 *           cgroup.memory=nosocket, bit 6 the memory_recursiveprot and
 *           bit 7 the memory_localevents mount option (cgroup_disable=
 *           memory is left out: the invariants read memcg files)
 *   byte 2: vm.swappiness b % 201, 255: not given (60)
 *   byte 3: low nibble vm.min_free_kbytes (0: the kernel's formula, else
 *           64 KiB steps), high nibble vm.watermark_scale_factor (table)
 * Each operation is an op byte (op % 16) and its arguments:
 *   0 mkdir, 1 rmdir ("a", "b", "a/c"; not while a task of the harness
 *   is in it, as the kernel refuses a populated cgroup), 2 write canned
 *   text, 3 write raw input bytes to memory.{max,high,low,min,swap.max,
 *   reclaim,swap.high,oom.group} of a cgroup or the root (any -errno is
 *   fine, a success returns the length), 4 spawn a task in a cgroup and
 *   switch to it, 5 switch to a task (or none), 6 exit a task, 7 map
 *   anon memory, 8 map a file, 9 touch a range of a vma (as its task;
 *   forwards, backwards, scattered or twice; read or write; -ENOMEM is
 *   an OOM kill), 10 read / 11 write file pages through the page cache,
 *   12 unmap, 13 move the harness to another CPU, 14 memory.reclaim of
 *   a canned amount, 15 touch one page of each vma.
 * Every input is bounded: MAX_OPS operations, MAX_TOUCHES page accesses.
 *
 * Checked after every operation (OOM victims exit first, as they would):
 * - tb_mem_check(): every evictable LRU list holds what its counters say;
 * - per cgroup, memory.stat flushed: anon + file <= memory.current <=
 *   anon + file + swapcached + stock + slack (see check_memcg());
 * - the same over the whole RAM: pages in use against the root's stats;
 * - swap: max(swap ptes, swap cache) <= tb_swap_used() <= swap ptes +
 *   swap cache and <= the device; each memory.swap.current <= used;
 * - each vma: resident + swapped <= its size.
 * At the end every task and file goes and the world must be empty: all
 * pages free, no swap slot, no leak, no unexpected WARN.
 */
#include <linux/memcontrol.h>
#include <linux/mmzone.h>
#include <linux/swap.h>
#include <linux/workqueue.h>
#include <kshim/memcg_tb.h>
#include <kshim/mem_tb.h>
#include <kshim/testbed.h>
#include <stdarg.h>

#define NR_CPUS_FZ 4		/* kswapd runs on the last one */
#define NR_TASKS 4
#define NR_VMAS 16
#define NR_FILES 3
#define MAX_OPS 256
#define MAX_TOUCHES 20000
#define STAT_BUF 16384

static const char *const paths[] = { "", "a", "b", "a/c" };
#define NR_PATHS ((int)ARRAY_SIZE(paths))
/* parent index of each path; the root (0) has none */
static const int parent_of[] = { -1, 0, 0, 1 };

static const char *const files[] = {
	"memory.max", "memory.high", "memory.low", "memory.min",
	"memory.swap.max", "memory.reclaim", "memory.swap.high", "memory.oom.group",
};

static const char *const canned[] = {
	"max", "0", "4096", "64K", "512K", "1M", "2M", "3M", "4M", "8M", "16M",
	"-1", "abc", "max\n", "1M swappiness=0", "2M swappiness=200",
	"512K swappiness=60", "1\n", " 1M ", "18446744073709551615",
};

static const char *const reclaim_amounts[] = {
	"64K", "256K", "1M", "2M", "4M", "8M", "1M swappiness=0", "1M swappiness=200",
};

static const unsigned long swap_sizes[] = { 0, 256, 1024, 8192 };
static const int wsf[] = { 0, 1, 5, 10, 30, 50, 100, 200, 300, 500, 1000, 2000, 3000, 10, 10, 10 };
static const unsigned long file_pages[NR_FILES] = { 16, 256, 1536 };

struct fz_task {
	struct tb_task *t;	/* NULL: slot free */
	int path;
};

struct fz_vma {
	struct tb_vma *v;	/* NULL: slot free */
	int task;
	unsigned long size;
	bool file;
};

struct fz {
	struct tb_mem_config mem;
	int nr_nodes;
	bool exists[NR_PATHS];
	struct fz_task task[NR_TASKS];
	struct fz_vma vma[NR_VMAS];
	struct tb_file *file[NR_FILES];
	int cur;		/* the task switched in, -1: none */
	int cpu;
	unsigned long touches;
	const u8 *data;
	size_t size, pos, op;
	char *buf;
};

static size_t cur_op;
static bool trace;

static void __printf(1, 2) fz_fail(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "fuzz_reclaim: op %zu: ", cur_op);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

#define CHECK(cond) do { if (!(cond)) fz_fail("%s failed", #cond); } while (0)

static u8 next(struct fz *f)
{
	return f->pos < f->size ? f->data[f->pos++] : 0;
}

/* ---- tasks ---- */
static void switch_to(struct fz *f, int i)
{
	tb_task_switch(i >= 0 ? f->task[i].t : NULL);
	f->cur = i;
}

static void forget_vmas(struct fz *f, int task)
{
	int i;

	for (i = 0; i < NR_VMAS; i++)
		if (f->vma[i].v && f->vma[i].task == task)
			f->vma[i].v = NULL;
}

static void task_exit(struct fz *f, int i)
{
	tb_task_exit(f->task[i].t);	/* unmaps its vmas, switches out if current */
	f->task[i].t = NULL;
	forget_vmas(f, i);
	if (f->cur == i)
		f->cur = -1;
}

static bool path_busy(struct fz *f, int p)
{
	int i;

	for (i = 0; i < NR_TASKS; i++)
		if (f->task[i].t && f->task[i].path == p)
			return true;
	return false;
}

static bool has_child(struct fz *f, int p)
{
	int i;

	for (i = 1; i < NR_PATHS; i++)
		if (parent_of[i] == p && f->exists[i])
			return true;
	return false;
}

static void op_mkdir(struct fz *f, u8 a)
{
	int i = 1 + a % (NR_PATHS - 1), ret;

	ret = tb_cgroup_mkdir(paths[i]);
	if (f->exists[i])
		CHECK(ret == -EEXIST);
	else if (!f->exists[parent_of[i]])
		CHECK(ret == -ENOENT);
	else
		CHECK(ret == 0);
	if (!ret)
		f->exists[i] = true;
}

static void op_rmdir(struct fz *f, u8 a)
{
	int i = 1 + a % (NR_PATHS - 1), ret;

	if (path_busy(f, i))
		return;
	ret = tb_cgroup_rmdir(paths[i]);
	if (!f->exists[i])
		CHECK(ret == -ENOENT);
	else if (has_child(f, i))
		CHECK(ret == -EBUSY);
	else
		CHECK(ret == 0);
	if (!ret)
		f->exists[i] = false;
	/* offlining goes on in works and RCU callbacks: let it finish */
	kshim_rcu_quiesce();
}

static void op_spawn(struct fz *f, u8 a)
{
	int p = a % NR_PATHS, i, err;
	struct tb_task *t;

	for (i = 0; i < NR_TASKS && f->task[i].t; i++)
		;
	if (i == NR_TASKS)
		return;
	t = tb_task_spawn(paths[p], &err);
	if (!f->exists[p]) {
		CHECK(!t && err == -ENOENT);
		return;
	}
	CHECK(t && !err);
	f->task[i].t = t;
	f->task[i].path = p;
	switch_to(f, i);
}

static void op_exit(struct fz *f, u8 a)
{
	int i = a % NR_TASKS;

	if (f->task[i].t)
		task_exit(f, i);
}

/* ---- control files ---- */
static void op_write(struct fz *f, u8 a, u8 b, const char *text, size_t len)
{
	int p = a % NR_PATHS;
	ssize_t ret;

	ret = tb_cgroup_write(paths[p], files[b % ARRAY_SIZE(files)], text, len);
	/* the handler's own -errno for junk, a limit it could not reach, ... */
	CHECK(ret == (ssize_t)len || (ret < 0 && ret >= -MAX_ERRNO));
	if (!f->exists[p])
		CHECK(ret < 0);
}

static void op_write_canned(struct fz *f)
{
	u8 a = next(f), b = next(f);
	const char *s = canned[next(f) % ARRAY_SIZE(canned)];

	op_write(f, a, b, s, strlen(s));
}

static void op_write_raw(struct fz *f)
{
	u8 a = next(f), b = next(f);
	size_t len = next(f) % 24, i;
	char buf[24];

	for (i = 0; i < len; i++)
		buf[i] = next(f);
	op_write(f, a, b, buf, len);
}

static void op_reclaim(struct fz *f)
{
	u8 a = next(f);
	const char *s = reclaim_amounts[(a >> 2) % ARRAY_SIZE(reclaim_amounts)];

	op_write(f, a, 5, s, strlen(s));
}

/* ---- address spaces ---- */
static int free_vma_slot(struct fz *f)
{
	int i;

	for (i = 0; i < NR_VMAS; i++)
		if (!f->vma[i].v)
			return i;
	return -1;
}

static void add_vma(struct fz *f, struct tb_vma *v, unsigned long size, bool file)
{
	int i = free_vma_slot(f);

	CHECK(v);
	f->vma[i] = (struct fz_vma){ .v = v, .task = f->cur, .size = size, .file = file };
}

/* b & 0x80: 8 to 1024 pages in steps of 8, else 1 to 128 */
static void op_map_anon(struct fz *f, u8 b)
{
	unsigned long size = b & 0x80 ? ((b & 0x7f) + 1) * 8UL : b + 1UL;

	if (f->cur < 0 || free_vma_slot(f) < 0)
		return;
	add_vma(f, tb_map_anon(size), size, false);
}

static void op_map_file(struct fz *f, u8 b)
{
	int k = b % NR_FILES;

	if (f->cur < 0 || free_vma_slot(f) < 0)
		return;
	add_vma(f, tb_map_file(f->file[k]), file_pages[k], true);
}

static struct fz_vma *pick_vma(struct fz *f, u8 a)
{
	int i, k = a % NR_VMAS;

	for (i = 0; i < NR_VMAS; i++, k = (k + 1) % NR_VMAS)
		if (f->vma[k].v)
			return &f->vma[k];
	return NULL;
}

static bool budget(struct fz *f)
{
	return f->touches++ < MAX_TOUCHES;
}

/* one access by the vma's task: 0, or -ENOMEM (it or the faulting task was killed) */
static void touch_one(struct fz *f, struct fz_vma *vma, unsigned long idx, bool write)
{
	int ret;

	if (vma->task != f->cur)
		switch_to(f, vma->task);
	/* file mappings are read-only in the world */
	ret = tb_touch(vma->v, idx % vma->size, write && !vma->file);
	if (ret && ret != -ENOMEM)
		fz_fail("tb_touch: %d", ret);
}

/*
 * mode: bit 0 write, bits 1-2 the pattern: forwards, backwards, scattered
 * (a PRNG seeded by the mode byte), forwards twice
 */
static void op_touch(struct fz *f)
{
	struct fz_vma *vma = pick_vma(f, next(f));
	unsigned long start = next(f), count = next(f) + 1UL, i, idx;
	u8 mode = next(f);
	u32 x = mode * 2654435761u;
	bool write = mode & 1;

	if (!vma)
		return;
	start = (start << 2) % vma->size;
	if (((mode >> 1) & 3) == 3)
		count *= 2;
	for (i = 0; i < count && budget(f); i++) {
		switch ((mode >> 1) & 3) {
		case 1:
			idx = start + vma->size - i % vma->size;
			break;
		case 2:
			x = x * 1103515245u + 12345u;
			idx = x >> 8;
			break;
		default:
			idx = start + i;
		}
		touch_one(f, vma, idx, write);
		/* an OOM victim stops touching */
		if (tb_task_oom_killed())
			break;
	}
}

static void op_touch_each(struct fz *f, u8 a)
{
	int i;

	for (i = 0; i < NR_VMAS; i++)
		if (f->vma[i].v && budget(f))
			touch_one(f, &f->vma[i], a * (i + 1), a & 1);
}

/* read or write() pages of a file as the current task (or none: the root) */
static void op_file_io(struct fz *f, bool write)
{
	u8 a = next(f);
	struct tb_file *file = f->file[a % NR_FILES];
	unsigned long size = file_pages[a % NR_FILES];
	unsigned long start = (next(f) << 8 | next(f)) % size;
	unsigned long count = next(f) + 1UL, i;
	int ret;

	for (i = 0; i < count && start + i < size && budget(f); i++) {
		ret = write ? tb_file_write(file, start + i) : tb_file_read(file, start + i);
		/* -ENOMEM: no page (OOM); -EINTR: the reader was killed */
		if (ret == -EINTR)
			break;
		if (ret && ret != -ENOMEM)
			fz_fail("tb_file_%s: %d", write ? "write" : "read", ret);
	}
}

static void op_unmap(struct fz *f, u8 a)
{
	struct fz_vma *vma = pick_vma(f, a);

	if (!vma)
		return;
	if (vma->task != f->cur)
		switch_to(f, vma->task);
	tb_unmap(vma->v);
	vma->v = NULL;
}

/*
 * The folio batches of a CPU hold references: an unmapped folio whose last
 * reference is a batch's stays charged, counted in no memory.stat item,
 * until its CPU drains. Every unmap drains the CPU it runs on, so the
 * harness drains the one it leaves: such a folio then never outlives an
 * operation (see check_memcg()).
 */
static void op_cpu(struct fz *f, u8 a)
{
	lru_add_drain();
	f->cpu = a % (NR_CPUS_FZ - 1);
	kshim_cpu_switch(f->cpu);
}

static void run_op(struct fz *f)
{
	u8 op = next(f);

	switch (op % 16) {
	case 0: op_mkdir(f, next(f)); break;
	case 1: op_rmdir(f, next(f)); break;
	case 2: op_write_canned(f); break;
	case 3: op_write_raw(f); break;
	case 4: op_spawn(f, next(f)); break;
	case 5: {
		u8 a = next(f) % (NR_TASKS + 1);

		switch_to(f, a < NR_TASKS && f->task[a].t ? a : -1);
		break;
	}
	case 6: op_exit(f, next(f)); break;
	case 7: op_map_anon(f, next(f)); break;
	case 8: op_map_file(f, next(f)); break;
	case 9: op_touch(f); break;
	case 10: op_file_io(f, false); break;
	case 11: op_file_io(f, true); break;
	case 12: op_unmap(f, next(f)); break;
	case 13: op_cpu(f, next(f)); break;
	case 14: op_reclaim(f); break;
	case 15: op_touch_each(f, next(f)); break;
	}
}

/* ---- invariants ---- */
struct mstat {
	long long anon, file, swapcached;
};

static long long stat_key(const char *buf, const char *key)
{
	size_t klen = strlen(key);
	const char *line;

	for (line = buf; line; line = strchr(line, '\n')) {
		line += *line == '\n';
		if (!strncmp(line, key, klen) && line[klen] == ' ')
			return strtoll(line + klen + 1, NULL, 10);
	}
	fz_fail("memory.stat has no \"%s\"", key);
	return -1;
}

/* memory.stat of path, every CPU's counters flushed first; bytes */
static void read_stat(struct fz *f, int p, struct mstat *st)
{
	ssize_t n;

	tb_memcg_flush_stats(tb_memcg(paths[p]));
	n = tb_cgroup_read(paths[p], "memory.stat", f->buf, STAT_BUF);
	if (n < 0)
		fz_fail("memory.stat of \"%s\": %zd", paths[p], n);
	st->anon = stat_key(f->buf, "anon");
	st->file = stat_key(f->buf, "file");
	st->swapcached = stat_key(f->buf, "swapcached");
	CHECK(st->anon >= 0 && st->file >= 0 && st->swapcached >= 0);
}

/* pages the per-CPU stocks hold charged to memcg's subtree */
static unsigned long stock_pages(struct mem_cgroup *memcg)
{
	unsigned long sum = 0;
	int cpu;

	for (cpu = 0; cpu < NR_CPUS_FZ; cpu++) {
		struct mem_cgroup *cached;
		unsigned int n = tb_stock_pages(cpu, &cached);

		if (cached && mem_cgroup_is_descendant(cached, memcg))
			sum += n;
	}
	return sum;
}

/*
 * Pages charged and counted in no memory.stat item while an operation is
 * over. Direct and memcg reclaim finish within the operation; kswapd runs
 * on its own CPU and may be preempted anywhere (cond_resched()), in
 * particular in shrink_folio_list() with folios already taken out of the
 * page cache or swap cache (__remove_mapping) and waiting on free_folios
 * for mem_cgroup_uncharge_folios(): at most the SWAP_CLUSTER_MAX folios it
 * isolated, per kswapd. Nothing else is charged in this world: no kmem
 * (objcg) charges, no shmem, no sockets; a folio whose last reference is
 * a per-CPU folio batch cannot outlive an operation (op_cpu()).
 */
static unsigned long kswapd_slack(struct fz *f)
{
	return f->mem.no_kswapd ? 0 : SWAP_CLUSTER_MAX * f->nr_nodes;
}

/*
 * memory.stat's "anon" is NR_ANON_MAPPED, "file" NR_FILE_PAGES of the
 * page cache (the swap cache is counted in the node's NR_FILE_PAGES only)
 * and "swapcached" NR_SWAPCACHE. A folio read back from swap stays in the
 * swap cache while mapped (should_try_to_free_swap()): it is both "anon"
 * and "swapcached", so anon + file + swapcached may exceed memory.current
 * by those folios. What holds is:
 *   anon + file <= current                (every such folio is charged)
 *   current <= anon + file + swapcached + stock + slack
 * (a charged folio is mapped anon, page cache, or an unmapped anon folio
 * in the swap cache; the rest of the charge is stock or kswapd's slack).
 */
static void check_memcg(struct fz *f, int p)
{
	struct mem_cgroup *memcg = tb_memcg(paths[p]);
	long long cur, swap, used = tb_swap_used() * PAGE_SIZE;
	unsigned long stock = stock_pages(memcg), slack = kswapd_slack(f);
	struct mstat st;

	read_stat(f, p, &st);
	cur = tb_cgroup_read_u64(paths[p], "memory.current");
	swap = tb_cgroup_read_u64(paths[p], "memory.swap.current");
	if (trace)
		fprintf(stderr, "  %-4s current %lld anon %lld file %lld swapcached %lld stock %lu swap %lld\n",
			paths[p], cur, st.anon, st.file, st.swapcached, stock, swap);
	CHECK(cur >= 0 && swap >= 0);
	if (st.anon + st.file > cur)
		fz_fail("\"%s\": anon %lld + file %lld > memory.current %lld",
			paths[p], st.anon, st.file, cur);
	if (cur > st.anon + st.file + st.swapcached + (long long)(stock + slack) * PAGE_SIZE)
		fz_fail("\"%s\": memory.current %lld > anon %lld + file %lld + swapcached %lld + stock %lu + slack %lu pages",
			paths[p], cur, st.anon, st.file, st.swapcached, stock, slack);
	/* a slot is charged to one memcg at most, from allocation to free */
	if (swap > used)
		fz_fail("\"%s\": memory.swap.current %lld > swap used %lld", paths[p], swap, used);
}

/*
 * The whole RAM: the root's memory.stat counts every folio of the world
 * (a root task's too), so the pages not free are bounded the same way.
 */
static void check_ram(struct fz *f)
{
	unsigned long used = 0, slack = kswapd_slack(f);
	struct mstat st;
	long long anon, file, sc;
	int nid;

	for (nid = 0; nid < f->nr_nodes; nid++)
		used += f->mem.ram_pages - tb_free_pages(nid);
	read_stat(f, 0, &st);
	anon = st.anon / PAGE_SIZE;
	file = st.file / PAGE_SIZE;
	sc = st.swapcached / PAGE_SIZE;
	if (trace)
		fprintf(stderr, "  RAM used %lu anon %lld file %lld swapcached %lld swap %lu\n",
			used, anon, file, sc, tb_swap_used());
	if (anon + file > (long long)used)
		fz_fail("RAM: anon %lld + file %lld > %lu pages in use", anon, file, used);
	if ((long long)used > anon + file + sc + (long long)slack)
		fz_fail("RAM: %lu pages in use > anon %lld + file %lld + swapcached %lld + slack %lu",
			used, anon, file, sc, slack);
}

/*
 * A swap slot is in use while a pte holds its entry or a folio is in the
 * swap cache at it (swap_map: pte count | SWAP_HAS_CACHE). An anon folio
 * has one mapping (no fork here), so each swap pte holds its own slot; a
 * swap cache folio's slot may also have a pte (unmapped by reclaim, not
 * yet freed). tb_swap_used() is thus the swap ptes plus the swap cache
 * slots no pte holds, which the API does not show one by one:
 *   max(swap ptes, swap cache) <= used <= swap ptes + swap cache
 * where the swap cache is the root's "swapcached" (every swap cache folio
 * is charged, to the root at least).
 */
static void check_swap(struct fz *f)
{
	unsigned long ptes = 0, used = tb_swap_used(), sc;
	struct mstat st;
	int i;

	for (i = 0; i < NR_VMAS; i++) {
		struct fz_vma *vma = &f->vma[i];
		unsigned long res, swp;

		if (!vma->v)
			continue;
		res = tb_vma_resident(vma->v);
		swp = tb_vma_swapped(vma->v);
		if (res + swp > vma->size)
			fz_fail("vma %d: %lu resident + %lu swapped > %lu pages", i, res, swp, vma->size);
		if (vma->file && swp)
			fz_fail("file vma %d: %lu pages swapped", i, swp);
		ptes += swp;
	}
	read_stat(f, 0, &st);
	sc = st.swapcached / PAGE_SIZE;
	if (used > f->mem.swap_pages)
		fz_fail("swap: %lu slots used of %lu", used, f->mem.swap_pages);
	if (used < ptes || used < sc || used > ptes + sc)
		fz_fail("swap: %lu slots used, %lu swap ptes, %lu in the swap cache", used, ptes, sc);
}

/* an OOM victim dies: its task exits (its memory was reaped already) */
static void exit_victims(struct fz *f)
{
	int cur = f->cur, i;

	for (i = 0; i < NR_TASKS; i++) {
		if (!f->task[i].t)
			continue;
		switch_to(f, i);
		if (tb_task_oom_killed()) {
			task_exit(f, i);
			if (cur == i)
				cur = -1;
		}
	}
	switch_to(f, cur);
}

static void check_invariants(struct fz *f)
{
	const char *msg;
	int p;

	exit_victims(f);
	/* works drain_all_stock() and high_work queued run first */
	flush_workqueue(system_wq);
	msg = tb_mem_check();
	if (msg)
		fz_fail("tb_mem_check: %s", msg);
	if (trace)
		fprintf(stderr, "fuzz_reclaim: op %zu (%u) touches %lu\n", f->op,
			f->data[f->pos ? f->pos - 1 : 0], f->touches);
	for (p = 1; p < NR_PATHS; p++)
		if (f->exists[p])
			check_memcg(f, p);
	check_ram(f);
	check_swap(f);
}

/* ---- boot and teardown ---- */
/* the kernel command line's cgroup.memory= options of byte 1 */
static void boot_options(u8 b1)
{
	static const char *const opts[] = {
		NULL, "cgroup.memory=nokmem", "cgroup.memory=nosocket",
		"cgroup.memory=nokmem,nosocket",
	};
	const char *cmdline = opts[(b1 >> 4) & 3];

	if (cmdline)
		CHECK(tb_boot_cmdline(cmdline) == 0);
}

/* the cgroup2 mount options of byte 1 */
static void mount_options(u8 b1)
{
	if (b1 & 0x40)
		CHECK(tb_cgroup_mount_options("memory_recursiveprot") == 0);
	if (b1 & 0x80)
		CHECK(tb_cgroup_mount_options("memory_localevents") == 0);
}

static void boot(struct fz *f)
{
	struct kshim_world_config cfg = { .nr_cpus = NR_CPUS_FZ, .seed = 1 };
	u8 b0 = next(f), b1 = next(f), b2 = next(f), b3 = next(f);
	int i, err;

	f->mem.ram_pages = 1024 + (b0 % 13) * 256;
	f->mem.swap_pages = swap_sizes[b1 & 3];
	f->nr_nodes = b1 & 4 ? 2 : 1;
	f->mem.no_kswapd = b1 & 8;
	f->mem.swappiness_set = b2 != 255;
	f->mem.swappiness = f->mem.swappiness_set ? b2 % 201 : 0;
	f->mem.min_free_kbytes = (b3 & 15) * 64;
	f->mem.watermark_scale_factor = wsf[b3 >> 4];
	cfg.nr_nodes = f->nr_nodes;
	kshim_world_boot(&cfg);
	boot_options(b1);
	CHECK(tb_memcg_boot() == 0);
	mount_options(b1);
	err = tb_mem_boot(&f->mem);
	if (err)
		fz_fail("tb_mem_boot: %d", err);
	f->exists[0] = true;
	f->cur = -1;
	for (i = 0; i < NR_FILES; i++) {
		f->file[i] = tb_file_create(file_pages[i]);
		CHECK(f->file[i]);
	}
}

static void teardown(struct fz *f)
{
	const char *msg;

	msg = tb_mem_teardown();
	if (msg)
		fz_fail("at teardown: %s", msg);
	msg = kshim_world_check();
	if (msg)
		fz_fail("world check: %s", msg);
	kshim_world_teardown();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz *f = calloc(1, sizeof(*f));

	CHECK(f);
	f->buf = malloc(STAT_BUF);
	CHECK(f->buf);
	trace = getenv("FUZZ_RECLAIM_TRACE");
	f->data = data;
	f->size = size;
	cur_op = 0;
	boot(f);
	for (f->op = 0; f->pos < f->size && f->op < MAX_OPS; f->op++) {
		cur_op = f->op;
		run_op(f);
		check_invariants(f);
	}
	cur_op = f->op;
	teardown(f);
	free(f->buf);
	free(f);
	return 0;
}
