// SPDX-License-Identifier: GPL-2.0-only
/*
 * The simulated filesystem of tb_fs.h, compiled once per tree
 * (TB_FS_TREE 61 or 612). Mount, umount and the shrinker callbacks follow
 * fs/super.c of each tree: 6.1 embeds the shrinker and registers it in two
 * steps around list_lru_init_memcg(); 6.12 allocates it with
 * shrinker_alloc() and frees it with shrinker_free().
 */
#include <linux/kernel.h>
#include <linux/atomic.h>
#include <linux/cache.h>	/* list_lru.h's ____cacheline_aligned_in_smp */
#include <linux/slab.h>
#include <linux/list_lru.h>
#include <linux/memcontrol.h>
#include <linux/shrinker.h>
#include <kshim/memcg.h>
#include <kshim/memcg_kmem.h>
#include <kshim/objpage.h>
#include "tb_fs.h"
#if TB_FS_TREE == 61
#include "env.h"
#include <k61/stats.h>
#define TB_FS_OPS k61_tb_fs
#else
#include <kgen/mm_internal_shrinker.h>
#define TB_FS_OPS k612_tb_fs
#endif

/*
 * a walk callback's arguments: 6.1's and 6.12's get the list's lock, 7.2's
 * do not (list_lru_cb_no_lock)
 */
#if TB_FS_TREE != 61 && TB_HAVE_list_lru_cb_no_lock
#define TB_LRU_CB_LOCK
/*
 * and a callback that asks for a restart or a stop (LRU_REMOVED_RETRY,
 * LRU_RETRY, LRU_STOP) drops the list's lock itself, which the walk takes
 * again to restart (before: the walk's lock stays held)
 */
#define TB_LRU_CB_DROP(list) spin_unlock(&(list)->lock)
#else
#define TB_LRU_CB_LOCK spinlock_t *lock,
#define TB_LRU_CB_DROP(list) do { } while (0)
#endif

#define TB_OBJ_LIVE 0x4c495645
#define TB_OBJ_FREE 0x46524545

extern atomic_long_t tb_fs_error_count;

struct tb_page {
	atomic_long_t live;	/* objects not yet freed, +1 while being filled */
};

struct tb_obj {
	struct list_head lru;
	struct tb_mount *m;
	struct tb_page *page;
	unsigned int state;
	long tag;		/* obj_add's */
};

#define TB_PAGE_OBJS ((PAGE_SIZE - KSHIM_OBJPAGE_DATA - sizeof(struct tb_page)) / \
		      sizeof(struct tb_obj))

struct tb_mount {
#if TB_FS_TREE == 61
	struct shrinker shrinker;
#else
	struct shrinker *shrinker;
#endif
	struct list_lru lru;
	atomic_long_t live, freed;
};

/* list_lru_add of a fresh object: true (it was not on a list) */
static bool lru_add(struct tb_mount *m, struct tb_obj *o)
{
#if TB_FS_TREE == 61
	return list_lru_add(&m->lru, &o->lru);
#else
	return list_lru_add_obj(&m->lru, &o->lru);
#endif
}

static struct tb_page *obj_page(void *pg)
{
	return (struct tb_page *)((char *)pg + KSHIM_OBJPAGE_DATA);
}

static void page_put(struct tb_page *pg)
{
	if (atomic_long_dec_and_test(&pg->live))
		kshim_objpage_free(kshim_objpage_of(pg));
}

static void obj_free(struct tb_obj *o)
{
	struct tb_page *pg = o->page;

	if (o->state != TB_OBJ_LIVE) {
		atomic_long_inc(&tb_fs_error_count);
		return;
	}
	o->state = TB_OBJ_FREE;
	atomic_long_dec(&o->m->live);
	page_put(pg);
}

static void dispose(struct list_head *list)
{
	struct tb_obj *o, *n;

	list_for_each_entry_safe(o, n, list, lru) {
		list_del_init(&o->lru);
		obj_free(o);
	}
}

static enum lru_status isolate_all(struct list_head *item, struct list_lru_one *list,
				   TB_LRU_CB_LOCK void *arg)
{
	list_lru_isolate_move(list, item, arg);
	return LRU_REMOVED;
}

