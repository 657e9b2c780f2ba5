// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz target "list_lru": the real mm/list_lru.c of 6.1 and 6.12, through
 * the simulated filesystem (tests/lru_fs), against a shadow model that
 * knows which object is on which (memcg, node) list and in what order.
 *
 * Input: byte 0 picks the tree (% 3: 6.1, 6.12, both in turn with the same
 * operations), then 4-byte records {op, a, b, c}:
 *   op % 10 == 0  create memcg under memcg[a % n] (up to 8)
 *   op % 10 == 1  rmdir memcg[a % n] (not the root, no live child): its
 *                 lists are reparented; c & 1 keeps a reference (zombie)
 *   op % 10 == 2  mount slot a % 2 (a memcg-aware list_lru + shrinker)
 *   op % 10 == 3  umount slot a % 2 (walks and frees everything)
 *   op % 10 == 4  add an object to mount a, live memcg b, node c & 1
 *   op % 10 == 5  list_lru_del (and free) object slot a
 *   op % 10 == 6  list_lru_walk_one(mount a & 1, memcg a >> 1, node a >> 7),
 *                 nr_to_walk c, verdicts drawn from a PRNG seeded by b
 *   op % 10 == 7  list_lru_walk_node(mount a & 1, node a >> 7), same
 *   op % 10 == 8  an all-skip walk of one list: its exact order is checked
 *   op % 10 == 9  fail the next allocation (fault injection)
 * Checked after every operation: list_lru_count_one of every memcg (a dead
 * one counts its nearest live ancestor's list) and list_lru_count_node
 * equal the model; objects live per mount; nothing freed twice. Every walk
 * must visit exactly the objects, in the order, that the model's replay of
 * __list_lru_walk_one with the same verdicts visits, and isolate what the
 * callback chose. After an rmdir the parent's lists start with the dead
 * memcg's objects (list_splice_init). The world tears down leak-free;
 * one world serves every input and tree (fuzz_reuse.h), and the counts
 * checked go into the digest.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <kshim/memcg.h>
#include <kshim/objpage.h>
#include <kshim/testbed.h>
#include "tb_fs.h"
#include "fuzz_reuse.h"

#define MAX_MEMCG 8
#define MAX_OBJ 48
#define MAX_VISIT 256
#define NR_NODES 2

struct slist {
	int nr;
	int tag[MAX_OBJ];
};

struct fz {
	const struct tb_fs_ops *ops;
	struct mem_cgroup *memcg[MAX_MEMCG];
	int parent[MAX_MEMCG];
	bool alive[MAX_MEMCG], pinned[MAX_MEMCG];
	int nr_memcg;
	struct tb_mount *mount[2];
	/* model: per mount, node and memcg slot, the list in order */
	struct slist list[2][NR_NODES][MAX_MEMCG];
	struct tb_obj *obj[MAX_OBJ];	/* by tag */
	int obj_mount[MAX_OBJ], obj_memcg[MAX_OBJ], obj_nid[MAX_OBJ];
	bool stop_ok;			/* the tree has LRU_STOP */
	size_t op;
};

/* the callback's record of one walk */
struct walk {
	struct fz *f;
	uint32_t x;
	int nr;
	int tag[MAX_VISIT];
	enum tb_walk_verdict v[MAX_VISIT];
};

#define CHECK(cond) do { if (!(cond)) { \
	fprintf(stderr, "fuzz_list_lru: %s: op %zu: %s failed\n", f->ops->tree, f->op, #cond); \
	abort(); } } while (0)

/* the tree gives a removed memcg its parent's kmemcg_id (before 7.2) */
static bool id_reparent(struct fz *f)
{
	return !strcmp(f->ops->tree, "6.1") || TB_HAVE_list_lru_kmemcg_id_reparent;
}

/* a dead memcg's objects sit on its nearest live ancestor's lists */
static int owner(struct fz *f, int i)
{
	while (!f->alive[i])
		i = f->parent[i];
	return i;
}

static void slist_del(struct slist *l, int pos)
{
	memmove(&l->tag[pos], &l->tag[pos + 1], (l->nr - pos - 1) * sizeof(int));
	l->nr--;
}

static void slist_append(struct slist *l, int tag)
{
	l->tag[l->nr++] = tag;
}

static void obj_forget(struct fz *f, int tag)
{
	f->obj[tag] = NULL;
}

static enum tb_walk_verdict verdict(long tag, void *arg)
{
	struct walk *w = arg;
	struct fz *f = w->f;
	enum tb_walk_verdict v;
	unsigned int r;

