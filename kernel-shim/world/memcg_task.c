// SPDX-License-Identifier: GPL-2.0-only
/*
 * The memcg world's environment around the real mm/memcontrol.c (library
 * kmemcg): tasks that charge folios, the entry to memcg reclaim (the real
 * try_to_free_mem_cgroup_pages of mm/vmscan.c, or the scripted test
 * double a test asks for by name: "frees nothing" or "frees up to N
 * pages" of its tasks' charged folios), a simulated OOM kill, and the
 * path-based cgroupfs wrappers of kshim/memcg_tb.h.
 */
#include <linux/memcontrol.h>
#include <linux/sched/mm.h>
#include <linux/swap.h>
#include <linux/vmstat.h>
#include <linux/oom.h>
#include <linux/sched/coredump.h>
#include <linux/slab.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/kstrtox.h>
#include <linux/cpuset.h>
#include <linux/topology.h>
#include <kshim/cgroupfs.h>
#include <kshim/memcg_tb.h>
#include <kshim/report.h>
#include <kshim/testbed.h>
#include <kshim/mem_tb.h>
#include "world.h"
#include <signal.h>

DEFINE_MUTEX(oom_lock);

/*
 * A task in one memcg: the calling thread (tb_task_enter), or a task of its
 * own that a thread runs while it is switched in (tb_task_spawn/switch).
 * It holds charged folios (the memcg suites' stand-in for memory) and an
 * address space (kernel-shim/world/vm.c).
 */
struct tb_task {
	struct task_struct *task;
	struct task_struct own;		/* a spawned task's task_struct */
	/* its address space, freed by the last mmdrop() (khugepaged may hold it past the exit) */
	struct mm_struct *mm;
	struct signal_struct signal;
	struct list_head node;		/* tasks */
	spinlock_t lock;		/* folios */
	struct list_head folios;	/* oldest first */
	unsigned long nr_pages;
	struct list_head reap;		/* killed, its mm to be reaped */
	int cpu;			/* the virtual CPU it runs on; -1: the thread's */
	bool exit_pending;		/* killed while charging: frees at its return to user */
};

static LIST_HEAD(tasks);
static DEFINE_SPINLOCK(tasks_lock);

static struct {
	enum tb_reclaim_mode mode;
	unsigned long n;
	atomic_long_t calls, freed;
	atomic_long_t asked;		/* sc.nr_to_reclaim summed over the calls */
	atomic_long_t memstall;		/* calls made in a PSI memory stall */
	atomic_long_t oom_kills;
	int swappiness;			/* of the last reclaim call, -1: NULL */
} world;


/* ---- tasks and folios ---- */
static struct tb_task *task_new(const char *path, struct task_struct *ts, int *err)
{
	struct cgroup_subsys_state *css = kshim_cgroupfs_css(path);
	struct tb_task *t;

	*err = -ENOENT;
	if (!css)
		return NULL;
	*err = -ENOMEM;
	t = kzalloc(sizeof(*t), GFP_KERNEL);
	if (!t)
		return NULL;
	t->mm = kzalloc(sizeof(*t->mm), GFP_KERNEL);
	if (!t->mm) {
		kfree(t);
		return NULL;
	}
	*err = 0;
	if (!ts) {
		ts = &t->own;
		ts->pid = kshim_new_pid();
		snprintf(ts->comm, sizeof(ts->comm), "tb/%d", ts->pid);
		spin_lock_init(&ts->alloc_lock);
		ts->group_leader = ts;
	}
	t->task = ts;
	t->cpu = -1;
	spin_lock_init(&t->lock);
	INIT_LIST_HEAD(&t->folios);
	INIT_LIST_HEAD(&t->reap);
	css_get(css);
	ts->kshim_memcg_css = css;
	ts->mm = t->mm;
	tb_mm_init(t->mm, ts);
	ts->signal = &t->signal;
	ts->kshim_tb = t;
	ts->kshim_oom_victim = 0;
	/* a task forked now runs from now: its clock is not behind the world's */
	if (ts->kshim_vclock_ns < tb_world_ns())
		ts->kshim_vclock_ns = tb_world_ns();
	/* cgroup_post_fork(): the memory controller's ->fork() (6.9 on: its objcg, lazily) */
	if (memory_cgrp_subsys.fork)
		memory_cgrp_subsys.fork(ts);
	spin_lock(&tasks_lock);
	list_add_tail(&t->node, &tasks);
	spin_unlock(&tasks_lock);
	return t;
}

