// SPDX-License-Identifier: GPL-2.0-only
/*
 * Page migration as mm/migrate.c does it for the world's order-0 folios
 * (where the tree's demotion is built: CONFIG_MIGRATION). For each folio
 * of the list (isolated, a reference held): the callback allocates the
 * target; the folio must be unlocked by others, not under writeback and
 * hold no reference beyond its isolation's, its mappings' and its cache
 * slot's (else -EAGAIN: retried, then failed); a dirty file folio of a
 * mapping without ->migrate_folio is busy for an async migration
 * (fallback_migrate_folio()). Then the cache slot (page cache or swap
 * cache) and its statistics, the flags (folio_migrate_flags()), the
 * memcg charge (the kernel's mem_cgroup_migrate()) and every pte move to
 * the new folio, which goes on the LRU; the old one is freed. No memory
 * for a target (-ENOMEM) ends the call: that folio and those not tried
 * stay on the list, with the failed ones.
 */
#include <linux/mm.h>
#include <linux/mm_inline.h>
#include <linux/migrate.h>
#include <linux/memcontrol.h>
#include <linux/pagemap.h>
#include <linux/swap.h>
#include <linux/vmstat.h>
#include <kgen/mm_internal_reclaim.h>
#if !TB_HAVE_page_flags_idle
#include <kgen/page_idle.h>
#endif
#include "world.h"

/* a folio migrated (7.2: 0, before: MIGRATEPAGE_SUCCESS, also 0) */
#if TB_HAVE_migratepage_success
#define TB_MIGRATE_OK MIGRATEPAGE_SUCCESS
#else
#define TB_MIGRATE_OK 0
#endif
/* migrate_pages()'s reason: an enum migrate_reason since 7.3 */
#if TB_HAVE_migrate_reason_enum
typedef enum migrate_reason tb_migrate_reason_t;
#else
typedef int tb_migrate_reason_t;
#endif

#if TB_HAVE_memory_tier_late_init
#define NR_MAX_MIGRATE_PAGES_RETRY	10	/* mm/migrate.c */
#define NR_MAX_MIGRATE_ASYNC_RETRY	3

struct folio *alloc_migration_target(struct folio *src, unsigned long private)
{
	struct migration_target_control *mtc = (void *)private;
	int nid = mtc->nid == NUMA_NO_NODE ? folio_nid(src) : mtc->nid;

	if (WARN_ON_ONCE(folio_test_large(src)))
		return NULL;
	return tb_alloc_folio_nowait(mtc->gfp_mask, nid, mtc->nmask);
}

/* folio_expected_refs(): the isolation's, the cache slot's, the mappings' */
static int expected_refs(struct folio *folio, struct address_space *mapping)
{
	return 1 + (mapping ? 1 : 0) + folio_mapcount(folio);
}

/*
 * __folio_migrate_mapping()'s statistics, from old's node to new's; a
 * dirty folio moves only in the swap cache (a file's is busy for async
 * migration), whose mapping does not write back (no NR_FILE_DIRTY)
 */
static void move_mapping_stats(struct folio *old, struct folio *new)
{
	struct mem_cgroup *memcg = folio_memcg(old);
	struct lruvec *from = mem_cgroup_lruvec(memcg, folio_pgdat(old));
	struct lruvec *to = mem_cgroup_lruvec(memcg, folio_pgdat(new));

	tb_mod_lruvec_state(from, NR_FILE_PAGES, -1);
	tb_mod_lruvec_state(to, NR_FILE_PAGES, 1);
	if (folio_test_swapcache(old)) {
		tb_mod_lruvec_state(from, NR_SWAPCACHE, -1);
		tb_mod_lruvec_state(to, NR_SWAPCACHE, 1);
	}
}

/* __folio_migrate_mapping(): the slot and its reference go to new */
static void migrate_mapping(struct folio *old, struct folio *new, struct address_space *mapping)
{
	new->index = old->index;
	new->mapping = old->mapping;
	if (folio_test_swapbacked(old))
		__folio_set_swapbacked(new);
	if (!mapping)
		return;
	folio_ref_add(new, 1);
	if (folio_test_dirty(old)) {
		WARN_ON_ONCE(!folio_test_swapcache(old));
		folio_clear_dirty(old);
		folio_set_dirty(new);
	}
	if (folio_test_swapcache(old))
		tb_swap_cache_replace(old, new);
	else
		tb_pagecache_replace(old, new);
	local_irq_disable();
	move_mapping_stats(old, new);
	local_irq_enable();
	folio_ref_sub(old, 1);
}

