// SPDX-License-Identifier: GPL-2.0-only
/*
 * The cgroup core as mm code sees it: a css tree whose children lists are
 * RCU lists, css refcounts (a child pins its parent), online/offline, and
 * release after a grace period. Walks survive removal of the current
 * position by resuming at the next larger serial number, which is what
 * lets mem_cgroup_iter() run concurrently with rmdir.
 */
#include <linux/cgroup.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/jiffies.h>
#include <linux/spinlock.h>
#include <linux/cpumask.h>

DEFINE_STATIC_KEY_TRUE(memory_cgrp_subsys_enabled_key);
DEFINE_STATIC_KEY_TRUE(memory_cgrp_subsys_on_dfl_key);

/* mount options of the default hierarchy (memory_recursiveprot, ...) */
struct cgroup_root cgrp_dfl_root;

DEFINE_MUTEX(cgroup_mutex);
static u64 css_serial_nr_next = 1;
/* css ids are small and reused, as the kernel's per-subsystem css_idr */
static DEFINE_IDR(css_idr);

/*
 * Flags change under cgroup_mutex but are read locklessly (walks, the real
 * css_get/css_put): update them atomically.
 */
static void css_flags_set(struct cgroup_subsys_state *css, unsigned int f)
{
	__atomic_fetch_or(&css->flags, f, __ATOMIC_RELEASE);
}

static void css_flags_clear(struct cgroup_subsys_state *css, unsigned int f)
{
	__atomic_fetch_and(&css->flags, ~f, __ATOMIC_RELEASE);
}

/* css_free_rwork_fn(): ->css_free in process context, after a grace period */
static void css_free_work_fn(struct work_struct *work)
{
	struct cgroup_subsys_state *css =
		container_of(work, struct cgroup_subsys_state, destroy_rwork.work);
	struct cgroup_subsys_state *parent = css->parent;
	struct cgroup *cgrp = css->cgroup;
	/* read before ->css_free: a cgroup that is not cgroupfs's may go with it */
	bool own_cgrp = cgrp && cgrp->kshim_fs;

	mutex_lock(&cgroup_mutex);
	idr_remove(&css_idr, css->id);
	mutex_unlock(&cgroup_mutex);
	percpu_ref_exit(&css->refcnt);
	css->ss->css_free(css);
	/* a cgroupfs directory outlives its css, as struct cgroup does */
	if (own_cgrp)
		kfree(cgrp);
	if (parent)
		css_put(parent);
}

/* queue_rcu_work(): the grace period, then the work */
static void css_free_rcu(struct rcu_head *head)
{
	struct cgroup_subsys_state *css =
		container_of(head, struct cgroup_subsys_state, destroy_rwork.rcu);

	INIT_WORK(&css->destroy_rwork.work, css_free_work_fn);
	queue_work(system_wq, &css->destroy_rwork.work);
}

/* off the parent's children list (walkers still see it until a grace period) */
static void css_unlink(struct cgroup_subsys_state *css)
{
	lockdep_assert_held(&cgroup_mutex);
	if (css->parent) {
		list_del_rcu(&css->sibling);
#if TB_HAVE_css_nr_descendants
		css->parent->nr_descendants--;
#endif
	}
}

static DEFINE_SPINLOCK(rstat_lock);
/* cgroup_rstat_cpu_lock: a CPU's marks change under its lock */
static spinlock_t rstat_cpu_lock[CONFIG_NR_CPUS] = {
	[0 ... CONFIG_NR_CPUS - 1] = __SPIN_LOCK_UNLOCKED(rstat_cpu_lock),
};

/*
 * cgroup_rstat_updated(): mark cgrp and its ancestors on cpu. A marked
 * cgroup's ancestors are marked (a flush clears whole subtrees under the
 * CPU's lock), so a cgroup already marked needs nothing.
 */
void __cgroup_rstat_updated(struct cgroup *cgrp, int cpu)
{
	struct cgroup_subsys_state *css = cgrp->subsys[memory_cgrp_id];
	unsigned long flags;

	if (!css || test_bit(cpu, cgrp->kshim_rstat_updated))
		return;
	spin_lock_irqsave(&rstat_cpu_lock[cpu], flags);
	for (; css && !test_bit(cpu, css->cgroup->kshim_rstat_updated); css = css->parent)
		set_bit(cpu, css->cgroup->kshim_rstat_updated);
	spin_unlock_irqrestore(&rstat_cpu_lock[cpu], flags);
}

/* every CPU's pending stats of a released css, marked or not */
static void css_rstat_flush_cpus(struct cgroup_subsys_state *css)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		spin_lock_irq(&rstat_cpu_lock[cpu]);
		clear_bit(cpu, css->cgroup->kshim_rstat_updated);
		css->ss->css_rstat_flush(css, cpu);
		spin_unlock_irq(&rstat_cpu_lock[cpu]);
	}
}

