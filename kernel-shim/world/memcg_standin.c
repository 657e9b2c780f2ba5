// SPDX-License-Identifier: GPL-2.0-only
/*
 * A memcg world for suites that need memcgs before mm/memcontrol.c is
 * brought in: struct mem_cgroup is the real one (kgen/memcontrol.h), its
 * css lives in the shim's cgroup core, and online/offline/free call the
 * real shrinker hooks at the points mem_cgroup_css_online/offline/free
 * call them. mem_cgroup_iter() here is a plain pre-order walk with
 * css_tryget (cookies are ignored); the real one replaces it with
 * memcontrol.c.
 */
#include <linux/memcontrol.h>
#include <linux/slab.h>
#include <kshim/memcg.h>
#include <kshim/page_counter.h>

struct mem_cgroup *root_mem_cgroup;
#if TB_HAVE_memcg_kmem_online
#define TB_KMEM_KEY memcg_kmem_online_key
#else
#define TB_KMEM_KEY memcg_kmem_enabled_key	/* its name before 6.6 */
#endif
DEFINE_STATIC_KEY_FALSE(TB_KMEM_KEY);

const struct kshim_memcg_hooks *kshim_memcg_hooks;

static int memcg_css_online(struct cgroup_subsys_state *css)
{
	if (kshim_memcg_hooks)
		return kshim_memcg_hooks->online(mem_cgroup_from_css(css));
#if TB_HAVE_shrinker_c
	return alloc_shrinker_info(mem_cgroup_from_css(css));
#else
	/* the tree's shrinker is in mm/vmscan.c: reached through the hooks
	 * its suites install (tests/lru_fs), never by default */
	WARN_ONCE(1, "memcg stand-in: no kshim_memcg_hooks on a tree without mm/shrinker.c");
	return -ENODEV;
#endif
}

static void memcg_css_offline(struct cgroup_subsys_state *css)
{
	if (kshim_memcg_hooks)
		kshim_memcg_hooks->offline(mem_cgroup_from_css(css));
#if TB_HAVE_shrinker_c
	/*
	 * the root, which a kernel never offlines (the world does at its
	 * end), has no parent to give its deferred counts to
	 */
	else if (parent_mem_cgroup(mem_cgroup_from_css(css)))
		reparent_shrinker_deferred(mem_cgroup_from_css(css));
#endif
}

static void memcg_free(struct mem_cgroup *memcg)
{
	int nid;

	for_each_node(nid)
		kfree(memcg->nodeinfo[nid]);
	kfree(memcg);
}

static void memcg_css_free(struct cgroup_subsys_state *css)
{
	struct mem_cgroup *memcg = mem_cgroup_from_css(css);

	if (kshim_memcg_hooks)
		kshim_memcg_hooks->free(memcg);
#if TB_HAVE_shrinker_c
	else
		free_shrinker_info(memcg);
#endif
	if (memcg == root_mem_cgroup)
		root_mem_cgroup = NULL;
	memcg_free(memcg);
}

/* "cgroup.memory=nokmem" is never given here; the real memcontrol.c wins */
bool __weak mem_cgroup_kmem_disabled(void)
{
	return false;
}

/*
 * The memcg of an id list_lru.c found in its xarray (7.2's
 * list_lru_walk_node()): the stand-in's own id is its css id, as its
 * kmemcg_id is (kshim_memcg_kmem_online())
 */
struct mem_cgroup *mem_cgroup_from_private_id(unsigned short id)
{
	struct cgroup_subsys_state *css = css_from_id(id, &memory_cgrp_subsys);

	return css ? mem_cgroup_from_css(css) : NULL;
}

/*
 * A folio's memcg, pinned (7.2's folio_memcg_list_lru_alloc()): only
 * memcontrol.c's charge paths set a folio's memcg, so in this world every
 * folio is the root's
 */
struct mem_cgroup *get_mem_cgroup_from_folio(struct folio *folio)
{
	if (mem_cgroup_disabled())
		return NULL;
	css_get(&root_mem_cgroup->css);
	return root_mem_cgroup;
}

