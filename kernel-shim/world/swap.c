// SPDX-License-Identifier: GPL-2.0-only
/*
 * The swap device: N slots (offsets 1..N of swap type 0; slot 0 is the
 * header, as on a real device), a count per slot of the ptes holding its
 * entry plus a "has cache" bit (mm/swapfile.c's swap_map), the memcg id
 * per slot (mm/swap_cgroup.c), and the swap cache as an address_space
 * whose i_pages hold swapcache folios or the shadow entries
 * workingset_eviction() left (mm/swap_state.c). Writes complete at once,
 * as on a synchronous device (zram), or, on a disk, a write's latency
 * later (the folio under writeback meanwhile, as a bio in flight); the
 * charge and uncharge of swap to memcgs are the real memcontrol.c's.
 */
#include <linux/mm.h>
#include <linux/swap.h>
#include <linux/swapops.h>
#include <linux/pagemap.h>
#include <linux/xarray.h>
#include <linux/writeback.h>
#include <linux/memcontrol.h>
#include <linux/vmstat.h>
#include <linux/slab.h>
#include <kshim/reclaim.h>
#include <kgen/mm_internal_reclaim.h>
#include "world.h"

/*
 * A slot's map byte: the ptes holding its entry, and whether the swap
 * cache holds it. 6.12's large swap-in reads it as mm/swapfile.c keeps
 * it (si->swap_map: SWAP_HAS_CACHE, counts up to SWAP_MAP_MAX); the
 * world has no count continuation, which it needs no more than the
 * ptes of one mm (it never forks).
 */
#if TB_HAVE_swapin_reads_swap_map
#define SLOT_HAS_CACHE	SWAP_HAS_CACHE
#define SLOT_COUNT_MAX	SWAP_MAP_MAX
#else
#define SLOT_HAS_CACHE	0x80
#define SLOT_COUNT_MAX	0x7f
#endif

atomic_long_t nr_swap_pages;
long total_swap_pages;
/*
 * swapfile_init(): a migration entry keeps the accessed and dirty bits when
 * the swap offset has room for them, as x86-64's 46 bits have
 */
#ifdef CONFIG_TRANSPARENT_HUGEPAGE
bool swap_migration_ad_supported = SWP_OFFSET_BITS_ARCH >= SWP_MIG_TOTAL_BITS;
#endif

static struct {
	unsigned long nr;		/* slots 1..nr */
	unsigned char *map;		/* pte references | SLOT_HAS_CACHE */
	unsigned short *memcg_id;	/* mm/swap_cgroup.c's record */
	unsigned long *zeromap;		/* 6.12 on: slots of zero-filled pages, not written */
	unsigned long cursor;		/* next-fit */
	bool disk;			/* writes complete later */
	bool fs;			/* a swap file with ->swap_rw: SWP_FS_OPS */
	unsigned long fs_iocbs, fs_pages;	/* ->swap_rw() calls, pages written */
	spinlock_t lock;
	struct address_space space;	/* the swap cache */
} swap;

static bool tb_swap_dirty_folio(struct address_space *mapping, struct folio *folio);
#if TB_HAVE_aops_writepage
static int tb_swap_writepage(struct page *page, struct writeback_control *wbc);
#endif
static const struct address_space_operations tb_swap_aops = {
#if TB_HAVE_aops_writepage
	.writepage = tb_swap_writepage,
#endif
	.dirty_folio = tb_swap_dirty_folio,
};

static unsigned long offset_of(swp_entry_t entry)
{
	return entry.val;
}

#if TB_HAVE_swap_table
/*
 * 7.2's swap table (mm/swap.h, mm/swap_table.h): the device is clusters of
 * SWAPFILE_CLUSTER slots, under whose lock a slot's swap cache entry and
 * memcg record change and its count drops. Here every cluster takes one
 * lock, the swap cache's, which is still the XArray of folios and shadows.
 */
struct swap_cluster_info {
	unsigned long base;	/* its first slot */
};
static struct swap_cluster_info *clusters;

static struct swap_cluster_info *cluster_of(swp_entry_t entry)
{
	return &clusters[offset_of(entry) / SWAPFILE_CLUSTER];
}

struct swap_cluster_info *swap_cluster_get_and_lock(const struct folio *folio)
{
	xa_lock(&swap.space.i_pages);
	return cluster_of(folio->swap);
}

struct swap_cluster_info *swap_cluster_get_and_lock_irq(const struct folio *folio)
{
	xa_lock_irq(&swap.space.i_pages);
	return cluster_of(folio->swap);
}

void swap_cluster_unlock(struct swap_cluster_info *ci)
{
	xa_unlock(&swap.space.i_pages);
}