int tb_task_enter(const char *path)
{
	int err;

	if (current->kshim_tb)
		return -EBUSY;
	task_new(path, current, &err);
	return err;
}

struct tb_task *tb_task_spawn(const char *path, int *err)
{
	int dummy;

	return task_new(path, NULL, err ? err : &dummy);
}

/*
 * Writing t's pid to path's cgroup.procs (cgroup v2: its charges stay
 * where they are): cgroup_migrate() switches the task's css under
 * task_lock() and css_set_lock (readers of task_css() hold RCU), then
 * calls each controller's ->attach() with the migrated tasks: the
 * memory controller's is mem_cgroup_attach(). Moving to the cgroup the
 * task is in migrates nothing and attaches nothing.
 */
int tb_task_move(struct tb_task *t, const char *path)
{
	struct cgroup_subsys_state *css = kshim_cgroupfs_css(path), *old;
	struct task_struct *ts = t->task;
	struct cgroup_taskset tset = { .task = ts };

	if (!css)
		return -ENOENT;
	old = ts->kshim_memcg_css;
	if (css == old)
		return 0;
	if (css_is_dying(css))
		return -ENODEV;
	css_get(css);
	cgroup_lock();
	task_lock(ts);
	rcu_assign_pointer(ts->kshim_memcg_css, css);
	task_unlock(ts);
	tset.dst_css = css;
	if (memory_cgrp_subsys.attach)
		memory_cgrp_subsys.attach(&tset);
	cgroup_unlock();
	/* the old css_set's reference goes after the readers of the old one */
	synchronize_rcu();
	css_put(old);
	return 0;
}

struct task_struct *tb_task_struct(struct tb_task *t)
{
	return t->task;
}

/* the thread's own CPU while a task with a CPU of its own runs on it */
static __thread int home_cpu = -1;

void tb_task_switch(struct tb_task *t)
{
	if (home_cpu >= 0) {
		kshim_cpu_switch(home_cpu);
		home_cpu = -1;
	}
	if (t && t->cpu >= 0 && t->cpu != kshim_ctx.cpu) {
		home_cpu = kshim_ctx.cpu;
		kshim_cpu_switch(t->cpu);
	}
	kshim_set_current(t ? t->task : NULL);
}

int tb_task_set_cpu(struct tb_task *t, int cpu)
{
	if (cpu < 0 || cpu >= (int)kshim_nr_cpus)
		return -EINVAL;
	t->cpu = cpu;
	if (current == t->task)
		tb_task_switch(t);
	return 0;
}

/* leaves t's cpuset: back in the root one, every node allowed */
static void task_unbind(struct task_struct *ts)
{
	if (!kshim_task_bound(ts))
		return;
	memset(&ts->mems_allowed, 0, sizeof(ts->mems_allowed));
	WRITE_ONCE(kshim_cpusets_bound, kshim_cpusets_bound - 1);
}

int tb_task_bind_node(struct tb_task *t, int nid)
{
	const struct cpumask *cpus;
	int cpu;

	if (nid < 0 || nid >= (int)nr_node_ids)
		return -EINVAL;
	cpus = cpumask_of_node(nid);
	/* a node without CPUs: the task keeps its CPU, its memory is remote */
	for_each_cpu(cpu, cpus) {
		tb_task_set_cpu(t, cpu);
		break;
	}
	task_unbind(t->task);
	node_set(nid, t->task->mems_allowed);
	WRITE_ONCE(kshim_cpusets_bound, kshim_cpusets_bound + 1);
	return 0;
}

static void folio_release(struct folio *folio)
{
	mem_cgroup_uncharge(folio);
	kfree(folio);
}

/* take up to nr pages of folios off t, oldest first; caller releases them */
static unsigned long task_take(struct tb_task *t, unsigned long nr, struct list_head *out)
{
	unsigned long got = 0;
	struct folio *f, *tmp;

	spin_lock(&t->lock);
	list_for_each_entry_safe(f, tmp, &t->folios, lru) {
		if (got >= nr)
			break;
		list_move_tail(&f->lru, out);
		got += folio_nr_pages(f);
		t->nr_pages -= folio_nr_pages(f);
	}
	spin_unlock(&t->lock);
	return got;
}

static void release_list(struct list_head *list)
{
	struct folio *f, *tmp;

	list_for_each_entry_safe(f, tmp, list, lru) {
		list_del(&f->lru);
		folio_release(f);
	}
}

