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

/* objects of every memcg on node nid */
static long node_objects(struct tb_cache *c, int nid)
{
	long n = 0;
	int id;

	for (id = 0; id < TB_CACHE_MAX_MEMCG; id++)
		n += atomic_long_read(&c->objects[id][nid]);
	return n;
}

/*
 * Give back the pages of node nid its objects no longer fill, crediting
 * each to the reclaimer; with fill, first take the pages they need.
 */
static void fit_slab_pages(struct tb_cache *c, int nid, bool fill)
{
	long per = c->objs_per_page, need;
	struct folio *folio;

	if (!per)
		return;
	need = DIV_ROUND_UP(node_objects(c, nid), per);
	spin_lock(&c->pages_lock);
	while (fill && c->nr_pages[nid] < need) {
		spin_unlock(&c->pages_lock);
		folio = c->alloc_page(nid);
		BUG_ON(!folio);
		spin_lock(&c->pages_lock);
		list_add(&folio->lru, &c->pages[nid]);
		c->nr_pages[nid]++;
	}
	while (c->nr_pages[nid] > need) {
		folio = list_first_entry(&c->pages[nid], struct folio, lru);
		list_del(&folio->lru);
		c->nr_pages[nid]--;
		spin_unlock(&c->pages_lock);
		c->free_page(folio);
#if defined(TB_HAVE_mm_account_reclaimed_pages) && TB_HAVE_mm_account_reclaimed_pages
		mm_account_reclaimed_pages(1);
#endif
		spin_lock(&c->pages_lock);
	}
	spin_unlock(&c->pages_lock);
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
	atomic_long_add(take, &c->freed);
	fit_slab_pages(c, sc->nid, false);
	/* a callee may say it scanned more than it was asked to */
	sc->nr_scanned += c->overscan;
	return take;
}

struct tb_cache *tb_cache_create(unsigned int flags)
{
	struct tb_cache *c = calloc(1, sizeof(*c));
	int nid;

	c->objects = calloc(TB_CACHE_MAX_MEMCG, sizeof(*c->objects));
	spin_lock_init(&c->pages_lock);
	for (nid = 0; nid < TB_CACHE_MAX_NODES; nid++)
		INIT_LIST_HEAD(&c->pages[nid]);
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
	struct folio *folio, *tmp;
	int nid;

	tb_cache_shrinker_free(c);
	for (nid = 0; nid < TB_CACHE_MAX_NODES; nid++)
		list_for_each_entry_safe(folio, tmp, &c->pages[nid], lru) {
			list_del(&folio->lru);
			c->free_page(folio);
		}
	free(c->objects);
	free(c);
}

void tb_cache_add(struct tb_cache *c, struct mem_cgroup *memcg, int nid, long nr)
{
	atomic_long_add(nr, &c->objects[memcg_slot(memcg)][nid]);
	fit_slab_pages(c, nid, true);
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
