// SPDX-License-Identifier: GPL-2.0-only
/*
 * The memcg LRU of the multi-gen LRU (mm/vmscan.c): global reclaim
 * (lru_gen_shrink_node(): kswapd, direct reclaim, memory.reclaim of the
 * root) walks only the node's old memcg generation, memcg_lru.seq %
 * MEMCG_NR_GENS, bin by bin, and shrink_one()'s outcome rotates each
 * memcg it visits (lru_gen_rotate_memcg()): MEMCG_LRU_YOUNG when its
 * eviction had to age it or it is below memory.min, MEMCG_LRU_TAIL on the
 * first visit of a memcg below memory.low, too small or offline, nothing
 * when it was reclaimed and still has cold folios. When the old generation
 * is empty, seq moves on and the young generation is the old one.
 * Memcg reclaim (memory.reclaim of a non-root memcg) iterates with
 * mem_cgroup_iter() and only rotates a memcg it aged (MEMCG_LRU_YOUNG).
 * lru_gen_offline_memcg() moves a removed memcg to the head of a bin of
 * the old generation (MEMCG_LRU_OLD), lru_gen_release_memcg() takes it
 * off. The bins are drawn at random; the cases assert what holds
 * whichever bins were drawn.
 *
 * No swap: only page cache is reclaimed, read once by a task of each
 * memcg.
 */
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/mm_inline.h>
#include <linux/memcontrol.h>
#include <linux/list_nulls.h>
#include <linux/workqueue.h>
#include <kshim/testbed.h>
#include "tb_mglru.h"

/* lruvec->lrugen.seg after MEMCG_LRU_TAIL (mm/vmscan.c's enum) */
#define SEG_TAIL 2

/*
 * This CPU's charge stock lets go of its memcgs before one is removed:
 * 7.2's keeps a slot's memcg at 0 pages (!memcg_stock_frees_empty_slot),
 * which would keep a removed memcg from its release.
 */
static void stock_lets_go(void)
{
	tb_drain_local_stock();
}

static struct lru_gen_memcg *memcg_lru(void)
{
	return &NODE_DATA(0)->memcg_lru;
}

static int old_gen(void)
{
	return READ_ONCE(memcg_lru()->seq) % MEMCG_NR_GENS;
}

static int young_gen(void)
{
	return (READ_ONCE(memcg_lru()->seq) + 1) % MEMCG_NR_GENS;
}

static unsigned long nr_memcgs(void)
{
	unsigned long n = 0;
	int gen;

	for (gen = 0; gen < MEMCG_NR_GENS; gen++)
		n += memcg_lru()->nr_memcgs[gen];
	return n;
}

/* the bin of generation gen holding lruvec (-1: none), *first: at its head */
static int memcg_lru_bin(struct lruvec *lruvec, int gen, bool *first)
{
	struct hlist_nulls_node *pos;
	int bin;

	for (bin = 0; bin < MEMCG_NR_BINS; bin++) {
		*first = true;
		for (pos = memcg_lru()->fifo[gen][bin].first; !is_a_nulls(pos); pos = pos->next) {
			if (pos == &lruvec->lrugen.list)
				return bin;
			*first = false;
		}
	}
	return -1;
}

/* a task of path reads pages [0, n) of f once, then the thread switches back */
static void read_in(const char *path, struct tb_file *f, unsigned long n)
{
	tb_run_in(path);
	tb_read_range(f, n);
	tb_task_switch(NULL);
	lru_add_drain();
}

