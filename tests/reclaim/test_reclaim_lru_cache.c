// SPDX-License-Identifier: GPL-2.0-only
/*
 * The LRU side of mm/swap.c on the classic active/inactive LRU: the
 * per-CPU folio batches (lru_add, lru_activate, lru_move_tail, ...) and
 * what each does to a folio when it is drained; folio_rotate_reclaimable()
 * at the end of a write reclaim asked for; lru_note_cost()'s reclaim cost
 * of each list and its decay.
 */
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/mm_inline.h>
#include <linux/memcontrol.h>
#include <linux/pagemap.h>
#include <linux/swap.h>
#include <linux/vmstat.h>
#include <linux/writeback.h>
#include <sys/mman.h>
#include <kshim/reclaim.h>
#include "tb_reclaim.h"

/* mm/internal.h: what an invalidation that cannot drop a folio calls */
void deactivate_file_folio(struct folio *folio);

static struct lruvec *lruvec_of(const char *path)
{
	return mem_cgroup_lruvec(tb_memcg(path), NODE_DATA(0));
}

/* the pages on lruvec's four evictable lists, as lru_note_cost() reads them */
static unsigned long lru_size(struct lruvec *lruvec)
{
	return lruvec_page_state(lruvec, NR_INACTIVE_ANON) +
	       lruvec_page_state(lruvec, NR_ACTIVE_ANON) +
	       lruvec_page_state(lruvec, NR_INACTIVE_FILE) +
	       lruvec_page_state(lruvec, NR_ACTIVE_FILE);
}

/*
 * lru_note_cost(lruvec, file, nr_io, nr_rotated) adds nr_io *
 * SWAP_CLUSTER_MAX + nr_rotated to the list's cost, then halves both
 * costs when together they are above a quarter of the LRU's pages.
 */
static void note_cost(struct lruvec *lruvec, bool file, unsigned int io, unsigned int rotated)
{
	unsigned long fc = lruvec->file_cost, ac = lruvec->anon_cost;
	unsigned long cost = io * SWAP_CLUSTER_MAX + rotated;

	if (file)
		fc += cost;
	else
		ac += cost;
	/* 7.2 (lru_note_cost_unlock_irq): an event of no cost decays nothing */
	if ((cost || !TB_HAVE_lru_note_cost_unlock_irq) && fc + ac > lru_size(lruvec) / 4) {
		fc /= 2;
		ac /= 2;
	}
#if TB_HAVE_lru_note_cost_unlock_irq
	spin_lock_irq(&lruvec->lru_lock);
	rcu_read_lock();
	lru_note_cost_unlock_irq(lruvec, file, io, rotated);
#else
	lru_note_cost(lruvec, file, io, rotated);
#endif
	assert_int_equal(lruvec->file_cost, fc);
	assert_int_equal(lruvec->anon_cost, ac);
}

/* n pages of anon touched once (inactive anon) */
static struct tb_vma *anon(unsigned long n)
{
	struct tb_vma *vma = tb_map_anon(n);

	tb_touch_range(vma, n, true);
	lru_add_drain();
	return vma;
}

/*
 * A memcg with pages on each of the four lists: 64 active anon (swapped
 * out, then activated by their refault), 32 inactive anon, 200 inactive
 * and 100 active page cache.
 */
static void four_lists(struct tb_vma **hot, struct tb_vma **once, struct tb_file *f,
		       struct tb_file *g)
{
	struct tb_file *big = tb_file_create(1024);
	unsigned long i;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	*hot = anon(64);
	tb_reclaim_swappiness("a", "256K", 200);
	assert_int_equal(tb_vma_swapped(*hot), 64);
	tb_read_range(big, 1024);
	for (i = 0; i < 64; i++)
		assert_int_equal(tb_touch(*hot, i, false), 0);
	tb_file_destroy(big);
	*once = anon(32);
	tb_read_range(f, 200);
	tb_read_range(g, 100);
	tb_read_range(g, 100);
	lru_add_drain();
	assert_int_equal(tb_stat("a", "active_anon"), 64 * 4096);
	assert_int_equal(tb_stat("a", "inactive_anon"), 32 * 4096);
	assert_int_equal(tb_stat("a", "inactive_file"), 200 * 4096);
	assert_int_equal(tb_stat("a", "active_file"), 100 * 4096);
}