void swap_cluster_unlock_irq(struct swap_cluster_info *ci)
{
	xa_unlock_irq(&swap.space.i_pages);
}

#ifdef CONFIG_TRANSPARENT_HUGEPAGE
/* 7.2: a split's new folio takes its slots from the old one */
void __swap_cache_replace_folio(struct swap_cluster_info *ci, struct folio *old,
				struct folio *new)
{
	long i;
	void *slot;

	for (i = 0; i < folio_nr_pages(new); i++) {
		slot = __xa_store(&swap.space.i_pages, offset_of(new->swap) + i, new, GFP_ATOMIC);
		WARN_ON_ONCE(slot != old);
	}
}
#endif

/* mm/swap_table.h: the memcg a slot's swap is charged to */
void __swap_cgroup_set(struct swap_cluster_info *ci, unsigned int ci_off, unsigned int nr,
		       unsigned short id)
{
	unsigned int i;

	for (i = 0; i < nr; i++)
		swap.memcg_id[ci->base + ci_off + i] = id;
}
#endif

#if TB_HAVE_swap_ops
/*
 * 7.3: the device's operations; a swap file on a filesystem with
 * ->swap_rw (NFS) needs reclaim to keep out of the filesystem
 */
static struct swap_ops tb_swap_ops;
#endif
#if TB_HAVE_swap_ops || TB_HAVE_swapin_thp
/*
 * The device as mm/swapfile.c describes it to the rest of mm: its flags
 * (SWP_SYNCHRONOUS_IO: zram, the world's synchronous device, whose
 * swap-in skips or frees the swap cache and may read a large folio),
 * 6.12's swap_map and zeromap, 7.3's operations
 */
static struct swap_info_struct tb_swap_info = {
#if TB_HAVE_swap_ops
	.ops = &tb_swap_ops,
#endif
};
#endif
#if TB_HAVE_swap_ops
struct swap_info_struct *__swap_entry_to_info(swp_entry_t entry)
{
	return &tb_swap_info;
}
#endif
#if TB_HAVE_swapin_reads_swap_map
struct swap_info_struct *swp_swap_info(swp_entry_t entry)
{
	return &tb_swap_info;
}
#endif
#if TB_HAVE_swapin_thp
/* the world's one device, whatever a tree calls its lookup (7.2: swap_info[]) */
struct swap_info_struct *tb_swap_device(void)
{
	return &tb_swap_info;
}
#endif

int tb_swap_boot(unsigned long pages, bool disk, bool fs)
{
	memset(&swap, 0, sizeof(swap));
	swap.disk = disk;
	swap.fs = fs;
	spin_lock_init(&swap.lock);
	xa_init_flags(&swap.space.i_pages, XA_FLAGS_LOCK_IRQ);
	swap.space.a_ops = &tb_swap_aops;
	swap.nr = pages;
	swap.cursor = 1;
	if (pages) {
		swap.map = calloc(pages + 1, sizeof(*swap.map));
		swap.memcg_id = calloc(pages + 1, sizeof(*swap.memcg_id));
		if (!swap.map || !swap.memcg_id) {
			free(swap.map);
			free(swap.memcg_id);
			return -ENOMEM;
		}
	}
#if TB_HAVE_swap_table
	{
		unsigned long i, n = pages / SWAPFILE_CLUSTER + 1;

		clusters = calloc(n, sizeof(*clusters));
		if (!clusters) {
			free(swap.map);
			free(swap.memcg_id);
			return -ENOMEM;
		}
		for (i = 0; i < n; i++)
			clusters[i].base = i * SWAPFILE_CLUSTER;
	}
#endif
#if TB_HAVE_swap_ops
	tb_swap_ops.flags = fs ? SWAP_OPS_F_REQUIRE_NOFS : 0;
#endif
#if TB_HAVE_memcg_stat_swp_zero
	/* the slots of zero-filled pages, which are not written (swap_write_zero()) */
	swap.zeromap = calloc(BITS_TO_LONGS(pages + 1), sizeof(long));
	if (!swap.zeromap) {
		free(swap.map);
		free(swap.memcg_id);
#if TB_HAVE_swap_table
		free(clusters);
#endif
		return -ENOMEM;
	}
#endif
#if TB_HAVE_swapin_reads_swap_map
	tb_swap_info.swap_map = swap.map;
	tb_swap_info.zeromap = swap.zeromap;
	tb_swap_info.max = pages + 1;
#endif
#if TB_HAVE_swapin_thp
	/* swapon(): zram's bdev is synchronous; a disk and a swap file are not */
	tb_swap_info.flags = pages && !disk && !fs ? SWP_SYNCHRONOUS_IO : 0;
#endif
	total_swap_pages = pages;
	atomic_long_set(&nr_swap_pages, pages);
	return 0;
}