/*
 * "a" and "b" have page cache read once. memory.reclaim of "a" asks for
 * more than all of it: its oldest generations empty, should_run_aging()
 * finds it out of cold folios and, below DEF_PRIORITY, try_to_inc_max_seq()
 * ages it; lru_gen_shrink_lruvec() then rotates it to the young
 * generation. (A memory.reclaim satisfied by the last cold folio stops
 * before it ages.) It reads its file again.
 *
 * memory.reclaim "256K" of the root (nr_to_reclaim 32, below
 * MIN_LRU_BATCH: set_initial_priority() leaves DEF_PRIORITY) then takes
 * b's page cache only, 64 pages (one batch) a round, though a has page
 * cache read once too: shrink_many() walks the old generation only. The
 * empty root goes to the tail, then young, at once. b stays (reclaimed,
 * no rotation) while lruvec_is_sizable() holds: its pages >> priority
 * are not 0. The round that leaves it under 1 << DEF_PRIORITY pages sends
 * it to the tail, the next one (reclaimed again, still too small) to the
 * young generation, never aged; the old generation is empty and seq
 * moves on.
 *
 * 7.2 (mglru_evict_budget, mglru_age_at_three_gens): b gives up its
 * evictable size >> priority at each priority from DEF_PRIORITY down
 * until the call's 32 pages are met, more than 64 a round. Its oldest
 * generation holds only the folios added before folio_mark_accessed()
 * (lru_gen_folio_seq); once they are gone three generations are left,
 * and the first reclaim below DEF_PRIORITY ages b and rotates it young
 * while it still has most of its page cache.
 */
static void memcg_aged_by_its_own_reclaim_waits_in_the_young_generation(void **state)
{
	struct tb_file *fa = tb_file_create(512), *fb = tb_file_create(8192);
	unsigned long seq, max_seq_a, max_seq_b;
	struct lruvec *a, *b;
	long long steal_a, steal_b;
	long oldest_b;
	int round;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	assert_int_equal(tb_cgroup_mkdir("b"), 0);
	read_in("a", fa, 512);
	read_in("b", fb, 8192);
	a = tb_lruvec_of("a");
	b = tb_lruvec_of("b");
	seq = READ_ONCE(memcg_lru()->seq);
	assert_int_equal(a->lrugen.gen, old_gen());
	assert_int_equal(b->lrugen.gen, old_gen());

	max_seq_a = a->lrugen.max_seq;
	assert_write("a", "memory.reclaim", "4M", -EAGAIN);
	assert_int_equal(tb_file_cached(fa), 0);
	assert_true(a->lrugen.max_seq > max_seq_a);
	assert_int_equal(a->lrugen.gen, young_gen());
	assert_int_equal(a->lrugen.seg, 0);
	assert_int_equal(memcg_lru()->seq, seq);
	assert_int_equal(b->lrugen.gen, old_gen());
	read_in("a", fa, 512);

	steal_a = tb_stat("a", "pgsteal");
	max_seq_b = b->lrugen.max_seq;
	oldest_b = tb_gen_seq_pages(b, b->lrugen.min_seq[LRU_GEN_FILE], LRU_GEN_FILE);
	for (round = 0; READ_ONCE(memcg_lru()->seq) == seq; round++) {
		assert_true(round < 8192 / 64);
		steal_b = tb_stat("b", "pgsteal");
		assert_write_ok("", "memory.reclaim", "256K");
		if (READ_ONCE(memcg_lru()->seq) != seq)
			break;
		assert_int_equal(tb_stat("a", "pgsteal"), steal_a);
		assert_int_equal(b->lrugen.gen, old_gen());
		assert_int_equal(b->lrugen.max_seq, max_seq_b);
#if TB_HAVE_mglru_evict_budget
		assert_true(tb_stat("b", "pgsteal") > steal_b + 64);
		/* sizable at the priority that met the call's 32 pages */
		assert_int_equal(b->lrugen.seg, 0);
#else
		assert_int_equal(tb_stat("b", "pgsteal"), steal_b + 64);
		/* sizable at DEF_PRIORITY: one page or more after >> DEF_PRIORITY */
		if (tb_file_cached(fb) >> DEF_PRIORITY)
			assert_int_equal(b->lrugen.seg, 0);
		else
			assert_int_equal(b->lrugen.seg, SEG_TAIL);
#endif
	}
	assert_true(tb_file_cached(fb) > 0);
	assert_int_equal(tb_file_cached(fa), 512);
#if TB_HAVE_mglru_age_at_three_gens
	/* b aged once its oldest generation was gone, with most of its page cache */
	assert_int_equal(b->lrugen.max_seq, max_seq_b + 1);
	assert_true(tb_stat("b", "pgsteal") >= oldest_b);
	assert_true(tb_file_cached(fb) > 8192 / 2);
#else
	/* b left while it still had page cache, never aged */
	assert_true(round > 8192 / 64 / 2);
	assert_int_equal(b->lrugen.max_seq, max_seq_b);
#endif
	tb_assert_lrus_consistent();
}