/*
 * lru_note_cost(): the cost of a reclaim event is SWAP_CLUSTER_MAX per
 * page of IO plus one per rotated page, added to the list's cost; the
 * file and anon costs decay (both halved) once their sum is above a
 * quarter of the pages on the four lists, and not at a quarter exactly.
 */
static void reclaim_costs_decay_by_half_above_a_quarter_of_the_lru(void **state)
{
	struct tb_file *f = tb_file_create(200), *g = tb_file_create(100);
	struct tb_vma *hot, *once;
	struct lruvec *lruvec;
	unsigned long quarter;
	int n;

	four_lists(&hot, &once, f, g);
	lruvec = lruvec_of("a");
	quarter = lru_size(lruvec) / 4;
	assert_int_equal(quarter, (64 + 32 + 200 + 100) / 4);

	/* the swap-out's costs decay, a halving a call, to a quarter or less */
	for (n = 0; lruvec->file_cost + lruvec->anon_cost > quarter; n++) {
		assert_true(n < 64);
		note_cost(lruvec, true, 0, 1);
	}
	note_cost(lruvec, false, 1, 0);
	if (lruvec->file_cost + lruvec->anon_cost > quarter)
		note_cost(lruvec, true, 0, 1);
	assert_true(lruvec->anon_cost >= 2);
	/* up to a quarter exactly: no decay */
	note_cost(lruvec, true, 0, quarter - lruvec->file_cost - lruvec->anon_cost);
	assert_int_equal(lruvec->file_cost + lruvec->anon_cost, quarter);
	/* one page of IO more: both halved */
	note_cost(lruvec, true, 1, 0);
	assert_true(lruvec->file_cost + lruvec->anon_cost < quarter);
	note_cost(lruvec, false, 0, 3);
	tb_unmap(once);
	tb_unmap(hot);
}

/*
 * A reclaim event of no IO and no rotation adds nothing; lru_note_cost()
 * still halves costs above a quarter of the LRU, 7.2's
 * lru_note_cost_unlock_irq() returns before it and leaves them.
 */
static void event_of_no_cost_decays_costs_only_before_the_lock_held_noting(void **state)
{
	struct tb_file *f = tb_file_create(200), *g = tb_file_create(100);
	unsigned long quarter, before;
	struct tb_vma *hot, *once;
	struct lruvec *lruvec;

	four_lists(&hot, &once, f, g);
	lruvec = lruvec_of("a");
	quarter = lru_size(lruvec) / 4;
	/* costs above a quarter, as a noting of no decay would leave them */
	spin_lock_irq(&lruvec->lru_lock);
	lruvec->file_cost = quarter;
	lruvec->anon_cost = 2;
	spin_unlock_irq(&lruvec->lru_lock);
	before = quarter + 2;
	note_cost(lruvec, false, 0, 0);
	if (TB_HAVE_lru_note_cost_unlock_irq)
		assert_int_equal(lruvec->file_cost + lruvec->anon_cost, before);
	else
		assert_int_equal(lruvec->file_cost + lruvec->anon_cost, quarter / 2 + 1);
	tb_unmap(once);
	tb_unmap(hot);
}

/*
 * folio_rotate_reclaimable() at the end of a write: a folio reclaim (or
 * an invalidation) marked PG_reclaim goes to the tail of the inactive
 * list for the next reclaim to take at once, unless it is locked or off
 * the LRU (isolated) when the write ends: those stay where they are. A
 * folio dirtied again during the write lost PG_reclaim then
 * (folio_mark_dirty()) and is not rotated either.
 * Eight pages written and sent to the disk; POSIX_FADV_DONTNEED's
 * invalidation cannot drop pages under writeback and deactivates them
 * instead (deactivate_file_folio(): PG_reclaim, at the inactive head).
 */