struct cgroup_subsys memory_cgrp_subsys = {
	.css_online = memcg_css_online,
	.css_offline = memcg_css_offline,
	.css_free = memcg_css_free,
	.name = "memory",
};

static struct mem_cgroup *memcg_alloc(struct mem_cgroup *parent)
{
	struct mem_cgroup *memcg;
	int nid;

	memcg = kzalloc(struct_size(memcg, nodeinfo, nr_node_ids), GFP_KERNEL);
	if (!memcg)
		return NULL;
	for_each_node(nid) {
		struct mem_cgroup_per_node *pn = kzalloc_node(sizeof(*pn), GFP_KERNEL, nid);

		if (!pn) {
			memcg_free(memcg);
			return NULL;
		}
		pn->memcg = memcg;
		memcg->nodeinfo[nid] = pn;
	}
	kshim_page_counter_init(&memcg->memory, parent ? &parent->memory : NULL, true);
	kshim_page_counter_init(&memcg->swap, parent ? &parent->swap : NULL, false);
	return memcg;
}

struct mem_cgroup *kshim_memcg_create(struct mem_cgroup *parent)
{
	struct mem_cgroup *memcg = memcg_alloc(parent);

	if (!memcg)
		return NULL;
	if (!parent)
		root_mem_cgroup = memcg;
	if (kshim_css_create(&memcg->css, parent ? &parent->css : NULL, &memory_cgrp_subsys)) {
		/*
		 * css_create(): a css whose ->css_online failed is freed
		 * through ->css_free, so free_shrinker_info() runs after
		 * alloc_shrinker_info()'s own cleanup, as in the kernel
		 */
		memcg_css_free(&memcg->css);
		return NULL;
	}
	if (parent)
		static_branch_enable(&TB_KMEM_KEY);
	return memcg;
}

void kshim_memcg_destroy(struct mem_cgroup *memcg)
{
	kshim_css_kill(&memcg->css);
}

struct mem_cgroup *mem_cgroup_iter(struct mem_cgroup *root, struct mem_cgroup *prev,
				   struct mem_cgroup_reclaim_cookie *reclaim)
{
	struct cgroup_subsys_state *css = prev ? &prev->css : NULL;
	struct mem_cgroup *memcg = NULL;

	(void)reclaim;
	if (mem_cgroup_disabled())
		return NULL;
	if (!root)
		root = root_mem_cgroup;
	rcu_read_lock();
	for (;;) {
		css = css_next_descendant_pre(css, &root->css);
		if (!css)
			break;
		if (css == &root->css || css_tryget(css)) {
			memcg = mem_cgroup_from_css(css);
			break;
		}
	}
	rcu_read_unlock();
	if (prev && prev != root)
		css_put(&prev->css);
	return memcg;
}

void mem_cgroup_iter_break(struct mem_cgroup *root, struct mem_cgroup *prev)
{
	if (!root)
		root = root_mem_cgroup;
	if (prev && prev != root)
		css_put(&prev->css);
}

unsigned long shrink_slab(gfp_t gfp_mask, int nid, struct mem_cgroup *memcg, int priority);

unsigned long kshim_shrink_memcgs_with(kshim_shrink_slab_fn shrink, struct mem_cgroup *root,
				       int nid, int priority, unsigned long *visits)
{
	struct mem_cgroup *memcg = mem_cgroup_iter(root, NULL, NULL);
	unsigned long freed = 0, n = 0;

	do {
		freed += shrink(GFP_KERNEL, nid, memcg, priority);
		n++;
	} while ((memcg = mem_cgroup_iter(root, memcg, NULL)));
	if (visits)
		*visits += n;
	return freed;
}

#if TB_HAVE_shrinker_c
/* the main tree's mm/shrinker.c (a 6.1 tree's is k61_shrink_slab: _with) */
unsigned long kshim_shrink_memcgs(struct mem_cgroup *root, int nid, int priority,
				  unsigned long *visits)
{
	return kshim_shrink_memcgs_with(shrink_slab, root, nid, priority, visits);
}
#endif