static void task_free(struct tb_task *t)
{
	struct task_struct *ts = t->task;
	LIST_HEAD(list);

	spin_lock(&tasks_lock);
	list_del(&t->node);
	spin_unlock(&tasks_lock);
	task_take(t, ULONG_MAX, &list);
	release_list(&list);
	tb_task_mm_exit(t->mm);
	/* cgroup_exit() after exit_mm(): the controller's ->exit() drops the objcg */
	if (memory_cgrp_subsys.exit)
		memory_cgrp_subsys.exit(ts);
	task_unbind(ts);
	css_put(ts->kshim_memcg_css);
	ts->kshim_memcg_css = NULL;
	ts->mm = NULL;
	ts->signal = NULL;
	ts->kshim_tb = NULL;
	/* the thread outlives the task: no throttling debt nor signal (an OOM kill's) carries over */
	ts->memcg_nr_pages_over_high = 0;
	ts->kshim_notify_resume = 0;
	kshim_clear_signals(ts);
	kfree(t);
}

void tb_task_leave(void)
{
	if (current->kshim_tb)
		task_free(current->kshim_tb);
}

void tb_task_exit_all(void)
{
	struct tb_task *t;

	tb_task_switch(NULL);
	for (;;) {
		spin_lock(&tasks_lock);
		t = list_first_entry_or_null(&tasks, struct tb_task, node);
		spin_unlock(&tasks_lock);
		if (!t)
			break;
		task_free(t);
	}
}

void tb_task_exit(struct tb_task *t)
{
	if (!t)
		return;
	if (current == t->task)
		tb_task_switch(NULL);
	task_free(t);
}

struct folio *tb_folio_charge(unsigned int nr_pages, gfp_t gfp, int *err)
{
	struct tb_task *t = current->kshim_tb;
	struct folio *folio;
	int ret;

	folio = kzalloc(sizeof(*folio), GFP_KERNEL);
	ret = -ENOMEM;
	if (!folio)
		goto out;
	kshim_folio_prep(folio, nr_pages, numa_node_id());
	ret = mem_cgroup_charge(folio, current->mm, gfp);
	if (ret) {
		kfree(folio);
		folio = NULL;
		goto out;
	}
	if (t) {
		spin_lock(&t->lock);
		list_add_tail(&folio->lru, &t->folios);
		t->nr_pages += nr_pages;
		spin_unlock(&t->lock);
	}
out:
	if (err)
		*err = ret;
	return folio;
}

void tb_folio_uncharge(struct folio *folio)
{
	struct tb_task *t = current->kshim_tb;

	if (t) {
		spin_lock(&t->lock);
		list_del(&folio->lru);
		t->nr_pages -= folio_nr_pages(folio);
		spin_unlock(&t->lock);
	}
	folio_release(folio);
}

unsigned long tb_task_uncharge_pages(unsigned long nr)
{
	struct tb_task *t = current->kshim_tb;
	LIST_HEAD(list);
	unsigned long got;

	if (!t)
		return 0;
	got = task_take(t, nr, &list);
	release_list(&list);
	return got;
}

unsigned long tb_task_pages(void)
{
	struct tb_task *t = current->kshim_tb;

	return t ? READ_ONCE(t->nr_pages) : 0;
}

static void oom_victim_exit(struct tb_task *t);

void tb_task_return_to_user(void)
{
	struct tb_task *t = current->kshim_tb;

	if (t && t->exit_pending)
		oom_victim_exit(t);
	if (!current->kshim_notify_resume)
		return;
	current->kshim_notify_resume = 0;
	mem_cgroup_handle_over_high(GFP_KERNEL);
}

bool tb_task_oom_killed(void)
{
	return current->kshim_oom_victim;
}

static struct mem_cgroup *task_memcg(struct tb_task *t)
{
	return mem_cgroup_from_css(t->task->kshim_memcg_css);
}

/* ---- try_to_free_mem_cgroup_pages(): real, or the scripted double ---- */
void tb_reclaim_script(enum tb_reclaim_mode mode, unsigned long n)
{
	WRITE_ONCE(world.mode, mode);
	WRITE_ONCE(world.n, n);
}

unsigned long tb_reclaim_calls(void)
{
	return atomic_long_read(&world.calls);
}

unsigned long tb_reclaim_freed(void)
{
	return atomic_long_read(&world.freed);
}