void tb_swap_shutdown(void)
{
	xa_destroy(&swap.space.i_pages);
	free(swap.map);
	free(swap.memcg_id);
	free(swap.zeromap);
	swap.map = NULL;
	swap.memcg_id = NULL;
	swap.zeromap = NULL;
#if TB_HAVE_swapin_thp
	tb_swap_info.flags = 0;
#endif
#if TB_HAVE_swap_table
	free(clusters);
	clusters = NULL;
#endif
	swap.nr = 0;
	total_swap_pages = 0;
	atomic_long_set(&nr_swap_pages, 0);
}

/*
 * The device is SWP_SYNCHRONOUS_IO (zram), as swapon() flags it: for the
 * trees whose struct swap_info_struct the world does not build (6.1: its
 * plist and completion members), where do_swap_page() reads si->flags
 */
bool tb_swap_synchronous(void)
{
	return swap.nr && !swap.disk && !swap.fs;
}

unsigned long tb_swap_used(void)
{
	return total_swap_pages - atomic_long_read(&nr_swap_pages);
}

/*
 * Whether the device gives a large folio slots: 6.12's
 * scan_swap_map_slots() only on a block device with clusters, which it
 * sets up for a non-rotational one (an SSD, zram: the world's synchronous
 * device) and not for a disk (the world's disk, rotational as the oracle
 * guest's virtio disk); 7.2's cluster_alloc_swap_entry() on any block
 * device. Never on a swap file.
 */
static bool large_slots(void)
{
	if (swap.fs)
		return false;
	return TB_HAVE_swap_large_on_any_blkdev || !swap.disk;
}

static swp_entry_t slot_alloc(void)
{
	swp_entry_t entry = { 0 };
	unsigned long i, off;

	spin_lock(&swap.lock);
	for (i = 0; i < swap.nr; i++) {
		off = swap.cursor;
		swap.cursor = off == swap.nr ? 1 : off + 1;
		if (!swap.map[off]) {
			swap.map[off] = SLOT_HAS_CACHE;
			entry.val = off;
			atomic_long_dec(&nr_swap_pages);
			break;
		}
	}
	spin_unlock(&swap.lock);
	return entry;
}

/*
 * nr (a large folio's) free slots in a run aligned to nr, as a cluster of
 * mm/swapfile.c gives them; none where the kernel gives a large folio no
 * slots on such a device (large_slots())
 */
static swp_entry_t slots_alloc(unsigned long nr)
{
	swp_entry_t entry = { 0 };
	unsigned long off, i;

	if (nr == 1)
		return slot_alloc();
	if (!large_slots())
		return entry;
	spin_lock(&swap.lock);
	for (off = nr; off + nr - 1 <= swap.nr; off += nr) {
		for (i = 0; i < nr && !swap.map[off + i]; i++)
			;
		if (i < nr)
			continue;
		for (i = 0; i < nr; i++)
			swap.map[off + i] = SLOT_HAS_CACHE;
		entry.val = off;
		atomic_long_sub(nr, &nr_swap_pages);
		break;
	}
	spin_unlock(&swap.lock);
	return entry;
}

/*
 * the slot is unused: its shadow goes (under the swap cache's lock, the
 * cluster's since 7.2, under which 7.2's __swap_cluster_free_entries()
 * also clears the slot's memcg record and returns its swap charge)
 */
static void slot_free_locked(swp_entry_t entry)
{
	void *old;

	old = __xa_erase(&swap.space.i_pages, offset_of(entry));
	WARN_ON_ONCE(old && !xa_is_value(old));
#if TB_HAVE_swap_table
	{
		unsigned short id = swap.memcg_id[offset_of(entry)];

		swap.memcg_id[offset_of(entry)] = 0;
		mem_cgroup_uncharge_swap(id, 1);
	}
#endif
#if TB_HAVE_memcg_stat_swp_zero
	/* swap_range_free(): the slot's zero mark goes with it */
	clear_bit(offset_of(entry), swap.zeromap);
#endif
	atomic_long_inc(&nr_swap_pages);
}

/* drop one holder (a pte or the cache): true when none is left */
static bool slot_drop(swp_entry_t entry, unsigned char what)
{
	unsigned long off = offset_of(entry);
	bool free_it;

	spin_lock(&swap.lock);
	if (WARN_ON_ONCE(!off || off > swap.nr || !swap.map[off])) {
		spin_unlock(&swap.lock);
		return false;
	}
	swap.map[off] -= what;
	free_it = !swap.map[off];
	spin_unlock(&swap.lock);
	return free_it;
}