static void writeback_end_rotates_reclaimable_folios_unless_redirtied_locked_or_isolated(void **state)
{
	struct tb_file *f = tb_file_create(8);
	struct folio *folio[8];
	struct list_head *pos;
	struct tb_task *t;
	long rotated;
	int i;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	t = tb_run_in("a");
	for (i = 0; i < 8; i++)
		assert_int_equal(tb_file_write(f, i), 0);
	lru_add_drain();
	wakeup_flusher_threads(WB_REASON_SYNC);
	assert_int_equal(tb_writeback_inflight(), 8);
	/* deactivated on CPU 1, its lru_deactivate_file batch drained from CPU 0 */
	assert_int_equal(tb_task_set_cpu(t, 1), 0);
	for (i = 0; i < 8; i++) {
		folio[i] = tb_file_folio(f, i);
		deactivate_file_folio(folio[i]);
	}
	assert_int_equal(tb_task_set_cpu(t, 0), 0);
	lru_add_drain();
	assert_false(folio_test_reclaim(folio[0]));
	lru_add_drain_all();
	for (i = 0; i < 8; i++) {
		assert_true(folio_test_reclaim(folio[i]));
		assert_true(folio_test_writeback(folio[i]));
	}

	/*
	 * 0 written to again: folio_mark_dirty() clears PG_reclaim, so its
	 * write's end has nothing to rotate; 1 locked and 2 isolated when
	 * the disk is done
	 */
	assert_int_equal(tb_file_write(f, 0), 0);
	assert_false(folio_test_reclaim(folio[0]));
	folio_lock(folio[1]);
#if TB_HAVE_folio_isolate_lru_bool
	assert_true(folio_isolate_lru(folio[2]));
#else
	assert_int_equal(folio_isolate_lru(folio[2]), 0);
#endif
	rotated = kshim_vm_event_read(PGROTATED);
	/* the writes end on CPU 1: its lru_move_tail batch, drained from CPU 0 */
	assert_int_equal(tb_task_set_cpu(t, 1), 0);
	schedule_timeout(HZ);
	assert_int_equal(tb_writeback_inflight(), 0);
	assert_int_equal(tb_task_set_cpu(t, 0), 0);
	folio_unlock(folio[1]);
	folio_putback_lru(folio[2]);
	lru_add_drain();
	assert_int_equal(kshim_vm_event_read(PGROTATED), rotated);
	lru_add_drain_all();

	assert_int_equal(kshim_vm_event_read(PGROTATED), rotated + 5);
	for (i = 0; i < 8; i++)
		assert_false(folio_test_reclaim(folio[i]));
	/* the rotated ones are the inactive list's tail, in the order their writes ended */
	pos = &lruvec_of("a")->lists[LRU_INACTIVE_FILE];
	for (i = 7; i >= 3; i--) {
		pos = pos->prev;
		assert_ptr_equal(list_entry(pos, struct folio, lru), folio[i]);
	}
	tb_assert_lrus_consistent();
}

/*
 * folio_mark_accessed() on a folio still in this CPU's lru_add batch (not
 * on the LRU yet) marks that folio, and only that one, active: the drain
 * puts it on the active list, its neighbours in the batch on the
 * inactive one. (lru_add_drain_all() from another CPU drains that batch:
 * cpu_needs_drain() finds it.)
 */
static void second_read_of_a_page_still_in_the_add_batch_activates_only_that_page(void **state)
{
	struct tb_file *f = tb_file_create(3);
	struct tb_task *t;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	t = tb_run_in("a");
	lru_add_drain();
	/* read on CPU 1: its lru_add batch, drained from CPU 0 */
	assert_int_equal(tb_task_set_cpu(t, 1), 0);
	tb_read_range(f, 3);
	assert_int_equal(tb_file_read(f, 1), 0);
	assert_int_equal(tb_task_set_cpu(t, 0), 0);
	lru_add_drain();
	assert_false(folio_test_lru(tb_file_folio(f, 1)));
	lru_add_drain_all();
	assert_true(folio_test_active(tb_file_folio(f, 1)));
	assert_false(folio_test_active(tb_file_folio(f, 0)));
	assert_false(folio_test_active(tb_file_folio(f, 2)));
	assert_int_equal(tb_stat("a", "active_file"), 4096);
	assert_int_equal(tb_stat("a", "inactive_file"), 2 * 4096);
}

/*
 * A page on the LRU read four times before the batches drain is
 * queued for activation twice (the second and the fourth read find it
 * referenced and not yet active); the drain activates it once:
 * lru_activate() leaves a folio that is already active alone, and
 * PGACTIVATE counts one activation, globally and in the memcg.
 */
