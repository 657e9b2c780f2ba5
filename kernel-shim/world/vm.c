// SPDX-License-Identifier: GPL-2.0-only
/*
 * Address spaces of the world's tasks: a vma is an anonymous region or a
 * whole-file mapping, with one pte per page. A pte holds a folio and the
 * accessed and dirty bits the MMU sets on a touch, or a swap entry. The
 * reverse map is the world's: an anon folio's mapping names its vma (the
 * anon_vma stand-in, PAGE_MAPPING_ANON set) and index; a file folio is
 * found through its file's vmas. folio_referenced() reads and clears the
 * accessed bits, as ptep_clear_flush_young() does, and try_to_unmap()
 * turns an anon pte into the folio's swap entry. The fault paths are what
 * mm/memory.c does for order-0 pages (do_anonymous_page, do_swap_page,
 * the file fault through the page cache), with the kernel's charge,
 * swap accounting and workingset calls.
 */
#include <linux/mm.h>
#include <linux/mm_inline.h>
#include <linux/pagemap.h>
#include <linux/rmap.h>
#include <linux/swap.h>
#include <linux/memcontrol.h>
#include <linux/oom.h>
#include <linux/vmstat.h>
#include <linux/slab.h>
#include <linux/jiffies.h>
#include <kshim/testbed.h>
#include <kshim/reclaim.h>
#include <kshim/memcg_tb.h>
#include <kgen/mm_internal_reclaim.h>
#include "world.h"

#define PTE_PRESENT	0x1UL
#define PTE_ACCESSED	0x2UL
#define PTE_DIRTY	0x4UL
#define PTE_SWAP	0x8UL
#define PTE_FLAGS	0xfUL

struct tb_vma {
	struct mm_struct *mm;
	struct tb_file *file;		/* NULL: anonymous */
	unsigned long nr_pages;
	unsigned long vm_flags;
	unsigned long *pte;
	struct list_head mm_node;	/* mm->kshim_vmas */
	struct list_head file_node;	/* the file's vmas */
};

struct tb_mem_stats tb_stats;

/* defaults: 4 KiB from RAM at ~4 GB/s; a fault and zeroing; an SSD read/write */
static const struct tb_mem_costs default_costs = {
	.hit_ns = 1000, .minor_ns = 3000, .swapin_ns = 100000,
	.file_read_ns = 100000, .swapout_ns = 20000, .file_write_ns = 100000,
	.reclaim_ns = 500,
};
static struct tb_mem_costs costs;
static u64 world_ns;
static unsigned long boot_jiffies;

void tb_mem_set_costs(const struct tb_mem_costs *c)
{
	costs = c ? *c : default_costs;
}

/*
 * a sleeping task's clock moves on with the jiffies it slept; the other
 * CPUs go on meanwhile: the disk completes the writes due by then, and a
 * kernel thread woken (or whose timeout passed) runs, so what the sleeper
 * waits for (kswapd restoring free memory) can happen during the sleep
 */
static void task_slept(long jiffies_slept)
{
	u64 ns = (u64)jiffies_slept * (1000000000ULL / HZ);

	current->kshim_vclock_ns += ns;
	if (current->kshim_vclock_ns > world_ns)
		world_ns = current->kshim_vclock_ns;
	tb_writeback_complete(world_ns);
	tb_kthreads_run();
}

void tb_world_stats_reset(void)
{
	kshim_sleep_hook = task_slept;
	memset(&tb_stats, 0, sizeof(tb_stats));
	costs = default_costs;
	world_ns = 0;
	boot_jiffies = kshim_jiffies();
}

u64 tb_world_ns(void)
{
	return world_ns;
}

u64 tb_task_vclock_ns(struct tb_task *t)
{
	return tb_task_struct(t)->kshim_vclock_ns;
}

