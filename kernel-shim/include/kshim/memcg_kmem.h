/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The kmem side of a memcg's life, as memcg_online_kmem() and
 * mem_cgroup_css_free() leave it for list_lru.c: a kmemcg_id (the css id;
 * -1 for the root) and a cgroup whose level sizes memcg_list_lru_alloc()'s
 * table. Called from a world's kshim_memcg_hooks.
 */
#ifndef _KSHIM_MEMCG_KMEM_H
#define _KSHIM_MEMCG_KMEM_H
struct mem_cgroup;
int kshim_memcg_kmem_online(struct mem_cgroup *memcg);
void kshim_memcg_kmem_free(struct mem_cgroup *memcg);
#endif