static void page_queued_twice_for_activation_is_activated_once(void **state)
{
	struct tb_file *f = tb_file_create(1);
	struct tb_task *t;
	long global;
	int k;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	t = tb_run_in("a");
	tb_read_range(f, 1);
	lru_add_drain();
	assert_true(folio_test_lru(tb_file_folio(f, 0)));
	global = kshim_vm_event_read(PGACTIVATE);
	/* read on CPU 1: its lru_activate batch, drained from CPU 0 */
	assert_int_equal(tb_task_set_cpu(t, 1), 0);
	for (k = 0; k < 3; k++)
		assert_int_equal(tb_file_read(f, 0), 0);
	assert_int_equal(tb_task_set_cpu(t, 0), 0);
	lru_add_drain();
	assert_false(folio_test_active(tb_file_folio(f, 0)));
	lru_add_drain_all();
	assert_true(folio_test_active(tb_file_folio(f, 0)));
	assert_int_equal(kshim_vm_event_read(PGACTIVATE), global + 1);
	assert_int_equal(tb_stat("a", "pgactivate"), 1);
	assert_int_equal(tb_stat("a", "active_file"), 4096);
}

/*
 * MADV_FREE twice before this CPU's batches drain queues each folio for
 * lazyfree twice (the second call still finds it swap-backed); the drain
 * makes it lazyfree once: lru_lazyfree() leaves a folio that is no
 * longer swap-backed alone, and PGLAZYFREE counts each page once,
 * globally and in the memcg.
 */
static void folio_freed_twice_before_the_drain_is_made_lazyfree_once(void **state)
{
	struct tb_vma *vma;
	struct tb_task *t;
	long global;
	unsigned long i;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	t = tb_run_in("a");
	vma = anon(8);
	global = kshim_vm_event_read(PGLAZYFREE);
	assert_int_equal(tb_madvise(vma, MADV_FREE), 0);
	for (i = 0; i < 8; i++)
		assert_true(folio_test_swapbacked(tb_vma_folio(vma, i)));
	/* the world's madvise drains this CPU first, as the kernel's: from another */
	assert_int_equal(tb_task_set_cpu(t, 1), 0);
	assert_int_equal(tb_madvise(vma, MADV_FREE), 0);
	assert_int_equal(tb_task_set_cpu(t, 0), 0);
	lru_add_drain_all();
	assert_int_equal(kshim_vm_event_read(PGLAZYFREE), global + 8);
	assert_int_equal(tb_stat("a", "pglazyfree"), 8);
	assert_int_equal(tb_stat("a", "inactive_file"), 8 * 4096);
	for (i = 0; i < 8; i++)
		assert_false(folio_test_swapbacked(tb_vma_folio(vma, i)));
	tb_unmap(vma);
}

/*
 * MADV_FREE drains only its own CPU's batches: pages a task faulted on
 * CPU 1 and frees from CPU 0 are still in CPU 1's add batch, off the
 * LRU, and stay swap-backed once both CPUs' batches are drained.
 */
static void madvise_free_leaves_pages_in_another_cpus_add_batch_swap_backed(void **state)
{
	struct tb_vma *vma;
	struct tb_task *t;
	unsigned long i;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	t = tb_run_in("a");
	lru_add_drain();
	assert_int_equal(tb_task_set_cpu(t, 1), 0);
	vma = tb_map_anon(8);
	tb_touch_range(vma, 8, true);
	assert_int_equal(tb_task_set_cpu(t, 0), 0);
	assert_int_equal(tb_madvise(vma, MADV_FREE), 0);
	assert_false(folio_test_lru(tb_vma_folio(vma, 0)));
	/* CPU 1's batch drained first, then CPU 0's: nothing was queued there */
	assert_int_equal(tb_task_set_cpu(t, 1), 0);
	lru_add_drain();
	assert_int_equal(tb_task_set_cpu(t, 0), 0);
	lru_add_drain();
	for (i = 0; i < 8; i++) {
		assert_true(folio_test_lru(tb_vma_folio(vma, i)));
		assert_true(folio_test_swapbacked(tb_vma_folio(vma, i)));
	}
	assert_int_equal(tb_stat("a", "pglazyfree"), 0);
	assert_int_equal(tb_stat("a", "inactive_anon"), 8 * 4096);
	tb_unmap(vma);
}

