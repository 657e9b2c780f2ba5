// SPDX-License-Identifier: GPL-2.0-only
/*
 * kmemcg ids and cgroup levels for memcgs of the shim's memcg world (see
 * kshim/memcg_kmem.h). The cgroup core gives a css no struct cgroup: one
 * is attached here when missing, owned by this file (the core either sets
 * css->cgroup for every css or for none, so one flag says whose it is).
 */
#include <linux/memcontrol.h>
#include <linux/slab.h>
#include <kshim/memcg_kmem.h>

static bool owns_cgroups;

int kshim_memcg_kmem_online(struct mem_cgroup *memcg)
{
	struct mem_cgroup *parent = parent_mem_cgroup(memcg);

	if (!memcg->css.cgroup) {
		struct cgroup *cgrp = kzalloc(sizeof(*cgrp), GFP_KERNEL);

		if (!cgrp)
			return -ENOMEM;
		cgrp->level = parent ? parent->css.cgroup->level + 1 : 0;
		/* its kernfs node: the css id is unique among live cgroups too */
		cgrp->kshim_kn.id = memcg->css.id;
		cgrp->kn = &cgrp->kshim_kn;
		memcg->css.cgroup = cgrp;
		WRITE_ONCE(owns_cgroups, true);
	}
	/* memcg_online_kmem(): the root keeps -1, the rest use their id */
	memcg->kmemcg_id = parent ? memcg->css.id : -1;
	return 0;
}

void kshim_memcg_kmem_free(struct mem_cgroup *memcg)
{
	if (READ_ONCE(owns_cgroups)) {
		kfree(memcg->css.cgroup);
		memcg->css.cgroup = NULL;
	}
}
