// SPDX-License-Identifier: GPL-2.0-only
/* Object pages (kshim/objpage.h), on the C heap so LSan sees a lost one. */
#include <linux/memcontrol.h>
#include <linux/slab.h>
#include <kshim/objpage.h>
#include <kshim/fault.h>
#include <stdlib.h>

static unsigned long objpages_live;

void *kshim_objpage_alloc(int nid, struct mem_cgroup *memcg)
{
	struct kshim_objpage *pg = aligned_alloc(PAGE_SIZE, PAGE_SIZE);

	if (!pg)
		return NULL;
	memset(pg, 0, PAGE_SIZE);
	pg->nid = nid;
	pg->memcg = memcg && !mem_cgroup_is_root(memcg) ? memcg : NULL;
	if (pg->memcg)
		css_get(&pg->memcg->css);
	__atomic_fetch_add(&objpages_live, 1, __ATOMIC_RELAXED);
	return pg;
}

void kshim_objpage_free(void *page)
{
	struct kshim_objpage *pg = page;

	if (!pg)
		return;
	if (pg->memcg)
		css_put(&pg->memcg->css);
	__atomic_fetch_sub(&objpages_live, 1, __ATOMIC_RELAXED);
	free(pg);
}

unsigned long kshim_objpage_live(void)
{
	return __atomic_load_n(&objpages_live, __ATOMIC_RELAXED);
}