/*
 * deactivate_file_folio(), what an invalidation (POSIX_FADV_DONTNEED) does
 * with a page cache folio it cannot drop, by lru_deactivate_file() when
 * the batch drains: a clean one (its writeback ended meanwhile) goes to
 * the inactive tail at once (PGROTATED), an active one is deactivated
 * (PGDEACTIVATE, globally and in the memcg) with its referenced bit
 * cleared, a dirty one goes to the inactive head marked PG_reclaim for
 * when its write ends, a mapped one stays where it is; a folio not on
 * the LRU yet (this CPU's add batch) is not queued at all. (The mapped
 * one is page 16: a fault maps the cached pages of its aligned 16-page
 * window too, fault_around_bytes' default.)
 */
static void invalidation_deactivates_the_file_folios_it_cannot_drop(void **state)
{
	struct tb_file *f = tb_file_create(17);
	struct folio *clean, *active, *dirty, *mapped, *fresh;
	struct lruvec *lruvec;
	struct tb_vma *vma;
	long rotated, deact;
	bool mapped_active;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	tb_read_range(f, 4);
	assert_int_equal(tb_file_read(f, 16), 0);
	assert_int_equal(tb_file_read(f, 1), 0);
	assert_int_equal(tb_file_write(f, 2), 0);
	vma = tb_map_file(f);
	assert_int_equal(tb_touch(vma, 16, false), 0);
	lru_add_drain();
	clean = tb_file_folio(f, 0);
	active = tb_file_folio(f, 1);
	dirty = tb_file_folio(f, 2);
	mapped = tb_file_folio(f, 16);
	assert_false(folio_mapped(clean));
	assert_true(folio_test_active(active));
	assert_true(folio_test_dirty(dirty));
	/* the write was its second access: active too */
	assert_true(folio_test_active(dirty));
	assert_true(folio_mapped(mapped));
	mapped_active = folio_test_active(mapped);
	assert_int_equal(tb_file_read(f, 4), 0);
	fresh = tb_file_folio(f, 4);
	assert_false(folio_test_lru(fresh));
	rotated = kshim_vm_event_read(PGROTATED);
	deact = kshim_vm_event_read(PGDEACTIVATE);

	deactivate_file_folio(fresh);
	deactivate_file_folio(clean);
	deactivate_file_folio(active);
	deactivate_file_folio(dirty);
	deactivate_file_folio(mapped);
	lru_add_drain();

	lruvec = lruvec_of("a");
	assert_int_equal(kshim_vm_event_read(PGROTATED), rotated + 2);
	assert_int_equal(kshim_vm_event_read(PGDEACTIVATE), deact + 2);
	assert_int_equal(tb_stat("a", "pgdeactivate"), 2);
	/* the inactive list, tail first: active, clean; then the others */
	assert_ptr_equal(lru_to_folio(&lruvec->lists[LRU_INACTIVE_FILE]), active);
	assert_ptr_equal(list_entry(active->lru.prev, struct folio, lru), clean);
	assert_false(folio_test_active(active));
	assert_false(folio_test_referenced(active));
	assert_false(folio_test_reclaim(clean));
	assert_false(folio_test_reclaim(active));
	/* the dirty one at the head, for its write to rotate */
	assert_ptr_equal(list_first_entry(&lruvec->lists[LRU_INACTIVE_FILE], struct folio, lru),
			 dirty);
	assert_true(folio_test_reclaim(dirty));
	assert_false(folio_test_active(dirty));
	assert_false(folio_test_reclaim(mapped));
	assert_int_equal(folio_test_active(mapped), mapped_active);
	assert_false(folio_test_reclaim(fresh));
	assert_true(folio_test_referenced(fresh));
	tb_unmap(vma);
	tb_assert_lrus_consistent();
}

/*
 * A page read again while it is off the LRU and in no add batch
 * (isolated, here by folio_isolate_lru()) is not activated:
 * __lru_cache_activate_folio() looks for it in this CPU's add batch only,
 * from its last folio down, and does not find it (the batch empty, its
 * first slot still naming the page from before the last drain; then
 * with another page in it). Put back, the page goes to the inactive
 * list.
 */