/* drop one holder and free the slot when none is left */
static void slot_put(swp_entry_t entry, unsigned char what)
{
	if (!slot_drop(entry, what))
		return;
	xa_lock_irq(&swap.space.i_pages);
	slot_free_locked(entry);
	xa_unlock_irq(&swap.space.i_pages);
#if !TB_HAVE_swap_table
	/* swap_entry_range_free(): the memcg record goes with the charge */
	mem_cgroup_uncharge_swap(entry, 1);
#endif
}

void tb_swap_dup(swp_entry_t entry)
{
	spin_lock(&swap.lock);
	if (!WARN_ON_ONCE((swap.map[offset_of(entry)] & ~SLOT_HAS_CACHE) >= SLOT_COUNT_MAX))
		swap.map[offset_of(entry)]++;
	spin_unlock(&swap.lock);
}

static unsigned short slot_ptes(swp_entry_t entry)
{
	return READ_ONCE(swap.map[offset_of(entry)]) & ~SLOT_HAS_CACHE;
}

/*
 * get_swap_device(): an entry of the one device, within it; else the
 * kernel's "Bad swap offset entry" and no device
 */
bool tb_swap_entry_valid(swp_entry_t entry)
{
	unsigned long off = offset_of(entry);

	if (swp_type(entry) == 0 && off && off <= swap.nr)
		return true;
	pr_err("get_swap_device: Bad swap offset entry %08lx\n", entry.val);
	return false;
}

/* __swap_count(): how many ptes hold entry */
int tb_swap_count(swp_entry_t entry)
{
	return slot_ptes(entry);
}

/*
 * swap_free_nr() (6.1: swap_free(); 7.x: folio_put_swap()) of a swap-in:
 * the ptes' holds on nr slots go, the swap-in's (its swap cache's) stay
 */
void tb_swap_free_nr(swp_entry_t entry, int nr)
{
	int i;

	for (i = 0; i < nr; i++)
		slot_put((swp_entry_t){ .val = entry.val + i }, 1);
}

/*
 * swapcache_prepare() of nr slots (6.1: one): a swap-in that skips the
 * swap cache, or a read into it, holds them with SWAP_HAS_CACHE, all or
 * none (-EEXIST: one is cached, -ENOENT: one is free)
 */
int tb_swapcache_prepare(swp_entry_t entry, int nr)
{
	unsigned long off = offset_of(entry);
	int i, err = 0;

	spin_lock(&swap.lock);
	for (i = 0; i < nr && !err; i++) {
		if (swap.map[off + i] & SLOT_HAS_CACHE)
			err = -EEXIST;
		else if (!swap.map[off + i])
			err = -ENOENT;
	}
	for (i = 0; i < nr && !err; i++)
		swap.map[off + i] |= SLOT_HAS_CACHE;
	spin_unlock(&swap.lock);
	return err;
}

/* swapcache_clear(): the swap-in's holds go, freeing each slot no pte holds */
void tb_swapcache_clear(swp_entry_t entry, int nr)
{
	int i;

	for (i = 0; i < nr; i++)
		slot_put((swp_entry_t){ .val = entry.val + i }, SLOT_HAS_CACHE);
}

/* ---- mm/swap_cgroup.c ---- */
unsigned short swap_cgroup_record(swp_entry_t ent, unsigned short id, unsigned int nr_ents)
{
	unsigned long off = offset_of(ent);
	unsigned short old = swap.memcg_id[off];
	unsigned int i;

	for (i = 0; i < nr_ents; i++)
		swap.memcg_id[off + i] = id;
	return old;
}

unsigned short lookup_swap_cgroup_id(swp_entry_t ent)
{
	return swap.memcg_id ? swap.memcg_id[offset_of(ent)] : 0;
}

unsigned short tb_swap_memcg_id(swp_entry_t entry)
{
	return lookup_swap_cgroup_id(entry);
}

/* ---- mm/swap_state.c ---- */
struct address_space *swap_address_space(swp_entry_t entry)
{
	return &swap.space;
}

pgoff_t swap_cache_index(swp_entry_t entry)
{
	return offset_of(entry);
}

/* add_to_swap_cache(): the folio in each of its slots, a reference per page */
int tb_swap_cache_add(struct folio *folio, swp_entry_t entry)
{
	long i, nr = folio_nr_pages(folio);
	void *old;

	spin_lock(&swap.lock);
	for (i = 0; i < nr; i++)
		swap.map[offset_of(entry) + i] |= SLOT_HAS_CACHE;	/* swapcache_prepare() */
	spin_unlock(&swap.lock);
	folio_ref_add(folio, nr);
	folio_set_swapcache(folio);
	*tb_folio_swap(folio) = entry;
	xa_lock_irq(&swap.space.i_pages);
	for (i = 0; i < nr; i++) {
		old = __xa_store(&swap.space.i_pages, offset_of(entry) + i, folio, GFP_ATOMIC);
		WARN_ON_ONCE(old && !xa_is_value(old));
	}
	swap.space.nrpages += nr;
	__node_stat_mod_folio(folio, NR_FILE_PAGES, nr);
	tb_lruvec_stat_mod_folio(folio, NR_SWAPCACHE, nr);
	xa_unlock_irq(&swap.space.i_pages);
	return 0;
}