unsigned long tb_reclaim_memstall_calls(void)
{
	return atomic_long_read(&world.memstall);
}

unsigned long tb_reclaim_asked(void)
{
	return atomic_long_read(&world.asked);
}

int tb_reclaim_last_swappiness(void)
{
	return READ_ONCE(world.swappiness);
}

/* folios of tasks in memcg's subtree, oldest task first, up to nr pages */
static unsigned long reclaim_subtree(struct mem_cgroup *memcg, unsigned long nr)
{
	struct tb_task *t;
	unsigned long got = 0;
	LIST_HEAD(list);

	spin_lock(&tasks_lock);
	list_for_each_entry(t, &tasks, node) {
		if (got >= nr)
			break;
		if (mem_cgroup_is_descendant(task_memcg(t), memcg))
			got += task_take(t, nr - got, &list);
	}
	spin_unlock(&tasks_lock);
	release_list(&list);
	return got;
}

/* mm/vmscan.c's, renamed by kextract's `wrap` */
#if TB_HAVE_reclaim_swappiness_arg
#define TB_SWAPPINESS_PARAM , int *swappiness
#define TB_SWAPPINESS_ARG , swappiness
#else	/* before 6.8: no memory.reclaim swappiness= */
#define TB_SWAPPINESS_PARAM
#define TB_SWAPPINESS_ARG
#endif
unsigned long __real_try_to_free_mem_cgroup_pages(struct mem_cgroup *memcg,
						  unsigned long nr_pages, gfp_t gfp_mask,
						  unsigned int reclaim_options TB_SWAPPINESS_PARAM);

unsigned long try_to_free_mem_cgroup_pages(struct mem_cgroup *memcg, unsigned long nr_pages,
					   gfp_t gfp_mask, unsigned int reclaim_options
					   TB_SWAPPINESS_PARAM)
{
#if !TB_HAVE_reclaim_swappiness_arg
	int *swappiness = NULL;
#endif

	enum tb_reclaim_mode mode = READ_ONCE(world.mode);
	unsigned long freed = 0;

	might_sleep();
	atomic_long_inc(&world.calls);
	if (current->in_memstall)
		atomic_long_inc(&world.memstall);
	/* what vmscan's sc.nr_to_reclaim will be: at least SWAP_CLUSTER_MAX */
	atomic_long_add(max(nr_pages, SWAP_CLUSTER_MAX), &world.asked);
	WRITE_ONCE(world.swappiness, swappiness ? *swappiness : -1);
	if (mode == TB_RECLAIM_REAL) {
		freed = __real_try_to_free_mem_cgroup_pages(memcg, nr_pages, gfp_mask,
							    reclaim_options TB_SWAPPINESS_ARG);
	} else if (mode == TB_RECLAIM_PAGES) {
		/* vmscan's sc.nr_to_reclaim is at least SWAP_CLUSTER_MAX */
		nr_pages = max(nr_pages, SWAP_CLUSTER_MAX);
		freed = reclaim_subtree(memcg, min(nr_pages, READ_ONCE(world.n)));
	}
	atomic_long_add(freed, &world.freed);
	return freed;
}

/* ---- out_of_memory(): kill the task holding most pages in the memcg ---- */
/* oom_badness(): pages the task holds (charged stand-ins, rss and swap) */
static unsigned long task_badness(struct tb_task *t)
{
	return t->nr_pages + tb_mm_rss(t->mm);
}

/*
 * oom_evaluate_task(): victims are skipped (their memory is being reaped),
 * so are tasks with nothing to free and, as oom_badness() does, those
 * whose oom_score_adj is OOM_SCORE_ADJ_MIN. Other adj values are not
 * modelled.
 */
static struct tb_task *oom_pick(struct mem_cgroup *memcg)
{
	struct tb_task *t, *victim = NULL;

	list_for_each_entry(t, &tasks, node) {
		if (t->task->kshim_oom_victim || !task_badness(t))
			continue;
		if (t->signal.oom_score_adj == OOM_SCORE_ADJ_MIN)
			continue;
		if (memcg && !mem_cgroup_is_descendant(task_memcg(t), memcg))
			continue;
		if (!victim || task_badness(t) > task_badness(victim))
			victim = t;
	}
	return victim;
}