	CHECK(w->nr < MAX_VISIT);
	CHECK(tag >= 0 && tag < MAX_OBJ && f->obj[tag]);
	w->x = w->x * 1103515245u + 12345u;
	r = (w->x >> 16) % 16;
	if (r < 6)
		v = TB_WALK_REMOVE;
	else if (r < 10)
		v = TB_WALK_ROTATE;
	else if (r < 13)
		v = TB_WALK_SKIP;
	else if (r == 13)
		v = f->stop_ok ? TB_WALK_STOP : TB_WALK_SKIP;
	else if (r == 14)
		v = TB_WALK_REMOVE_RETRY;
	else
		v = TB_WALK_RETRY;
	w->tag[w->nr] = tag;
	w->v[w->nr++] = v;
	return v;
}

/*
 * Replay __list_lru_walk_one on the model list with the recorded verdicts
 * from *vi on: list_for_each_safe, nr_to_walk taken before each callback,
 * a rotated item moved to the tail (the saved next is visited after it),
 * restart from the head on RETRY and REMOVED_RETRY, out on STOP.
 */
static long replay_one(struct fz *f, struct slist *l, struct walk *w, int *vi,
		       unsigned long *nr)
{
	long removed = 0;
	int i = 0, tag;

	while (i < l->nr) {
		if (!*nr)
			break;
		--*nr;
		CHECK(*vi < w->nr);
		CHECK(w->tag[*vi] == l->tag[i]);
		tag = l->tag[i];
		switch (w->v[(*vi)++]) {
		case TB_WALK_REMOVE:
		case TB_WALK_REMOVE_RETRY:
			removed++;
			slist_del(l, i);
			obj_forget(f, tag);
			if (w->v[*vi - 1] == TB_WALK_REMOVE_RETRY)
				i = 0;
			break;
		case TB_WALK_ROTATE:
			if (i == l->nr - 1)
				return removed;	/* the saved next was the head */
			slist_del(l, i);
			slist_append(l, tag);
			break;
		case TB_WALK_SKIP:
			i++;
			break;
		case TB_WALK_STOP:
			return removed;
		case TB_WALK_RETRY:
			i = 0;
			break;
		}
	}
	return removed;
}

static void check_counts(struct fz *f)
{
	int m, nid, i, live[2] = { 0, 0 };

	for (i = 0; i < MAX_OBJ; i++)
		if (f->obj[i])
			live[f->obj_mount[i]]++;
	for (m = 0; m < 2; m++) {
		if (!f->mount[m])
			continue;
		CHECK(f->ops->live(f->mount[m]) == live[m]);
		fz_digest(live[m]);
		for (nid = 0; nid < NR_NODES; nid++) {
			long total = 0;

			for (i = 0; i < f->nr_memcg; i++) {
				struct slist *l = &f->list[m][nid][owner(f, i)];

				if (f->alive[i])
					total += f->list[m][nid][i].nr;
				else
					CHECK(f->list[m][nid][i].nr == 0);
				/*
				 * a dead memcg kept by a reference counts its nearest
				 * live ancestor's list; 7.2 keeps its kmemcg_id, whose
				 * list is gone: 0 (list_lru_kmemcg_id_reparent)
				 */
				if (f->alive[i] || f->pinned[i])
					CHECK(f->ops->count(f->mount[m], f->memcg[i], nid) ==
					      (f->alive[i] || id_reparent(f) ? l->nr : 0));
			}
			CHECK(f->ops->count_node(f->mount[m], nid) == total);
			fz_digest(total);
		}
	}
	CHECK(tb_fs_errors() == 0);
}

static bool has_live_child(struct fz *f, int i)
{
	int j;

	for (j = 1; j < f->nr_memcg; j++)
		if (f->alive[j] && f->parent[j] == i)
			return true;
	return false;
}

static void op_create_memcg(struct fz *f, uint8_t a)
{
	int p = a % f->nr_memcg;
	struct mem_cgroup *memcg;

	if (f->nr_memcg == MAX_MEMCG || !f->alive[p])
		return;
	memcg = kshim_memcg_create(f->memcg[p]);
	if (!memcg)
		return;		/* an injected fault */
	f->parent[f->nr_memcg] = p;
	f->alive[f->nr_memcg] = true;
	f->memcg[f->nr_memcg++] = memcg;
}

static enum tb_walk_verdict skip(long tag, void *arg)
{
	struct walk *w = arg;
	struct fz *f = w->f;

	CHECK(w->nr < MAX_VISIT);
	w->tag[w->nr++] = tag;
	return TB_WALK_SKIP;
}

