/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Object pages: PAGE_SIZE-aligned pages that test-bed caches carve objects
 * from. Like a slab page, a page belongs to one node and one memcg, so
 * virt_to_page()/page_to_nid()/mem_cgroup_from_slab_obj() on any object
 * in it have an answer (list_lru.c asks them). A page holds a css
 * reference on its memcg until it is freed, as slab objects pin their
 * objcg.
 */
#ifndef _KSHIM_OBJPAGE_H
#define _KSHIM_OBJPAGE_H
#include <linux/types.h>
#include <asm/page.h>

struct mem_cgroup;
struct kshim_objpage {
	int nid;
	struct mem_cgroup *memcg;	/* NULL: not accounted (the root) */
};
#define KSHIM_OBJPAGE_DATA ((sizeof(struct kshim_objpage) + 63) & ~63UL)

static inline struct kshim_objpage *kshim_objpage_of(const void *obj)
{
	return (struct kshim_objpage *)((unsigned long)obj & PAGE_MASK);
}
/* a zeroed page of nid and memcg; objects start at KSHIM_OBJPAGE_DATA */
void *kshim_objpage_alloc(int nid, struct mem_cgroup *memcg);
void kshim_objpage_free(void *page);
unsigned long kshim_objpage_live(void);
#endif