#if TB_HAVE_swap_table
static void swap_cache_del_folio(struct folio *folio);

/*
 * 7.2's folio_alloc_swap(): a slot for the folio, which joins the swap
 * cache, then its swap charge, whose failure (or none of the slots being
 * free) leaves it out of the cache
 */
int folio_alloc_swap(struct folio *folio)
{
	swp_entry_t entry;

	VM_BUG_ON_FOLIO(!folio_test_locked(folio), folio);
	VM_BUG_ON_FOLIO(!folio_test_uptodate(folio), folio);
	entry = slots_alloc(folio_nr_pages(folio));
	if (entry.val)
		tb_swap_cache_add(folio, entry);
	/* called also when the allocation failed, for MEMCG_SWAP_FAIL */
	if (mem_cgroup_try_charge_swap(folio))
		swap_cache_del_folio(folio);
	return folio_test_swapcache(folio) ? 0 : -ENOMEM;
}
#endif

#if !TB_HAVE_swap_table
bool add_to_swap(struct folio *folio)
{
	swp_entry_t entry;

	VM_BUG_ON_FOLIO(!folio_test_locked(folio), folio);
	VM_BUG_ON_FOLIO(!folio_test_uptodate(folio), folio);
	/*
	 * folio_alloc_swap(): no slot for the folio (none free, no device,
	 * or a device that gives a large folio none): the swap charge is
	 * called all the same and counts the failure (MEMCG_SWAP_FAIL);
	 * reclaim keeps an order-0 folio and splits a large one
	 * (THP_SWPOUT_FALLBACK)
	 */
	entry = slots_alloc(folio_nr_pages(folio));
	if (!entry.val) {
		mem_cgroup_try_charge_swap(folio, entry);
		return false;
	}
	/* folio_alloc_swap(): swap.max is the memcg's to enforce */
	if (mem_cgroup_try_charge_swap(folio, entry)) {
		put_swap_folio(folio, entry);
		return false;
	}
	tb_swap_cache_add(folio, entry);
	folio_mark_dirty(folio);
	return true;
}
#endif

/* the folio leaves each of its slots, the shadow (if any) in each */
void __delete_from_swap_cache(struct folio *folio, swp_entry_t entry, void *shadow)
{
	long i, nr = folio_nr_pages(folio);
	void *old;

	for (i = 0; i < nr; i++) {
		old = __xa_store(&swap.space.i_pages, offset_of(entry) + i, shadow, GFP_ATOMIC);
		WARN_ON_ONCE(old != folio);
	}
	tb_folio_swap(folio)->val = 0;
	folio_clear_swapcache(folio);
	swap.space.nrpages -= nr;
	__node_stat_mod_folio(folio, NR_FILE_PAGES, -nr);
	tb_lruvec_stat_mod_folio(folio, NR_SWAPCACHE, -nr);
}

#if TB_HAVE_swap_table
/*
 * 7.2: under the cluster's lock the folio leaves the cache (its shadow, if
 * any, in its place) and the cache's hold on the slot goes, freeing a slot
 * no pte holds; "swapout", cgroup v1's memsw transfer, is nothing on v2
 */
#if TB_HAVE_swap_cache_del_swapout
void __swap_cache_del_folio(struct swap_cluster_info *ci, struct folio *folio,
			    swp_entry_t entry, void *shadow, bool swapout)
#else
void __swap_cache_del_folio(struct swap_cluster_info *ci, struct folio *folio,
			    swp_entry_t entry, void *shadow)
#endif
{
	long i, nr = folio_nr_pages(folio);

	__delete_from_swap_cache(folio, entry, shadow);
	for (i = 0; i < nr; i++) {
		swp_entry_t e = { .val = entry.val + i };

		if (slot_drop(e, SLOT_HAS_CACHE))
			slot_free_locked(e);
	}
}

/* swap_cache_del_folio(): the cache's reference goes too */
static void swap_cache_del_folio(struct folio *folio)
{
	struct swap_cluster_info *ci = swap_cluster_get_and_lock_irq(folio);

#if TB_HAVE_swap_cache_del_swapout
	__swap_cache_del_folio(ci, folio, folio->swap, NULL, false);
#else
	__swap_cache_del_folio(ci, folio, folio->swap, NULL);
#endif
	swap_cluster_unlock_irq(ci);
	folio_ref_sub(folio, folio_nr_pages(folio));
}