/* current used ns of virtual time: world time and jiffies follow the furthest task */
void tb_charge_time(u64 ns)
{
	unsigned long target;

	current->kshim_vclock_ns += ns;
	/* a kernel thread's time is its own CPU's: the world does not wait for it */
	if (current->kshim_kthread || current->kshim_vclock_ns <= world_ns)
		return;
	world_ns = current->kshim_vclock_ns;
	tb_writeback_complete(world_ns);
	target = boot_jiffies + world_ns / (1000000000ULL / HZ);
	if (time_after(target, kshim_jiffies()))
		kshim_jiffies_advance(target - kshim_jiffies());
}

u64 tb_cost_hit(void)
{
	return costs.hit_ns;
}

u64 tb_cost_file_read(void)
{
	return costs.file_read_ns;
}

u64 tb_cost_file_write(void)
{
	return costs.file_write_ns;
}

void tb_charge_swapout(void)
{
	tb_charge_time(costs.swapout_ns);
}

/* reclaim (PF_MEMALLOC: kswapd, direct reclaim) freeing a page costs CPU */
void tb_charge_reclaimed(unsigned long nr)
{
	if (current->flags & PF_MEMALLOC)
		tb_charge_time(nr * costs.reclaim_ns);
}

void tb_mem_stats(struct tb_mem_stats *st)
{
	*st = tb_stats;
}

static struct folio *pte_folio(unsigned long pte)
{
	return (pte & PTE_PRESENT) ? (struct folio *)(pte & ~PTE_FLAGS) : NULL;
}

static swp_entry_t pte_swp(unsigned long pte)
{
	return (swp_entry_t){ .val = pte >> 4 };
}

static struct tb_vma *vma_new(unsigned long nr_pages)
{
	struct mm_struct *mm = current->mm;
	struct tb_vma *vma;

	if (!mm || !nr_pages)
		return NULL;
	vma = kzalloc(sizeof(*vma), GFP_KERNEL);
	if (!vma)
		return NULL;
	vma->pte = kvcalloc(nr_pages, sizeof(*vma->pte), GFP_KERNEL);
	if (!vma->pte) {
		kfree(vma);
		return NULL;
	}
	vma->mm = mm;
	vma->nr_pages = nr_pages;
	vma->vm_flags = VM_READ | VM_WRITE;
	INIT_LIST_HEAD(&vma->file_node);
	list_add_tail(&vma->mm_node, &mm->kshim_vmas);
	return vma;
}

struct tb_vma *tb_map_anon(unsigned long nr_pages)
{
	return vma_new(nr_pages);
}

struct tb_vma *tb_map_file(struct tb_file *file)
{
	struct tb_vma *vma = vma_new(tb_file_pages(file));

	if (vma) {
		vma->file = file;
		list_add_tail(&vma->file_node, tb_file_vmas(file));
	}
	return vma;
}

/* the rmap reports VM_EXEC from folio_referenced(), as for mapped program text */
struct tb_vma *tb_map_file_exec(struct tb_file *file)
{
	struct tb_vma *vma = tb_map_file(file);

	if (vma)
		vma->vm_flags = VM_READ | VM_EXEC;
	return vma;
}

/* ---- rmap: mapping and unmapping one pte ---- */
static void rmap_add(struct tb_vma *vma, unsigned long idx, struct folio *folio)
{
	if (!vma->file) {
		folio->mapping = (void *)((unsigned long)vma | PAGE_MAPPING_ANON);
		folio->index = idx;
	}
	if (atomic_inc_and_test(&folio->_mapcount))
		__lruvec_stat_mod_folio(folio, vma->file ? NR_FILE_MAPPED : NR_ANON_MAPPED, 1);
}

static void rmap_remove(struct tb_vma *vma, struct folio *folio)
{
	if (atomic_add_negative(-1, &folio->_mapcount))
		__lruvec_stat_mod_folio(folio, vma->file ? NR_FILE_MAPPED : NR_ANON_MAPPED, -1);
}

static void set_pte(struct tb_vma *vma, unsigned long idx, struct folio *folio, bool write)
{
	vma->pte[idx] = (unsigned long)folio | PTE_PRESENT | PTE_ACCESSED | (write ? PTE_DIRTY : 0);
}