/* an all-skip walk of memcg i's list must see the model's order */
static void check_order(struct fz *f, int m, int nid, int i)
{
	struct slist *l = &f->list[m][nid][owner(f, i)], none = { .nr = 0 };
	struct walk *w = calloc(1, sizeof(*w));
	long n;
	int k;

	CHECK(w);
	w->f = f;
	n = f->ops->walk_one(f->mount[m], f->memcg[i], nid, MAX_VISIT, skip, w);
	CHECK(n == 0);
	/* 7.2: a dead memcg's list is gone, its walk visits nothing */
	if (!f->alive[i] && !id_reparent(f))
		l = &none;
	CHECK(w->nr == l->nr);
	for (k = 0; k < l->nr; k++)
		CHECK(w->tag[k] == l->tag[k]);
	free(w);
}

static void op_rmdir(struct fz *f, uint8_t a, uint8_t c)
{
	int i = a % f->nr_memcg, p, m, nid, k;

	if (i == 0 || !f->alive[i] || has_live_child(f, i))
		return;
	p = f->parent[i];	/* live: it has a live child */
	if (c & 1) {
		f->ops->memcg_pin(f->memcg[i]);
		f->pinned[i] = true;
	}
	kshim_memcg_destroy(f->memcg[i]);
	f->alive[i] = false;
	/* memcg_reparent_list_lrus: list_splice_init puts them at the head */
	for (m = 0; m < 2; m++) {
		if (!f->mount[m])
			continue;
		for (nid = 0; nid < NR_NODES; nid++) {
			struct slist *src = &f->list[m][nid][i], *dst = &f->list[m][nid][p];

			CHECK(src->nr + dst->nr <= MAX_OBJ);
			memmove(&dst->tag[src->nr], dst->tag, dst->nr * sizeof(int));
			memcpy(dst->tag, src->tag, src->nr * sizeof(int));
			dst->nr += src->nr;
			src->nr = 0;
		}
	}
	for (k = 0; k < MAX_OBJ; k++)
		if (f->obj[k] && f->obj_memcg[k] == i)
			CHECK(owner(f, i) == p);
	/* every object of the dead memcg is now on the parent's lists, first */
	for (m = 0; m < 2; m++)
		for (nid = 0; f->mount[m] && nid < NR_NODES; nid++)
			check_order(f, m, nid, p);
	if (!f->pinned[i])
		f->memcg[i] = NULL;	/* may be freed from now on */
}

static void op_mount(struct fz *f, uint8_t a)
{
	int m = a % 2;

	if (f->mount[m])
		return;
	f->mount[m] = f->ops->mount();	/* NULL on an injected fault */
	memset(f->list[m], 0, sizeof(f->list[m]));
}

static void op_umount(struct fz *f, uint8_t a)
{
	int m = a % 2, k;

	if (!f->mount[m])
		return;
	f->ops->umount(f->mount[m]);
	f->mount[m] = NULL;
	for (k = 0; k < MAX_OBJ; k++)
		if (f->obj[k] && f->obj_mount[k] == m)
			obj_forget(f, k);
	memset(f->list[m], 0, sizeof(f->list[m]));
}

static void op_add(struct fz *f, uint8_t a, uint8_t b, uint8_t c)
{
	int m = a % 2, i = b % f->nr_memcg, nid = c & 1, tag;

	if (!f->mount[m] || !f->alive[i])
		return;
	for (tag = 0; tag < MAX_OBJ && f->obj[tag]; tag++)
		;
	if (tag == MAX_OBJ)
		return;
	f->obj[tag] = f->ops->obj_add(f->mount[m], f->memcg[i], nid, tag);
	if (!f->obj[tag])
		return;		/* memcg_list_lru_alloc failed (injected) */
	f->obj_mount[tag] = m;
	f->obj_memcg[tag] = i;
	f->obj_nid[tag] = nid;
	slist_append(&f->list[m][nid][i], tag);
}

static void op_del(struct fz *f, uint8_t a)
{
	int tag = a % MAX_OBJ, k;
	struct slist *l;

	if (!f->obj[tag])
		return;
	l = &f->list[f->obj_mount[tag]][f->obj_nid[tag]][owner(f, f->obj_memcg[tag])];
	for (k = 0; k < l->nr && l->tag[k] != tag; k++)
		;
	CHECK(k < l->nr);
	CHECK(f->ops->obj_del(f->mount[f->obj_mount[tag]], f->obj[tag]));
	slist_del(l, k);
	obj_forget(f, tag);
}

static void op_walk_one(struct fz *f, uint8_t a, uint8_t b, uint8_t c)
{
	int m = a & 1, i = (a >> 1) % f->nr_memcg, nid = a >> 7, vi = 0;
	unsigned long nr = c;
	struct walk *w;
	long n, removed;

	if (!f->mount[m] || !(f->alive[i] || f->pinned[i]))
		return;
	w = calloc(1, sizeof(*w));
	CHECK(w);
	w->f = f;
	w->x = b;
	n = f->ops->walk_one(f->mount[m], f->memcg[i], nid, c, verdict, w);
	/* 7.2: a dead memcg's list is gone, its walk visits nothing */
	if (!f->alive[i] && !id_reparent(f))
		removed = 0;
	else
		removed = replay_one(f, &f->list[m][nid][owner(f, i)], w, &vi, &nr);
	CHECK(vi == w->nr);
	CHECK(n == removed);
	free(w);
}