/*
 * shrink_one() rotates a memcg below memory.min to the young generation
 * without reclaiming it, so the old generation empties and seq moves on
 * while p keeps all of its page cache. The protection it reads is the
 * effective one, memory.emin, which mem_cgroup_calculate_protection()
 * computes; on the lru_gen_shrink_node() path only kswapd's
 * lru_gen_age_node() computes it ("lru_gen_age_node() called
 * mem_cgroup_calculate_protection()"). Until then emin is 0: memory.reclaim
 * of the root reclaims p like any memcg. A memcg reclaim of p's parent
 * (here the root's child "A") computes it too, on the mem_cgroup_iter()
 * path; after that the root's memory.reclaim spares p.
 *
 * 7.2 (mglru_evict_budget): shrink_one() of the root's reclaim computes
 * p's emin again from the root (mem_cgroup_calculate_protection_path()):
 * 0, A protecting nothing. p is not below memory.min, and the first
 * priority at which its size >> priority is a page evicts that page
 * (the visit that finds p too small still rotates it young).
 */
static void memcg_below_min_is_rotated_young_once_its_protection_was_computed(void **state)
{
	struct tb_file *fp = tb_file_create(1024), *fu = tb_file_create(4096);
	unsigned long seq;
	struct lruvec *p;
	int round;

	assert_int_equal(tb_cgroup_mkdir("A"), 0);
	assert_int_equal(tb_cgroup_mkdir("A/p"), 0);
	assert_int_equal(tb_cgroup_mkdir("u"), 0);
	assert_write_ok("A/p", "memory.min", "8M");
	read_in("A/p", fp, 1024);
	read_in("u", fu, 4096);
	p = tb_lruvec_of("A/p");
	assert_int_equal(tb_memcg("A/p")->memory.emin, 0);

	/* nothing computed emin yet: the root's reclaim takes p's page cache too */
	for (round = 0; tb_file_cached(fp) == 1024; round++) {
		assert_true(round < 64);
		assert_write_ok("", "memory.reclaim", "1M");
	}
	assert_true(tb_stat("A/p", "pgsteal") > 0);
	read_in("A/p", fp, 1024);

	/* memory.reclaim of A computes A/p's emin on its way (memory.min of A/p: nothing taken) */
	assert_write("A", "memory.reclaim", "1M", -EAGAIN);
	assert_int_equal(tb_memcg("A/p")->memory.emin, 8 * MB / PAGE_SIZE);
	assert_int_equal(tb_file_cached(fp), 1024);

	seq = READ_ONCE(memcg_lru()->seq);
	for (round = 0; READ_ONCE(memcg_lru()->seq) == seq; round++) {
		assert_true(round < 64);
		assert_write_ok("", "memory.reclaim", "256K");
		assert_int_equal(p->lrugen.seg, 0);
	}
	/*
	 * memcg_protection_path (6.12.118, 7.3; not 7.2.13): shrink_one()
	 * computes p's protection from the root, where nothing protects A
	 */
#if TB_HAVE_memcg_protection_path
	assert_int_equal(tb_memcg("A/p")->memory.emin, 0);
#else
	assert_int_equal(tb_memcg("A/p")->memory.emin, 8 * MB / PAGE_SIZE);
#endif
#if TB_HAVE_mglru_evict_budget && TB_HAVE_memcg_protection_path
	assert_true(tb_file_cached(fp) < 1024);
#else
	assert_int_equal(tb_file_cached(fp), 1024);
#endif
	assert_true(tb_file_cached(fu) < 4096);
	tb_assert_lrus_consistent();
}

/*
 * rmdir: lru_gen_offline_memcg() moves each node's lruvec of the memcg
 * to the head of a random bin of the old generation (MEMCG_LRU_OLD, seg
 * reset), wherever it was. Its page cache keeps the css; reclaimed to
 * the last page, the css is released and lru_gen_release_memcg() takes
 * it off the memcg LRU.
 *
 * 7.2 (lru_folio_reparent): the offline splices a's generations into its
 * parent's (lru_gen_reparent_memcg(), after max_lru_gen_memcg() gave the
 * root MAX_NR_GENS): nothing keeps a, it is off the memcg LRU as soon as
 * it is removed, and its page cache is the root's to reclaim.
 */