/* mm/swap_state.c: an unmapped folio's swap cache copy is not kept */
static void free_swap_cache(struct folio *folio)
{
	if (folio_test_swapcache(folio) && !folio_mapped(folio) && folio_trylock(folio)) {
		folio_free_swap(folio);
		folio_unlock(folio);
	}
}

/* zap_pte_range() for one pte */
static void zap_pte(struct tb_vma *vma, unsigned long idx)
{
	unsigned long pte = vma->pte[idx];
	struct folio *folio = pte_folio(pte);

	vma->pte[idx] = 0;
	if (folio) {
		if (pte & PTE_DIRTY && !folio_test_anon(folio))
			folio_mark_dirty(folio);
		rmap_remove(vma, folio);
		free_swap_cache(folio);
		folio_put(folio);
	} else if (pte & PTE_SWAP) {
		tb_swap_put_entry(pte_swp(pte));
	}
}

static void zap_vma(struct tb_vma *vma)
{
	unsigned long i;

	for (i = 0; i < vma->nr_pages; i++)
		zap_pte(vma, i);
	/* the folio batches may hold the last references */
	lru_add_drain();
}

void tb_unmap(struct tb_vma *vma)
{
	if (!vma)
		return;
	zap_vma(vma);
	list_del(&vma->mm_node);
	list_del(&vma->file_node);
	kvfree(vma->pte);
	kfree(vma);
}

/* the OOM reaper: every page goes, the vmas stay until the task exits */
void tb_task_mm_reap(struct mm_struct *mm)
{
	struct tb_vma *vma;

	list_for_each_entry(vma, &mm->kshim_vmas, mm_node)
		zap_vma(vma);
}

void tb_task_mm_exit(struct mm_struct *mm)
{
	struct tb_vma *vma, *tmp;

	list_for_each_entry_safe(vma, tmp, &mm->kshim_vmas, mm_node)
		tb_unmap(vma);
}

unsigned long tb_mm_rss(struct mm_struct *mm)
{
	struct tb_vma *vma;
	unsigned long n = 0;

	list_for_each_entry(vma, &mm->kshim_vmas, mm_node)
		n += tb_vma_resident(vma) + tb_vma_swapped(vma);
	return n;
}

unsigned long tb_vma_resident(struct tb_vma *vma)
{
	unsigned long i, n = 0;

	for (i = 0; i < vma->nr_pages; i++)
		n += !!(vma->pte[i] & PTE_PRESENT);
	return n;
}

unsigned long tb_vma_swapped(struct tb_vma *vma)
{
	unsigned long i, n = 0;

	for (i = 0; i < vma->nr_pages; i++)
		n += !!(vma->pte[i] & PTE_SWAP);
	return n;
}

struct folio *tb_vma_folio(struct tb_vma *vma, unsigned long index)
{
	return index < vma->nr_pages ? pte_folio(vma->pte[index]) : NULL;
}

/*
 * ---- mm/gup.c, as a driver or another subsystem uses it ----
 * A plain reference, as get_user_pages() (FOLL_GET) or find_get_page()
 * takes; a pin (FOLL_PIN) adds GUP_PIN_COUNTING_BIAS references to an
 * order-0 folio and counts NR_FOLL_PIN_ACQUIRED, its release the same back.
 */
void tb_folio_get(struct folio *folio)
{
	WARN_ON_ONCE(folio_ref_count(folio) <= 0);
	folio_get(folio);
}

void tb_folio_put(struct folio *folio)
{
	folio_put(folio);
}

void tb_folio_pin(struct folio *folio)
{
	WARN_ON_ONCE(folio_ref_count(folio) <= 0 || folio_test_large(folio));
	folio_ref_add(folio, GUP_PIN_COUNTING_BIAS);
	node_stat_mod_folio(folio, NR_FOLL_PIN_ACQUIRED, 1);
}

void tb_folio_unpin(struct folio *folio)
{
	node_stat_mod_folio(folio, NR_FOLL_PIN_RELEASED, 1);
	folio_put_refs(folio, GUP_PIN_COUNTING_BIAS);
}