/* every other object goes, the rest rotate: a walk that keeps some */
static enum lru_status isolate_half(struct list_head *item, struct list_lru_one *list,
				    TB_LRU_CB_LOCK void *arg)
{
	struct list_head *dispose_list = arg;
	struct tb_obj *o = container_of(item, struct tb_obj, lru);

	if (o->state != TB_OBJ_LIVE)
		atomic_long_inc(&tb_fs_error_count);
	if ((unsigned long)o / sizeof(*o) % 2)
		return LRU_ROTATE;
	list_lru_isolate_move(list, item, dispose_list);
	return LRU_REMOVED;
}

static unsigned long fs_count(struct shrinker *s, struct shrink_control *sc)
{
#if TB_FS_TREE == 61
	struct tb_mount *m = container_of(s, struct tb_mount, shrinker);
#else
	struct tb_mount *m = s->private_data;
#endif
	unsigned long n = list_lru_shrink_count(&m->lru, sc);

	return n ? n : SHRINK_EMPTY;
}

static unsigned long fs_scan(struct shrinker *s, struct shrink_control *sc)
{
#if TB_FS_TREE == 61
	struct tb_mount *m = container_of(s, struct tb_mount, shrinker);
#else
	struct tb_mount *m = s->private_data;
#endif
	LIST_HEAD(list);
	unsigned long freed;

	freed = list_lru_shrink_walk(&m->lru, sc, isolate_all, &list);
	dispose(&list);
	atomic_long_add(freed, &m->freed);
	return freed;
}

static struct tb_mount *fs_mount(void)
{
	struct tb_mount *m = kzalloc(sizeof(*m), GFP_KERNEL);

	if (!m)
		return NULL;
#if TB_FS_TREE == 61
	m->shrinker.count_objects = fs_count;
	m->shrinker.scan_objects = fs_scan;
	m->shrinker.seeks = DEFAULT_SEEKS;
	m->shrinker.batch = 1024;
	m->shrinker.flags = SHRINKER_NUMA_AWARE | SHRINKER_MEMCG_AWARE;
	if (prealloc_shrinker(&m->shrinker, "tb_fs"))
		goto free_m;
	if (list_lru_init_memcg(&m->lru, &m->shrinker)) {
		free_prealloced_shrinker(&m->shrinker);
		goto free_m;
	}
	register_shrinker_prepared(&m->shrinker);
#else
	m->shrinker = shrinker_alloc(SHRINKER_NUMA_AWARE | SHRINKER_MEMCG_AWARE, "tb_fs");
	if (!m->shrinker)
		goto free_m;
	if (list_lru_init_memcg(&m->lru, m->shrinker)) {
		shrinker_free(m->shrinker);
		goto free_m;
	}
	m->shrinker->count_objects = fs_count;
	m->shrinker->scan_objects = fs_scan;
	m->shrinker->seeks = DEFAULT_SEEKS;
	m->shrinker->batch = 1024;
	m->shrinker->private_data = m;
	shrinker_register(m->shrinker);
#endif
	return m;
free_m:
	kfree(m);
	return NULL;
}

static void fs_umount(struct tb_mount *m)
{
	int nid;

#if TB_FS_TREE == 61
	unregister_shrinker(&m->shrinker);
#else
	shrinker_free(m->shrinker);
#endif
	for_each_node(nid) {
		unsigned long nr = ULONG_MAX;
		LIST_HEAD(list);

		list_lru_walk_node(&m->lru, nid, isolate_all, &list, &nr);
		dispose(&list);
	}
	if (atomic_long_read(&m->live))
		atomic_long_inc(&tb_fs_error_count);
	list_lru_destroy(&m->lru);
	kfree(m);
}

static int fs_add(struct tb_mount *m, struct mem_cgroup *memcg, int nid, unsigned int nr)
{
	int err;

	/*
	 * what kmem_cache_alloc_lru() does before a charged allocation, with
	 * the object's flags (__GFP_ACCOUNT, as an accounted xarray's nodes)
	 */
	err = memcg_list_lru_alloc(memcg, &m->lru, GFP_KERNEL_ACCOUNT);
	if (err)
		return err;
	while (nr) {
		void *pg = kshim_objpage_alloc(nid, memcg);
		struct tb_obj *o;
		unsigned int k;

		if (!pg)
			return -ENOMEM;
		/* a reclaimer may free the first objects while the rest are added */
		atomic_long_set(&obj_page(pg)->live, 1);
		o = (struct tb_obj *)(obj_page(pg) + 1);
		for (k = 0; k < TB_PAGE_OBJS && nr; k++, nr--, o++) {
			atomic_long_inc(&obj_page(pg)->live);
			atomic_long_inc(&m->live);
			o->m = m;
			o->page = obj_page(pg);
			o->state = TB_OBJ_LIVE;
			INIT_LIST_HEAD(&o->lru);
			if (!lru_add(m, o))
				atomic_long_inc(&tb_fs_error_count);
		}
		page_put(obj_page(pg));
	}
	return 0;
}

