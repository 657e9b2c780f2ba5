// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz target "memcg": the real 6.12 mm/memcontrol.c (library kmemcg)
 * driven through the test-bed API of kshim/memcg_tb.h: cgroups made and
 * removed by path, control files written with canned or raw text, tasks
 * charging folios from virtual CPUs, obj charges, scripted reclaim.
 *
 * Tasks: NR_TASKS workers, each on a virtual CPU of its own and, once it
 * enters a cgroup, a task of the test bed (tb_task_spawn) in at most one
 * cgroup. The fuzz thread runs one command at a time as the worker:
 * switched to its CPU and into its task (tb_task_switch), then back, so a
 * run is a sequence. (Worker threads, one command handed over at a time,
 * ran the same sequence at two context switches per command.)
 *
 * Input: a byte stream; each operation is an op byte and its arguments
 * (op % 16; op >> 4 picks the task): 0 mkdir (maybe with an injected
 * allocation failure), 1 rmdir, 2 task enters, 3 task leaves, 4 task charges a folio,
 * 5 task uncharges pages, 6 task returns to user mode, 7 task switches
 * CPU, 8 task drains its CPU's stock, 9 write canned text to a control
 * file, 10 write raw input bytes, 11 obj charge, 12 obj uncharge,
 * 13 reclaim script, 14 fuzz thread: CPU switch, drain, virtual time,
 * 15 mod_objcg_state (and the seed-004 variant switch).
 *
 * Invariants, after every operation: mkdir/rmdir answer as the hierarchy
 * says; a write returns its length or a -errno, and a failed write leaves
 * the file as it was; every memcg's memory counter (and the root's, but
 * on 7.2, root_counter_inexact()) equals the pages of the tasks in its subtree, plus what the per-CPU
 * stocks hold for memcgs in the subtree, plus the pages charged for the
 * objcgs now pointing into it (live obj bytes + obj stock bytes +
 * nr_charged_bytes, which must be whole pages); no counter is negative.
 * At the end the world tears down with no leak and no unexpected WARN.
 *
 * One world serves every input (fuzz_world.h): after an input the tasks
 * leave, the obj charges go, the cgroups are removed, every stock is
 * drained, and the world must be as booted (root usage 0, stocks empty,
 * nothing leaked, no WARN) before it is rewound. Every operation's
 * result and every counter checked go into the digest.
 */
#include <stdarg.h>
#include <linux/memcontrol.h>
#include <linux/mmzone.h>
#include <linux/workqueue.h>
#include <linux/sched/mm.h>
#include <kshim/memcg_tb.h>
#include <kshim/testbed.h>
#include <kshim/mem_tb.h>
#include "fuzz_world.h"

#define NR_CPUS_FZ 4
#define NR_TASKS 3
#define NR_OBJ 64
#define MAX_OPS 256

static const char *const paths[] = { "a", "a/b", "a/b/c", "a/d", "e", "e/f" };
#define NR_PATHS ((int)ARRAY_SIZE(paths))
/* parent index of each path, -1 for a child of the root */
static const int parent_of[] = { -1, 0, 1, 0, -1, 4 };

static const char *const files[] = {
	"memory.max", "memory.high", "memory.min", "memory.low",
	"memory.swap.max", "memory.reclaim", "memory.oom.group",
};

static const char *const canned[] = {
	"max", "0", "4096", "1M", "64K", "100000", "1G", "max\n", " 8192 \n",
	"-1", "abc", "18446744073709551615", "9223372036854775807", "2M",
	"128k", "1\n",
};

static const unsigned int folio_pages[] = { 1, 1, 2, 4, 16, 32, 64, 512 };
static const gfp_t gfps[] = {
	GFP_KERNEL, GFP_KERNEL | __GFP_NORETRY, GFP_NOWAIT, GFP_KERNEL | __GFP_NOFAIL,
};