/* ---- faults ---- */
static int do_anonymous_page(struct tb_vma *vma, unsigned long idx, bool write)
{
	struct folio *folio = tb_alloc_folio(GFP_HIGHUSER_MOVABLE, numa_node_id());

	if (!folio)
		return -ENOMEM;
	if (mem_cgroup_charge(folio, vma->mm, GFP_KERNEL)) {
		folio_put(folio);
		return -ENOMEM;
	}
	__folio_set_swapbacked(folio);
	folio_mark_uptodate(folio);
	rmap_add(vma, idx, folio);
	folio_add_lru(folio);
	set_pte(vma, idx, folio, write);
	tb_stats.minor++;
	tb_charge_time(costs.minor_ns + costs.hit_ns);
	return 0;
}

/* a swapped-in folio leaves the swap cache when it is written or swap is short */
static bool should_try_to_free_swap(struct folio *folio, struct tb_vma *vma, bool write)
{
	if (!folio_test_swapcache(folio))
		return false;
	if (mem_cgroup_swap_full(folio))
		return true;
	return write && folio_ref_count(folio) == 1 + folio_nr_pages(folio);
}

static int do_swap_page(struct tb_vma *vma, unsigned long idx, bool write)
{
	unsigned long pte_val = vma->pte[idx];
	swp_entry_t entry = pte_swp(pte_val);
	struct folio *folio = tb_swap_cache_lookup(entry);

	if (folio) {
		folio_get(folio);
		folio_lock(folio);
		tb_stats.minor++;
		tb_charge_time(costs.minor_ns + costs.hit_ns);
	} else {
		void *shadow = get_shadow_from_swap_cache(entry);

		folio = tb_alloc_folio(GFP_HIGHUSER_MOVABLE, numa_node_id());
		if (!folio)
			return -ENOMEM;
		if (mem_cgroup_swapin_charge_folio(folio, vma->mm, GFP_KERNEL, entry)) {
			folio_put(folio);
			return -ENOMEM;
		}
		/*
		 * pte_same(): the charge may have OOM-killed this task, whose
		 * reaper zapped the pte and let go of entry (its slot may be
		 * free). As do_swap_page's out_nomap, give the folio back.
		 */
		if (vma->pte[idx] != pte_val) {
			folio_put(folio);
			return -ENOMEM;
		}
		__folio_set_locked(folio);
		__folio_set_swapbacked(folio);
		tb_swap_cache_add(folio, entry);
		mem_cgroup_swapin_uncharge_swap(entry, 1);
		if (shadow)
			workingset_refault(folio, shadow);
		folio_add_lru(folio);
		folio_mark_uptodate(folio);
		count_vm_event(PSWPIN);
		tb_stats.major_anon++;
		tb_charge_time(costs.swapin_ns + costs.hit_ns);
	}
	rmap_add(vma, idx, folio);
	set_pte(vma, idx, folio, write);
	tb_swap_put_entry(entry);
	if (should_try_to_free_swap(folio, vma, write))
		folio_free_swap(folio);
	folio_unlock(folio);
	return 0;
}

static int do_file_fault(struct tb_vma *vma, unsigned long idx, bool write)
{
	struct folio *folio;
	int err;

	if (write)
		return -EINVAL;	/* file mappings are read-only here */
	folio = tb_cache_lookup(vma->file, idx);
	if (folio) {
		folio_get(folio);
		tb_stats.minor++;
		tb_charge_time(costs.minor_ns + costs.hit_ns);
	} else {
		folio = tb_alloc_folio(GFP_HIGHUSER_MOVABLE, numa_node_id());
		if (!folio)
			return -ENOMEM;
		err = tb_pagecache_add(vma->file, folio, idx, GFP_KERNEL);
		if (err) {
			folio_put(folio);
			return err;
		}
		tb_stats.major_file++;
		tb_charge_time(costs.file_read_ns + costs.hit_ns);
	}
	rmap_add(vma, idx, folio);
	set_pte(vma, idx, folio, false);
	return 0;
}