static void removed_memcg_moves_to_the_head_of_the_old_generation_until_released(void **state)
{
	struct tb_file *f = tb_file_create(512), *other = tb_file_create(1);
	struct mem_cgroup *cached;
	struct tb_task *t;
	struct lruvec *a;
	unsigned long nr;
	bool first;
	int round;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	assert_int_equal(tb_cgroup_mkdir("b"), 0);
	assert_int_equal(tb_cgroup_mkdir("c"), 0);
	t = tb_run_in("a");
	tb_read_range(f, 512);
	tb_task_switch(NULL);
	lru_add_drain();
	a = tb_lruvec_of("a");
	/* aged by its own reclaim: young (the first case) */
	assert_write("a", "memory.reclaim", "4M", -EAGAIN);
	assert_int_equal(a->lrugen.gen, young_gen());
	tb_task_switch(t);
	tb_read_range(f, 256);
	tb_task_exit(t);
	lru_add_drain();
	assert_true(memcg_lru_bin(a, young_gen(), &first) >= 0);
	nr = nr_memcgs();

#if TB_HAVE_lru_folio_reparent
	stock_lets_go();
#endif
	assert_int_equal(tb_cgroup_rmdir("a"), 0);
	kshim_rcu_quiesce();
#if TB_HAVE_lru_folio_reparent
	/* a may be freed: only its address is compared */
	assert_int_equal(nr_memcgs(), nr - 1);
	assert_int_equal(memcg_lru_bin(a, young_gen(), &first), -1);
	assert_int_equal(memcg_lru_bin(a, old_gen(), &first), -1);
	assert_int_equal(tb_file_cached(f), 256);
	assert_true(tb_gen_pages(tb_lruvec_of(""), LRU_GEN_FILE) >= 256);
	for (round = 0; tb_file_cached(f); round++) {
		assert_true(round < 16);
		assert_write_ok("", "memory.reclaim", "256K");
	}
	(void)cached;
	(void)other;
#else
	assert_int_equal(nr_memcgs(), nr);
	assert_int_equal(a->lrugen.gen, old_gen());
	assert_int_equal(a->lrugen.seg, 0);
	assert_int_equal(memcg_lru_bin(a, young_gen(), &first), -1);
	assert_true(memcg_lru_bin(a, old_gen(), &first) >= 0);
	assert_true(first);

	/* the root's reclaim takes the offline memcg's pages, then it is released */
	for (round = 0; tb_file_cached(f); round++) {
		assert_true(round < 16);
		assert_write_ok("", "memory.reclaim", "256K");
	}
	/*
	 * This CPU's charge stock still caches a (with no pages: the offline
	 * drain_all_stock() only drains stocks holding pages) and so holds a
	 * reference, until a charge of another memcg replaces it.
	 */
	assert_int_equal(tb_stock_pages(0, &cached), 0);
	assert_ptr_equal(cached, lruvec_memcg(a));
	read_in("b", other, 1);
	/* css_release() runs its work on system_wq, which releases it */
	flush_workqueue(system_wq);
	kshim_rcu_quiesce();

	assert_int_equal(nr_memcgs(), nr - 1);
#endif
	tb_assert_lrus_consistent();
}

/*
 * The head of the bin, not the tail: with 40 memcgs online (each added at
 * the tail of a random bin of the old generation), a memcg removed while
 * its page cache holds it goes before the others of the bin it draws.
 */
static void removed_memcg_goes_before_the_other_memcgs_of_its_bin(void **state)
{
	struct tb_file *f = tb_file_create(1);
	struct hlist_nulls_node *pos;
	struct lruvec *x;
	char name[16];
	bool first;
	int i, bin, n = 0;

	for (i = 0; i < 40; i++) {
		snprintf(name, sizeof(name), "m%d", i);
		assert_int_equal(tb_cgroup_mkdir(name), 0);
	}
	assert_int_equal(tb_cgroup_mkdir("x"), 0);
	read_in("x", f, 1);
	x = tb_lruvec_of("x");

	assert_int_equal(tb_cgroup_rmdir("x"), 0);
	kshim_rcu_quiesce();
	assert_int_equal(x->lrugen.gen, old_gen());
	bin = memcg_lru_bin(x, old_gen(), &first);
	assert_true(bin >= 0);
	for (pos = memcg_lru()->fifo[old_gen()][bin].first; !is_a_nulls(pos); pos = pos->next)
		n++;
	assert_true(n > 1);
	assert_true(first);
}