/*
 * __oom_kill_process(): the victim gets SIGKILL; every call counts a kill,
 * also for a task already killed (the group kill below meets the victim
 * again, as the kernel's mem_cgroup_scan_tasks() does while the victim
 * still has its mm); its
 * charged stand-ins go to out, its mm to the reaper (reap, after the lock).
 * A victim that is the charging task itself keeps its memory until it
 * returns to user mode (exit_pending): the kernel's victim frees it in
 * do_exit() once its failed charge unwinds, and the oom_reaper waits
 * OOM_REAPER_DELAY for that; meanwhile try_charge_memcg() retries its
 * reclaim MAX_RECLAIM_RETRIES more times before task_is_dying() stops it.
 * (A global OOM still frees the victim at once: the page allocator's
 * retry loop has no such bound here.)
 */
static void oom_kill_task(struct tb_task *t, struct list_head *out,
			  struct list_head *reap, bool memcg_oom)
{
	t->task->kshim_oom_victim = 1;
	t->signal.oom_mm = t->mm;
	/* do_send_sig_info(SIGKILL): a killed memory.max writer's loop stops at signal_pending() */
	kshim_send_signal(t->task, SIGKILL);
	count_vm_event(OOM_KILL);
	memcg_memory_event_mm(t->mm, MEMCG_OOM_KILL);
	atomic_long_inc(&world.oom_kills);
	if (memcg_oom && t->task == current) {
		t->exit_pending = true;
		return;
	}
	task_take(t, ULONG_MAX, out);
	set_bit(MMF_OOM_SKIP, TB_MM_FLAGS(t->mm));
	if (list_empty(&t->reap))
		list_add_tail(&t->reap, reap);
}

/* the killed charging task's exit_mm(), at its return to user mode */
static void oom_victim_exit(struct tb_task *t)
{
	LIST_HEAD(list);

	t->exit_pending = false;
	task_take(t, ULONG_MAX, &list);
	release_list(&list);
	set_bit(MMF_OOM_SKIP, TB_MM_FLAGS(t->mm));
	tb_task_mm_reap(t->mm);
}

/*
 * oom_kill_process()'s memory.oom.group: the real mem_cgroup_get_oom_group()
 * names the highest group up to the OOM domain; every task in it is killed
 * but those at OOM_SCORE_ADJ_MIN (oom_kill_memcg_member()).
 */
static void oom_kill_group(struct mem_cgroup *group, struct list_head *out,
			   struct list_head *reap, bool memcg_oom)
{
	struct tb_task *t;

	memcg_memory_event(group, MEMCG_OOM_GROUP_KILL);
	list_for_each_entry(t, &tasks, node) {
		if (!mem_cgroup_is_descendant(task_memcg(t), group))
			continue;
		if (t->signal.oom_score_adj != OOM_SCORE_ADJ_MIN)
			oom_kill_task(t, out, reap, memcg_oom);
	}
}

bool out_of_memory(struct oom_control *oc)
{
	struct mem_cgroup *group = NULL;
	struct tb_task *victim, *t, *tmp;
	LIST_HEAD(list);
	LIST_HEAD(reap);

	lockdep_assert_held(&oom_lock);
	/*
	 * oom_kill.c's task_will_free_mem(current): a task with a fatal
	 * signal (SIGNAL_GROUP_EXIT) whose mm the reaper has not drained is
	 * picked itself, mark_oom_victim() (tsk_is_oom_victim() from then
	 * on), and nobody is killed (until 7.2 memcontrol.c's
	 * mem_cgroup_out_of_memory() stopped a dying task before calling
	 * here). The reaper queued for it is not modelled: its memory goes
	 * when it returns to user mode.
	 */
	if (current->kshim_tb && fatal_signal_pending(current) &&
	    !test_bit(MMF_OOM_SKIP, TB_MM_FLAGS(current->kshim_tb->mm))) {
		current->kshim_oom_victim = 1;
		current->kshim_tb->signal.oom_mm = current->kshim_tb->mm;
		return true;
	}
	spin_lock(&tasks_lock);
	victim = oom_pick(oc->memcg);
	if (victim) {
		group = mem_cgroup_get_oom_group(victim->task, oc->memcg);
		oom_kill_task(victim, &list, &reap, oc->memcg);
		if (group)
			oom_kill_group(group, &list, &reap, oc->memcg);
	}
	spin_unlock(&tasks_lock);
	if (group)
		mem_cgroup_put(group);
	release_list(&list);
	list_for_each_entry_safe(t, tmp, &reap, reap) {
		list_del_init(&t->reap);
		tb_task_mm_reap(t->mm);
	}
	return victim != NULL;
}