static void delete_from_swap_cache(struct folio *folio)
{
	swap_cache_del_folio(folio);
}

#if TB_HAVE_swapin_sync
/*
 * __swap_cache_add_check() of the nr slots (aligned) around targ, for a
 * large folio the swap-in would add: each swapped out (held by a pte),
 * none in the swap cache, all charged to targ's memcg (-EBUSY if not);
 * the world keeps no zero-filled page out of the device, so no slot
 * differs from targ there
 */
int tb_swap_cache_add_check(swp_entry_t targ, unsigned long nr)
{
	unsigned long off = round_down(offset_of(targ), nr), i;
	unsigned short id = swap.memcg_id[offset_of(targ)];

	if (!off || off + nr - 1 > swap.nr)
		return -EBUSY;
	for (i = off; i < off + nr; i++)
		if ((READ_ONCE(swap.map[i]) & SLOT_HAS_CACHE) || !slot_ptes((swp_entry_t){ .val = i }) ||
		    swap.memcg_id[i] != id)
			return -EBUSY;
	return 0;
}

/*
 * __swap_cache_alloc()'s undoing of a folio it added whose charge failed
 * (__swap_cache_do_del_folio()): out of the cache, the target's shadow in
 * each slot, the cache's holds and references gone
 */
void tb_swap_cache_del_added(struct folio *folio, void *shadow)
{
	struct swap_cluster_info *ci = swap_cluster_get_and_lock_irq(folio);

#if TB_HAVE_swap_cache_del_swapout
	__swap_cache_del_folio(ci, folio, folio->swap, shadow, false);
#else
	__swap_cache_del_folio(ci, folio, folio->swap, shadow);
#endif
	swap_cluster_unlock_irq(ci);
	folio_ref_sub(folio, folio_nr_pages(folio));
}
#endif
#else
/* delete_from_swap_cache(): the cache's reference goes too */
static void delete_from_swap_cache(struct folio *folio)
{
	swp_entry_t entry = *tb_folio_swap(folio);

	xa_lock_irq(&swap.space.i_pages);
	__delete_from_swap_cache(folio, entry, NULL);
	xa_unlock_irq(&swap.space.i_pages);
	put_swap_folio(folio, entry);
	folio_ref_sub(folio, folio_nr_pages(folio));
}
#endif

/* the cache's hold on each of the folio's slots goes */
void put_swap_folio(struct folio *folio, swp_entry_t entry)
{
	long i;

	for (i = 0; i < folio_nr_pages(folio); i++)
		slot_put((swp_entry_t){ .val = entry.val + i }, SLOT_HAS_CACHE);
}

struct folio *tb_swap_cache_lookup(swp_entry_t entry)
{
	void *p = xa_load(&swap.space.i_pages, offset_of(entry));

	return p && !xa_is_value(p) ? p : NULL;
}

void *get_shadow_from_swap_cache(swp_entry_t entry)
{
	void *p = xa_load(&swap.space.i_pages, offset_of(entry));

	return xa_is_value(p) ? p : NULL;
}

/* ---- mm/swapfile.c ---- */
/* folio_swapped(): a pte still holds one of the folio's slots */
static bool folio_swapped(struct folio *folio)
{
	long i;

	for (i = 0; i < folio_nr_pages(folio); i++)
		if (slot_ptes((swp_entry_t){ .val = tb_folio_swap(folio)->val + i }))
			return true;
	return false;
}

bool folio_free_swap(struct folio *folio)
{
	if (!folio_test_swapcache(folio) || folio_test_writeback(folio))
		return false;
	if (folio_swapped(folio))
		return false;
	delete_from_swap_cache(folio);
	folio_set_dirty(folio);
	return true;
}

/* __try_to_reclaim_swap(): a cached copy of entry nobody maps is dropped */
static void try_to_reclaim_swap(struct folio *folio, swp_entry_t entry)
{
	if (slot_ptes(entry) || folio_mapped(folio) || !folio_trylock(folio))
		return;
	/* the folio may have moved on since it was looked up (a split) */
	folio_get(folio);
	folio_free_swap(folio);
	folio_unlock(folio);
	folio_put(folio);
}

/* free_swap_and_cache(): a pte let go of entry */
void tb_swap_put_entry(swp_entry_t entry)
{
	struct folio *folio;

	slot_put(entry, 1);
	folio = tb_swap_cache_lookup(entry);
	if (folio)
		try_to_reclaim_swap(folio, entry);
}

/* mm/swapfile.c's release of the slots of nr swap ptes (MADV_FREE's walk) */
static void put_entries(swp_entry_t entry, int nr)
{
	int i;

	for (i = 0; i < nr; i++)
		tb_swap_put_entry(swp_entry(swp_type(entry), swp_offset(entry) + i));
}