static enum lru_status isolate_one(struct list_head *item, struct list_lru_one *list,
				   TB_LRU_CB_LOCK void *arg)
{
	struct tb_obj **found = arg;

	*found = container_of(item, struct tb_obj, lru);
	return LRU_SKIP;
}

static bool fs_del_one(struct tb_mount *m, struct mem_cgroup *memcg, int nid)
{
	struct tb_obj *o = NULL;
	unsigned long nr = 1;
	bool ok;

	/* find it with a walk, then take it off with list_lru_del() */
	list_lru_walk_one(&m->lru, nid, memcg, isolate_one, &o, &nr);
	if (!o)
		return false;
#if TB_FS_TREE == 61
	ok = list_lru_del(&m->lru, &o->lru);
#else
	ok = list_lru_del_obj(&m->lru, &o->lru);
#endif
	if (!ok)
		atomic_long_inc(&tb_fs_error_count);
	else
		obj_free(o);
	return ok;
}

static long fs_count_one(struct tb_mount *m, struct mem_cgroup *memcg, int nid)
{
	return list_lru_count_one(&m->lru, nid, memcg);
}

static long fs_count_node(struct tb_mount *m, int nid)
{
	return list_lru_count_node(&m->lru, nid);
}

static long fs_walk_half(struct tb_mount *m, struct mem_cgroup *memcg, int nid)
{
	/* rotated items come round again: walk each once */
	unsigned long nr = list_lru_count_one(&m->lru, nid, memcg), n;
	LIST_HEAD(list);

	n = list_lru_walk_one(&m->lru, nid, memcg, isolate_half, &list, &nr);
	dispose(&list);
	return n;
}

static long fs_live(struct tb_mount *m)
{
	return atomic_long_read(&m->live);
}

static long fs_freed(struct tb_mount *m)
{
	return atomic_long_read(&m->freed);
}

static int fs_shrinker_id(struct tb_mount *m)
{
#if TB_FS_TREE == 61
	return m->shrinker.id;
#else
	return m->shrinker->id;
#endif
}

static int fs_map_nr_max(struct mem_cgroup *memcg)
{
#if TB_FS_TREE == 61
	/* highest id + 1; the maps have room up to the next long */
	return round_up(READ_ONCE(shrinker_nr_max), BITS_PER_LONG);
#else
	struct shrinker_info *info;
	int nr;

	rcu_read_lock();
	info = rcu_dereference(memcg->nodeinfo[0]->shrinker_info);
	nr = info ? info->map_nr_max : 0;
	rcu_read_unlock();
	return nr;
#endif
}

static bool fs_bit(struct tb_mount *m, struct mem_cgroup *memcg, int nid)
{
	struct shrinker_info *info;
	int id = fs_shrinker_id(m);
	bool set = false;

	rcu_read_lock();
	info = rcu_dereference(memcg->nodeinfo[nid]->shrinker_info);
#if TB_FS_TREE == 61
	if (info)
		set = test_bit(id, info->map);
#else
	if (info && id < info->map_nr_max)
		set = test_bit(id % SHRINKER_UNIT_BITS, info->unit[id / SHRINKER_UNIT_BITS]->map);
#endif
	rcu_read_unlock();
	return set;
}

static unsigned long fs_shrink_slab(int nid, struct mem_cgroup *memcg, int priority)
{
	return shrink_slab(GFP_KERNEL, nid, memcg, priority);
}

/* shrink_slab is this tree's (k61_shrink_slab under 6.1's names.h) */
static unsigned long fs_shrink_memcgs(struct mem_cgroup *root, int nid, int priority,
				      unsigned long *visits)
{
	return kshim_shrink_memcgs_with(shrink_slab, root, nid, priority, visits);
}

