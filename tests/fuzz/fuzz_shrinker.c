// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz target "shrinker": the real mm/shrinker.c driven by operation
 * sequences over a small memcg tree and a few fake caches.
 *
 * Input: a sequence of 4-byte records {op, a, b, c}:
 *   op % 8 == 0  create memcg under memcg[a % n] (tree of up to 16)
 *   op % 8 == 1  destroy memcg[a % n] (never the root; children first);
 *                its objects move to the parent, as list_lru reparents
 *   op % 8 == 2  create cache, flags from b: MEMCG_AWARE, NUMA_AWARE
 *   op % 8 == 3  free cache[a % 8]
 *   op % 8 == 4  add (c + 1) * 8 objects to cache[a] in memcg[b] on node c & 1
 *   op % 8 == 5  shrink_slab(memcg[a], node b & 1, priority c % 13)
 *   op % 8 == 6  fail the next allocation (fault injection)
 *   op % 8 == 7  shrink every memcg as shrink_node_memcgs would
 * Invariants, after every operation: object counts never negative; the
 * objects added minus those scanned away equal what is left; no callback
 * after shrinker_free(); a memcg-aware cache with objects in an online
 * memcg has that memcg's shrinker bit set (SHRINK_EMPTY loses nothing);
 * and at the end the world tears down with nothing leaked. One world for
 * every input (fuzz_reuse.h); objects freed and shrinker bits seen go
 * into the digest.
 */
#include <linux/memcontrol.h>
#include <linux/shrinker.h>
#include <kshim/memcg.h>
#include <kshim/testbed.h>
#include "tb_cache.h"
#include "fuzz_reuse.h"

unsigned long shrink_slab(gfp_t gfp_mask, int nid, struct mem_cgroup *memcg, int priority);

#define MAX_MEMCG 16
#define MAX_CACHE 8

struct fz {
	struct mem_cgroup *memcg[MAX_MEMCG];
	int parent[MAX_MEMCG];
	int nr_memcg;
	struct tb_cache *cache[MAX_CACHE];
	struct tb_cache *dead[256];
	int nr_dead;
	long added[MAX_CACHE];
	size_t op;
};

#define CHECK(cond) do { if (!(cond)) { \
	fprintf(stderr, "fuzz_shrinker: op %zu: %s failed\n", f->op, #cond); \
	abort(); } } while (0)

static bool has_child(struct fz *f, int i)
{
	int j;

	for (j = 1; j < f->nr_memcg; j++)
		if (f->memcg[j] && f->parent[j] == i)
			return true;
	return false;
}

static void op_create_memcg(struct fz *f, u8 a)
{
	int p = a % f->nr_memcg;
	struct mem_cgroup *m;

	if (f->nr_memcg >= MAX_MEMCG || !f->memcg[p])
		return;
	m = kshim_memcg_create(f->memcg[p]);
	if (!m)
		return;	/* injected fault: -ENOMEM, nothing to undo */
	f->parent[f->nr_memcg] = p;
	f->memcg[f->nr_memcg++] = m;
}

static void op_destroy_memcg(struct fz *f, u8 a)
{
	int i = a % f->nr_memcg, c;

	if (i == 0 || !f->memcg[i] || has_child(f, i))
		return;
	for (c = 0; c < MAX_CACHE; c++)
		if (f->cache[c])
			tb_cache_reparent(f->cache[c], f->memcg[i], f->memcg[f->parent[i]]);
	kshim_memcg_destroy(f->memcg[i]);
	f->memcg[i] = NULL;
}

/* dead memcgs' objects were reparented, so the live slots hold them all */
static long cache_total(struct tb_cache *c, struct fz *f)
{
	long sum = 0;
	int i, nid;

	for (i = 0; i < f->nr_memcg; i++) {
		if (!f->memcg[i])
			continue;
		for (nid = 0; nid < 2; nid++) {
			long n = tb_cache_objects(c, f->memcg[i], nid);

			CHECK(n >= 0);
			sum += n;
		}
	}
	return sum;
}

static void op_create_cache(struct fz *f, u8 a, u8 b)
{
	unsigned int flags = 0;
	int i = a % MAX_CACHE;

	if (f->cache[i])
		return;
	if (b & 1)
		flags |= SHRINKER_MEMCG_AWARE;
	if (b & 2)
		flags |= SHRINKER_NUMA_AWARE;
	f->cache[i] = tb_cache_create(flags);
	f->added[i] = 0;
}