#if TB_HAVE_swap_put_entries_direct
void swap_put_entries_direct(swp_entry_t entry, int nr)
{
	put_entries(entry, nr);
}
#elif TB_HAVE_free_swap_and_cache_nr
void free_swap_and_cache_nr(swp_entry_t entry, int nr)
{
	put_entries(entry, nr);
}
#else
int free_swap_and_cache(swp_entry_t entry)
{
	put_entries(entry, 1);
	return 1;
}
#endif

#if !TB_HAVE_swap_ops
int folio_swap_flags(struct folio *folio)
{
	return swap.fs ? SWP_FS_OPS : 0;
}
#endif

/* mm/page_io.c's iocb of contiguous swap pages, one ->swap_rw() call */
struct swap_iocb {
	unsigned long next_offset;	/* the slot a page must have to join */
	int pages;
};

/* the pages went to the disk as tb_swap_writepage() queued each one */
void swap_write_unplug(struct swap_iocb *sio)
{
	swap.fs_iocbs++;
	swap.fs_pages += sio->pages;
	kfree(sio);
}

void tb_swap_fs_writes(unsigned long *iocbs, unsigned long *pages)
{
	*iocbs = swap.fs_iocbs;
	*pages = swap.fs_pages;
}

/*
 * swap_writepage_fs(): the page joins the caller's plugged iocb if it
 * follows it on the swap file, else the iocb is written and a new one
 * begun; a full iocb, or one without a plug, is written at once
 */
static void swap_fs_queue(struct folio *folio, struct swap_iocb **swap_plug)
{
	unsigned long off = offset_of(*tb_folio_swap(folio));
	struct swap_iocb *sio = swap_plug ? *swap_plug : NULL;

	if (sio && sio->next_offset != off) {
		swap_write_unplug(sio);
		sio = NULL;
	}
	if (!sio)
		sio = kzalloc(sizeof(*sio), GFP_NOIO | __GFP_NOFAIL);
	sio->pages++;
	sio->next_offset = off + 1;
	if (sio->pages == SWAP_CLUSTER_MAX || !swap_plug) {
		swap_write_unplug(sio);
		sio = NULL;
	}
	if (swap_plug)
		*swap_plug = sio;
}

#if TB_HAVE_memcg_stat_swp_zero
/*
 * swap_writepage()'s zeromap (6.12 on; 7.x marks the swap table): the
 * slots of a zero-filled folio are marked and nothing is written
 * (SWPOUT_ZERO); writing another folio clears its slots' marks. Whether a
 * page is zero-filled is the world's record of its contents
 * (is_folio_zero_filled() reads them).
 */
static bool swap_write_zero(struct folio *folio)
{
	unsigned long off = offset_of(*tb_folio_swap(folio));
	long i, nr = folio_nr_pages(folio);
	bool zero = true;

	for (i = 0; i < nr && zero; i++)
		zero = !tb_page_has_data(folio_page(folio, i));
	for (i = 0; i < nr; i++) {
		if (zero)
			set_bit(off + i, swap.zeromap);
		else
			clear_bit(off + i, swap.zeromap);
	}
	if (!zero)
		return false;
	count_vm_events(SWPOUT_ZERO, nr);
	count_memcg_folio_events(folio, SWPOUT_ZERO, nr);
	return true;
}

/* swap_read_folio_zeromap(): whether the nr slots from entry all hold zero-filled pages */
bool tb_swap_zero(swp_entry_t entry, long nr)
{
	long i;

	for (i = 0; i < nr; i++)
		if (!test_bit(offset_of(entry) + i, swap.zeromap))
			return false;
	return true;
}
#else
static bool swap_write_zero(struct folio *folio)
{
	return false;	/* 6.1: every folio is written */
}

bool tb_swap_zero(swp_entry_t entry, long nr)
{
	return false;
}
#endif

/*
 * swap_writepage(): on a synchronous device written when it returns (the
 * CPU's work); on a disk swap_writepage_bdev_async()'s bio, in flight
 * until the disk completes it; a zero-filled folio not at all (6.12 on)
 */
