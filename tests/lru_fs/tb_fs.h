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
};
extern const struct tb_fs_ops k61_tb_fs, k612_tb_fs;
/* objects freed twice or used after free since the last call (must be 0) */
long tb_fs_errors(void);
#ifdef __cplusplus
}
#endif
#endif