enum wcmd { W_NONE, W_ENTER, W_LEAVE, W_CHARGE, W_UNCHARGE, W_RETURN, W_CPU,
	    W_DRAIN, W_STATE };

/* a worker: a task when in a cgroup, always a virtual CPU of its own */
struct worker {
	struct tb_task *task;	/* NULL: not a task */
	int cpu, first_cpu;
	int path;		/* index in paths, -1: not a task */
	unsigned long pages;	/* W_STATE: tb_task_pages() */
	bool killed;		/* W_STATE: tb_task_oom_killed() */
};

struct fz {
	struct worker w[NR_TASKS];
	bool exists[NR_PATHS];
	struct {
		struct obj_cgroup *objcg;
		size_t size;
	} obj[NR_OBJ];
	int nr_obj;
	int self_cpu;		/* the fuzz thread's own CPU */
	struct worker *charger;	/* who charged in this operation */
	const u8 *data;
	size_t size, pos, op, op_pos;
};

static size_t cur_op;
static bool trace;
/*
 * FUZZ_MEMCG_TRACE=1: each operation, the root's usage and the digest,
 * kept in memory and printed at the input's end (stderr writes between
 * operations change the timing a race depends on)
 */
static char trace_buf[1 << 16];
static size_t trace_len;

static void __attribute__((format(printf, 1, 2))) trace_line(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(trace_buf + trace_len, sizeof(trace_buf) - trace_len, fmt, ap);
	va_end(ap);
	if (n > 0)
		trace_len = min(trace_len + n, sizeof(trace_buf) - 1);
}

#define CHECK(cond) do { if (!(cond)) { \
	fprintf(stderr, "fuzz_memcg: op %zu: %s failed\n", cur_op, #cond); \
	abort(); } } while (0)

/*
 * ---- workers: the fuzz thread runs a worker's command as it: switched
 * to the worker's CPU and, when it is one, into its task (tb_task_switch),
 * then back. A run stays a sequence of commands, with no thread handoff.
 */
static long worker_do(struct worker *w, enum wcmd cmd, long a, long b)
{
	int err;

	switch (cmd) {
	case W_ENTER:
		w->task = tb_task_spawn(paths[a], &err);
		return w->task ? 0 : err;
	case W_LEAVE:
		tb_task_exit(w->task);
		w->task = NULL;
		return 0;
	case W_CHARGE:
		return tb_folio_charge(a, gfps[b], &err) ? 0 : err;
	case W_UNCHARGE:
		return tb_task_uncharge_pages(a);
	case W_RETURN:
		tb_task_return_to_user();
		return 0;
	case W_CPU:
		w->cpu = a;
		return 0;
	case W_DRAIN:
		tb_drain_local_stock();
		return 0;
	case W_STATE:
		w->pages = tb_task_pages();
		w->killed = tb_task_oom_killed();
		return 0;
	default:
		return 0;
	}
}

static long call(struct fz *f, struct worker *w, enum wcmd cmd, long a, long b)
{
	long ret;

	kshim_cpu_switch(w->cpu);
	if (w->task && cmd != W_LEAVE)
		tb_task_switch(w->task);
	ret = worker_do(w, cmd, a, b);
	tb_task_switch(NULL);
	kshim_cpu_switch(f->self_cpu);
	fz_digest(cmd);
	fz_digest(ret);
	return ret;
}

/* ---- input ---- */
static u8 next(struct fz *f)
{
	return f->pos < f->size ? f->data[f->pos++] : 0;
}

/* ---- the hierarchy ---- */
static bool path_busy(struct fz *f, int i)
{
	int t;

	for (t = 0; t < NR_TASKS; t++)
		if (f->w[t].path == i)
			return true;
	return false;
}

static bool has_child(struct fz *f, int i)
{
	int j;

	for (j = 0; j < NR_PATHS; j++)
		if (parent_of[j] == i && f->exists[j])
			return true;
	return false;
}

