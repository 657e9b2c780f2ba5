// SPDX-License-Identifier: GPL-2.0-only
#include <linux/slab.h>
#include <linux/rcupdate.h>
#include <linux/swap.h>
#include <unistd.h>
#include "tb_cache.h"

static int memcg_slot(struct mem_cgroup *memcg)
{
	if (!memcg || mem_cgroup_is_root(memcg))
		return 0;
	BUG_ON(memcg->css.id >= TB_CACHE_MAX_MEMCG);
	return memcg->css.id;
}

static unsigned long tb_count(struct shrinker *s, struct shrink_control *sc)
{
	struct tb_cache *c = s->private_data;
	long n;

	if (READ_ONCE(c->dead))
		atomic_long_inc(&c->late_calls);
	atomic_long_inc(&c->count_calls);
	WRITE_ONCE(c->last_memcg, sc->memcg);
	WRITE_ONCE(c->last_nid, sc->nid);
	if (__atomic_load_n(&c->zero_answers, __ATOMIC_RELAXED) > 0 &&
	    __atomic_sub_fetch(&c->zero_answers, 1, __ATOMIC_RELAXED) >= 0)
		return 0;
	if (__atomic_load_n(&c->empty_answers, __ATOMIC_RELAXED) > 0 &&
	    __atomic_sub_fetch(&c->empty_answers, 1, __ATOMIC_RELAXED) >= 0)
		return SHRINK_EMPTY;
	n = atomic_long_read(&c->objects[memcg_slot(sc->memcg)][sc->nid]);
	return n ? n : SHRINK_EMPTY;
}

/*
 * The pages freeing take more objects (freed before) empties, credited as
 * slub's __free_slab() credits a slab page freed under reclaim.
 */
static void credit_slab_pages(struct tb_cache *c, long before, long take)
{
	long per = c->objs_per_page;

	if (!per)
		return;
#if defined(TB_HAVE_mm_account_reclaimed_pages) && TB_HAVE_mm_account_reclaimed_pages
	mm_account_reclaimed_pages((before + take) / per - before / per);
#endif
}

static unsigned long tb_scan(struct shrinker *s, struct shrink_control *sc)
{
	struct tb_cache *c = s->private_data;
	atomic_long_t *objs = &c->objects[memcg_slot(sc->memcg)][sc->nid];
	long have, take;

	if (READ_ONCE(c->dead))
		atomic_long_inc(&c->late_calls);
	atomic_long_inc(&c->scan_calls);
	WRITE_ONCE(c->last_nr_to_scan, sc->nr_to_scan);
	if (c->stop)
		return SHRINK_STOP;
	/* another thread's shrinker_free() may be waiting for this scan */
	if (__atomic_load_n(&c->hold, __ATOMIC_ACQUIRE)) {
		__atomic_store_n(&c->in_scan, 1, __ATOMIC_RELEASE);
		while (__atomic_load_n(&c->hold, __ATOMIC_ACQUIRE))
			usleep(1000);
	}
	atomic_long_add(sc->nr_to_scan, &c->scanned);
	have = atomic_long_read(objs);
	do {
		take = min_t(long, have, sc->nr_to_scan);
	} while (!atomic_long_try_cmpxchg(objs, &have, have - take));
	credit_slab_pages(c, atomic_long_fetch_add(take, &c->freed), take);
	/* a callee may say it scanned more than it was asked to */
	sc->nr_scanned += c->overscan;
	return take;
}

struct tb_cache *tb_cache_create(unsigned int flags)
{
	struct tb_cache *c = calloc(1, sizeof(*c));

	c->objects = calloc(TB_CACHE_MAX_MEMCG, sizeof(*c->objects));
	c->shrinker = shrinker_alloc(flags, "tb-cache");
	if (!c->shrinker) {
		free(c->objects);
		free(c);
		return NULL;
	}
	c->shrinker->count_objects = tb_count;
	c->shrinker->scan_objects = tb_scan;
	c->shrinker->private_data = c;
	shrinker_register(c->shrinker);
	return c;
}

void tb_cache_shrinker_free(struct tb_cache *c)
{
	if (!c->shrinker)
		return;
	shrinker_free(c->shrinker);
	c->shrinker = NULL;
	WRITE_ONCE(c->dead, true);
}

void tb_cache_destroy(struct tb_cache *c)
{
	tb_cache_shrinker_free(c);
	free(c->objects);
	free(c);
}

void tb_cache_add(struct tb_cache *c, struct mem_cgroup *memcg, int nid, long nr)
{
	atomic_long_add(nr, &c->objects[memcg_slot(memcg)][nid]);
	/* what list_lru_add does for a memcg-aware cache */
	if (c->shrinker && (c->shrinker->flags & SHRINKER_MEMCG_AWARE))
		set_shrinker_bit(memcg, nid, c->shrinker->id);
}

void tb_cache_reparent(struct tb_cache *c, struct mem_cgroup *memcg, struct mem_cgroup *parent)
{
	int nid;

	for (nid = 0; nid < TB_CACHE_MAX_NODES; nid++) {
		long n = atomic_long_xchg(&c->objects[memcg_slot(memcg)][nid], 0);

		if (n)
			tb_cache_add(c, parent, nid, n);
	}
}

long tb_cache_objects(struct tb_cache *c, struct mem_cgroup *memcg, int nid)
{
	return atomic_long_read(&c->objects[memcg_slot(memcg)][nid]);
}

static struct shrinker_info *info_of(struct mem_cgroup *memcg, int nid)
{
	return rcu_dereference(memcg->nodeinfo[nid]->shrinker_info);
}

bool tb_shrinker_bit(struct mem_cgroup *memcg, int nid, int id)
{
	struct shrinker_info *info;
	bool set = false;

	rcu_read_lock();
	info = info_of(memcg, nid);
	if (info && id < info->map_nr_max)
		set = test_bit(id % SHRINKER_UNIT_BITS, info->unit[id / SHRINKER_UNIT_BITS]->map);
	rcu_read_unlock();
	return set;
}

long tb_shrinker_deferred(struct mem_cgroup *memcg, int nid, int id)
{
	struct shrinker_info *info;
	long nr = -1;

	rcu_read_lock();
	info = info_of(memcg, nid);
	if (info && id < info->map_nr_max)
		nr = atomic_long_read(&info->unit[id / SHRINKER_UNIT_BITS]->nr_deferred[id % SHRINKER_UNIT_BITS]);
	rcu_read_unlock();
	return nr;
}

int tb_shrinker_map_nr_max(struct mem_cgroup *memcg, int nid)
{
	struct shrinker_info *info;
	int nr;

	rcu_read_lock();
	info = info_of(memcg, nid);
	nr = info ? info->map_nr_max : -1;
	rcu_read_unlock();
	return nr;
}