static void page_read_again_while_isolated_is_not_activated(void **state)
{
	struct tb_file *f = tb_file_create(2);
	struct folio *folio;
	long global;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	lru_add_drain();
	tb_read_range(f, 1);
	lru_add_drain();
	folio = tb_file_folio(f, 0);
	assert_true(folio_test_referenced(folio));
#if TB_HAVE_folio_isolate_lru_bool
	assert_true(folio_isolate_lru(folio));
#else
	assert_int_equal(folio_isolate_lru(folio), 0);
#endif
	global = kshim_vm_event_read(PGACTIVATE);
	assert_int_equal(tb_file_read(f, 0), 0);
	assert_false(folio_test_active(folio));
	/* nor with another page in the batch (read twice: referenced again first) */
	assert_int_equal(tb_file_read(f, 1), 0);
	assert_false(folio_test_lru(tb_file_folio(f, 1)));
	assert_int_equal(tb_file_read(f, 0), 0);
	assert_int_equal(tb_file_read(f, 0), 0);
	assert_false(folio_test_active(folio));
	folio_putback_lru(folio);
	lru_add_drain();
	assert_false(folio_test_active(folio));
	assert_int_equal(tb_stat("a", "inactive_file"), 2 * 4096);
	assert_int_equal(kshim_vm_event_read(PGACTIVATE), global);
}

/*
 * Pages queued on CPU 1, one for activation (read twice), one for
 * deactivation (MADV_COLD of an active page), that become unevictable
 * before the batches drain (their file SHM_LOCKed, each folio isolated
 * and put back, as migration would: lru_add() moves it to the
 * unevictable list, clearing PG_active) stay unevictable, neither
 * activated nor deactivated: lru_activate() leaves an unevictable folio
 * alone, lru_deactivate() finds it inactive (on the multi-gen LRU only
 * its unevictable test stops it: test_reclaim_mglru_tiers).
 */
static void pages_made_unevictable_while_queued_are_neither_activated_nor_deactivated(void **state)
{
	struct tb_file *f = tb_file_create(2);
	struct folio *once, *hot;
	struct tb_vma *vma;
	struct tb_task *t;
	long activated, deactivated;
	int i;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	t = tb_run_in("a");
	tb_read_range(f, 2);
	assert_int_equal(tb_file_read(f, 1), 0);
	vma = tb_map_file(f);
	assert_int_equal(tb_touch(vma, 1, false), 0);
	lru_add_drain();
	once = tb_file_folio(f, 0);
	hot = tb_file_folio(f, 1);
	assert_false(folio_test_active(once));
	assert_true(folio_test_active(hot));
	assert_int_equal(tb_task_set_cpu(t, 1), 0);
	/* MADV_COLD drains CPU 1 first: the read comes after it */
	assert_int_equal(tb_madvise(vma, MADV_COLD), 0);
	assert_int_equal(tb_file_read(f, 0), 0);
	assert_int_equal(tb_task_set_cpu(t, 0), 0);
	assert_false(folio_test_active(once));
	assert_true(folio_test_active(hot));

	tb_file_set_unevictable(f, true);
	for (i = 0; i < 2; i++) {
		struct folio *folio = i ? hot : once;

#if TB_HAVE_folio_isolate_lru_bool
		assert_true(folio_isolate_lru(folio));
#else
		assert_int_equal(folio_isolate_lru(folio), 0);
#endif
		folio_putback_lru(folio);
	}
	lru_add_drain();
	assert_true(folio_test_unevictable(once));
	assert_true(folio_test_unevictable(hot));
	activated = kshim_vm_event_read(PGACTIVATE);
	deactivated = kshim_vm_event_read(PGDEACTIVATE);
	lru_add_drain_all();
	assert_true(folio_test_unevictable(once));
	assert_true(folio_test_unevictable(hot));
	assert_false(folio_test_active(once));
	assert_int_equal(tb_stat("a", "unevictable"), 2 * 4096);
	assert_int_equal(kshim_vm_event_read(PGACTIVATE), activated);
	assert_int_equal(kshim_vm_event_read(PGDEACTIVATE), deactivated);
	tb_unmap(vma);
	tb_file_set_unevictable(f, false);
}