/*
 * The last memcg of the old generation gone, the young one becomes the
 * old one (memcg_lru.seq moves on), also when it goes by release: "x",
 * removed with its page cache, waits in the old generation while the
 * root's reclaim takes its pages; the root itself, found empty, went to
 * the young generation on its first visit. With "z" made meanwhile (old
 * as well) x's release changes no generation; z's, when it is removed,
 * leaves the old generation empty. A memcg made after that joins the new
 * old generation (lru_gen_online_memcg()).
 *
 * 7.2 (lru_folio_reparent): a removed memcg's folios go to its parent, so
 * it is released as soon as it is removed. x, with page cache enough to
 * stay old through the root's reclaim while the empty root goes young,
 * is the last of the old generation: its removal moves seq on.
 */
static void releasing_the_last_memcg_of_the_old_generation_moves_seq_on(void **state)
{
	struct tb_file *f = tb_file_create(512);
	struct lruvec *x;
	unsigned long seq;
	bool first;
	int round;

#if TB_HAVE_lru_folio_reparent
	struct tb_file *big = tb_file_create(8192);
	struct lruvec *root = tb_lruvec_of("");

	assert_int_equal(tb_cgroup_mkdir("x"), 0);
	read_in("x", big, 8192);
	x = tb_lruvec_of("x");
	tb_task_exit_all();
	seq = READ_ONCE(memcg_lru()->seq);
	for (round = 0; root->lrugen.gen == old_gen(); round++) {
		assert_true(round < 16);
		assert_write_ok("", "memory.reclaim", "256K");
	}
	assert_int_equal(READ_ONCE(memcg_lru()->seq), seq);
	assert_int_equal(x->lrugen.gen, old_gen());
	assert_int_equal(memcg_lru()->nr_memcgs[old_gen()], 1);

	stock_lets_go();
	assert_int_equal(tb_cgroup_rmdir("x"), 0);
	flush_workqueue(system_wq);
	kshim_rcu_quiesce();
	assert_int_equal(READ_ONCE(memcg_lru()->seq), seq + 1);
	assert_int_equal(memcg_lru()->nr_memcgs[old_gen()], 1);
	assert_int_equal(memcg_lru()->nr_memcgs[young_gen()], 0);
	assert_true(tb_file_cached(big) > 0);
	(void)f;
#else
	assert_int_equal(tb_cgroup_mkdir("x"), 0);
	read_in("x", f, 512);
	x = tb_lruvec_of("x");
	tb_task_exit_all();
	assert_int_equal(tb_cgroup_rmdir("x"), 0);
	kshim_rcu_quiesce();
	for (round = 0; tb_file_cached(f); round++) {
		assert_true(round < 16);
		assert_write_ok("", "memory.reclaim", "256K");
	}
	seq = READ_ONCE(memcg_lru()->seq);
	assert_int_equal(x->lrugen.gen, old_gen());
	assert_int_equal(memcg_lru()->nr_memcgs[old_gen()], 1);
	assert_int_equal(memcg_lru()->nr_memcgs[young_gen()], 1);

	/* "z" made now is old too: x's release leaves the generations as they are */
	assert_int_equal(tb_cgroup_mkdir("z"), 0);
	assert_int_equal(memcg_lru()->nr_memcgs[old_gen()], 2);
	/* this CPU's charge stock holds x's last reference: drained, x is released */
	tb_drain_local_stock();
	flush_workqueue(system_wq);
	kshim_rcu_quiesce();
	assert_int_equal(READ_ONCE(memcg_lru()->seq), seq);
	assert_int_equal(memcg_lru()->nr_memcgs[old_gen()], 1);

	/* z, empty, is released as soon as it is removed: now the generation is empty */
	assert_int_equal(tb_cgroup_rmdir("z"), 0);
	flush_workqueue(system_wq);
	kshim_rcu_quiesce();
	assert_int_equal(READ_ONCE(memcg_lru()->seq), seq + 1);
	assert_int_equal(memcg_lru()->nr_memcgs[old_gen()], 1);
	assert_int_equal(memcg_lru()->nr_memcgs[young_gen()], 0);
#endif

	/* a memcg made now joins the old generation, the odd one */
	assert_int_equal(tb_cgroup_mkdir("y"), 0);
	assert_int_equal(old_gen(), 1);
	assert_int_equal(tb_lruvec_of("y")->lrugen.gen, old_gen());
	assert_true(memcg_lru_bin(tb_lruvec_of("y"), old_gen(), &first) >= 0);
	assert_int_equal(memcg_lru()->nr_memcgs[old_gen()], 2);
}