/* the subtree's marks on cpu, popped at once as the kernel pops the tree */
static void css_rstat_flush_subtree(struct cgroup_subsys_state *root, int cpu)
{
	struct cgroup_subsys_state *css = NULL;

	spin_lock_irq(&rstat_cpu_lock[cpu]);
	while ((css = css_next_descendant_post(css, root)))
		if (test_and_clear_bit(cpu, css->cgroup->kshim_rstat_updated))
			css->ss->css_rstat_flush(css, cpu);
	spin_unlock_irq(&rstat_cpu_lock[cpu]);
}

/* css_release_work_fn(): unlink now, free after a grace period */
static void css_release_work_fn(struct work_struct *work)
{
	struct cgroup_subsys_state *css =
		container_of(work, struct cgroup_subsys_state, destroy_work);

	/* css_release_work_fn: its pending stats go to the parent first */
	if (css->ss->css_rstat_flush) {
		spin_lock(&rstat_lock);
		css_rstat_flush_cpus(css);
		spin_unlock(&rstat_lock);
	}
	mutex_lock(&cgroup_mutex);
	css_flags_set(css, CSS_RELEASED);
	css_unlink(css);
	mutex_unlock(&cgroup_mutex);
	if (css->ss->css_released)
		css->ss->css_released(css);
	call_rcu(&css->destroy_rwork.rcu, css_free_rcu);
}

/* the last reference may go in any context: release from a work item */
static void css_release(struct percpu_ref *ref)
{
	struct cgroup_subsys_state *css =
		container_of(ref, struct cgroup_subsys_state, refcnt);

	INIT_WORK(&css->destroy_work, css_release_work_fn);
	queue_work(system_wq, &css->destroy_work);
}

/* notifications per control file, for tests of memory.events & co */
#define NOTIFY_SLOTS 1024
static struct {
	struct cgroup_file *file;
	unsigned long count;
} notify[NOTIFY_SLOTS];
static DEFINE_SPINLOCK(notify_lock);

static unsigned long *notify_slot(struct cgroup_file *cfile, bool add)
{
	unsigned long h = ((unsigned long)cfile >> 4) % NOTIFY_SLOTS, i;

	for (i = 0; i < NOTIFY_SLOTS; i++, h = (h + 1) % NOTIFY_SLOTS) {
		if (notify[h].file == cfile)
			return &notify[h].count;
		if (!notify[h].file) {
			if (!add)
				return NULL;
			notify[h].file = cfile;
			return &notify[h].count;
		}
	}
	return NULL;
}

void cgroup_file_notify(struct cgroup_file *cfile)
{
	unsigned long *count;

	spin_lock(&notify_lock);
	cfile->notified_at = jiffies;
	count = notify_slot(cfile, true);
	if (count)
		(*count)++;
	spin_unlock(&notify_lock);
}

unsigned long kshim_cgroup_file_notifications(struct cgroup_file *cfile)
{
	unsigned long *count, n;

	spin_lock(&notify_lock);
	count = notify_slot(cfile, false);
	n = count ? *count : 0;
	spin_unlock(&notify_lock);
	return n;
}

/* the css of an id, under rcu_read_lock() (the kernel's idr_find of ss->css_idr) */
struct cgroup_subsys_state *css_from_id(int id, struct cgroup_subsys *ss)
{
	struct cgroup_subsys_state *css;

	WARN_ON_ONCE(!rcu_read_lock_held());
	css = idr_find(&css_idr, id);
	return css && css->ss == ss ? css : NULL;
}

int kshim_css_create(struct cgroup_subsys_state *css, struct cgroup_subsys_state *parent,
		     struct cgroup_subsys *ss)
{
	int ret;

	percpu_ref_init(&css->refcnt, css_release, 0, GFP_KERNEL);
	INIT_LIST_HEAD(&css->sibling);
	INIT_LIST_HEAD(&css->children);
	css->ss = ss;
	css->parent = parent;
	mutex_lock(&cgroup_mutex);
	css->id = idr_alloc(&css_idr, css, 1, 0, GFP_KERNEL);
	if (css->id < 0) {
		mutex_unlock(&cgroup_mutex);
		percpu_ref_exit(&css->refcnt);
		return css->id;
	}
	css->serial_nr = css_serial_nr_next++;
	if (parent) {
		css_get(parent);
		list_add_tail_rcu(&css->sibling, &parent->children);
#if TB_HAVE_css_nr_descendants
		parent->nr_descendants++;
#endif
	}
	mutex_unlock(&cgroup_mutex);
	ret = ss->css_online ? ss->css_online(css) : 0;
	if (ret) {
		/* never went online: unlink and let the caller free it */
		mutex_lock(&cgroup_mutex);
		css_unlink(css);
		idr_remove(&css_idr, css->id);
		mutex_unlock(&cgroup_mutex);
		synchronize_rcu();
		/* css_free_rwork_fn() of the kernel's error path */
		percpu_ref_exit(&css->refcnt);
		if (parent)
			css_put(parent);
		return ret;
	}
	css_flags_set(css, CSS_ONLINE);
	atomic_inc(&css->online_cnt);
	return 0;
}

