/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Stands in for mm/slab.h and mm/internal.h when mm/list_lru.c is compiled
 * (their guards are predefined): GFP_RECLAIM_MASK from the tree's own
 * internal.h, and the slab facts list_lru asks of an object, answered by
 * the test bed's object pages (kshim/objpage.h): its node and its memcg.
 */
#ifndef _TB_LIST_LRU_SLAB_H
#define _TB_LIST_LRU_SLAB_H
#include <kshim/core.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/memcontrol.h>
#include <kshim/objpage.h>
#ifndef __GFP_ATOMIC
/* 6.1's GFP_RECLAIM_MASK names a flag 6.12's gfp_types.h no longer has */
#define __GFP_ATOMIC 0
#endif
#include <kgen/list_lru_internal.h>

#define virt_to_page(addr) ((struct page *)kshim_objpage_of(addr))
#define page_to_nid(page) (((struct kshim_objpage *)(page))->nid)
#define mem_cgroup_from_slab_obj(p) (kshim_objpage_of(p)->memcg)
/* its name since 7.2 */
#define mem_cgroup_from_virt(p) (kshim_objpage_of(p)->memcg)
#endif