static int tb_swap_write(struct folio *folio, struct swap_iocb **swap_plug)
{
	long i, nr = folio_nr_pages(folio);

	/*
	 * a folio whose slot no pte holds (a split's page the kernel mapped
	 * to the zero page instead, or one zapped meanwhile) leaves the swap
	 * cache, dirty, and is not written (mm/page_io.c's folio_free_swap())
	 */
	if (folio_free_swap(folio)) {
		folio_unlock(folio);
		return 0;
	}
	if (swap_write_zero(folio)) {
		folio_unlock(folio);
		return 0;
	}
	tb_stats.swapouts += nr;
	/* page_io.c's count_swpout_vm_event(): PSWPOUT not a memcg event in 6.12 */
#ifdef CONFIG_TRANSPARENT_HUGEPAGE
	if (folio_test_pmd_mappable(folio)) {
		count_memcg_folio_events(folio, THP_SWPOUT, 1);
		count_vm_event(THP_SWPOUT);
	}
	tb_count_mthp_stat(folio_order(folio), MTHP_STAT_SWPOUT);
#endif
#if TB_HAVE_memcg_pswp
	/* memory.stat's pswpout (count_swpout_vm_event()) */
	count_memcg_folio_events(folio, PSWPOUT, nr);
#endif
	count_vm_events(PSWPOUT, nr);
	if (swap.disk) {
		/* the CPU's part: a page written costs reclaim as one it frees */
		tb_charge_reclaimed(nr);
		tb_writeback_submit(folio, tb_world_ns() + tb_cost_swapout());
		if (swap.fs)
			swap_fs_queue(folio, swap_plug);
	} else {
		for (i = 0; i < nr; i++)
			tb_charge_swapout();
	}
	folio_unlock(folio);
	return 0;
}

#if TB_HAVE_aops_writepage
/* the swap cache's ->writepage, which pageout() calls before 7.2 */
static int tb_swap_writepage(struct page *page, struct writeback_control *wbc)
{
	return tb_swap_write(page_folio(page), wbc->swap_plug);
}
#endif

#if TB_HAVE_swap_ops
/* 7.3: pageout()'s write, plugged in the context shrink_folio_list() submits */
int swap_writeout(struct swap_io_ctx *ctx, struct folio *folio)
{
	return tb_swap_write(folio, &ctx->sio);
}

void swap_write_submit(struct swap_io_ctx *ctx)
{
	if (ctx->sio)
		swap_write_unplug(ctx->sio);
	ctx->sio = NULL;
}
#endif

/* the reads read_swap_cache_async() started: the world's complete at once */
#if TB_HAVE_swap_ops
void swap_read_submit(struct swap_io_ctx *ctx)
{
}
#else
void swap_read_unplug(struct swap_iocb *plug)
{
}
#endif

#if !TB_HAVE_swap_ops && TB_HAVE_swap_writeout
/* 7.2: pageout() writes a swap cache folio itself */
int swap_writeout(struct folio *folio, struct swap_iocb **swap_plug)
{
	return tb_swap_write(folio, swap_plug);
}
#endif

/*
 * tmpfs is not modelled (the world's shmem_mapping() is false): pageout()
 * never calls shmem_writeout(), but a build that keeps dead calls (-O0,
 * coverage) links against it. Reached, it is a world gap: the folio is
 * given back to be activated, locked, as shmem does without a swap slot.
 */
#if TB_HAVE_swap_ops
int shmem_writeout(struct swap_io_ctx *ctx, struct folio *folio, struct list_head *folio_list)
#elif TB_HAVE_swap_writeout
int shmem_writeout(struct folio *folio, struct swap_iocb **plug, struct list_head *folio_list)
#endif
#if TB_HAVE_swap_ops || TB_HAVE_swap_writeout
{
	WARN_ONCE(1, "tb: shmem_writeout(): the world has no tmpfs\n");
	folio_mark_dirty(folio);
	return AOP_WRITEPAGE_ACTIVATE;
}
#endif

/*
 * A copy whose write was in flight when its last pte went (zap, or the
 * task swapped it in and exited) stays in the swap cache, as in the
 * kernel, until reclaim meets it; a world being torn down drops it, as
 * swapoff would.
 */
void tb_swap_drop_unreferenced(void)
{
	unsigned long index;
	void *entry;

	tb_writeback_complete(U64_MAX);
	xa_for_each(&swap.space.i_pages, index, entry)
		if (!xa_is_value(entry))
			try_to_reclaim_swap(entry, *tb_folio_swap(entry));
}

static bool tb_swap_dirty_folio(struct address_space *mapping, struct folio *folio)
{
	return !folio_test_set_dirty(folio);
}

/* folio_migrate_mapping() for the swap cache: new takes old's slot and entry */
void tb_swap_cache_replace(struct folio *old, struct folio *new)
{
	swp_entry_t entry = *tb_folio_swap(old);
	void *slot;

	xa_lock_irq(&swap.space.i_pages);
	slot = __xa_store(&swap.space.i_pages, offset_of(entry), new, GFP_ATOMIC);
	xa_unlock_irq(&swap.space.i_pages);
	WARN_ON_ONCE(slot != old);
	*tb_folio_swap(new) = entry;
	folio_set_swapcache(new);
}