/* a file of n pages read twice (active), mapped and touched */
static struct tb_vma *mapped_active_file(struct tb_file *f, unsigned long n)
{
	struct tb_vma *vma;

	tb_read_range(f, n);
	tb_read_range(f, n);
	vma = tb_map_file(f);
	tb_touch_range(vma, n, false);
	lru_add_drain();
	return vma;
}

/*
 * MADV_COLD deactivates the active pages a vma alone maps
 * (folio_deactivate(), lru_deactivate() when the batch drains:
 * PGDEACTIVATE, globally and in the memcg, referenced cleared). Pages
 * queued twice, from two CPUs, before either drains are deactivated once;
 * pages advised on CPU 1 only are deactivated by lru_add_drain_all() from
 * CPU 0 (cpu_needs_drain() finds CPU 1's lru_deactivate batch).
 */
static void madvise_cold_deactivates_active_pages_once_from_any_cpu(void **state)
{
	struct tb_file *f1 = tb_file_create(4), *f2 = tb_file_create(4);
	struct tb_vma *v1, *v2;
	struct tb_task *t;
	long global;
	unsigned long i;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	t = tb_run_in("a");
	v1 = mapped_active_file(f1, 4);
	v2 = mapped_active_file(f2, 4);
	assert_int_equal(tb_stat("a", "active_file"), 8 * 4096);
	global = kshim_vm_event_read(PGDEACTIVATE);

	assert_int_equal(tb_madvise(v1, MADV_COLD), 0);
	assert_int_equal(tb_task_set_cpu(t, 1), 0);
	assert_int_equal(tb_madvise(v1, MADV_COLD), 0);
	assert_int_equal(tb_madvise(v2, MADV_COLD), 0);
	assert_int_equal(tb_task_set_cpu(t, 0), 0);
	lru_add_drain();
	assert_int_equal(kshim_vm_event_read(PGDEACTIVATE), global + 4);
	for (i = 0; i < 4; i++) {
		assert_false(folio_test_active(tb_file_folio(f1, i)));
		assert_false(folio_test_referenced(tb_file_folio(f1, i)));
		assert_true(folio_test_active(tb_file_folio(f2, i)));
	}
	lru_add_drain_all();
	assert_int_equal(kshim_vm_event_read(PGDEACTIVATE), global + 8);
	assert_int_equal(tb_stat("a", "pgdeactivate"), 8);
	assert_int_equal(tb_stat("a", "active_file"), 0);
	assert_int_equal(tb_stat("a", "inactive_file"), 8 * 4096);
	for (i = 0; i < 4; i++)
		assert_false(folio_test_active(tb_file_folio(f2, i)));
	tb_unmap(v2);
	tb_unmap(v1);
	tb_assert_lrus_consistent();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		TB_RECLAIM_SWAP_TEST(reclaim_costs_decay_by_half_above_a_quarter_of_the_lru),
		TB_RECLAIM_SWAP_TEST(event_of_no_cost_decays_costs_only_before_the_lock_held_noting),
		TB_RECLAIM_TEST(second_read_of_a_page_still_in_the_add_batch_activates_only_that_page),
		TB_RECLAIM_TEST(page_queued_twice_for_activation_is_activated_once),
		TB_RECLAIM_TEST(page_read_again_while_isolated_is_not_activated),
		TB_RECLAIM_TEST(pages_made_unevictable_while_queued_are_neither_activated_nor_deactivated),
		TB_RECLAIM_SWAP_TEST(folio_freed_twice_before_the_drain_is_made_lazyfree_once),
		TB_RECLAIM_SWAP_TEST(madvise_free_leaves_pages_in_another_cpus_add_batch_swap_backed),
		TB_RECLAIM_TEST(madvise_cold_deactivates_active_pages_once_from_any_cpu),
		TB_RECLAIM_TEST(invalidation_deactivates_the_file_folios_it_cannot_drop),
		TB_RECLAIM_TEST(writeback_end_rotates_reclaimable_folios_unless_redirtied_locked_or_isolated),
	};

	return TB_RUN(tests);
}