static void fs_giveups(long *trylock_fails, long *contended_breaks)
{
#if TB_FS_TREE == 61
	struct k61_stats st;

	k61_stats_read(&st);
	*trylock_fails = st.trylock_fails;
	*contended_breaks = st.contended_breaks;
#else
	/* mm/shrinker.c's shrink_slab_memcg has no lock to give up on */
	*trylock_fails = 0;
	*contended_breaks = 0;
#endif
}

static struct tb_obj *fs_obj_add(struct tb_mount *m, struct mem_cgroup *memcg, int nid,
			      long tag)
{
	void *pg;
	struct tb_obj *o;

	if (memcg_list_lru_alloc(memcg, &m->lru, GFP_KERNEL))
		return NULL;
	pg = kshim_objpage_alloc(nid, memcg);
	if (!pg)
		return NULL;
	atomic_long_set(&obj_page(pg)->live, 1);
	atomic_long_inc(&m->live);
	o = (struct tb_obj *)(obj_page(pg) + 1);
	o->m = m;
	o->page = obj_page(pg);
	o->state = TB_OBJ_LIVE;
	o->tag = tag;
	INIT_LIST_HEAD(&o->lru);
	if (!lru_add(m, o))
		atomic_long_inc(&tb_fs_error_count);
	return o;
}

static bool fs_obj_del(struct tb_mount *m, struct tb_obj *o)
{
	bool ok;

#if TB_FS_TREE == 61
	ok = list_lru_del(&m->lru, &o->lru);
#else
	ok = list_lru_del_obj(&m->lru, &o->lru);
#endif
	if (ok)
		obj_free(o);
	return ok;
}

struct walk_ctl {
	tb_walk_fn fn;
	void *arg;
	struct list_head dispose;
};

static enum lru_status isolate_verdict(struct list_head *item, struct list_lru_one *list,
				       TB_LRU_CB_LOCK void *arg)
{
	struct walk_ctl *w = arg;
	struct tb_obj *o = container_of(item, struct tb_obj, lru);

	if (o->state != TB_OBJ_LIVE)
		atomic_long_inc(&tb_fs_error_count);
	switch (w->fn(o->tag, w->arg)) {
	case TB_WALK_REMOVE:
		list_lru_isolate_move(list, item, &w->dispose);
		return LRU_REMOVED;
	case TB_WALK_REMOVE_RETRY:
		list_lru_isolate_move(list, item, &w->dispose);
		TB_LRU_CB_DROP(list);
		return LRU_REMOVED_RETRY;
	case TB_WALK_ROTATE:
		return LRU_ROTATE;
#if TB_FS_TREE != 61
	case TB_WALK_STOP:
		TB_LRU_CB_DROP(list);
		return LRU_STOP;
#endif
	case TB_WALK_RETRY:
		TB_LRU_CB_DROP(list);
		return LRU_RETRY;
	case TB_WALK_SKIP:
		return LRU_SKIP;
	default:
		/* 6.1 has no LRU_STOP: a caller must not ask for it */
		atomic_long_inc(&tb_fs_error_count);
		return LRU_SKIP;
	}
}

static long fs_walk_one(struct tb_mount *m, struct mem_cgroup *memcg, int nid,
			unsigned long nr, tb_walk_fn fn, void *arg)
{
	struct walk_ctl w = { .fn = fn, .arg = arg, .dispose = LIST_HEAD_INIT(w.dispose) };
	long n = list_lru_walk_one(&m->lru, nid, memcg, isolate_verdict, &w, &nr);

	dispose(&w.dispose);
	return n;
}

static long fs_walk_node(struct tb_mount *m, int nid, unsigned long nr, tb_walk_fn fn,
			 void *arg)
{
	struct walk_ctl w = { .fn = fn, .arg = arg, .dispose = LIST_HEAD_INIT(w.dispose) };
	long n = list_lru_walk_node(&m->lru, nid, isolate_verdict, &w, &nr);

	dispose(&w.dispose);
	return n;
}

static int fs_memcg_lists(struct tb_mount *m)
{
	unsigned long idx;
	void *mlru;
	int n = 0;

	xa_for_each(&m->lru.xa, idx, mlru)
		n++;
	return n;
}

static int fs_kmemcg_id(struct mem_cgroup *memcg)
{
	return READ_ONCE(memcg->kmemcg_id);
}

