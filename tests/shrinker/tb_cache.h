/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A fake object cache behind a real shrinker: per-memcg, per-node object
 * counts that count_objects reports and scan_objects frees, plus call
 * accounting the tests assert on. Shared by the shrinker suites, the fuzz
 * harness and the benchmarks.
 */
#ifndef _TB_CACHE_H
#define _TB_CACHE_H
#include <linux/shrinker.h>
#include <linux/memcontrol.h>

#define TB_CACHE_MAX_MEMCG 4096
#define TB_CACHE_MAX_NODES 4

struct tb_cache {
	struct shrinker *shrinker;
	/* objects[css id][nid]; slot 0 is used by non-memcg shrinking */
	atomic_long_t (*objects)[TB_CACHE_MAX_NODES];
	atomic_long_t count_calls, scan_calls, scanned, freed;
	atomic_long_t late_calls;	/* callbacks after shrinker_free returned */
	unsigned long last_nr_to_scan;
	struct mem_cgroup *last_memcg;
	int last_nid;
	bool dead;
	bool stop;		/* scan returns SHRINK_STOP */
	int empty_answers;	/* next count calls answer SHRINK_EMPTY */
	int zero_answers;	/* next count calls answer 0 (then SHRINK_EMPTY ones) */
	long overscan;		/* scan reports this many more scanned than asked */
	/*
	 * Slab pages (0 objs_per_page: objects take no memory). Per node,
	 * the objects of every memcg fill pages of objs_per_page objects,
	 * taken from alloc_page by tb_cache_add() and handed to free_page
	 * by a scan as they empty, each credited to the reclaimer as slub's
	 * __free_slab() credits it (mm_account_reclaimed_pages()).
	 */
	long objs_per_page;
	struct folio *(*alloc_page)(int nid);
	void (*free_page)(struct folio *folio);
	spinlock_t pages_lock;
	struct list_head pages[TB_CACHE_MAX_NODES];
	long nr_pages[TB_CACHE_MAX_NODES];
	int hold;		/* scan waits (real time) while this is set */
	int in_scan;		/* a scan is waiting on hold */
};

/* shrinker_alloc + callbacks + shrinker_register; NULL if allocation fails */
struct tb_cache *tb_cache_create(unsigned int flags);
/* shrinker_free, then the cache is marked dead (kept to catch late calls) */
void tb_cache_shrinker_free(struct tb_cache *c);
void tb_cache_destroy(struct tb_cache *c);
void tb_cache_add(struct tb_cache *c, struct mem_cgroup *memcg, int nid, long nr);
/* list_lru-style reparenting before memcg goes offline: objects move up */
void tb_cache_reparent(struct tb_cache *c, struct mem_cgroup *memcg, struct mem_cgroup *parent);
long tb_cache_objects(struct tb_cache *c, struct mem_cgroup *memcg, int nid);
/* the shrinker_info bit of this cache's shrinker in memcg on nid */
bool tb_shrinker_bit(struct mem_cgroup *memcg, int nid, int id);
long tb_shrinker_deferred(struct mem_cgroup *memcg, int nid, int id);
int tb_shrinker_map_nr_max(struct mem_cgroup *memcg, int nid);

#endif