void tb_task_set_oom_score_adj(struct tb_task *t, short adj)
{
	WRITE_ONCE(t->signal.oom_score_adj, adj);
}

void tb_task_signal(struct tb_task *t, int sig)
{
	kshim_send_signal(t->task, sig);
}

bool tb_task_is_oom_victim(struct tb_task *t)
{
	return tsk_is_oom_victim(t->task);
}

unsigned long tb_oom_kills(void)
{
	return atomic_long_read(&world.oom_kills);
}

/* ---- the hierarchy ---- */
int tb_cgroup_mkdir(const char *path)
{
	return kshim_cgroupfs_mkdir(path);
}

int tb_cgroup_rmdir(const char *path)
{
	return kshim_cgroupfs_rmdir(path);
}

struct mem_cgroup *tb_memcg(const char *path)
{
	struct cgroup_subsys_state *css = kshim_cgroupfs_css(path);

	return css ? mem_cgroup_from_css(css) : NULL;
}

ssize_t tb_cgroup_write(const char *path, const char *file, const char *buf, size_t len)
{
	struct kernfs_open_file *of;
	ssize_t ret;
	int err;

	of = kshim_cgroupfs_open(path, file, &err);
	if (!of)
		return err;
	ret = kshim_cgroupfs_fwrite(of, buf, len);
	kshim_cgroupfs_close(of);
	return ret;
}

ssize_t tb_cgroup_read(const char *path, const char *file, char *buf, size_t size)
{
	struct kernfs_open_file *of;
	ssize_t ret;
	int err;

	of = kshim_cgroupfs_open(path, file, &err);
	if (!of)
		return err;
	ret = kshim_cgroupfs_fread(of, buf, size);
	kshim_cgroupfs_close(of);
	return ret;
}

long long tb_cgroup_read_u64(const char *path, const char *file)
{
	char buf[64];
	unsigned long long v;
	ssize_t n = tb_cgroup_read(path, file, buf, sizeof(buf));

	if (n < 0)
		return n;
	if (!strncmp(buf, "max\n", 4))
		return LLONG_MAX;
	if (kstrtoull(strstrip(buf), 10, &v))
		return -EINVAL;
	return v;
}

long long tb_cgroup_read_key(const char *path, const char *file, const char *key)
{
	size_t size = 16384, klen = strlen(key);
	char *buf = kmalloc(size, GFP_KERNEL), *line;
	long long ret = -ENOENT;
	ssize_t n;

	if (!buf)
		return -ENOMEM;
	n = tb_cgroup_read(path, file, buf, size);
	if (n < 0)
		ret = n;
	for (line = buf; n > 0 && line; line = strchr(line, '\n')) {
		line += *line == '\n';
		if (!strncmp(line, key, klen) && line[klen] == ' ') {
			ret = simple_strtoull(line + klen + 1, NULL, 10);
			break;
		}
	}
	kfree(buf);
	return ret;
}

unsigned long tb_cgroup_events_notified(const char *path)
{
	struct mem_cgroup *memcg = tb_memcg(path);

	return memcg ? kshim_cgroup_file_notifications(&memcg->events_file) : 0;
}

unsigned long tb_cgroup_events_local_notified(const char *path)
{
	struct mem_cgroup *memcg = tb_memcg(path);

	return memcg ? kshim_cgroup_file_notifications(&memcg->events_local_file) : 0;
}

void tb_cgroup_set_recursiveprot(bool on)
{
	if (on)
		cgrp_dfl_root.flags |= CGRP_ROOT_MEMORY_RECURSIVE_PROT;
	else
		cgrp_dfl_root.flags &= ~CGRP_ROOT_MEMORY_RECURSIVE_PROT;
}

/* ---- world ---- */
void tb_memcg_world_reset(void)
{
	tb_reclaim_script(TB_RECLAIM_REAL, 0);
	atomic_long_set(&world.calls, 0);
	atomic_long_set(&world.freed, 0);
	atomic_long_set(&world.asked, 0);
	atomic_long_set(&world.memstall, 0);
	atomic_long_set(&world.oom_kills, 0);
	WRITE_ONCE(world.swappiness, -1);
	cgrp_dfl_root.flags = 0;
}

bool tb_memcg_tasks_empty(void)
{
	bool empty;

	spin_lock(&tasks_lock);
	empty = list_empty(&tasks);
	spin_unlock(&tasks_lock);
	return empty;
}