int tb_touch(struct tb_vma *vma, unsigned long idx, bool write)
{
	unsigned long pte;

	if (idx >= vma->nr_pages)
		return -EINVAL;
	tb_kthreads_run();
	if (tsk_is_oom_victim(current))
		return -ENOMEM;
	pte = vma->pte[idx];
	if (pte & PTE_PRESENT) {
		vma->pte[idx] |= PTE_ACCESSED | (write ? PTE_DIRTY : 0);
		tb_stats.hits++;
		tb_charge_time(costs.hit_ns);
		return 0;
	}
	if (pte & PTE_SWAP)
		return do_swap_page(vma, idx, write);
	if (vma->file)
		return do_file_fault(vma, idx, write);
	return do_anonymous_page(vma, idx, write);
}

/* ---- the reverse map reclaim walks ---- */
static int referenced_one(struct tb_vma *vma, struct folio *folio, struct mem_cgroup *memcg,
			  unsigned long *vm_flags)
{
	unsigned long *pte = &vma->pte[folio->index];

	if (folio->index >= vma->nr_pages || pte_folio(*pte) != folio)
		return 0;
	if (memcg && !mm_match_cgroup(vma->mm, memcg))
		return 0;
	if (!(*pte & PTE_ACCESSED))
		return 0;
	*pte &= ~PTE_ACCESSED;
	*vm_flags |= vma->vm_flags & ~VM_LOCKED;
	return 1;
}

static struct tb_vma *anon_vma_of(struct folio *folio)
{
	return (struct tb_vma *)((unsigned long)folio->mapping & ~PAGE_MAPPING_FLAGS);
}

int folio_referenced(struct folio *folio, int is_locked, struct mem_cgroup *memcg,
		     unsigned long *vm_flags)
{
	struct tb_vma *vma;
	int referenced = 0;

	*vm_flags = 0;
	if (!folio_mapped(folio) || !folio_raw_mapping(folio))
		return 0;
	if (folio_test_anon(folio))
		return referenced_one(anon_vma_of(folio), folio, memcg, vm_flags);
	list_for_each_entry(vma, tb_file_vmas(tb_mapping_file(folio->mapping)), file_node)
		referenced += referenced_one(vma, folio, memcg, vm_flags);
	return referenced;
}

static void unmap_one(struct tb_vma *vma, struct folio *folio)
{
	unsigned long *pte = &vma->pte[folio->index];

	if (folio->index >= vma->nr_pages || pte_folio(*pte) != folio)
		return;
	if (*pte & PTE_DIRTY)
		folio_mark_dirty(folio);
	if (folio_test_anon(folio)) {
		/* only a folio in the swap cache has an entry to leave behind */
		if (WARN_ON_ONCE(!folio_test_swapcache(folio)))
			return;
		tb_swap_dup(folio->swap);
		*pte = (folio->swap.val << 4) | PTE_SWAP;
	} else {
		*pte = 0;
	}
	rmap_remove(vma, folio);
	folio_put(folio);
}

void try_to_unmap(struct folio *folio, enum ttu_flags flags)
{
	struct tb_vma *vma, *tmp;

	if (!folio_mapped(folio))
		return;
	if (folio_test_anon(folio)) {
		unmap_one(anon_vma_of(folio), folio);
		return;
	}
	list_for_each_entry_safe(vma, tmp, tb_file_vmas(tb_mapping_file(folio->mapping)), file_node)
		unmap_one(vma, folio);
}

/* ---- global OOM ---- */
bool tb_global_oom(gfp_t gfp)
{
	struct oom_control oc = {
		.zonelist = node_zonelist(numa_node_id(), gfp),
		.gfp_mask = gfp,
		.order = 0,
	};
	bool ret;

	mutex_lock(&oom_lock);
	ret = out_of_memory(&oc);
	mutex_unlock(&oom_lock);
	return ret;
}