/* folio_migrate_flags() of the flags the world's folios carry */
static void migrate_flags(struct folio *new, struct folio *old)
{
	if (folio_test_referenced(old))
		folio_set_referenced(new);
	if (folio_test_uptodate(old))
		folio_mark_uptodate(new);
	if (folio_test_clear_active(old))
		folio_set_active(new);
	else if (folio_test_clear_unevictable(old))
		folio_set_unevictable(new);
	if (folio_test_workingset(old))
		folio_set_workingset(new);
	if (folio_test_dirty(old))
		folio_set_dirty(new);
	if (folio_test_young(old))
		folio_set_young(new);
	if (folio_test_idle(old))
		folio_set_idle(new);
	if (folio_test_swapcache(old))
		folio_clear_swapcache(old);
	old->private = NULL;
	mem_cgroup_migrate(old, new);
}

/* fallback_migrate_folio(): a dirty folio needs writeout, not for async */
static bool busy(struct folio *folio, struct address_space *mapping, enum migrate_mode mode)
{
	if (folio_test_writeback(folio))
		return mode != MIGRATE_SYNC;
	return mapping && !folio_test_swapcache(folio) && !mapping->a_ops->migrate_folio &&
	       folio_test_dirty(folio) && mode != MIGRATE_SYNC;
}

static void migrate_done(struct folio *src, int reason)
{
	list_del(&src->lru);
	/* demotion's isolation is reclaim's to account */
	if (reason != MR_DEMOTION)
		node_stat_mod_folio(src, NR_ISOLATED_ANON + folio_is_file_lru(src),
				    -folio_nr_pages(src));
	folio_put(src);
}

static int migrate_one(struct folio *src, new_folio_t get_new_folio, free_folio_t put_new_folio,
		       unsigned long private, enum migrate_mode mode, int reason)
{
	struct address_space *mapping;
	struct folio *dst;
	int rc = -EAGAIN;

	if (folio_ref_count(src) == 1) {
		/* freed under us (truncated): done */
		folio_clear_active(src);
		folio_clear_unevictable(src);
		migrate_done(src, reason);
		return TB_MIGRATE_OK;
	}
	dst = get_new_folio(src, private);
	if (!dst)
		return -ENOMEM;
	if (!folio_trylock(src))
		goto put_dst;
	mapping = folio_mapping(src);
	if (busy(src, mapping, mode)) {
		rc = -EBUSY;
		goto unlock;
	}
	if (folio_ref_count(src) != expected_refs(src, mapping))
		goto unlock;
	__folio_set_locked(dst);
	tb_rmap_migrate_begin(src);
	migrate_mapping(src, dst, mapping);
	migrate_flags(dst, src);
	/* move_to_new_folio(): a page cache folio is freed without its mapping */
	if (!((unsigned long)src->mapping & TB_MAPPING_FLAGS))
		src->mapping = NULL;
	folio_add_lru(dst);
	tb_rmap_migrate_end(src, dst);
	folio_unlock(dst);
	folio_put(dst);
	folio_unlock(src);
	migrate_done(src, reason);
	return TB_MIGRATE_OK;
unlock:
	folio_unlock(src);
put_dst:
	if (put_new_folio)
		put_new_folio(dst, private);
	else
		folio_put(dst);
	return rc;
}

int migrate_pages(struct list_head *from, new_folio_t get_new_folio, free_folio_t put_new_folio,
		  unsigned long private, enum migrate_mode mode, tb_migrate_reason_t reason,
		  unsigned int *ret_succeeded)
{
	int passes = mode == MIGRATE_ASYNC ? NR_MAX_MIGRATE_ASYNC_RETRY : NR_MAX_MIGRATE_PAGES_RETRY;
	unsigned int nr_succeeded = 0;
	int nr_failed = 0, retry = 1, pass, rc = 0;
	struct folio *folio, *next;
	LIST_HEAD(ret_folios);

	for (pass = 0; pass < passes && retry; pass++) {
		retry = 0;
		list_for_each_entry_safe(folio, next, from, lru) {
			rc = migrate_one(folio, get_new_folio, put_new_folio, private, mode, reason);
			if (rc == TB_MIGRATE_OK) {
				nr_succeeded++;
			} else if (rc == -EAGAIN) {
				retry++;
			} else if (rc == -ENOMEM) {
				nr_failed++;
				goto out;
			} else {
				nr_failed++;
				list_move_tail(&folio->lru, &ret_folios);
			}
		}
	}
	nr_failed += retry;
	rc = 0;
out:
	list_splice(&ret_folios, from);
	count_vm_events(PGMIGRATE_SUCCESS, nr_succeeded);
	count_vm_events(PGMIGRATE_FAIL, nr_failed);
	if (ret_succeeded)
		*ret_succeeded = nr_succeeded;
	return rc ? rc : nr_failed;
}
#endif
