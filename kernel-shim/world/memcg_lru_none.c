// SPDX-License-Identifier: GPL-2.0-only
/*
 * mm/list_lru.c reparents its lists when a memcg goes offline; a world
 * without it has none: nothing to do. A file of its own in a static
 * library (kworld), not in libkmemcg.so, whose weak definition would
 * shadow libklist_lru.so's (the dynamic linker takes the first it finds,
 * weak or not); and no part of kworld where the reclaim library links
 * mm/list_lru.c (TB_RECLAIM_LIST_LRU): the linker would take this
 * archive member before reaching libklist_lru.so.
 */
#include <linux/memcontrol.h>

__weak void memcg_reparent_list_lrus(struct mem_cgroup *memcg, struct mem_cgroup *parent)
{
}
