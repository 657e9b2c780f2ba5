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
 *   byte 0: RAM per node, 1024 + (b % 13) * 256 pages (4 to 16 MiB);
 *           the swap device a disk when (b / 13) & 4, else zram;
 *           transparent huge pages from q = b / 13 (0 in every input
 *           written before THP: off): q & 3 the PMD size's enabled,
 *           never, always, madvise, or always with defrag "always"
 *           (a THP fault reclaims and compacts); q >> 3 the anonymous
 *           mTHP sizes, none, 64K always, or 16K always and 128K
 *           inherit (see thp_boot())
 *   byte 1: bits 0-1 swap (0, 256, 1024, 8192 pages), bit 2 two nodes,
 *           bit 3 no kswapd, bit 4 cgroup.memory=nokmem, bit 5
 *           cgroup.memory=nosocket, bit 6 the memory_recursiveprot and
 *           bit 7 the memory_localevents mount option (cgroup_disable=
 *           memory is left out: the invariants read memcg files)
 *   byte 2: vm.swappiness b % 201, 255: not given (60)
 *   byte 3: low nibble vm.min_free_kbytes (0: the kernel's formula, else
 *           64 KiB steps), high nibble vm.watermark_scale_factor (table)
 * Each operation is an op byte and its arguments; below 0xc0, op % 16:
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
 *   a canned amount, 15 touch one page of each vma;
 * 0xb0 to 0xbf (op bytes no input used before THP), transparent huge
 *   pages: below 0xbc an even op madvise()s a vma (MADV_HUGEPAGE,
 *   MADV_NOHUGEPAGE, MADV_COLD, MADV_PAGEOUT, MADV_FREE, MADV_WILLNEED), an
 *   odd one writes a canned value to a file of
 *   /sys/kernel/mm/transparent_hugepage (enabled, defrag,
 *   khugepaged/max_ptes_none: 0 makes every THP with a zero-filled page
 *   "underused" for the deferred split shrinker, the mTHP sizes'
 *   enabled), its length or -EINVAL checked; 0xbc MADV_DONTNEED a part
 *   of an anonymous vma (a large folio left mapped in part goes on the
 *   deferred split queue), 0xbe MADV_COLD, MADV_PAGEOUT, MADV_FREE or
 *   MADV_WILLNEED a part (by an argument byte: the kernel's walks split a
 *   large folio the part covers in part), 0xbd and 0xbf MADV_COLLAPSE a
 *   part (khugepaged's collapse of the PMD ranges it covers);
 * 0xc0 and above, the multi-gen LRU's interface, (op - 0xc0) % 8:
 *   0 write a canned value to /sys/kernel/mm/lru_gen/enabled ("y", "n",
 *   caps such as "0x0007" or "0x0001", junk: -EINVAL), 1 raw bytes to it,
 *   2 a canned value / 3 raw bytes to lru_gen/min_ttl_ms, 4 an aging
 *   command "+ memcg_id node_id seq [can_swap [force_scan]]" and 5 an
 *   eviction command "- memcg_id node_id seq [swappiness [nr_to_reclaim]]"
 *   to debugfs lru_gen, built from argument bytes (a real or unknown memcg
 *   id, a node with or without memory, seq around min_seq and max_seq, the
 *   optional fields, junk, a bad command letter), 6 raw bytes to debugfs
 *   lru_gen, 7 read debugfs lru_gen or lru_gen_full and the two sysfs
 *   files. A write gets its length or the handler's own error: the
 *   harness predicts which (lru_gen_seq_write()'s -EINVAL and -ERANGE
 *   from the state before the command; enabled_store() and
 *   min_ttl_ms_store() with kstrtouint()) and checks it, and that enabled
 *   reads back the caps written.
 * Every input is bounded: MAX_OPS operations, MAX_TOUCHES page accesses.
 *
 * Checked after every operation (OOM victims exit first, as they would):
 * - tb_mem_check(): every evictable LRU list holds what its counters say;
 * - per cgroup, memory.stat's counters flushed: anon + file <= memory.current <=
 *   anon + file + swapcached + stock + slack (see check_memcg()), all in
 *   pages of folios of any size (a large folio's slack: kswapd_slack());
 * - per cgroup, memory.stat's anon_thp = the PMD mappings of THPs in the
 *   page tables of its subtree's tasks, and at most its anon;
 * - the same over the whole RAM: pages in use against the root's stats;
 * - the memory.stat file of one cgroup (in turn) prints those counters;
 * - swap: max(swap ptes, swap cache) <= tb_swap_used() <= swap ptes +
 *   swap cache and <= the device; each memory.swap.current <= used;
 * - each vma: resident + swapped <= its size;
 * - the multi-gen LRU of every lruvec: with MGLRU on the classic lists are
 *   empty, with it off the generations are; the pages on a type's and
 *   zone's generation lists are what its nr_pages counters add up to; the
 *   number of generations is within the kernel's bounds (seq_is_valid());
 *   and, without kswapd (no walk or eviction left half done), each
 *   generation's counter is the pages whose flags name that generation.
 * At the end every task and file goes and the world must be empty: all
 * pages free, no swap slot, no leak, no unexpected WARN.
 */
#include <linux/ctype.h>
#include <linux/memcontrol.h>
#include <linux/mm_inline.h>
#include <linux/mmzone.h>
#include <linux/swap.h>
#include <linux/workqueue.h>
#include <kshim/memcg_tb.h>
#include <kshim/mem_tb.h>
#include <kshim/testbed.h>
#include <stdarg.h>
#include <sys/mman.h>

#define NR_CPUS_FZ 4		/* kswapd runs on the last one */
#define NR_TASKS 4
#define NR_VMAS 16
#define NR_FILES 3
#define MAX_OPS 256
#define MAX_TOUCHES 20000
#define STAT_BUF 16384
#define DEBUGFS_BUF (256 << 10)
#define MGLRU_OPS 0xc0		/* op bytes from here on: the lru_gen interface */
#define THP_OPS 0xb0		/* op bytes from here to MGLRU_OPS: THP's madvise and sysfs */
#define THP "kernel/mm/transparent_hugepage/"
/* a PMD-sized folio's pages; trees built without THP (6.1) have none */
#ifdef CONFIG_TRANSPARENT_HUGEPAGE
#define FZ_PMD_NR HPAGE_PMD_NR
#else
#define FZ_PMD_NR 1UL
#endif
#define ENABLED "kernel/mm/lru_gen/enabled"
#define MIN_TTL "kernel/mm/lru_gen/min_ttl_ms"

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
	unsigned int caps;	/* what lru_gen/enabled should read back */
	int thp_pmd, thp_mthp;	/* byte 0's THP settings (thp_cmdline()) */
	/* pages of the largest folio a fault may have made so far (1: no THP) */
	unsigned long max_folio;
	bool lru_gen_was_on;	/* MGLRU was on at some point (kswapd_slack()) */
	long long min_ttl_ms;	/* what min_ttl_ms should read back, -1: unknown */
};

static size_t cur_op;
static bool trace;
static char dbuf[DEBUGFS_BUF];	/* debugfs reads */

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
	/*
	 * offlining goes on in works and RCU callbacks: let it finish, on
	 * this thread (fuzz_world.h's fz_settle())
	 */
	kshim_async_inline(true);
	kshim_rcu_quiesce();
	kshim_async_inline(false);
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

/* ---- the multi-gen LRU's sysfs and debugfs files ---- */
/* bytes of the input as a NUL-terminated string of at most max - 1 bytes */
static size_t raw_text(struct fz *f, char *buf, size_t max)
{
	size_t len = next(f) % max, i;

	for (i = 0; i < len; i++)
		buf[i] = next(f);
	buf[len] = '\0';
	return strlen(buf);
}

static void check_caps(struct fz *f)
{
	char buf[32];
	unsigned int caps;

	CHECK(tb_sysfs_read(ENABLED, buf, sizeof(buf)) == 7);
	CHECK(sscanf(buf, "0x%x", &caps) == 1);
	if (caps != f->caps)
		fz_fail("lru_gen/enabled reads %#06x, %#06x written", caps, f->caps);
	CHECK(lru_gen_enabled() == !!(caps & BIT(LRU_GEN_CORE)));
}

/*
 * enabled_store(): 'n'/'N' first clears every cap, 'y'/'Y' sets them all,
 * else kstrtouint() (base 0: "0x0007", "7", "07") or -EINVAL; only the
 * NR_LRU_GEN_CAPS low bits count.
 */
static void write_enabled(struct fz *f, const char *text)
{
	size_t len = strlen(text);
	unsigned int caps;
	ssize_t ret;
	int err = 0;

	if (tolower(*text) == 'n')
		caps = 0;
	else if (tolower(*text) == 'y')
		caps = -1;
	else if (kstrtouint(text, 0, &caps))
		err = -EINVAL;
	ret = tb_sysfs_write(ENABLED, text);
	if (ret != (err ? err : (ssize_t)len))
		fz_fail("lru_gen/enabled \"%s\": %zd, expected %d", text, ret, err ? err : (int)len);
	if (!err)
		f->caps = caps & (BIT(NR_LRU_GEN_CAPS) - 1);
	/* enabled_show() leaves out what the machine lacks (kshim/kconfig.h) */
	if (!arch_has_hw_nonleaf_pmd_young())
		f->caps &= ~BIT(LRU_GEN_NONLEAF_YOUNG);
	if (lru_gen_enabled())
		f->lru_gen_was_on = true;
	check_caps(f);
}

static void op_enabled_canned(struct fz *f)
{
	static const char *const vals[] = {
		"y", "n", "Y\n", "N\n", "yes", "no", "0x0007", "0x0001", "0x0003",
		"0x0005", "0x0006", "0x0000", "0", "7", "1\n", "07", "+1",
		"maybe", "", "0x", "-1", "4294967295", "4294967296", "0x0007 junk",
	};

	write_enabled(f, vals[next(f) % ARRAY_SIZE(vals)]);
}

static void op_enabled_raw(struct fz *f)
{
	char buf[16];

	raw_text(f, buf, sizeof(buf));
	write_enabled(f, buf);
}

/* min_ttl_ms_store(): kstrtouint(), else -EINVAL; it reads back in ms (HZ 1000) */
static void write_min_ttl(struct fz *f, const char *text)
{
	size_t len = strlen(text);
	unsigned int ms;
	ssize_t ret;
	int err = kstrtouint(text, 0, &ms) ? -EINVAL : 0;

	ret = tb_sysfs_write(MIN_TTL, text);
	if (ret != (err ? err : (ssize_t)len))
		fz_fail("lru_gen/min_ttl_ms \"%s\": %zd, expected %d", text, ret, err ? err : (int)len);
	if (!err)
		f->min_ttl_ms = ms <= INT_MAX ? ms : -1;
}

static void op_min_ttl_canned(struct fz *f)
{
	static const char *const vals[] = {
		"0", "1", "10", "100", "1000", "5000\n", "60000", "0x10", "abc", "-1",
		"4294967295", "4294967296", "", "1 2",
	};

	write_min_ttl(f, vals[next(f) % ARRAY_SIZE(vals)]);
}

static void op_min_ttl_raw(struct fz *f)
{
	char buf[16];

	raw_text(f, buf, sizeof(buf));
	write_min_ttl(f, buf);
}

/* the lru_gen debugfs write: its length, or the handler's own error */
static void debugfs_cmd(const char *cmd, int expect, bool may_be_interrupted)
{
	ssize_t ret = tb_debugfs_write("lru_gen", cmd);
	ssize_t ok = strlen(cmd);

	if (trace)
		fprintf(stderr, "  lru_gen \"%s\": %zd (expected %d)\n", cmd, ret, expect);
	if (ret == (expect ? expect : ok))
		return;
	/* run_eviction() stops with -EINTR when the writer has a signal pending */
	if (may_be_interrupted && ret == -EINTR)
		return;
	fz_fail("lru_gen \"%s\": %zd, expected %zd", cmd, ret, expect ? (ssize_t)expect : ok);
}

/*
 * An aging or eviction command from argument bytes: a, the memcg (a
 * path's id, the id of a path that does not exist, 0, an id never given);
 * b, the node (bits 0-1) and the optional fields (bits 2-3: none, one,
 * two); c, the seq (around min_seq and max_seq, 0, a huge one, "-1");
 * d, the optional fields' values; e, the form (bits 0-2: plain, leading
 * spaces and separators, a trailing newline, trailing junk, a bad command
 * letter, a second command after ';').
 */
struct lru_gen_cmd {
	char op;
	int path;		/* -1: not a memcg of the harness */
	unsigned int id;
	int nid, nr_opt;
	bool neg_seq;		/* "-1": the kernel's %lu takes no sign */
	unsigned long seq;
	int opt1;		/* swappiness / can_swap; -1 */
	long long opt2;		/* nr_to_reclaim / force_scan; -1 */
	int form;
};

static unsigned int unknown_memcg_id(void)
{
	return 60000;	/* below MEM_CGROUP_ID_MAX, far above any id here */
}

static void build_cmd(struct fz *f, struct lru_gen_cmd *c, char op)
{
	static const int opt1s[] = { 0, 1, 60, 200, 201, -1 };
	static const long long opt2s[] = { 0, 1, 32, 1000, -1, -2 };
	u8 a = next(f), b = next(f), cs = next(f), d = next(f), e = next(f);
	struct lruvec *lruvec = NULL;
	unsigned long max_seq = 0, min_seq = 0;

	memset(c, 0, sizeof(*c));
	c->op = op;
	c->path = a % 8 < NR_PATHS ? a % 8 : -1;
	if (c->path >= 0 && f->exists[c->path])
		c->id = tb_memcg_private_id(tb_memcg(paths[c->path]));
	else
		c->id = a % 8 == 4 ? 0 : unknown_memcg_id();
	if (c->path >= 0 && !f->exists[c->path])
		c->path = -1;
	c->nid = b & 3;
	c->nr_opt = (b >> 2) & 3;
	if (c->path >= 0 && c->nid < f->nr_nodes) {
		lruvec = mem_cgroup_lruvec(tb_memcg(paths[c->path]), NODE_DATA(c->nid));
		max_seq = READ_ONCE(lruvec->lrugen.max_seq);
		min_seq = READ_ONCE(lruvec->lrugen.min_seq[LRU_GEN_FILE]);
	}
	switch (cs % 8) {
	case 0: c->seq = max_seq; break;
	case 1: c->seq = max_seq + 1; break;
	case 2: c->seq = max_seq - 1; break;
	case 3: c->seq = max_seq - MIN_NR_GENS; break;
	case 4: c->seq = min_seq; break;
	case 5: c->seq = 0; break;
	case 6: c->seq = ULONG_MAX; break;
	default: c->neg_seq = true;
	}
	c->opt1 = opt1s[(d & 15) % ARRAY_SIZE(opt1s)];
	c->opt2 = opt2s[(d >> 4) % ARRAY_SIZE(opt2s)];
	c->form = e % 8;
}

static int format_cmd(const struct lru_gen_cmd *c, char *buf, size_t size)
{
	static const char *const pre[] = { "", "", "  ", ",\n;", "", "", "", "" };
	char seq[24], o1[16] = "", o2[24] = "";
	int n;

	if (c->neg_seq)
		strscpy(seq, "-1", sizeof(seq));
	else
		snprintf(seq, sizeof(seq), "%lu", c->seq);
	if (c->nr_opt >= 1)
		snprintf(o1, sizeof(o1), " %d", c->opt1);
	if (c->nr_opt >= 2)
		snprintf(o2, sizeof(o2), " %lld", c->opt2);
	n = snprintf(buf, size, "%s%c %u %d %s%s%s%s", pre[c->form],
		     c->form == 5 ? '*' : c->op, c->id, c->nid, seq, o1, o2,
		     c->form == 4 ? " junk" : c->form == 2 ? "\n" : "");
	if (c->form == 6)
		n += snprintf(buf + n, size - n, "; %c %u %d %s", c->op, c->id, c->nid, seq);
	return n;
}

/*
 * lru_gen_seq_write() -> run_cmd(), in its order: sscanf() needs at least
 * "cmd memcg node seq" and nothing after the last field it took (a "-1"
 * field stops it there: -EINVAL); the node must have memory and the memcg
 * exist (-EINVAL); a given swappiness above MAX_SWAPPINESS is -EINVAL; an
 * unknown command letter is -EINVAL. Aging: seq past max_seq -EINVAL,
 * before it nothing to do; at max_seq without force_scan and with
 * MAX_NR_GENS generations -ERANGE. Eviction: seq + MIN_NR_GENS past
 * max_seq -EINVAL. Returns the error (0: the length), *maybe_eintr for an
 * eviction that may meet a pending signal. A second command (form 6) is
 * the same one: it only runs when the first succeeded.
 */
static int predict_cmd(struct fz *f, const struct lru_gen_cmd *c, bool *maybe_eintr)
{
	struct lruvec *lruvec;
	unsigned long max_seq, min_seq;
	int swappiness;
	bool force_scan;

	*maybe_eintr = false;
	if (c->neg_seq || c->form == 4 || (c->nr_opt >= 1 && c->opt1 < 0) ||
	    (c->nr_opt >= 2 && c->opt2 < 0))
		return -EINVAL;
	if (c->nid >= f->nr_nodes || c->path < 0)
		return -EINVAL;
	/* swappiness_anon_only: MAX_SWAPPINESS + 1 is anon only */
	if (c->nr_opt >= 1 && c->opt1 > MAX_SWAPPINESS + TB_HAVE_swappiness_anon_only)
		return -EINVAL;
	if (c->form == 5)
		return -EINVAL;
	lruvec = mem_cgroup_lruvec(tb_memcg(paths[c->path]), NODE_DATA(c->nid));
	max_seq = READ_ONCE(lruvec->lrugen.max_seq);
	if (c->op == '-') {
		if (c->seq + MIN_NR_GENS > max_seq)
			return -EINVAL;
		*maybe_eintr = true;
		return 0;
	}
#if TB_HAVE_lru_gen_aging_eexist
	/* any seq up to max_seq ages at max_seq: done or -EEXIST */
	if (c->seq > max_seq)
		return -EINVAL;
	return INT_MIN;
#endif
	if (c->seq < max_seq)
		return 0;
	if (c->seq > max_seq)
		return -EINVAL;
	/* can_swap: the given field, or get_swappiness(): which the harness does not redo */
	if (c->nr_opt < 1)
		return INT_MIN;
	swappiness = c->opt1;
	force_scan = c->nr_opt < 2 || c->opt2;
	min_seq = READ_ONCE(lruvec->lrugen.min_seq[!swappiness]);
	if (!force_scan && min_seq + MAX_NR_GENS - 1 <= max_seq)
		return -ERANGE;
	return 0;
}

static void op_lru_gen_cmd(struct fz *f, char op)
{
	struct lru_gen_cmd c;
	char buf[128];
	bool maybe_eintr;
	int expect;
	ssize_t ret;

	build_cmd(f, &c, op);
	format_cmd(&c, buf, sizeof(buf));
	expect = predict_cmd(f, &c, &maybe_eintr);
	if (expect != INT_MIN) {
		debugfs_cmd(buf, expect, maybe_eintr);
		return;
	}
	/*
	 * aging at max_seq, can_swap from get_swappiness(): done or -ERANGE
	 * (lru_gen_aging_eexist: done or -EEXIST)
	 */
	ret = tb_debugfs_write("lru_gen", buf);
	if (ret != (ssize_t)strlen(buf) &&
	    ret != (TB_HAVE_lru_gen_aging_eexist ? -EEXIST : -ERANGE))
		fz_fail("lru_gen \"%s\": %zd", buf, ret);
}

/* any text: the length or one of the handler's errors */
static void op_lru_gen_raw(struct fz *f)
{
	char buf[48];
	ssize_t ret;

	raw_text(f, buf, sizeof(buf));
	ret = tb_debugfs_write("lru_gen", buf);
	if (ret != (ssize_t)strlen(buf) && ret != -EINVAL && ret != -ERANGE && ret != -EINTR &&
	    !(TB_HAVE_lru_gen_aging_eexist && ret == -EEXIST))
		fz_fail("lru_gen \"%s\": %zd", buf, ret);
}

/*
 * lru_gen_seq_show(): every memcg of the harness is listed ("memcg %5hu
 * /path", its node lines after it); the sysfs files read back what was
 * written.
 */
static void op_lru_gen_read(struct fz *f, u8 a)
{
	const char *name = a & 1 ? "lru_gen_full" : "lru_gen";
	char head[64], buf[32];
	ssize_t n;
	int p;

	n = tb_debugfs_read(name, dbuf, DEBUGFS_BUF);
	if (n <= 0)
		fz_fail("debugfs %s: %zd", name, n);
	for (p = 0; p < NR_PATHS; p++) {
		if (!f->exists[p])
			continue;
		snprintf(head, sizeof(head), TB_LRU_GEN_HEAD,
			 TB_LRU_GEN_HEAD_ID(tb_memcg(paths[p])), paths[p]);
		if (!strstr(dbuf, head))
			fz_fail("debugfs %s lists no \"%s\"", name, head);
	}
	check_caps(f);
	CHECK(tb_sysfs_read(MIN_TTL, buf, sizeof(buf)) > 0);
	if (f->min_ttl_ms >= 0 && strtoll(buf, NULL, 10) != f->min_ttl_ms)
		fz_fail("min_ttl_ms reads %s, %lld written", buf, f->min_ttl_ms);
}

/* ---- transparent huge pages: madvise() and the sysfs files ---- */
/*
 * madvise() of a whole vma as its task: 0, or -EINVAL for MADV_FREE of a
 * file mapping (madvise_free_single_vma()) and, where THP is not built,
 * for MADV_HUGEPAGE and MADV_NOHUGEPAGE (madvise_behavior_valid()).
 * MADV_WILLNEED reads an anonymous vma's swapped pages into the swap cache
 * (charged, counted in swapcached) and reads a file ahead; a file's is
 * -EOPNOTSUPP where THP is not built (the world has no readahead there).
 */
static void op_madvise(struct fz *f)
{
	static const int advice[] = {
		MADV_HUGEPAGE, MADV_NOHUGEPAGE, MADV_COLD, MADV_PAGEOUT, MADV_FREE, MADV_WILLNEED,
	};
	struct fz_vma *vma = pick_vma(f, next(f));
	int adv = advice[next(f) % ARRAY_SIZE(advice)], expect = 0, ret;

	if (!vma)
		return;
	if (vma->task != f->cur)
		switch_to(f, vma->task);
	if (adv == MADV_FREE && vma->file)
		expect = -EINVAL;
	if (!IS_ENABLED(CONFIG_TRANSPARENT_HUGEPAGE) &&
	    (adv == MADV_HUGEPAGE || adv == MADV_NOHUGEPAGE))
		expect = -EINVAL;
	if (!IS_ENABLED(CONFIG_TRANSPARENT_HUGEPAGE) && adv == MADV_WILLNEED && vma->file)
		expect = -EOPNOTSUPP;
	ret = tb_madvise(vma->v, adv);
	if (ret != expect)
		fz_fail("madvise(%d) of a %s vma: %d, expected %d", adv,
			vma->file ? "file" : "anon", ret, expect);
	/*
	 * MADV_PAGEOUT's reclaim_folio_list() puts back what it did not free
	 * with folio_putback_lru(): a page that the split of a THP mapped to
	 * the zero page then has its last reference in this CPU's add batch,
	 * charged and counted in no memory.stat item until the batch drains.
	 * Drained here, as op_cpu() does, so that no such folio outlives an
	 * operation (check_memcg()).
	 */
	lru_add_drain();
}

/*
 * A canned write to a file of /sys/kernel/mm/transparent_hugepage: its
 * length, or -EINVAL where its handler refuses the value
 * (enabled_store(), defrag_store(), max_ptes_none_store() above
 * FZ_PMD_NR - 1, thpsize_enabled_store())
 */
static void op_thp_sysfs(struct fz *f, u8 a)
{
	static const struct {
		const char *file, *val;
		bool ok;
	} w[] = {
		{ "enabled", "always", true }, { "enabled", "madvise", true },
		{ "enabled", "never", true }, { "enabled", "sometimes", false },
		{ "defrag", "always", true }, { "defrag", "defer", true },
		{ "defrag", "defer+madvise", true }, { "defrag", "madvise", true },
		{ "defrag", "never", true }, { "defrag", "", false },
		{ "khugepaged/max_ptes_none", "0", true },
		{ "khugepaged/max_ptes_none", "64", true },
		{ "khugepaged/max_ptes_none", "511", true },
		{ "khugepaged/max_ptes_none", "512", false },
		{ "hugepages-64kB/enabled", "always", true },
		{ "hugepages-64kB/enabled", "inherit", true },
		{ "hugepages-64kB/enabled", "never", true },
		{ "hugepages-16kB/enabled", "always", true },
		{ "hugepages-2048kB/enabled", "always", true },
		{ "hugepages-2048kB/enabled", "inherit", true },
		{ "hugepages-2048kB/enabled", "never", true },
		{ "hugepages-2048kB/enabled", "inherit\n", true },
		{ "hugepages-2048kB/enabled", "inherit junk", false },
	};
	char path[80];
	ssize_t ret, expect;
	int i = a % ARRAY_SIZE(w);

	if (!IS_ENABLED(CONFIG_TRANSPARENT_HUGEPAGE))
		return;
	snprintf(path, sizeof(path), THP "%s", w[i].file);
	expect = w[i].ok ? (ssize_t)strlen(w[i].val) : -EINVAL;
	ret = tb_sysfs_write(path, w[i].val);
	if (ret != expect)
		fz_fail("%s \"%s\": %zd, expected %zd", path, w[i].val, ret, expect);
	/* a size turned on: a fault may make a folio of up to FZ_PMD_NR pages */
	if (w[i].ok && strstr(w[i].file, "enabled") && strcmp(w[i].val, "never"))
		f->max_folio = FZ_PMD_NR;
}

/*
 * madvise() of pages [start, start + n) of an anonymous vma as its task,
 * start and n from two bytes each: MADV_DONTNEED returns 0;
 * MADV_COLLAPSE 0 or what madvise_collapse_errno() makes of its last
 * failure (-EINVAL: no THP for the vma or the tree, -EAGAIN, -ENOMEM,
 * -EBUSY: the THP's memcg charge failed, or too many ptes were none)
 */
static void op_madvise_range(struct fz *f, int adv)
{
	struct fz_vma *vma = pick_vma(f, next(f));
	unsigned long start, n;
	int ret;

	start = (unsigned long)next(f) << 8;
	start |= next(f);
	n = (unsigned long)next(f) << 8;
	n |= next(f);
	if (!vma || vma->file)
		return;
	if (vma->task != f->cur)
		switch_to(f, vma->task);
	start %= vma->size;
	n = 1 + n % (vma->size - start);
	ret = tb_madvise_range(vma->v, start, n, adv);
	if (adv != MADV_COLLAPSE ? ret != 0 :
	    ret != 0 && ret != -EINVAL && ret != -EAGAIN && ret != -ENOMEM && ret != -EBUSY)
		fz_fail("madvise(%d) of pages %lu-%lu of an anon vma of %lu: %d", adv,
			start, start + n - 1, vma->size, ret);
	lru_add_drain();	/* as op_madvise(): no folio left in an add batch */
}

static void run_thp_op(struct fz *f, u8 op)
{
	/* the advice 0xbe gives part of a vma: the kernel's walks split a large folio it covers in part */
	static const int part_advice[] = { MADV_COLD, MADV_PAGEOUT, MADV_FREE, MADV_WILLNEED };

	if (op == THP_OPS + 14)
		op_madvise_range(f, part_advice[next(f) % ARRAY_SIZE(part_advice)]);
	else if (op >= THP_OPS + 12)
		op_madvise_range(f, op & 1 ? MADV_COLLAPSE : MADV_DONTNEED);
	else if (op & 1)
		op_thp_sysfs(f, next(f));
	else
		op_madvise(f);
}

static void run_mglru_op(struct fz *f, u8 op)
{
	switch ((op - MGLRU_OPS) % 8) {
	case 0: op_enabled_canned(f); break;
	case 1: op_enabled_raw(f); break;
	case 2: op_min_ttl_canned(f); break;
	case 3: op_min_ttl_raw(f); break;
	case 4: op_lru_gen_cmd(f, '+'); break;
	case 5: op_lru_gen_cmd(f, '-'); break;
	case 6: op_lru_gen_raw(f); break;
	case 7: op_lru_gen_read(f, next(f)); break;
	}
}

static void run_op(struct fz *f)
{
	u8 op = next(f);

	if (op >= MGLRU_OPS) {
		run_mglru_op(f, op);
		return;
	}
	if (op >= THP_OPS) {
		run_thp_op(f, op);
		return;
	}

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
	long long anon, file, swapcached, kernel, anon_thp;
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

/*
 * memory.stat's anon, file and swapcached of path (bytes): the counters
 * memory_stat_format() prints, read after check_invariants() flushed
 * every CPU's counters of the whole tree (the flush is not repeated per
 * read: no kthread or work runs while the checks run, see kswapd.c's
 * baton, so nothing changes the counters in between)
 */
static void read_stat(int p, struct mstat *st)
{
	struct mem_cgroup *memcg = tb_memcg(paths[p]);

	st->anon = tb_memcg_stat(memcg, NR_ANON_MAPPED);
	st->file = tb_memcg_stat(memcg, NR_FILE_PAGES);
	st->swapcached = tb_memcg_stat(memcg, NR_SWAPCACHE);
	st->kernel = tb_memcg_stat(memcg, MEMCG_KMEM);
	st->anon_thp = tb_memcg_stat(memcg, NR_ANON_THPS);
	CHECK(st->anon >= 0 && st->file >= 0 && st->swapcached >= 0 && st->kernel >= 0 &&
	      st->anon_thp >= 0);
}

/*
 * The memory.stat file itself, of one cgroup per operation (in turn): it
 * must print what read_stat() read. (Formatting all of memory.stat for
 * every cgroup after every operation was half the harness's time.)
 */
static void check_stat_file(struct fz *f, int p, const struct mstat *st)
{
	ssize_t n = tb_cgroup_read(paths[p], "memory.stat", f->buf, STAT_BUF);
	long long anon, file, sc;

	if (n < 0)
		fz_fail("memory.stat of \"%s\": %zd", paths[p], n);
	anon = stat_key(f->buf, "anon");
	file = stat_key(f->buf, "file");
	sc = stat_key(f->buf, "swapcached");
	if (anon != st->anon || file != st->file || sc != st->swapcached)
		fz_fail("memory.stat of \"%s\": anon %lld file %lld swapcached %lld, the counters %lld %lld %lld",
			paths[p], anon, file, sc, st->anon, st->file, st->swapcached);
	/* anon_thp is printed where THP is built */
	if (IS_ENABLED(CONFIG_TRANSPARENT_HUGEPAGE) && stat_key(f->buf, "anon_thp") != st->anon_thp)
		fz_fail("memory.stat of \"%s\": anon_thp %lld, the counter %lld",
			paths[p], stat_key(f->buf, "anon_thp"), st->anon_thp);
}

/* pages the per-CPU stocks hold charged to memcg's subtree */
static unsigned long stock_pages(struct mem_cgroup *memcg)
{
	unsigned long sum = 0;
	int cpu, i;

	for (cpu = 0; cpu < NR_CPUS_FZ; cpu++) {
		for (i = 0; i < tb_stock_nr_slots(); i++) {
			unsigned int n;
			struct mem_cgroup *cached = tb_stock_slot(cpu, i, &n);

			if (cached && mem_cgroup_is_descendant(cached, memcg))
				sum += n;
		}
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
 * a per-CPU folio batch cannot outlive an operation (op_cpu()). With the
 * multi-gen LRU, scan_folios() isolates up to MIN_LRU_BATCH folios for
 * one evict_folios() (and a kswapd stopped in one keeps them after MGLRU
 * is switched off). Both count the batch in pages and stop once it is
 * reached, so with large folios the last one taken may pass it by its
 * size less one page (isolate_lru_folios()'s scan += nr_pages,
 * scan_folios()'s isolated += delta): a batch is then at most
 * batch - 1 + f->max_folio pages (a THP split on its way to swap stays
 * within it, its pages on the same private list).
 */
static unsigned long kswapd_slack(struct fz *f)
{
	unsigned long batch = f->lru_gen_was_on ? MIN_LRU_BATCH : SWAP_CLUSTER_MAX;

	return f->mem.no_kswapd ? 0 : (batch - 1 + f->max_folio) * f->nr_nodes;
}

/*
 * The PMD mappings of THPs in the page tables of each path's subtree's
 * tasks, in bytes (a vma starts at a PMD boundary: tb_map_anon()). A
 * task's folios are charged to its cgroup (the harness moves no task).
 */
static void pmd_mapped(struct fz *f, long long bytes[NR_PATHS])
{
	int __maybe_unused i, p;

	memset(bytes, 0, NR_PATHS * sizeof(*bytes));
#ifdef CONFIG_TRANSPARENT_HUGEPAGE
	for (i = 0; i < NR_VMAS; i++) {
		struct fz_vma *vma = &f->vma[i];
		unsigned long idx;

		if (!vma->v || vma->file)
			continue;
		for (idx = 0; idx + FZ_PMD_NR <= vma->size; idx += FZ_PMD_NR) {
			pmd_t *pmdp = tb_vma_pmdp(vma->v, idx);

			if (!pmdp || !pmd_trans_huge(pmdp_get(pmdp)))
				continue;
			for (p = f->task[vma->task].path; p >= 0; p = parent_of[p])
				bytes[p] += FZ_PMD_NR * PAGE_SIZE;
		}
	}
#endif
}

/*
 * memory.stat's anon_thp (NR_ANON_THPS, counted in pages as the pmd
 * maps and unmaps a THP: __folio_add_anon_rmap(), __folio_remove_rmap())
 * is the pmd-mapped THPs of the page tables, and part of anon
 */
static void check_anon_thp(int p, const struct mstat *st, long long mapped)
{
	if (st->anon_thp != mapped)
		fz_fail("\"%s\": anon_thp %lld, pmd-mapped THPs in its tasks' page tables %lld",
			paths[p], st->anon_thp, mapped);
	if (st->anon_thp > st->anon)
		fz_fail("\"%s\": anon_thp %lld > anon %lld", paths[p], st->anon_thp, st->anon);
}

/*
 * The pages of large anon folios (charged in memcg's subtree, or any
 * with NULL) that no pte maps: a THP zapped in part (MADV_DONTNEED of
 * some of its pages) keeps them until its deferred split, while
 * memory.stat's anon counts mapped pages only (NR_ANON_MAPPED). Walked
 * only when the other terms fall short.
 */
static unsigned long unmapped_large_anon(struct fz *f, struct mem_cgroup *memcg)
{
	unsigned long n = 0;
#ifdef CONFIG_TRANSPARENT_HUGEPAGE
	unsigned long pfn, end;
	int nid;

	for (nid = 0; nid < f->nr_nodes; nid++) {
		struct pglist_data *pgdat = NODE_DATA(nid);

		end = pgdat->node_start_pfn + pgdat->node_spanned_pages;
		for (pfn = pgdat->node_start_pfn; pfn < end; pfn++) {
			struct page *page = pfn_to_page(pfn);
			struct folio *folio;
			long i, nr;

			if (!PageHead(page))
				continue;
			folio = page_folio(page);
			nr = folio_nr_pages(folio);
			pfn += nr - 1;
			if (!folio_test_anon(folio) || folio_entire_mapcount(folio))
				continue;
			if (memcg && !(folio_memcg(folio) &&
				       mem_cgroup_is_descendant(folio_memcg(folio), memcg)))
				continue;
			for (i = 0; i < nr; i++)
				n += atomic_read(&folio_page(folio, i)->_mapcount) < 0;
		}
	}
#endif
	return n;
}

/*
 * memory.stat's "anon" is NR_ANON_MAPPED, "file" NR_FILE_PAGES of the
 * page cache (the swap cache is counted in the node's NR_FILE_PAGES only)
 * and "swapcached" NR_SWAPCACHE. A folio read back from swap stays in the
 * swap cache while mapped (should_try_to_free_swap()): it is both "anon"
 * and "swapcached", so anon + file + swapcached may exceed memory.current
 * by those folios. "kernel" is the page tables the memcg's tasks made.
 * What holds is:
 *   anon + file + kernel <= current       (every such page is charged)
 *   current <= anon + file + swapcached + kernel + stock + slack
 * (a charged folio is mapped anon, page cache, or an unmapped anon folio
 * in the swap cache; the rest of the charge is stock, kswapd's slack or
 * the unmapped pages of large anon folios zapped in part).
 */
static void check_memcg(struct fz *f, int p, const struct mstat *stp)
{
	struct mem_cgroup *memcg = tb_memcg(paths[p]);
	long long cur, swap, used = tb_swap_used() * PAGE_SIZE;
	unsigned long stock = stock_pages(memcg), slack = kswapd_slack(f);
	struct mstat st = *stp;

	cur = tb_cgroup_read_u64(paths[p], "memory.current");
	swap = tb_cgroup_read_u64(paths[p], "memory.swap.current");
	if (trace)
		fprintf(stderr, "  %-4s current %lld anon %lld file %lld swapcached %lld stock %lu swap %lld\n",
			paths[p], cur, st.anon, st.file, st.swapcached, stock, swap);
	CHECK(cur >= 0 && swap >= 0);
	if (st.anon + st.file + st.kernel > cur)
		fz_fail("\"%s\": anon %lld + file %lld + kernel %lld > memory.current %lld",
			paths[p], st.anon, st.file, st.kernel, cur);
	if (cur > st.anon + st.file + st.swapcached + st.kernel +
		  (long long)(stock + slack) * PAGE_SIZE)
		slack += unmapped_large_anon(f, memcg);
	if (cur > st.anon + st.file + st.swapcached + st.kernel +
		  (long long)(stock + slack) * PAGE_SIZE)
		fz_fail("\"%s\": memory.current %lld > anon %lld + file %lld + swapcached %lld + kernel %lld + stock %lu + slack %lu pages",
			paths[p], cur, st.anon, st.file, st.swapcached, st.kernel, stock, slack);
	/* a slot is charged to one memcg at most, from allocation to free */
	if (swap > used)
		fz_fail("\"%s\": memory.swap.current %lld > swap used %lld", paths[p], swap, used);
}

/*
 * The whole RAM: the root's memory.stat counts every folio of the world
 * (a root task's too), so the pages not free are bounded the same way;
 * page tables are counted by node (a root task's are charged nowhere).
 */
static void check_ram(struct fz *f, const struct mstat *root)
{
	unsigned long used = 0, slack = kswapd_slack(f);
	long long anon, file, sc, tables = 0;
	int nid;

	for (nid = 0; nid < f->nr_nodes; nid++) {
		used += f->mem.ram_pages - tb_free_pages(nid);
		tables += node_page_state(NODE_DATA(nid), NR_PAGETABLE);
	}
	anon = root->anon / PAGE_SIZE;
	file = root->file / PAGE_SIZE;
	sc = root->swapcached / PAGE_SIZE;
	if (trace)
		fprintf(stderr, "  RAM used %lu anon %lld file %lld swapcached %lld tables %lld swap %lu\n",
			used, anon, file, sc, tables, tb_swap_used());
	if (anon + file + tables > (long long)used)
		fz_fail("RAM: anon %lld + file %lld + page tables %lld > %lu pages in use",
			anon, file, tables, used);
	if ((long long)used > anon + file + sc + tables + (long long)slack)
		slack += unmapped_large_anon(f, NULL);
	if ((long long)used > anon + file + sc + tables + (long long)slack)
		fz_fail("RAM: %lu pages in use > anon %lld + file %lld + swapcached %lld + page tables %lld + slack %lu",
			used, anon, file, sc, tables, slack);
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
static void check_swap(struct fz *f, const struct mstat *root)
{
	unsigned long ptes = 0, used = tb_swap_used(), sc;
	int i;

	for (i = 0; i < NR_VMAS; i++) {
		struct fz_vma *vma = &f->vma[i];
		unsigned long res, swp;

		if (!vma->v)
			continue;
		tb_vma_counts(vma->v, &res, &swp);
		if (res + swp > vma->size)
			fz_fail("vma %d: %lu resident + %lu swapped > %lu pages", i, res, swp, vma->size);
		if (vma->file && swp)
			fz_fail("file vma %d: %lu pages swapped", i, swp);
		ptes += swp;
	}
	sc = root->swapcached / PAGE_SIZE;
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

/*
 * The multi-gen LRU of one lruvec, under its lru_lock. Enabled: no folio
 * on the classic evictable lists (lru_gen_add_folio() takes them all);
 * disabled: none in the generations (state_is_valid()). The generations
 * hold, per type and zone, as many pages as nr_pages[][][] adds up to (a
 * page-table walk or look-around may have moved a folio's generation in
 * its flags, the counters following in batches, but never the total);
 * seq_is_valid(): MIN_NR_GENS <= file generations <= anon generations <=
 * MAX_NR_GENS. exact: no batch can be pending (no kswapd): each
 * generation's counter is the pages whose flags name that generation.
 */
static const char *check_lrugen(struct lruvec *lruvec, bool exact)
{
	static char msg[192];
	/* struct lru_gen_folio, lru_gen_struct before 6.3 */
	typeof(lruvec->lrugen) *lrugen = &lruvec->lrugen;
	unsigned long nr_gens[ANON_AND_FILE];
	int gen, type, zone;
	enum lru_list lru;

	for_each_evictable_lru(lru)
		if (lrugen->enabled && !list_empty(&lruvec->lists[lru]))
			return "MGLRU on, a classic list not empty";
	for (type = 0; type < ANON_AND_FILE; type++) {
		nr_gens[type] = lrugen->max_seq - lrugen->min_seq[type] + 1;
		for (zone = 0; zone < MAX_NR_ZONES; zone++) {
			long listed[MAX_NR_GENS] = { 0 }, flagged[MAX_NR_GENS] = { 0 };
			long counted = 0, total = 0;
			struct folio *folio;

			for (gen = 0; gen < MAX_NR_GENS; gen++) {
				list_for_each_entry(folio, &lrugen->folios[gen][type][zone], lru) {
					int g = folio_lru_gen(folio);

					listed[gen] += folio_nr_pages(folio);
					if (g < 0 || g >= (int)MAX_NR_GENS)
						return "a folio in the generations names none";
					flagged[g] += folio_nr_pages(folio);
				}
				counted += lrugen->nr_pages[gen][type][zone];
				total += listed[gen];
			}
			if (!lrugen->enabled && total)
				return "MGLRU off, folios in the generations";
			if (total != counted) {
				snprintf(msg, sizeof(msg), "type %d zone %d: %ld pages in the generations, nr_pages adds up to %ld",
					 type, zone, total, counted);
				return msg;
			}
			for (gen = 0; exact && gen < MAX_NR_GENS; gen++) {
				if (flagged[gen] == lrugen->nr_pages[gen][type][zone])
					continue;
				snprintf(msg, sizeof(msg), "gen %d type %d zone %d: %ld pages name it, nr_pages %ld",
					 gen, type, zone, flagged[gen], lrugen->nr_pages[gen][type][zone]);
				return msg;
			}
		}
	}
	/* seq_is_valid(): lru_gen_types_apart, each type on its own */
	if (nr_gens[LRU_GEN_FILE] < MIN_NR_GENS || nr_gens[LRU_GEN_ANON] > MAX_NR_GENS ||
	    (TB_HAVE_lru_gen_types_apart ?
	     nr_gens[LRU_GEN_ANON] < MIN_NR_GENS || nr_gens[LRU_GEN_FILE] > MAX_NR_GENS :
	     nr_gens[LRU_GEN_FILE] > nr_gens[LRU_GEN_ANON])) {
		snprintf(msg, sizeof(msg), "max_seq %lu, min_seq anon %lu file %lu",
			 lrugen->max_seq, lrugen->min_seq[LRU_GEN_ANON], lrugen->min_seq[LRU_GEN_FILE]);
		return msg;
	}
	return NULL;
}

static void check_lru_gen(struct fz *f)
{
	struct mem_cgroup *memcg;
	const char *msg = NULL;
	int nid;

	for (nid = 0; nid < f->nr_nodes; nid++) {
		memcg = mem_cgroup_iter(NULL, NULL, NULL);
		do {
			struct lruvec *lruvec = mem_cgroup_lruvec(memcg, NODE_DATA(nid));

			spin_lock_irq(&lruvec->lru_lock);
			msg = check_lrugen(lruvec, f->mem.no_kswapd);
			spin_unlock_irq(&lruvec->lru_lock);
			if (msg) {
				mem_cgroup_iter_break(NULL, memcg);
				fz_fail("node %d memcg %u: %s", nid, tb_memcg_private_id(memcg), msg);
			}
		} while ((memcg = mem_cgroup_iter(NULL, memcg, NULL)));
	}
}

static void check_invariants(struct fz *f)
{
	struct mstat st[NR_PATHS];
	long long thp[NR_PATHS];
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
	/* every CPU's counters of every memcg folded, once (the root's subtree) */
	tb_memcg_flush_stats(NULL);
	for (p = 0; p < NR_PATHS; p++)
		if (f->exists[p])
			read_stat(p, &st[p]);
	/* the file of one cgroup in turn: the op's number picks the first to try */
	for (p = f->op % NR_PATHS; !f->exists[p]; p = (p + 1) % NR_PATHS)
		;
	check_stat_file(f, p, &st[p]);
	for (p = 1; p < NR_PATHS; p++)
		if (f->exists[p])
			check_memcg(f, p, &st[p]);
	pmd_mapped(f, thp);
	for (p = 0; p < NR_PATHS; p++)
		if (f->exists[p])
			check_anon_thp(p, &st[p], thp[p]);
	check_ram(f, &st[0]);
	check_swap(f, &st[0]);
	check_lru_gen(f);
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

/*
 * Transparent huge pages from byte 0 (q = b0 / 13): q & 3 the PMD size's
 * setting, q >> 3 the anonymous mTHP sizes (thp_anon=, which
 * setup_thp_anon() takes as given: the PMD size, which inherits the
 * global setting by default, is named so that it still does). Every
 * input written before THP has q 0: THP off, as the world boots without
 * the options.
 */
static const char *const thp_pmd_modes[] = { "never", "always", "madvise", "always" };
static const char *const thp_anon_opts[] = {
	NULL, "thp_anon=64K:always;2048K:inherit", "thp_anon=16K:always;128K,2048K:inherit",
};

static void thp_cmdline(struct fz *f, u8 b0)
{
	char opt[48];

	f->max_folio = 1;
	if (!IS_ENABLED(CONFIG_TRANSPARENT_HUGEPAGE))
		return;	/* the bits mean nothing on a tree built without THP */
	f->thp_pmd = (b0 / 13) & 3;
	f->thp_mthp = (b0 / 13) >> 3;
	if (f->thp_pmd) {
		snprintf(opt, sizeof(opt), "transparent_hugepage=%s", thp_pmd_modes[f->thp_pmd]);
		CHECK(tb_boot_cmdline(opt) == 0);
	}
	if (thp_anon_opts[f->thp_mthp])
		CHECK(tb_boot_cmdline(thp_anon_opts[f->thp_mthp]) == 0);
	if (f->thp_pmd || f->thp_mthp)
		f->max_folio = FZ_PMD_NR;
}

/*
 * hugepage_init() starts THP off on a machine below 512 MiB, whatever the
 * command line says (all of these machines): the PMD setting is then
 * written to sysfs, as an administrator turns it on, before any fault;
 * mode 3 also sets defrag "always" (a THP fault's allocation reclaims
 * and compacts: GFP_TRANSHUGE). Each setting reads back as written.
 */
static void thp_boot(struct fz *f)
{
	char want[48], buf[64];
	const char *mode = thp_pmd_modes[f->thp_pmd];

	if (!f->thp_pmd)
		return;
	CHECK(tb_sysfs_write(THP "enabled", mode) == (ssize_t)strlen(mode));
	CHECK(tb_sysfs_read(THP "enabled", buf, sizeof(buf)) > 0);
	snprintf(want, sizeof(want), "[%s]", mode);
	if (!strstr(buf, want))
		fz_fail("THP enabled reads \"%s\" after \"%s\"", buf, mode);
	if (f->thp_pmd == 3) {
		CHECK(tb_sysfs_write(THP "defrag", "always") == 6);
		CHECK(tb_sysfs_read(THP "defrag", buf, sizeof(buf)) > 0);
		CHECK(!strncmp(buf, "[always]", 8));
	}
}

static void boot(struct fz *f)
{
	struct kshim_world_config cfg = { .nr_cpus = NR_CPUS_FZ, .seed = 1 };
	u8 b0 = next(f), b1 = next(f), b2 = next(f), b3 = next(f);
	int i, err;

	f->mem.ram_pages = 1024 + (b0 % 13) * 256;
	f->mem.swap_pages = swap_sizes[b1 & 3];
	/* a swap disk (writes in flight): 8 of b0's 20 runs of 13 values */
	f->mem.swap_disk = (b0 / 13) & 4;
	f->nr_nodes = b1 & 4 ? 2 : 1;
	f->mem.no_kswapd = b1 & 8;
	f->mem.swappiness_set = b2 != 255;
	f->mem.swappiness = f->mem.swappiness_set ? b2 % 201 : 0;
	f->mem.min_free_kbytes = (b3 & 15) * 64;
	f->mem.watermark_scale_factor = wsf[b3 >> 4];
	cfg.nr_nodes = f->nr_nodes;
	kshim_world_boot(&cfg);
	boot_options(b1);
	thp_cmdline(f, b0);
	CHECK(tb_memcg_boot() == 0);
	mount_options(b1);
	err = tb_mem_boot(&f->mem);
	if (err)
		fz_fail("tb_mem_boot: %d", err);
	thp_boot(f);
	f->exists[0] = true;
	f->cur = -1;
	/* every world boots with MGLRU off and min_ttl_ms 0 */
	f->caps = 0;
	f->min_ttl_ms = 0;
	check_caps(f);
	for (i = 0; i < NR_FILES; i++) {
		f->file[i] = tb_file_create(file_pages[i]);
		CHECK(f->file[i]);
	}
}

/* with FUZZ_RECLAIM_TRACE: what the input did with large folios */
static void trace_thp(void)
{
#ifdef CONFIG_TRANSPARENT_HUGEPAGE
	static const char *const sizes[] = { "16kB", "64kB", "128kB" };
	static const char *const stats[] = { "anon_fault_alloc", "swpout", "swpout_fallback", "split" };
	char path[96], buf[32];
	size_t i, j;

	fprintf(stderr, "fuzz_reclaim: thp_fault_alloc %lu fallback %lu split_pmd %lu split_page %lu deferred_split %lu underused_split %lu swpout %lu swpout_fallback %lu compactstall %lu\n",
		kshim_vm_event_read(THP_FAULT_ALLOC), kshim_vm_event_read(THP_FAULT_FALLBACK),
		kshim_vm_event_read(THP_SPLIT_PMD), kshim_vm_event_read(THP_SPLIT_PAGE),
		kshim_vm_event_read(THP_DEFERRED_SPLIT_PAGE),
		kshim_vm_event_read(THP_UNDERUSED_SPLIT_PAGE), kshim_vm_event_read(THP_SWPOUT),
		kshim_vm_event_read(THP_SWPOUT_FALLBACK), kshim_vm_event_read(COMPACTSTALL));
	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		fprintf(stderr, "  %s:", sizes[i]);
		for (j = 0; j < ARRAY_SIZE(stats); j++) {
			snprintf(path, sizeof(path), THP "hugepages-%s/stats/%s", sizes[i], stats[j]);
			if (tb_sysfs_read(path, buf, sizeof(buf)) > 0)
				fprintf(stderr, " %s %lu", stats[j], strtoul(buf, NULL, 10));
		}
		fputc('\n', stderr);
	}
#endif
}

static void teardown(struct fz *f)
{
	const char *msg;

	if (trace)
		trace_thp();

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