/*
 * lru_gen_release_memcg() moves seq on only when the generation it
 * empties is the old one. "x", removed with page cache too small to count,
 * goes to the tail on the first visit of the root's reclaim and to the
 * young generation on the next (shrink_one(): "one retry if offlined or
 * too small"), while the root, with page cache enough to count and cold,
 * stays old. x's page cache gone, x is released: the young generation
 * is empty, the old one is not, and seq stays. *
 * 7.2 (lru_folio_reparent): x is released as soon as it is removed; made
 * young by its own reclaim (the first case), its removal empties the
 * young generation and seq stays.
 */
static void releasing_the_last_memcg_of_the_young_generation_leaves_seq(void **state)
{
	struct tb_file *big = tb_file_create(8192), *f = tb_file_create(512);
	struct lruvec *x, *root;
	unsigned long seq;
	int round;

	read_in("", big, 8192);
	assert_int_equal(tb_cgroup_mkdir("x"), 0);
	read_in("x", f, 512);
	x = tb_lruvec_of("x");
	root = tb_lruvec_of("");
	tb_task_exit_all();
#if TB_HAVE_lru_folio_reparent
	assert_write("x", "memory.reclaim", "4M", -EAGAIN);
	assert_int_equal(x->lrugen.gen, young_gen());
	assert_int_equal(memcg_lru()->nr_memcgs[young_gen()], 1);
	seq = READ_ONCE(memcg_lru()->seq);
	stock_lets_go();
	assert_int_equal(tb_cgroup_rmdir("x"), 0);
	flush_workqueue(system_wq);
	kshim_rcu_quiesce();
	(void)round;
#else
	assert_int_equal(tb_cgroup_rmdir("x"), 0);
	kshim_rcu_quiesce();
	seq = READ_ONCE(memcg_lru()->seq);
	assert_int_equal(x->lrugen.gen, old_gen());
	assert_int_equal(root->lrugen.gen, old_gen());
	for (round = 0; x->lrugen.gen == old_gen(); round++) {
		assert_true(round < 32);
		assert_write_ok("", "memory.reclaim", "256K");
		assert_int_equal(READ_ONCE(memcg_lru()->seq), seq);
		assert_int_equal(root->lrugen.gen, old_gen());
	}
	assert_int_equal(x->lrugen.gen, young_gen());
	assert_int_equal(memcg_lru()->nr_memcgs[young_gen()], 1);

	tb_file_destroy(f);
	tb_drain_local_stock();
	flush_workqueue(system_wq);
	kshim_rcu_quiesce();
#endif
	assert_int_equal(memcg_lru()->nr_memcgs[young_gen()], 0);
	assert_int_equal(memcg_lru()->nr_memcgs[old_gen()], 1);
	assert_int_equal(READ_ONCE(memcg_lru()->seq), seq);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		TB_MGLRU_TEST(memcg_aged_by_its_own_reclaim_waits_in_the_young_generation),
		TB_MGLRU_TEST(memcg_below_min_is_rotated_young_once_its_protection_was_computed),
		TB_MGLRU_TEST(removed_memcg_moves_to_the_head_of_the_old_generation_until_released),
		TB_MGLRU_TEST(removed_memcg_goes_before_the_other_memcgs_of_its_bin),
		TB_MGLRU_TEST(releasing_the_last_memcg_of_the_old_generation_moves_seq_on),
		TB_MGLRU_TEST(releasing_the_last_memcg_of_the_young_generation_leaves_seq),
	};

	return TB_RUN(tests);
}