void kshim_css_kill(struct cgroup_subsys_state *css)
{
	/*
	 * kill_css(): no new live references, offline, then drop the hold.
	 * The hold is on the refcount itself: css_get() is a no-op on a
	 * CSS_NO_REF root, which only the test bed ever kills.
	 */
	percpu_ref_get(&css->refcnt);
	css_flags_set(css, CSS_DYING);
	percpu_ref_kill(&css->refcnt);
	/*
	 * A kernel never offlines a root css: the world's end releases it
	 * without ->css_offline (7.2's mem_cgroup_css_offline() reparents to
	 * a parent the root does not have)
	 */
	if (css->ss->css_offline && css->parent)
		css->ss->css_offline(css);
	css_flags_clear(css, CSS_ONLINE);
	atomic_dec(&css->online_cnt);
	percpu_ref_put(&css->refcnt);
}

struct cgroup_subsys_state *css_next_child(struct cgroup_subsys_state *pos,
					   struct cgroup_subsys_state *parent)
{
	struct list_head *head = &parent->children, *n;
	struct cgroup_subsys_state *next;

	if (!pos) {
		n = rcu_dereference_raw(head->next);
	} else if (!(READ_ONCE(pos->flags) & CSS_RELEASED)) {
		n = rcu_dereference_raw(pos->sibling.next);
	} else {
		/* pos left the list: resume at the first younger sibling */
		for (n = rcu_dereference_raw(head->next); n != head;
		     n = rcu_dereference_raw(n->next)) {
			next = list_entry(n, struct cgroup_subsys_state, sibling);
			if (next->serial_nr > pos->serial_nr)
				break;
		}
	}
	if (n == head)
		return NULL;
	return list_entry(n, struct cgroup_subsys_state, sibling);
}

struct cgroup_subsys_state *css_next_descendant_pre(struct cgroup_subsys_state *pos,
						    struct cgroup_subsys_state *root)
{
	struct cgroup_subsys_state *next;

	if (!pos)
		return root;
	next = css_next_child(NULL, pos);
	if (next)
		return next;
	for (; pos != root; pos = pos->parent) {
		next = css_next_child(pos, pos->parent);
		if (next)
			return next;
	}
	return NULL;
}

/* post-order: the leftmost leaf first, a css after all its children */
static struct cgroup_subsys_state *css_leftmost_descendant(struct cgroup_subsys_state *pos)
{
	struct cgroup_subsys_state *last;

	do {
		last = pos;
		pos = css_next_child(NULL, pos);
	} while (pos);
	return last;
}

struct cgroup_subsys_state *css_next_descendant_post(struct cgroup_subsys_state *pos,
						     struct cgroup_subsys_state *root)
{
	struct cgroup_subsys_state *next;

	if (!pos)
		return css_leftmost_descendant(root);
	if (pos == root)
		return NULL;
	next = css_next_child(pos, pos->parent);
	if (next)
		return css_leftmost_descendant(next);
	return pos->parent;
}

/*
 * cgroup_rstat_flush(): the css of the subtree marked on each CPU,
 * children before their parent, as the kernel pops a CPU's updated tree.
 */
void cgroup_rstat_flush(struct cgroup *cgrp)
{
	might_sleep();
	cgroup_rstat_flush_irqsafe(cgrp);
}

/* before 6.6: the flush from a context that cannot sleep (irqs off) */
void cgroup_rstat_flush_irqsafe(struct cgroup *cgrp)
{
	struct cgroup_subsys_state *root = cgrp->subsys[memory_cgrp_id];
	int cpu;

	if (!root || !root->ss->css_rstat_flush)
		return;
	rcu_read_lock();
	spin_lock(&rstat_lock);
	for_each_possible_cpu(cpu)
		css_rstat_flush_subtree(root, cpu);
	spin_unlock(&rstat_lock);
	rcu_read_unlock();
}

/* the world's taskset holds one task (tb_task_move()) */
struct task_struct *cgroup_taskset_next(struct cgroup_taskset *tset,
					struct cgroup_subsys_state **dst_cssp)
{
	if (tset->walked)
		return NULL;
	tset->walked = true;
	*dst_cssp = tset->dst_css;
	return tset->task;
}

struct task_struct *cgroup_taskset_first(struct cgroup_taskset *tset,
					 struct cgroup_subsys_state **dst_cssp)
{
	tset->walked = false;
	return cgroup_taskset_next(tset, dst_cssp);
}