/* a & 0x80: fail the nth allocation of the mkdir, n from the next byte */
static void op_mkdir(struct fz *f, u8 a)
{
	int i = (a & 0x7f) % NR_PATHS, p = parent_of[i], ret;
	bool fault = a & 0x80;

	if (fault)
		kshim_fault_nth(1 + next(f) % 16);
	ret = tb_cgroup_mkdir(paths[i]);
	kshim_fault_reset();
	fz_digest(ret);
	if (f->exists[i])
		CHECK(ret == -EEXIST);
	else if (p >= 0 && !f->exists[p])
		CHECK(ret == -ENOENT);
	else if (fault && ret == -ENOMEM)
		return;
	else
		CHECK(ret == 0);
	if (!ret)
		f->exists[i] = true;
}

/* the kernel refuses to remove a populated cgroup: so does the harness */
static void op_rmdir(struct fz *f, u8 a)
{
	int i = a % NR_PATHS, ret;

	if (path_busy(f, i))
		return;
	ret = tb_cgroup_rmdir(paths[i]);
	fz_digest(ret);
	if (!f->exists[i])
		CHECK(ret == -ENOENT);
	else if (has_child(f, i))
		CHECK(ret == -EBUSY);
	else
		CHECK(ret == 0);
	if (!ret)
		f->exists[i] = false;
	/*
	 * offlining goes on in works and RCU callbacks (reparented objcgs
	 * released, stocks refilled and drained): let it finish before the
	 * counters are checked
	 */
	fz_settle();
}

static void op_enter(struct fz *f, struct worker *w, u8 a)
{
	int i = a % NR_PATHS;
	long ret;

	if (w->path >= 0)
		return;
	ret = call(f, w, W_ENTER, i, 0);
	CHECK(f->exists[i] ? ret == 0 : ret == -ENOENT);
	if (!ret)
		w->path = i;
}