static void fs_memcg_pin(struct mem_cgroup *memcg)
{
	css_get(&memcg->css);
}

static void fs_memcg_unpin(struct mem_cgroup *memcg)
{
	css_put(&memcg->css);
}

static void fs_giveups_reset(void)
{
#if TB_FS_TREE == 61
	k61_stats_reset();
#endif
}

/* mem_cgroup_css_online/offline/free of the tree, for what exists here */
static int hook_online(struct mem_cgroup *memcg)
{
	int err = kshim_memcg_kmem_online(memcg);

	if (!err)
		err = alloc_shrinker_info(memcg);
	if (err)
		kshim_memcg_kmem_free(memcg);
	return err;
}

static void hook_offline(struct mem_cgroup *memcg)
{
	struct mem_cgroup *parent = parent_mem_cgroup(memcg);

	/*
	 * memcg_offline_kmem(), then the deferred counts move up; the root,
	 * which a kernel never offlines (the world does at its end), keeps
	 * them (7.2's reparent_shrinker_deferred() wants a parent)
	 */
	if (!parent)
		return;
	memcg_reparent_list_lrus(memcg, parent);
	reparent_shrinker_deferred(memcg);
}

static void hook_free(struct mem_cgroup *memcg)
{
	free_shrinker_info(memcg);
	kshim_memcg_kmem_free(memcg);
}

static const struct kshim_memcg_hooks hooks = {
	.online = hook_online,
	.offline = hook_offline,
	.free = hook_free,
};

static void fs_use(void)
{
	kshim_memcg_hooks = &hooks;
}

static void fs_destroy_twice(struct tb_mount *m, int *init_id, int *memcg_id,
			     void **node, int *shrinker_id)
{
	struct list_lru lru;

	memset(&lru, 0, sizeof(lru));
	lru.shrinker_id = 12345;	/* what init must overwrite */
	*node = ERR_PTR(-ENOMEM);	/* not NULL: the caller's check fails */
	if (list_lru_init(&lru))
		return;
	*init_id = lru.shrinker_id;
	list_lru_destroy(&lru);
#if TB_FS_TREE == 61
	if (list_lru_init_memcg(&lru, &m->shrinker))
#else
	if (list_lru_init_memcg(&lru, m->shrinker))
#endif
		return;
	*memcg_id = lru.shrinker_id;
	list_lru_destroy(&lru);
	*node = lru.node;
	*shrinker_id = lru.shrinker_id;
	list_lru_destroy(&lru);
}

static int fs_unaware_alloc(struct mem_cgroup *memcg, bool *stored)
{
	struct list_lru lru;
	int err;

	memset(&lru, 0, sizeof(lru));
	if (list_lru_init(&lru))
		return -ENOMEM;
	err = memcg_list_lru_alloc(memcg, &lru, GFP_KERNEL);
	*stored = !xa_empty(&lru.xa);
	list_lru_destroy(&lru);
	return err;
}

const struct tb_fs_ops TB_FS_OPS = {
#if TB_FS_TREE == 61
	.tree = "6.1",
	.prefix = "k61_",
#else
	.tree = "6.12",
	.prefix = "",
#endif
	.use = fs_use,
	.mount = fs_mount,
	.umount = fs_umount,
	.add = fs_add,
	.del_one = fs_del_one,
	.count = fs_count_one,
	.count_node = fs_count_node,
	.walk_half = fs_walk_half,
	.live = fs_live,
	.freed = fs_freed,
	.shrinker_id = fs_shrinker_id,
	.map_nr_max = fs_map_nr_max,
	.bit = fs_bit,
	.shrink_slab = fs_shrink_slab,
	.shrink_memcgs = fs_shrink_memcgs,
	.giveups = fs_giveups,
	.giveups_reset = fs_giveups_reset,
	.obj_add = fs_obj_add,
	.obj_del = fs_obj_del,
	.walk_one = fs_walk_one,
	.walk_node = fs_walk_node,
	.memcg_lists = fs_memcg_lists,
	.kmemcg_id = fs_kmemcg_id,
	.memcg_pin = fs_memcg_pin,
	.memcg_unpin = fs_memcg_unpin,
	.destroy_twice = fs_destroy_twice,
	.unaware_alloc = fs_unaware_alloc,
};
