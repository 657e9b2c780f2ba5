/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A simulated filesystem over the real shrinker and list_lru code of one
 * tree: a "mount" is a memcg- and NUMA-aware shrinker over a memcg-aware
 * list_lru of objects, as a superblock's dentry/inode LRUs are. The same
 * source (tb_fs.c) is compiled once per tree; tests, benchmarks, the fuzz
 * harness and seed 003 use both through these tables. No kernel types
 * here, so C++ can include it.
 */
#ifndef _TB_FS_H
#define _TB_FS_H
#include <stdbool.h>
#ifdef __cplusplus
extern "C" {
#endif
struct mem_cgroup;
struct tb_mount;
struct tb_obj;

/* what a walk callback does with one object (tb_fs_ops.walk_one/walk_node) */
enum tb_walk_verdict {
	TB_WALK_REMOVE,		/* isolate it (LRU_REMOVED), freed after the walk */
	TB_WALK_ROTATE,		/* LRU_ROTATE */
	TB_WALK_SKIP,		/* LRU_SKIP */
	TB_WALK_STOP,		/* LRU_STOP (6.12 only; an error on 6.1) */
	TB_WALK_REMOVE_RETRY,	/* isolate it, LRU_REMOVED_RETRY (walk restarts) */
	TB_WALK_RETRY,		/* LRU_RETRY (walk restarts) */
};
/* called under the list's lock with the tag given to obj_add */
typedef enum tb_walk_verdict (*tb_walk_fn)(long tag, void *arg);

struct tb_fs_ops {
	const char *tree;	/* "6.1" or "6.12" */
	const char *prefix;	/* of this tree's global names ("k61_" or "") */
	/* make memcg online/offline/free call this tree's hooks */
	void (*use)(void);
	/* alloc + list_lru_init_memcg + register; NULL on an allocation failure */
	struct tb_mount *(*mount)(void);
	/* unregister (waits for running callbacks), free every object, destroy */
	void (*umount)(struct tb_mount *m);
	/* nr objects charged to memcg on nid, each list_lru_add()ed; -errno */
	int (*add)(struct tb_mount *m, struct mem_cgroup *memcg, int nid, unsigned int nr);
	/* list_lru_del() and free the oldest object of memcg/nid; false if none */
	bool (*del_one)(struct tb_mount *m, struct mem_cgroup *memcg, int nid);
	long (*count)(struct tb_mount *m, struct mem_cgroup *memcg, int nid);
	long (*count_node)(struct tb_mount *m, int nid);
	/* walk memcg/nid: isolate every other object (keep the rest), freed count */
	long (*walk_half)(struct tb_mount *m, struct mem_cgroup *memcg, int nid);
	long (*live)(struct tb_mount *m);	/* objects allocated, not freed */
	long (*freed)(struct tb_mount *m);	/* freed by the shrinker */
	int (*shrinker_id)(struct tb_mount *m);
	/* ids the shrinker_info of memcg has room for */
	int (*map_nr_max)(struct mem_cgroup *memcg);
	/* the shrinker_info bit of m's shrinker in memcg on nid */
	bool (*bit)(struct tb_mount *m, struct mem_cgroup *memcg, int nid);
	unsigned long (*shrink_slab)(int nid, struct mem_cgroup *memcg, int priority);
	/* one pass of shrink_node_memcgs(): shrink_slab on root and below */
	unsigned long (*shrink_memcgs)(struct mem_cgroup *root, int nid, int priority,
				       unsigned long *visits);
	/* give-ups of shrink_slab paths so far (6.1: failed trylocks, contended breaks) */
	void (*giveups)(long *trylock_fails, long *contended_breaks);
	void (*giveups_reset)(void);
	/* one object tagged tag on a page of its own (memcg, nid), list_lru_add()ed */
	struct tb_obj *(*obj_add)(struct tb_mount *m, struct mem_cgroup *memcg, int nid,
				  long tag);
	/* list_lru_del() o and, when that says it was listed, free it */
	bool (*obj_del)(struct tb_mount *m, struct tb_obj *o);
	/* list_lru_walk_one / list_lru_walk_node, fn deciding; isolated count */
	long (*walk_one)(struct tb_mount *m, struct mem_cgroup *memcg, int nid,
			 unsigned long nr, tb_walk_fn fn, void *arg);
	long (*walk_node)(struct tb_mount *m, int nid, unsigned long nr, tb_walk_fn fn,
			  void *arg);
	/* memcg lists (list_lru_memcg) m's lru holds, one per kmemcg_id */
	int (*memcg_lists)(struct tb_mount *m);
	/* memcg->kmemcg_id (list_lru's index; -1 for the root) */
	int (*kmemcg_id)(struct mem_cgroup *memcg);
	/* css_get/css_put: a pinned memcg outlives its rmdir (a zombie) */
	void (*memcg_pin)(struct mem_cgroup *memcg);
	void (*memcg_unpin)(struct mem_cgroup *memcg);
	/*
	 * init_id: the shrinker id list_lru_init() gives an lru without a
	 * shrinker; then an lru inited with m's shrinker is destroyed twice:
	 * its id before, what the first destroy left in node and shrinker_id
	 */
	void (*destroy_twice)(struct tb_mount *m, int *init_id, int *memcg_id,
			      void **node, int *shrinker_id);
	/*
	 * memcg_list_lru_alloc() for memcg on an lru that is not memcg aware:
	 * its result, and in *stored whether its xarray got an entry
	 */
	int (*unaware_alloc)(struct mem_cgroup *memcg, bool *stored);
};
extern const struct tb_fs_ops k61_tb_fs, k612_tb_fs;
/* objects freed twice or used after free since the last call (must be 0) */
long tb_fs_errors(void);
#ifdef __cplusplus
}
#endif
#endif