static void op_walk_node(struct fz *f, uint8_t a, uint8_t b, uint8_t c)
{
	int m = a & 1, nid = a >> 7, vi = 0, order[MAX_MEMCG], nr_order = 0, i, j;
	unsigned long nr = c;
	struct walk *w;
	long n, removed;

	if (!f->mount[m])
		return;
	w = calloc(1, sizeof(*w));
	CHECK(w);
	w->f = f;
	w->x = b;
	n = f->ops->walk_node(f->mount[m], nid, c, verdict, w);
	/* the root's list (kmemcg_id -1), then the xarray in index order */
	removed = replay_one(f, &f->list[m][nid][0], w, &vi, &nr);
	for (i = 1; i < f->nr_memcg; i++) {
		if (!f->alive[i])
			continue;
		for (j = nr_order; j > 0 &&
		     f->ops->kmemcg_id(f->memcg[order[j - 1]]) > f->ops->kmemcg_id(f->memcg[i]); j--)
			order[j] = order[j - 1];
		order[j] = i;
		nr_order++;
	}
	for (j = 0; j < nr_order && nr > 0; j++)
		removed += replay_one(f, &f->list[m][nid][order[j]], w, &vi, &nr);
	CHECK(vi == w->nr);
	CHECK(n == removed);
	free(w);
}

static void op_check_order(struct fz *f, uint8_t a)
{
	int m = a & 1, i = (a >> 1) % f->nr_memcg, nid = a >> 7;

	if (f->mount[m] && (f->alive[i] || f->pinned[i]))
		check_order(f, m, nid, i);
}

static void run_op(struct fz *f, const uint8_t *r)
{
	switch (r[0] % 10) {
	case 0: op_create_memcg(f, r[1]); break;
	case 1: op_rmdir(f, r[1], r[3]); break;
	case 2: op_mount(f, r[1]); break;
	case 3: op_umount(f, r[1]); break;
	case 4: op_add(f, r[1], r[2], r[3]); break;
	case 5: op_del(f, r[1]); break;
	case 6: op_walk_one(f, r[1], r[2], r[3]); break;
	case 7: op_walk_node(f, r[1], r[2], r[3]); break;
	case 8: op_check_order(f, r[1]); break;
	case 9: kshim_fault_reset(); kshim_fault_nth(1); return;
	}
	kshim_fault_reset();
}

static void teardown(struct fz *f)
{
	int i;

	for (i = 0; i < 2; i++)
		op_umount(f, i);
	for (i = f->nr_memcg - 1; i >= 0; i--)
		if (f->alive[i])
			kshim_memcg_destroy(f->memcg[i]);
	for (i = 0; i < f->nr_memcg; i++)
		if (f->pinned[i])
			f->ops->memcg_unpin(f->memcg[i]);
}

static void run_tree(const struct tb_fs_ops *ops, const uint8_t *data, size_t size)
{
	static const struct kshim_world_config cfg = {
		.nr_cpus = 2, .nr_nodes = NR_NODES, .seed = 1,
	};
	struct fz *f = calloc(1, sizeof(*f));

	if (!f)
		abort();
	f->ops = ops;
	f->stop_ok = strcmp(ops->tree, "6.1") != 0;
	fz_world_enter(&cfg);
	ops->use();
	tb_fs_errors();
	f->memcg[0] = kshim_memcg_create(NULL);
	CHECK(f->memcg[0]);
	f->alive[0] = true;
	f->nr_memcg = 1;
	for (f->op = 0; (f->op + 1) * 4 <= size && f->op < 256; f->op++) {
		run_op(f, data + f->op * 4);
		check_counts(f);
	}
	kshim_fault_reset();
	teardown(f);
	CHECK(tb_fs_errors() == 0);
	fz_world_leave(&cfg, f->stop_ok ? "fuzz_list_lru: 6.12" : "fuzz_list_lru: 6.1");
	/* after the check: its RCU flush frees memcgs through the hooks */
	kshim_memcg_hooks = NULL;
	CHECK(kshim_objpage_live() == 0);
	free(f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!size)
		return 0;
	switch (data[0] % 3) {
	case 0:
		run_tree(&k61_tb_fs, data + 1, size - 1);
		break;
	case 1:
		run_tree(&k612_tb_fs, data + 1, size - 1);
		break;
	default:
		run_tree(&k61_tb_fs, data + 1, size - 1);
		run_tree(&k612_tb_fs, data + 1, size - 1);
		break;
	}
	return 0;
}