static void op_free_cache(struct fz *f, u8 a)
{
	int i = a % MAX_CACHE;

	if (!f->cache[i] || f->nr_dead == 256)
		return;
	tb_cache_shrinker_free(f->cache[i]);
	f->dead[f->nr_dead++] = f->cache[i];
	f->cache[i] = NULL;
}

static void op_add(struct fz *f, u8 a, u8 b, u8 c)
{
	struct tb_cache *cache = f->cache[a % MAX_CACHE];
	struct mem_cgroup *m = f->memcg[b % f->nr_memcg];
	long nr = (c + 1) * 8;

	if (!cache || !m)
		return;
	if (!(cache->shrinker->flags & SHRINKER_MEMCG_AWARE))
		m = f->memcg[0];	/* a plain cache is charged to the root */
	tb_cache_add(cache, m, c & 1, nr);
	f->added[a % MAX_CACHE] += nr;
}

static void op_shrink(struct fz *f, u8 a, u8 b, u8 c)
{
	struct mem_cgroup *m = f->memcg[a % f->nr_memcg];

	if (m)
		shrink_slab(GFP_KERNEL, b & 1, m, c % 13);
}

static void op_shrink_all(struct fz *f, u8 c)
{
	kshim_shrink_memcgs(NULL, c & 1, c % 13, NULL);
}

static void check_invariants(struct fz *f)
{
	int i, j, nid;

	for (i = 0; i < MAX_CACHE; i++) {
		struct tb_cache *c = f->cache[i];

		if (!c)
			continue;
		CHECK(atomic_long_read(&c->late_calls) == 0);
		fz_digest(atomic_long_read(&c->freed));
		CHECK(f->added[i] - atomic_long_read(&c->freed) == cache_total(c, f));
		if (!(c->shrinker->flags & SHRINKER_MEMCG_AWARE))
			continue;
		for (j = 1; j < f->nr_memcg; j++)
			for (nid = 0; nid < 2; nid++)
				if (f->memcg[j]) {
					fz_digest(tb_shrinker_bit(f->memcg[j], nid, c->shrinker->id));
					if (tb_cache_objects(c, f->memcg[j], nid) > 0)
						CHECK(tb_shrinker_bit(f->memcg[j], nid, c->shrinker->id));
				}
	}
	for (i = 0; i < f->nr_dead; i++)
		CHECK(atomic_long_read(&f->dead[i]->late_calls) == 0);
}

static void run_op(struct fz *f, const u8 *r)
{
	switch (r[0] % 8) {
	case 0: op_create_memcg(f, r[1]); break;
	case 1: op_destroy_memcg(f, r[1]); break;
	case 2: op_create_cache(f, r[1], r[2]); break;
	case 3: op_free_cache(f, r[1]); break;
	case 4: op_add(f, r[1], r[2], r[3]); break;
	case 5: op_shrink(f, r[1], r[2], r[3]); break;
	case 6: kshim_fault_reset(); kshim_fault_nth(1); return;
	case 7: op_shrink_all(f, r[3]); break;
	}
	kshim_fault_reset();
}

static void teardown(struct fz *f)
{
	int i;

	for (i = 0; i < MAX_CACHE; i++)
		if (f->cache[i])
			tb_cache_destroy(f->cache[i]);
	for (i = 0; i < f->nr_dead; i++)
		tb_cache_destroy(f->dead[i]);
	for (i = f->nr_memcg - 1; i >= 0; i--)
		if (f->memcg[i])
			kshim_memcg_destroy(f->memcg[i]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct kshim_world_config cfg = { .nr_cpus = 2, .nr_nodes = 2, .seed = 1 };
	struct fz *f = calloc(1, sizeof(*f));

	fz_world_enter(&cfg);
	f->memcg[0] = kshim_memcg_create(NULL);
	f->nr_memcg = 1;
	CHECK(f->memcg[0]);
	for (f->op = 0; (f->op + 1) * 4 <= size && f->op < 512; f->op++) {
		run_op(f, data + f->op * 4);
		check_invariants(f);
	}
	teardown(f);
	fz_world_leave(&cfg, "fuzz_shrinker");
	free(f);
	return 0;
}