/* ---- control files ---- */
static void op_write(struct fz *f, u8 a, u8 b, const char *text, size_t len)
{
	int i = a % NR_PATHS;
	const char *file = files[b % ARRAY_SIZE(files)];
	char before[128], after[128];
	ssize_t rb, ra, ret;

	rb = tb_cgroup_read(paths[i], file, before, sizeof(before));
	ret = tb_cgroup_write(paths[i], file, text, len);
	fz_digest(rb);
	fz_digest(ret);
	CHECK(ret == (ssize_t)len || (ret < 0 && ret >= -MAX_ERRNO));
	if (!f->exists[i])
		CHECK(ret == -ENOENT && rb == -ENOENT);
	if (ret >= 0 || rb < 0)
		return;
	ra = tb_cgroup_read(paths[i], file, after, sizeof(after));
	CHECK(ra == rb && !memcmp(before, after, rb));
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

/* ---- obj charges: a ledger of live charges, each holding its objcg ---- */
static struct obj_cgroup *path_objcg(struct fz *f, u8 a)
{
	int i = a % NR_PATHS;

	return f->exists[i] ? tb_memcg_objcg(tb_memcg(paths[i])) : NULL;
}

static void op_obj_charge(struct fz *f)
{
	int i = next(f) % NR_PATHS;
	struct obj_cgroup *objcg = path_objcg(f, i);
	size_t size = 1 + ((next(f) << 8 | next(f)) & 0x3fff);
	gfp_t gfp = gfps[next(f) % ARRAY_SIZE(gfps)];
	struct mem_cgroup *old;
	int ret;

	if (!objcg || f->nr_obj == NR_OBJ)
		return;
	obj_cgroup_get(objcg);
	/*
	 * A charge over memory.high calls mem_cgroup_handle_over_high(), and
	 * without an mm that finds the root memcg, which it css_put()s
	 * unreferenced: harmless in the kernel (the root css is CSS_NO_REF),
	 * an underflow in the test bed, whose root css is refcounted. Charge
	 * as a remote charge does, with the objcg's memcg active.
	 */
	old = set_active_memcg(tb_memcg(paths[i]));
	ret = tb_obj_cgroup_charge(objcg, gfp, size);
	set_active_memcg(old);
	fz_digest(ret);
	if (ret) {
		obj_cgroup_put(objcg);
		return;
	}
	f->obj[f->nr_obj].objcg = objcg;
	f->obj[f->nr_obj++].size = size;
}

static void obj_uncharge(struct fz *f, int k)
{
	tb_obj_cgroup_uncharge(f->obj[k].objcg, f->obj[k].size);
	obj_cgroup_put(f->obj[k].objcg);
	f->obj[k] = f->obj[--f->nr_obj];
}

static void op_mod_objcg_state(struct fz *f)
{
	struct obj_cgroup *objcg = path_objcg(f, next(f));
	u8 b = next(f);
	int nr = (s8)next(f) * 16;

	/* seed 004's variant replaces mod_objcg_state(), which 7.2 has not */
	if ((b & 0x80) && TB_HAVE_mod_objcg_state)
		tb_objstock_set_variant(b & 0x40 ? TB_OBJSTOCK_BEFORE : TB_OBJSTOCK_AFTER);
	if (objcg)
		tb_mod_objcg_state(objcg, NODE_DATA(0), b & 1, nr);
}

static void op_self(struct fz *f)
{
	u8 a = next(f);

	f->self_cpu = a % NR_CPUS_FZ;
	kshim_cpu_switch(f->self_cpu);
	if (a & 0x10)
		tb_drain_local_stock();
	if (a & 0x20)
		kshim_jiffies_advance(a >> 6 ? HZ : 1);
}

/* ---- invariants ---- */
struct objcg_pages {
	struct obj_cgroup *objcg;
	unsigned long pages;
};

/* live charges, the paths', the stocks', and up to 64 reparented ones */
#define NR_OBJCG_SET (NR_OBJ + NR_PATHS + NR_CPUS_FZ + 64)

static void add_objcg(struct objcg_pages *set, int *nr, struct obj_cgroup *objcg)
{
	int i;

	if (!objcg)
		return;
	for (i = 0; i < *nr; i++)
		if (set[i].objcg == objcg)
			return;
	CHECK(*nr < NR_OBJCG_SET);	/* the harness's bound, not the kernel's */
	set[(*nr)++] = (struct objcg_pages){ .objcg = objcg };
}

/*
 * A removed memcg's objcgs move to its parent's list (memcg_reparent_objcgs())
 * and live until the removed memcg is freed (its orig_objcg reference), the
 * bytes a drained stock left in nr_charged_bytes still charged to the
 * parent: found there when no stock and no charge holds them any more
 */
static void add_objcg_list(struct objcg_pages *set, int *nr, struct list_head *head)
{
	struct obj_cgroup *objcg;

	list_for_each_entry(objcg, head, list)
		add_objcg(set, nr, objcg);
}

static void add_reparented_objcgs(struct objcg_pages *set, int *nr, struct mem_cgroup *memcg)
{
#if TB_HAVE_objcg_per_node
	int nid;

	/* 7.2: a list per node, as the objcgs are */
	for_each_node(nid)
		add_objcg_list(set, nr, &memcg->nodeinfo[nid]->objcg_list);
#else
	add_objcg_list(set, nr, &memcg->objcg_list);
#endif
}

/* what every objcg still alive has charged, in pages */
static int objcg_charges(struct fz *f, struct objcg_pages *set)
{
	int nr = 0, i, k, cpu;

	for (k = 0; k < f->nr_obj; k++)
		add_objcg(set, &nr, f->obj[k].objcg);
	for (i = 0; i < NR_PATHS; i++)
		add_objcg(set, &nr, path_objcg(f, i));
	add_reparented_objcgs(set, &nr, root_mem_cgroup);
	for (i = 0; i < NR_PATHS; i++)
		if (f->exists[i])
			add_reparented_objcgs(set, &nr, tb_memcg(paths[i]));
	for (cpu = 0; cpu < NR_CPUS_FZ; cpu++) {
		for (k = 0; k < tb_obj_stock_nr_slots(); k++) {
			unsigned int b;

			add_objcg(set, &nr, tb_obj_stock_slot(cpu, k, &b));
		}
	}
	for (i = 0; i < nr; i++) {
		unsigned long bytes = atomic_read(&set[i].objcg->nr_charged_bytes);

		for (k = 0; k < f->nr_obj; k++)
			if (f->obj[k].objcg == set[i].objcg)
				bytes += f->obj[k].size;
		for (cpu = 0; cpu < NR_CPUS_FZ; cpu++)
			bytes += tb_obj_stock_bytes_of(cpu, set[i].objcg);
		CHECK(bytes % PAGE_SIZE == 0);
		set[i].pages = bytes / PAGE_SIZE;
	}
	return nr;
}

static unsigned long expected_pages(struct fz *f, struct mem_cgroup *memcg,
				    struct objcg_pages *set, int nr_set)
{
	unsigned long sum = 0;
	int t, cpu, i;

	for (t = 0; t < NR_TASKS; t++)
		if (f->w[t].path >= 0 &&
		    mem_cgroup_is_descendant(tb_memcg(paths[f->w[t].path]), memcg))
			sum += f->w[t].pages;
	for (cpu = 0; cpu < NR_CPUS_FZ; cpu++) {
		for (i = 0; i < tb_stock_nr_slots(); i++) {
			unsigned int n;
			struct mem_cgroup *cached = tb_stock_slot(cpu, i, &n);

			if (cached && mem_cgroup_is_descendant(cached, memcg))
				sum += n;
		}
	}
	for (i = 0; i < nr_set; i++)
		if (mem_cgroup_is_descendant(rcu_access_pointer(set[i].objcg->memcg), memcg))
			sum += set[i].pages;
	return sum;
}

/*
 * The root's counter where obj_cgroup_uncharge_pages() and
 * memcg_uncharge_kmem() skip the root (kmem_uncharge_skips_root, 7.2): an
 * objcg reparented to the root gives the pages its memcg charged back to
 * nobody, and charges new ones to nobody (try_charge() skips the root),
 * so the root's usage is not the sum below; it is still at least what its
 * live children hold. Nothing reads the root's counter (v2 has no
 * memory.current there, and the protection of its children does not
 * depend on it), so a world keeps that usage from one input to the next;
 * it goes in no digest.
 */
static bool root_counter_inexact(struct mem_cgroup *memcg)
{
	return TB_HAVE_kmem_uncharge_skips_root && mem_cgroup_is_root(memcg);
}

static void check_counter(struct fz *f, struct mem_cgroup *memcg,
			  struct objcg_pages *set, int nr_set)
{
	unsigned long usage = page_counter_read(&memcg->memory);

	CHECK(usage <= PAGE_COUNTER_MAX);
	if (root_counter_inexact(memcg)) {
		unsigned long children = 0;
		int i;

		for (i = 0; i < NR_PATHS; i++)
			if (f->exists[i] && parent_of[i] < 0)
				children += page_counter_read(&tb_memcg(paths[i])->memory);
		CHECK(usage >= children);
		return;
	}
	fz_digest(usage);
	CHECK(usage == expected_pages(f, memcg, set, nr_set));
}

static void check_invariants(struct fz *f)
{
	struct objcg_pages set[NR_OBJCG_SET];
	int t, i, nr_set;

	/* works drain_all_stock() and high_work queued run first */
	flush_workqueue(system_wq);
	for (t = 0; t < NR_TASKS; t++) {
		struct worker *w = &f->w[t];

		if (w->path < 0)
			continue;
		call(f, w, W_STATE, 0, 0);
		if (w->killed) {
			/*
			 * an OOM victim exits; the killer took all its pages,
			 * but a victim killed by its own charge keeps them
			 * until it leaves (exit_mm() after the failed charge
			 * unwinds; the oom_reaper waits OOM_REAPER_DELAY)
			 */
			CHECK(w->pages == 0 || w == f->charger);
			call(f, w, W_LEAVE, 0, 0);
			w->path = -1;
		}
	}
	nr_set = objcg_charges(f, set);
	if (trace)
		trace_line("fuzz_memcg: op %zu (%u) root usage %lu, %d objcg(s), %d obj charge(s)\n",
			f->op, f->data[f->op_pos], page_counter_read(&root_mem_cgroup->memory),
			nr_set, f->nr_obj);
	check_counter(f, root_mem_cgroup, set, nr_set);
	for (i = 0; i < NR_PATHS; i++)
		if (f->exists[i])
			check_counter(f, tb_memcg(paths[i]), set, nr_set);
	if (trace)
		trace_line("fuzz_memcg: op %zu digest %016llx\n", f->op,
			(unsigned long long)fz_digest_value);
}

static void run_op(struct fz *f)
{
	u8 op = next(f), a;
	struct worker *w = &f->w[(op >> 4) % NR_TASKS];

	f->charger = NULL;
	switch (op % 16) {
	case 0: op_mkdir(f, next(f)); break;
	case 1: op_rmdir(f, next(f)); break;
	case 2: op_enter(f, w, next(f)); break;
	case 3:
		if (w->path >= 0)
			call(f, w, W_LEAVE, 0, 0);
		w->path = -1;
		break;
	case 4:
		a = next(f);
		if (w->path >= 0) {
			f->charger = w;
			call(f, w, W_CHARGE, folio_pages[a % ARRAY_SIZE(folio_pages)],
			     (a >> 3) % ARRAY_SIZE(gfps));
		}
		break;
	case 5:
		a = next(f);
		if (w->path >= 0)
			call(f, w, W_UNCHARGE, a, 0);
		break;
	case 6: if (w->path >= 0) call(f, w, W_RETURN, 0, 0); break;
	case 7: call(f, w, W_CPU, next(f) % NR_CPUS_FZ, 0); break;
	case 8: call(f, w, W_DRAIN, 0, 0); break;
	case 9: op_write_canned(f); break;
	case 10: op_write_raw(f); break;
	case 11: op_obj_charge(f); break;
	case 12:
		a = next(f);
		if (f->nr_obj)
			obj_uncharge(f, a % f->nr_obj);
		break;
	case 13:
		a = next(f);
		tb_reclaim_script(a & 1 ? TB_RECLAIM_PAGES : TB_RECLAIM_NOTHING, a >> 1);
		break;
	case 14: op_self(f); break;
	case 15: op_mod_objcg_state(f); break;
	}
}

/* ---- the world: booted at the first input, reused after ---- */
static const struct kshim_world_config world_cfg = {
	.nr_cpus = NR_CPUS_FZ, .nr_nodes = 1, .seed = 1,
};
static struct fz *world;	/* the booted world's harness (workers), or NULL */

static void world_boot(void)
{
	int t;

	world = calloc(1, sizeof(*world));
	if (!world)
		abort();
	kshim_world_boot(&world_cfg);
	if (tb_memcg_boot()) {
		fprintf(stderr, "fuzz_memcg: tb_memcg_boot failed\n");
		abort();
	}
	for (t = 0; t < NR_TASKS; t++) {
		world->w[t].cpu = world->w[t].first_cpu = t % NR_CPUS_FZ;
		world->w[t].path = -1;
	}
	kshim_rcu_quiesce();
	kshim_world_hold(true);
}

static void world_check(const char *when)
{
	const char *msg = kshim_world_check();

	if (msg) {
		fprintf(stderr, "fuzz_memcg: world check %s: %s\n", when, msg);
		abort();
	}
}

static void world_teardown(void)
{
	struct fz *f = world;
	int t;

	for (t = 0; t < NR_TASKS; t++)
		if (f->w[t].task)
			call(f, &f->w[t], W_LEAVE, 0, 0);
	while (f->nr_obj)
		obj_uncharge(f, f->nr_obj - 1);
	tb_objstock_set_variant(TB_OBJSTOCK_AFTER);
	kshim_world_hold(false);
	kshim_cpu_switch(0);
	tb_memcg_shutdown();
	world_check("at teardown");
	kshim_world_teardown();
	free(f);
	world = NULL;
}

void fz_world_release(void)
{
	if (world)
		world_teardown();
}

/*
 * Undo an input: the world must then be as tb_memcg_boot() left it, with
 * the threads it keeps as new ones.
 */
static void world_undo(struct fz *f)
{
	struct mem_cgroup *cached;
	struct obj_cgroup *ocached;
	const char *msg;
	int t, i, cpu;

	for (t = 0; t < NR_TASKS; t++) {
		if (f->w[t].task)
			call(f, &f->w[t], W_LEAVE, 0, 0);
		f->w[t].path = -1;
		f->w[t].cpu = f->w[t].first_cpu;
	}
	while (f->nr_obj)
		obj_uncharge(f, f->nr_obj - 1);
	tb_objstock_set_variant(TB_OBJSTOCK_AFTER);
	/* children first: paths[] lists parents before their children */
	for (i = NR_PATHS - 1; i >= 0; i--) {
		if (f->exists[i])
			CHECK(tb_cgroup_rmdir(paths[i]) == 0);
		f->exists[i] = false;
	}
	fz_settle();
	/*
	 * every CPU's stock drained on that CPU, as tb_memcg_shutdown() does
	 * (drain_all_stock() leaves a memcg cached with no pages); twice, as
	 * offlining may refill a stock
	 */
	for (i = 0; i < 2; i++) {
		for (cpu = 0; cpu < NR_CPUS_FZ; cpu++) {
			kshim_cpu_switch(cpu);
			tb_drain_local_stock();
		}
		fz_settle();
	}
	f->self_cpu = 0;
	kshim_cpu_switch(0);
	for (cpu = 0; cpu < NR_CPUS_FZ; cpu++) {
		CHECK(tb_stock_pages(cpu, &cached) == 0 && !cached);
		CHECK(tb_obj_stock_bytes(cpu, &ocached) == 0 && !ocached);
	}
	CHECK(page_counter_read(&root_mem_cgroup->memory) == 0 ||
	      root_counter_inexact(root_mem_cgroup));
	CHECK(tb_memcg_tasks_empty());
	/*
	 * the root's statistics flushed, as a fresh root's are (zero, nothing
	 * pending), and the flush clock back at boot's: reclaim reads them
	 * (mem_cgroup_flush_stats_ratelimited()), and a later input's reclaim
	 * differed
	 */
	tb_memcg_rewind();
	world_check("after an input");
	tb_memcg_world_reset();
	msg = kshim_world_rewind(&world_cfg);
	if (msg) {
		fprintf(stderr, "fuzz_memcg: rewind: %s\n", msg);
		abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz *f;
	uint64_t digest;

	trace = getenv("FUZZ_MEMCG_TRACE");
	if (!world)
		world_boot();
	f = world;
	f->data = data;
	f->size = size;
	f->pos = 0;
	cur_op = 0;
	for (f->op = 0; f->pos < f->size && f->op < MAX_OPS; f->op++) {
		cur_op = f->op;
		f->op_pos = f->pos;
		fz_op_begin();
		run_op(f);
		fz_op_ran();
		check_invariants(f);
		fz_op_end();
	}
	digest = fz_digest_value;	/* the run's, not the cleanup's */
	if (trace) {
		fputs(trace_buf, stderr);
		trace_len = 0;
		trace_buf[0] = 0;
	}
	if (fz_fresh)
		world_teardown();
	else
		world_undo(f);
	fz_digest_value = digest;
	return 0;
}
