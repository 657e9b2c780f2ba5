// SPDX-License-Identifier: GPL-2.0-only
/*
 * Address spaces of the world's tasks: the kernel's vm_area_structs, each
 * an anonymous region or a whole-file mapping at its own PMD-aligned
 * address, over x86-64 four-level page tables (asm/pgtable.h) that the
 * kernel's walkers read: mm/pagewalk.c and the multi-gen LRU. The MMU of
 * a touch sets the accessed bit in the pte and in every upper entry it
 * walks through, and the dirty bit on a write; a non-present pte may hold
 * a swap entry. The reverse map is the world's: an anon folio's mapping
 * names its vma (the anon_vma stand-in, PAGE_MAPPING_ANON set) and index;
 * a file folio is found through its file's vmas. folio_referenced() does
 * what mm/rmap.c's folio_referenced_one() does (lru_gen_look_around()
 * under the page-table lock when the multi-gen LRU is on), and
 * try_to_unmap() turns an anon pte into the folio's swap entry. The fault
 * paths are what mm/memory.c does for order-0 pages (do_anonymous_page,
 * do_swap_page, the file fault through the page cache), with the
 * kernel's charge, swap accounting and workingset calls; a large folio's
 * anonymous fault and swap-in take their order from mm/memory.c's code.
 */
#include <linux/mm.h>
#include <linux/mm_inline.h>
#include <linux/pagemap.h>
#include <linux/rmap.h>
#include <linux/swap.h>
#include <linux/swapops.h>
#if TB_HAVE_leafops_h
#include <linux/leafops.h>
#endif
#include <linux/memcontrol.h>
#include <linux/mmu_notifier.h>
#include <linux/oom.h>
#include <linux/vmstat.h>
#include <linux/slab.h>
#include <linux/jiffies.h>
#include <linux/sched/mm.h>
#include <linux/huge_mm.h>
#include <linux/khugepaged.h>
#include <asm/pgalloc.h>
#include <linux/highmem.h>
#include <linux/fadvise.h>
#include <asm-generic/tlb.h>
#include <kshim/testbed.h>
#include <kshim/reclaim.h>
#include <kshim/memcg_tb.h>
#include <kgen/mm_internal_reclaim.h>
#if TB_HAVE_swapin_thp
#include <kgen/mm_internal_swapin.h>	/* swap_pte_batch(): a large swap-in's ptes */
#endif
#if !TB_HAVE_page_flags_idle
#include <kgen/page_idle.h>	/* folio_test_clear_young() before 6.8 */
#endif
#include "world.h"
#include <pthread.h>
#include <sys/mman.h>

#define PTE_PROT	(_PAGE_PRESENT | _PAGE_RW | _PAGE_USER)
#define TB_MMAP_BASE	(1UL << 32)

struct tb_vma {
	struct vm_area_struct vma;	/* the kernel's */
	struct anon_vma anon_vma;	/* an anonymous vma's folios' mapping */
	struct file file;		/* vm_file of a file mapping */
	struct tb_file *tbf;		/* NULL: anonymous */
	unsigned long nr_pages;
	struct list_head mm_node;	/* mm->kshim_vmas, by address */
	struct list_head file_node;	/* the file's vmas */
};

/*
 * The zero page (its pfn: zero_pfn; 7.2: zero_page_pfn): a struct page
 * past the memmap's end (mem.c), which holds no data. Mapped read-only
 * where the kernel's split of an anonymous THP finds a zero-filled page
 * (try_to_map_unused_to_zeropage()); a write there faults a page in.
 */
#if !TB_HAVE_zero_pfn_func
unsigned long zero_pfn = ~0UL;
#endif
struct page *__zero_page;	/* ZERO_PAGE()'s page */
unsigned long zero_page_pfn = ~0UL;

void tb_zero_page_boot(struct page *page)
{
	unsigned long pfn = page ? page_to_pfn(page) : ~0UL;

	if (page)
		SetPageReserved(page);
	__zero_page = page;
#if !TB_HAVE_zero_pfn_func
	zero_pfn = pfn;
#endif
	zero_page_pfn = pfn;
}

static __always_inline bool pfn_is_zero_page(unsigned long pfn)
{
	return pfn == zero_page_pfn;
}

/*
 * x86's direct map, which the world's memory is not in (its page tables
 * and pages are host memory): no address is a kernel virtual address the
 * debug checks could look up (7.2's folio_pte_batch_flags())
 */
bool __virt_addr_valid(unsigned long kaddr)
{
	return false;
}

struct page *(virt_to_page)(const void *kaddr)
{
	WARN(1, "tb: virt_to_page(%p): the world has no direct map", kaddr);
	return NULL;
}
struct mm_struct init_mm;

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

void tb_mem_get_costs(struct tb_mem_costs *c)
{
	*c = costs;
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

/* tsk went past world time: the world follows it (writes completed, jiffies) */
static noinline void world_advance(struct task_struct *tsk)
{
	unsigned long target;

	world_ns = tsk->kshim_vclock_ns;
	tb_writeback_complete(world_ns);
	target = boot_jiffies + world_ns / (1000000000ULL / HZ);
	if (time_after(target, kshim_jiffies()))
		kshim_jiffies_advance(target - kshim_jiffies());
}

/* tsk used ns of virtual time: world time and jiffies follow the furthest task */
static __always_inline void charge_time(struct task_struct *tsk, u64 ns)
{
	tsk->kshim_vclock_ns += ns;
	/* a kernel thread's time is its own CPU's: the world does not wait for it */
	if (tsk->kshim_kthread || tsk->kshim_vclock_ns <= world_ns)
		return;
	world_advance(tsk);
}

void tb_charge_time(u64 ns)
{
	charge_time(current, ns);
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

u64 tb_cost_swapout(void)
{
	return costs.swapout_ns;
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

/*
 * ---- page tables ----
 * Tables come from 2 MiB chunks the host may back with a huge page
 * (MADV_HUGEPAGE): a task touching gigabytes at random walks to a new
 * pte table at nearly every access, and with a 4 KiB host page per
 * table each walk would also miss the host's TLB. A freed table goes on
 * a free list for the next world; chunks are kept for the process. The
 * count of tables in use is checked at teardown (the C heap's leak
 * checker does not see inside a chunk).
 */
#define TABLE_CHUNK (2UL << 20)

/*
 * Chunks come from one region at the same host address in every run
 * where the host allows it: the multi-gen LRU's Bloom filter hashes the
 * address of a pmd entry (get_item_key()), so with the host's ASLR which
 * page tables its walk skipped, and the figures of a large world (seed
 * 002 at full size), changed from run to run. 32 TiB is above ASan's
 * shadow; ThreadSanitizer allows no mapping there.
 */
#define TABLE_SPACE_BASE 0x200000000000UL
#define TABLE_SPACE (256UL << 30)
#if defined(__SANITIZE_THREAD__)
#define TB_TABLE_SPACE 0
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define TB_TABLE_SPACE 0
#endif
#endif
#ifndef TB_TABLE_SPACE
#define TB_TABLE_SPACE 1
#endif

static struct {
	pthread_mutex_t lock;
	void *free;		/* freed tables, linked by their first word */
	char *next, *end;	/* the current chunk's unused part */
	void **chunks;
	unsigned long nr_chunks, live;
	char *space, *space_end;	/* the fixed region's unused part */
	bool space_tried;
} tables = { .lock = PTHREAD_MUTEX_INITIALIZER };

/* a 2 MiB chunk from the fixed region, or anywhere once it is full or refused */
static char *table_chunk_alloc(void)
{
	char *c;

	if (TB_TABLE_SPACE && !tables.space_tried) {
		void *want = (void *)TABLE_SPACE_BASE;
		void *p = mmap(want, TABLE_SPACE, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE,
			       -1, 0);

		tables.space_tried = true;
		if (p == want) {
			tables.space = p;
			tables.space_end = tables.space + TABLE_SPACE;
		} else if (p != MAP_FAILED) {
			/* a kernel without MAP_FIXED_NOREPLACE took it as a hint */
			munmap(p, TABLE_SPACE);
		}
	}
	if (tables.space < tables.space_end) {
		c = tables.space;
		tables.space += TABLE_CHUNK;
		return c;
	}
	return aligned_alloc(TABLE_CHUNK, TABLE_CHUNK);
}

static bool table_chunk(void)
{
	void **chunks = realloc(tables.chunks, (tables.nr_chunks + 1) * sizeof(void *));
	char *c;

	if (!chunks)
		return false;
	tables.chunks = chunks;
	c = table_chunk_alloc();
	if (!c)
		return false;
	madvise(c, TABLE_CHUNK, MADV_HUGEPAGE);
	tables.chunks[tables.nr_chunks++] = c;
	tables.next = c;
	tables.end = c + TABLE_CHUNK;
	return true;
}

static void *table_alloc(void)
{
	void *t = NULL;

	pthread_mutex_lock(&tables.lock);
	if (tables.free) {
		t = tables.free;
		tables.free = *(void **)t;
	} else if (tables.next < tables.end || table_chunk()) {
		t = tables.next;
		tables.next += PAGE_SIZE;
	}
	if (t)
		tables.live++;
	pthread_mutex_unlock(&tables.lock);
	if (t)
		memset(t, 0, PAGE_SIZE);
	return t;
}

static void table_free(void *t)
{
	if (!t)
		return;
	pthread_mutex_lock(&tables.lock);
	*(void **)t = tables.free;
	tables.free = t;
	tables.live--;
	pthread_mutex_unlock(&tables.lock);
}

unsigned long tb_page_tables_live(void)
{
	return READ_ONCE(tables.live);
}

/*
 * A user page table is a page of the world's RAM, as x86's pud, pmd and
 * pte tables are pages of the buddy allocator: GFP_PGTABLE_USER charges
 * it to the faulting task's memcg (__GFP_ACCOUNT, which may reclaim or
 * fail the fault), and the table constructors count it in NR_PAGETABLE.
 * Its entries live in host memory (the world's pages hold no data): the
 * page is found from the table's address. The pgd, made at the task's
 * fork by its parent, stays host memory only; so do tables made before
 * the world's memory boots.
 */
static DEFINE_XARRAY(table_pages);

static void *user_table_alloc(void)
{
	void *t = table_alloc();
	struct folio *folio;

	if (!t || !tb_mem_booted())
		return t;
	folio = tb_alloc_folio_order(GFP_PGTABLE_USER, 0, numa_node_id());
	if (!folio || xa_err(xa_store(&table_pages, (unsigned long)t >> PAGE_SHIFT, folio,
				      GFP_KERNEL))) {
		if (folio)
			tb_page_free(&folio->page, 0);
		table_free(t);
		return NULL;
	}
	lruvec_stat_add_folio(folio, NR_PAGETABLE);
	return t;
}

static void user_table_free(void *t)
{
	struct folio *folio;

	if (!t)
		return;
	folio = xa_erase(&table_pages, (unsigned long)t >> PAGE_SHIFT);
	if (folio) {
		/* pagetable_dtor() and pagetable_free() */
		lruvec_stat_sub_folio(folio, NR_PAGETABLE);
		tb_page_free(&folio->page, 0);
	}
	table_free(t);
}

/* a new table for the empty entry *e, NULL if its page cannot be had (out of line) */
static noinline void *table_new(unsigned long *e)
{
	void *t = user_table_alloc();

	if (t)
		__atomic_store_n(e, (unsigned long)t | _PAGE_TABLE, __ATOMIC_RELEASE);
	return t;
}

/*
 * the entry at *e, or a new table for it: an upper entry is its table's
 * address (inline: a resident hit's cost is mostly this walk)
 */
static __always_inline void *table_get(unsigned long *e, bool alloc)
{
	unsigned long v = __atomic_load_n(e, __ATOMIC_ACQUIRE);

	if (v & _PAGE_PRESENT)
		return (void *)(v & PTE_PFN_MASK);
	if (!alloc)
		return NULL;
	return table_new(e);
}

/*
 * asm/pgalloc.h: a pte table is a page of the world's (pgtable_t: its
 * address), a pmd entry points to it as x86's does
 */
pgtable_t pte_alloc_one(struct mm_struct *mm)
{
	return user_table_alloc();
}

void pte_free(struct mm_struct *mm, pgtable_t pte)
{
	user_table_free(pte);
}

void pmd_populate(struct mm_struct *mm, pmd_t *pmd, pgtable_t pte)
{
	set_pmd(pmd, __pmd((unsigned long)pte | _PAGE_TABLE));
}

/*
 * The pte table a PMD mapping keeps in reserve for its split, deposited
 * under the pmd lock; a stack per mm whose links are in the empty tables
 * themselves (as s390's pgtable_trans_huge_deposit() keeps them)
 */
void pgtable_trans_huge_deposit(struct mm_struct *mm, pmd_t *pmdp, pgtable_t pgtable)
{
	struct list_head *lh = (struct list_head *)pgtable;

	assert_spin_locked(pmd_lockptr(mm, pmdp));
	if (!mm->pmd_huge_pte)
		INIT_LIST_HEAD(lh);
	else
		list_add(lh, (struct list_head *)mm->pmd_huge_pte);
	mm->pmd_huge_pte = pgtable;
}

pgtable_t pgtable_trans_huge_withdraw(struct mm_struct *mm, pmd_t *pmdp)
{
	pgtable_t pgtable = mm->pmd_huge_pte;
	struct list_head *lh = (struct list_head *)pgtable;

	assert_spin_locked(pmd_lockptr(mm, pmdp));
	if (list_empty(lh)) {
		mm->pmd_huge_pte = NULL;
	} else {
		mm->pmd_huge_pte = (pgtable_t)lh->next;
		list_del(lh);
	}
	memset(lh, 0, sizeof(*lh));
	return pgtable;
}

/*
 * mm/util.c: the world knows of a page's contents whether it holds a
 * byte other than zero (mem.c), so it can tell a page from the zero page
 * (the split's pages_identical()); two pages of data it cannot compare
 */
int memcmp_pages(struct page *page1, struct page *page2)
{
	if (page1 == __zero_page || page2 == __zero_page ||
	    (!tb_page_has_data(page1) && !tb_page_has_data(page2)))
		return tb_page_has_data(page1) != tb_page_has_data(page2);
	WARN_ONCE(1, "tb: the data of two pages is not modelled");
	return 1;
}

/*
 * mm/memory.c's allocation of a missing pud or pmd table, which a page-table
 * walk that installs ptes asks for (7.2's walk_page_range() with
 * ->install_pte): a table of the world's, as its MMU makes one
 */
int __pud_alloc(struct mm_struct *mm, p4d_t *p4d, unsigned long address)
{
	return table_get(&p4d->pgd.pgd, true) ? 0 : -ENOMEM;
}

int __pmd_alloc(struct mm_struct *mm, pud_t *pud, unsigned long address)
{
	return table_get(&pud->pud, true) ? 0 : -ENOMEM;
}

int __pte_alloc(struct mm_struct *mm, pmd_t *pmd)
{
	return table_get(&pmd->pmd, true) ? 0 : -ENOMEM;
}

/*
 * The MMU sets an accessed or dirty bit with a locked write only when it
 * finds it clear; an entry that has them is only read (and its cache line
 * stays shared, which is what keeps the world's hit cheap).
 */
static __always_inline void set_bits(unsigned long *e, unsigned long bits)
{
	if ((__atomic_load_n(e, __ATOMIC_RELAXED) & bits) != bits)
		__atomic_fetch_or(e, bits, __ATOMIC_RELAXED);
}

/* the MMU's walk to the pmd entry of addr; on a touch it sets the upper accessed bits */
static __always_inline pmd_t *mm_pmd(struct mm_struct *mm, unsigned long addr, bool alloc,
				     bool touch)
{
	pgd_t *pgd = pgd_offset(mm, addr);
	pud_t *pud;
	pmd_t *pmd;

	pud = table_get(&pgd->pgd, alloc);
	if (!pud)
		return NULL;
	pud += pud_index(addr);
	pmd = table_get(&pud->pud, alloc);
	if (!pmd)
		return NULL;
	if (touch) {
		set_bits(&pgd->pgd, _PAGE_ACCESSED);
		set_bits(&pud->pud, _PAGE_ACCESSED);
	}
	return pmd + pmd_index(addr);
}

/* a pmd entry that maps a huge page itself (x86's PSE bit), not a pte table */
static __always_inline bool pmd_maps_page(pmd_t *pmd)
{
	return __atomic_load_n(&pmd->pmd, __ATOMIC_RELAXED) & _PAGE_PSE;
}

/* the walk on to the pte of addr: NULL with no table there, or a huge pmd */
static __always_inline pte_t *mm_pte(struct mm_struct *mm, unsigned long addr, bool alloc,
				     bool touch)
{
	pmd_t *pmd = mm_pmd(mm, addr, alloc, touch);
	pte_t *pte;

	if (!pmd || unlikely(pmd_maps_page(pmd)))
		return NULL;
	pte = table_get(&pmd->pmd, alloc);
	if (!pte)
		return NULL;
	if (touch)
		set_bits(&pmd->pmd, _PAGE_ACCESSED);
	return pte + pte_index(addr);
}

static unsigned long vma_addr(struct tb_vma *v, unsigned long idx)
{
	return v->vma.vm_start + (idx << PAGE_SHIFT);
}

/* the pte of page idx, or NULL where no table was ever made or a huge pmd maps it */
static pte_t *vma_ptep(struct tb_vma *v, unsigned long idx)
{
	return mm_pte(v->vma.vm_mm, vma_addr(v, idx), false, false);
}

/* the pmd entry of page idx if it maps a huge page, else NULL */
static pmd_t *vma_huge_pmd(struct tb_vma *v, unsigned long idx)
{
	pmd_t *pmd = mm_pmd(v->vma.vm_mm, vma_addr(v, idx), false, false);

	return pmd && pmd_maps_page(pmd) ? pmd : NULL;
}

/* the pmd entry of page idx holds a pte table or maps a huge page */
static bool vma_pmd_present(struct tb_vma *v, unsigned long idx)
{
	pmd_t *pmd = mm_pmd(v->vma.vm_mm, vma_addr(v, idx), false, false);

	return pmd && (__atomic_load_n(&pmd->pmd, __ATOMIC_RELAXED) & _PAGE_PRESENT);
}

/* the pte maps page (present, its pfn) */
static bool ptep_maps_page(pte_t *ptep, struct page *page)
{
	pte_t pte = ptep ? ptep_get(ptep) : __pte(0);

	return pte_present(pte) && pte_pfn(pte) == page_to_pfn(page);
}

/* __split_huge_pmd() of the huge pmd over page idx (frozen: into migration entries) */
static void split_huge_pmd_of(struct tb_vma *vma, pmd_t *pmdp, unsigned long idx, bool freeze,
			      struct folio *folio)
{
#ifdef CONFIG_TRANSPARENT_HUGEPAGE
#if TB_HAVE_folio_split_nonuniform
	__split_huge_pmd(&vma->vma, pmdp, vma_addr(vma, idx), freeze);
#else
	__split_huge_pmd(&vma->vma, pmdp, vma_addr(vma, idx), freeze, folio);
#endif
#endif
}

/* the folio a present pte maps: none for the zero page (vm_normal_page()) */
static struct folio *pte_folio(pte_t pte)
{
	return pte_present(pte) && !pfn_is_zero_page(pte_pfn(pte)) ?
	       page_folio(pfn_to_page(pte_pfn(pte))) : NULL;
}

/*
 * The entry a non-present pte holds, in the arch's format (asm/pgtable.h):
 * a swap slot's or a migration entry (7.2: a software leaf, linux/leafops.h)
 */
#if TB_HAVE_leafops_h
#define pte_leaf(pte)		softleaf_from_pte(pte)
#define leaf_is_swap		softleaf_is_swap
#define leaf_is_migration	softleaf_is_migration
#define leaf_pfn		softleaf_to_pfn
#define leaf_migration_young	softleaf_is_migration_young
#define leaf_migration_dirty	softleaf_is_migration_dirty
#define leaf_migration_read	softleaf_is_migration_read
#else
static swp_entry_t pte_leaf(pte_t pte)
{
	return is_swap_pte(pte) ? pte_to_swp_entry(pte) : (swp_entry_t){ 0 };
}

/* slot 0 is the device's header: an entry of 0 is no entry */
static bool leaf_is_swap(swp_entry_t entry)
{
	return entry.val && !non_swap_entry(entry);
}
#define leaf_is_migration	is_migration_entry
#define leaf_pfn		swp_offset_pfn
#define leaf_migration_young	is_migration_entry_young
#define leaf_migration_dirty	is_migration_entry_dirty
#define leaf_migration_read	is_readable_migration_entry
#endif

static bool pte_is_swap(pte_t pte)
{
	return leaf_is_swap(pte_leaf(pte));
}

static swp_entry_t pte_swp(pte_t pte)
{
	return pte_leaf(pte);
}

static void free_tables(struct mm_struct *mm)
{
	int i, j, k;

	for (i = 0; i < PTRS_PER_PGD; i++) {
		pud_t *pud = table_get(&mm->pgd[i].pgd, false);

		for (j = 0; pud && j < PTRS_PER_PUD; j++) {
			pmd_t *pmd = table_get(&pud[j].pud, false);

			for (k = 0; pmd && k < PTRS_PER_PMD; k++)
				user_table_free(table_get(&pmd[k].pmd, false));
			user_table_free(pmd);
		}
		user_table_free(pud);
	}
	table_free(mm->pgd);
	mm->pgd = NULL;
}

#ifdef CONFIG_MM_ID
/*
 * kernel/fork.c's mm_alloc_id() takes the lowest free id of an IDA; the
 * world's only grow, which keeps the ids of live mms apart, all the rmap's
 * tracking of a large folio's mms needs
 */
static mm_id_t mm_alloc_id(void)
{
	static atomic_t last_id = ATOMIC_INIT(MM_ID_DUMMY);
	int id = atomic_inc_return(&last_id);

	BUG_ON(id < MM_ID_MIN || id > MM_ID_MAX);
	return id;
}
#endif

/* fork's part: an address space with an empty pgd, on its memcg's mm list */
void tb_mm_init(struct mm_struct *mm, struct task_struct *owner)
{
	mm->owner = owner;
	INIT_LIST_HEAD(&mm->kshim_vmas);
	mm->pgd = table_alloc();
	BUG_ON(!mm->pgd);
	atomic_set(&mm->mm_users, 1);
	/* the users' reference; a walker's mmgrab() adds one */
	atomic_set(&mm->mm_count, 1);
	spin_lock_init(&mm->page_table_lock);
	init_rwsem(&mm->mmap_lock);
	lru_gen_init_mm(mm);
	lru_gen_add_mm(mm);
#ifdef CONFIG_MM_ID
	mm->mm_id = mm_alloc_id();
#endif
}

/* a page-table walker's reference going; the exiting task waits for it */
void mmput(struct mm_struct *mm)
{
	atomic_dec(&mm->mm_users);
}

/*
 * the last mmdrop(): the exited task's (tb_task_mm_exit()), or, after it,
 * that of a holder of an mmgrab() (khugepaged's slot of an mm it was
 * scanning); the address space is gone already, the struct goes now
 */
void __mmdrop(struct mm_struct *mm)
{
	WARN_ON(atomic_read(&mm->mm_users) || mm->pgd);
	kfree(mm);
}

struct vm_area_struct *find_vma(struct mm_struct *mm, unsigned long addr)
{
	struct tb_vma *v;

	list_for_each_entry(v, &mm->kshim_vmas, mm_node)
		if (v->vma.vm_end > addr)
			return &v->vma;
	return NULL;
}

struct vm_area_struct *vma_next(struct vma_iterator *vmi)
{
	struct vm_area_struct *vma = find_vma(vmi->mm, vmi->addr);

	if (vma)
		vmi->addr = vma->vm_end;
	return vma;
}

/* a new vma after the last one: at the next PMD boundary, or (near) a page after it */
static struct tb_vma *vma_new(unsigned long nr_pages, bool near)
{
	struct mm_struct *mm = current->mm;
	unsigned long start = TB_MMAP_BASE, end;
	struct tb_vma *v;

	if (!mm || !nr_pages)
		return NULL;
	v = kzalloc(sizeof(*v), GFP_KERNEL);
	if (!v)
		return NULL;
	if (!list_empty(&mm->kshim_vmas)) {
		end = list_last_entry(&mm->kshim_vmas, struct tb_vma, mm_node)->vma.vm_end;
		start = near ? end + PAGE_SIZE : ALIGN(end, PMD_SIZE);
	}
	v->vma.vm_start = start;
	v->vma.vm_end = start + (nr_pages << PAGE_SHIFT);
	v->vma.vm_mm = mm;
	/* a private mapping, as mmap(MAP_PRIVATE) makes it: copy-on-write */
	TB_VMA_FLAGS(&v->vma) = VM_READ | VM_WRITE | VM_MAYREAD | VM_MAYWRITE | VM_MAYEXEC;
	v->vma.vm_page_prot = __pgprot(PTE_PROT);
	v->nr_pages = nr_pages;
	v->anon_vma.root = &v->anon_vma;
	v->vma.anon_vma = &v->anon_vma;	/* anon_vma_prepare()'s, at mmap here */
	init_rwsem(&v->anon_vma.rwsem);
	atomic_set(&v->anon_vma.refcount, 1);
	INIT_LIST_HEAD(&v->file_node);
	mmap_write_lock(mm);
	list_add_tail(&v->mm_node, &mm->kshim_vmas);
	mmap_write_unlock(mm);
	return v;
}

struct tb_vma *tb_map_anon(unsigned long nr_pages)
{
	return vma_new(nr_pages, false);
}

/*
 * A page after the last vma ends, as a second mmap() comes out next to
 * the first with a guard page between (else an anonymous neighbour of the
 * same flags would have been merged into it): both may share a pte table.
 */
struct tb_vma *tb_map_anon_near(unsigned long nr_pages)
{
	return vma_new(nr_pages, true);
}

/*
 * A file vma has vm_ops, so vma_is_anonymous() is false; the world's
 * files map no huge page of their own (no ->huge_fault, as without DAX).
 * Where THP is built, ->fault is the world's page cache read and
 * ->map_pages the tree's filemap_map_pages(), as generic_file_vm_ops.
 */
#ifdef CONFIG_TRANSPARENT_HUGEPAGE
static vm_fault_t tb_file_fault(struct vm_fault *vmf);
static const struct vm_operations_struct tb_file_vm_ops = {
	.fault = tb_file_fault,
	.map_pages = filemap_map_pages,
};
#else
static const struct vm_operations_struct tb_file_vm_ops;
#endif

struct tb_vma *tb_map_file(struct tb_file *file)
{
	struct tb_vma *v = vma_new(tb_file_pages(file), false);

	if (v) {
		v->tbf = file;
		v->vma.anon_vma = NULL;
		v->file.f_mapping = tb_file_mapping(file);
		v->vma.vm_file = &v->file;
		v->file.f_inode = tb_file_mapping(file)->host;
		/* the mapping's open file: readahead state of its own */
		tb_file_ra_init(file, &v->file);
		v->vma.vm_ops = &tb_file_vm_ops;
		TB_VMA_FLAGS(&v->vma) = VM_READ;
		list_add_tail(&v->file_node, tb_file_vmas(file));
	}
	return v;
}

/* the rmap reports VM_EXEC from folio_referenced(), as for mapped program text */
struct tb_vma *tb_map_file_exec(struct tb_file *file)
{
	struct tb_vma *v = tb_map_file(file);

	if (v)
		TB_VMA_FLAGS(&v->vma) = VM_READ | VM_EXEC;
	return v;
}

/*
 * mm/madvise.c's madvise_behavior() for the read-ahead hints and, where
 * THP is built, MADV_HUGEPAGE and MADV_NOHUGEPAGE (mm/khugepaged.c's
 * hugepage_madvise() sets VM_HUGEPAGE or VM_NOHUGEPAGE, which
 * thp_vma_allowable_order() and vma_thp_gfp_mask() read): the vma's
 * flags change under mmap_lock held for write, as vm_flags_reset() needs
 */

/* folio_mapcount() (out of line in mm/util.c before 6.12: the world's order-0 count) */
static int mapcount(struct folio *folio)
{
#ifdef CONFIG_TRANSPARENT_HUGEPAGE
	return folio_mapcount(folio);
#else
	return atomic_read(&folio->_mapcount) + 1;
#endif
}

static int madvise_walk(struct tb_vma *vma, unsigned long start, unsigned long end,
			int advice);

#ifdef CONFIG_TRANSPARENT_HUGEPAGE
/* mm/internal.h's, of the tree's mm/readahead.c (readahead.manifest) */
void force_page_cache_ra(struct readahead_control *ractl, unsigned long nr_to_read);

/*
 * vfs_fadvise() of a world file, which MADV_WILLNEED of a file mapping
 * calls: generic_fadvise()'s POSIX_FADV_WILLNEED, force_page_cache_readahead()
 * of the pages the byte range touches (the tree's force_page_cache_ra())
 */
int vfs_fadvise(struct file *file, loff_t offset, loff_t len, int advice)
{
	pgoff_t first = offset >> PAGE_SHIFT;
	pgoff_t last = (offset + len - 1) >> PAGE_SHIFT;

	if (advice != POSIX_FADV_WILLNEED || len <= 0 || offset < 0)
		return -EINVAL;
	{
		DEFINE_READAHEAD(ractl, file, &file->f_ra, file->f_mapping, first);

		force_page_cache_ra(&ractl, last - first + 1);
	}
	return 0;
}

#else
/* no readahead in the world without large folios (6.1): a file's is refused */
int vfs_fadvise(struct file *file, loff_t offset, loff_t len, int advice)
{
	return -EOPNOTSUPP;
}
#endif

/*
 * MADV_WILLNEED of pages [start, end): the tree's madvise_willneed()
 * (madvise_unit.c); a file's is refused where the world has no readahead
 * (6.1), as madvise_willneed() ignores what vfs_fadvise() returns
 */
static int madvise_willneed(struct tb_vma *vma, unsigned long start, unsigned long end)
{
	if (!IS_ENABLED(CONFIG_TRANSPARENT_HUGEPAGE) && vma->tbf)
		return -EOPNOTSUPP;
	return madvise_walk(vma, start, end, MADV_WILLNEED);
}

int tb_madvise(struct tb_vma *vma, int advice)
{
	struct mm_struct *mm = vma->vma.vm_mm;
	vm_flags_t flags = vma->vma.vm_flags & ~(VM_RAND_READ | VM_SEQ_READ);

	if (advice == MADV_WILLNEED)
		return madvise_willneed(vma, 0, vma->nr_pages);
	if (advice == MADV_FREE || advice == MADV_COLD || advice == MADV_PAGEOUT)
		return madvise_walk(vma, 0, vma->nr_pages, advice);
	switch (advice) {
	case MADV_NORMAL:
		break;
	case MADV_RANDOM:
		flags |= VM_RAND_READ;
		break;
	case MADV_SEQUENTIAL:
		flags |= VM_SEQ_READ;
		break;
#ifdef CONFIG_TRANSPARENT_HUGEPAGE
	case MADV_HUGEPAGE:
	case MADV_NOHUGEPAGE:
		/* the read-ahead hints stay; the THP bits are khugepaged.c's to set */
		flags = vma->vma.vm_flags;
		if (hugepage_madvise(&vma->vma, &flags, advice))
			return -EINVAL;
		break;
#endif
	default:
		return -EINVAL;
	}
	mmap_write_lock(mm);
	TB_VMA_FLAGS(&vma->vma) = flags;
#ifdef CONFIG_TRANSPARENT_HUGEPAGE
	/* madvise_update_vma(): a vma now good for khugepaged enters its list */
	if (flags & VM_HUGEPAGE)
		khugepaged_enter_vma(&vma->vma, flags);
#endif
	mmap_write_unlock(mm);
	return 0;
}

/*
 * mm/mprotect.c for a whole vma: its VM_READ and VM_WRITE. The world's
 * ptes keep their bits (x86's PROT_NONE pte is still pte_present() to
 * the kernel's walkers); the MMU refuses what the vma does not allow
 * (tb_touch()). A file mapping is never writable here.
 */
int tb_mprotect(struct tb_vma *vma, int prot)
{
	struct mm_struct *mm = vma->vma.vm_mm;
	unsigned long flags = vma->vma.vm_flags & ~(VM_READ | VM_WRITE | VM_EXEC);

	if (prot & ~(PROT_READ | PROT_WRITE | PROT_EXEC) || (prot & PROT_WRITE && vma->tbf))
		return -EINVAL;
	if (prot & PROT_READ)
		flags |= VM_READ;
	if (prot & PROT_WRITE)
		flags |= VM_WRITE;
	/* a JIT's anon code, a program's text: what the rmap reports to reclaim */
	if (prot & PROT_EXEC)
		flags |= VM_EXEC;
	mmap_write_lock(mm);
	TB_VMA_FLAGS(&vma->vma) = flags;
	mmap_write_unlock(mm);
	return 0;
}

/* ---- rmap: mapping and unmapping one pte ---- */
/* the page of folio at page idx of a vma (a large folio maps from its index on) */
static struct page *folio_page_at(struct folio *folio, unsigned long idx)
{
	return folio_test_large(folio) ? folio_page(folio, idx - folio->index) : &folio->page;
}

#ifdef CONFIG_TRANSPARENT_HUGEPAGE
/*
 * mm/rmap.c's accounting (mm/vmscan/rmap_unit.c): the map counts of the
 * folio and its pages, NR_ANON_MAPPED / NR_FILE_MAPPED, a new anon folio's
 * anon_vma and index; every mapping is exclusive (the world never forks)
 */
static void rmap_add(struct tb_vma *vma, unsigned long idx, struct folio *folio)
{
	struct page *page = folio_page_at(folio, idx);

	if (vma->tbf)
		folio_add_file_rmap_pte(folio, page, &vma->vma);
	else if (!folio_test_anon(folio))
		folio_add_new_anon_rmap(folio, &vma->vma, vma_addr(vma, idx), RMAP_EXCLUSIVE);
	else
		folio_add_anon_rmap_pte(folio, page, &vma->vma, vma_addr(vma, idx), RMAP_EXCLUSIVE);
	atomic_long_inc(&vma->vma.vm_mm->kshim_rss[vma->tbf ? MM_FILEPAGES : MM_ANONPAGES]);
}

/* the pte of page (of folio) is gone */
static void rmap_remove_page(struct tb_vma *vma, struct folio *folio, struct page *page)
{
	folio_remove_rmap_pte(folio, page, &vma->vma);
	atomic_long_dec(&vma->vma.vm_mm->kshim_rss[vma->tbf ? MM_FILEPAGES : MM_ANONPAGES]);
}
#else
/* 6.1: the world counts what mm/rmap.c's page_add_*_rmap() count for order 0 */
static void rmap_add(struct tb_vma *vma, unsigned long idx, struct folio *folio)
{
	if (!vma->tbf) {
		folio->mapping = (void *)((unsigned long)&vma->anon_vma | TB_MAPPING_ANON);
		folio->index = idx;
	}
	if (atomic_inc_and_test(&folio->_mapcount))
		tb_lruvec_stat_mod_folio(folio, vma->tbf ? NR_FILE_MAPPED : NR_ANON_MAPPED, 1);
	atomic_long_inc(&vma->vma.vm_mm->kshim_rss[vma->tbf ? MM_FILEPAGES : MM_ANONPAGES]);
}

static void rmap_remove_page(struct tb_vma *vma, struct folio *folio, struct page *page)
{
	if (atomic_add_negative(-1, &folio->_mapcount))
		tb_lruvec_stat_mod_folio(folio, vma->tbf ? NR_FILE_MAPPED : NR_ANON_MAPPED, -1);
	atomic_long_dec(&vma->vma.vm_mm->kshim_rss[vma->tbf ? MM_FILEPAGES : MM_ANONPAGES]);
}
#endif

static void rmap_remove(struct tb_vma *vma, struct folio *folio)
{
	rmap_remove_page(vma, folio, folio_page(folio, 0));
}

/* the pte a fault installs: accessed, as the MMU sets on the retried access */
static void map_pte(struct tb_vma *vma, unsigned long idx, struct folio *folio, bool write)
{
	pteval_t v = _PAGE_ACCESSED | (write ? _PAGE_DIRTY : 0);
	pte_t *ptep = mm_pte(vma->vma.vm_mm, vma_addr(vma, idx), true, true);

	set_pte(ptep, __pte(pte_val(pfn_pte(page_to_pfn(folio_page_at(folio, idx)),
					     vma->vma.vm_page_prot)) | v));
}

/* mm/swap_state.c: an unmapped folio's swap cache copy is not kept */
void free_swap_cache(struct folio *folio)
{
	if (folio_test_swapcache(folio) && !folio_mapped(folio) && folio_trylock(folio)) {
		folio_free_swap(folio);
		folio_unlock(folio);
	}
}

#ifdef CONFIG_TRANSPARENT_HUGEPAGE
/* mm/swap_state.c: a folio's last mapping gone, its swap cache copy too (a split's) */
void free_folio_and_swap_cache(struct folio *folio)
{
	free_swap_cache(folio);
	if (!is_huge_zero_folio(folio))
		folio_put(folio);
}

/* the same before 7.2, by page */
void free_page_and_swap_cache(struct page *page)
{
	free_folio_and_swap_cache(page_folio(page));
}
#endif

/* zap_pte_range() for one pte */
static void zap_pte(struct tb_vma *vma, unsigned long idx)
{
	pte_t *ptep = vma_ptep(vma, idx);
	struct mm_struct *mm = vma->vma.vm_mm;
	struct folio *folio;
	pte_t pte;

	if (!ptep)
		return;
	spin_lock(&mm->page_table_lock);
	pte = ptep_get_and_clear(mm, vma_addr(vma, idx), ptep);
	spin_unlock(&mm->page_table_lock);
	folio = pte_folio(pte);
	if (folio) {
		if (!folio_test_anon(folio)) {
			if (pte_dirty(pte))
				folio_mark_dirty(folio);
			if (pte_young(pte) && likely(vma_has_recency(&vma->vma)))
				folio_mark_accessed(folio);
		}
		rmap_remove_page(vma, folio, pfn_to_page(pte_pfn(pte)));
		free_swap_cache(folio);
		folio_put(folio);
	} else if (pte_is_swap(pte)) {
		tb_swap_put_entry(pte_swp(pte));
	}
}

/*
 * Zapping ZAP_AHEAD ptes ahead of the one it zaps, the host fetches the
 * struct page of that pte's folio and, half-way there, the struct pages
 * of its neighbours on its LRU list (what freeing it unlinks): prefetches
 * only, no effect on the world. Over gigabytes whose LRU order reclaim
 * has shuffled, each of those is a host cache miss, most of a zap's cost.
 */
#define ZAP_AHEAD 16

static void zap_prefetch(pte_t *ptep, bool neighbours)
{
	struct folio *folio = pte_folio(ptep_get(ptep));

	if (!folio)
		return;
	if (!neighbours) {
		__builtin_prefetch(folio, 1);
		return;
	}
	__builtin_prefetch(READ_ONCE(folio->lru.next), 1);
	__builtin_prefetch(READ_ONCE(folio->lru.prev), 1);
}

/* the gather's page free (asm-generic/tlb.h): at once, the TLB holding nothing */
void tlb_remove_page_size(struct mmu_gather *tlb, struct page *page, int page_size)
{
	struct folio *folio = page_folio(page);

	free_swap_cache(folio);
	folio_put(folio);
}

/* the tree's zap_huge_pmd() of the huge pmd of page idx, if there is one */
static void zap_huge_pmd_of(struct tb_vma *vma, unsigned long idx)
{
#ifdef CONFIG_TRANSPARENT_HUGEPAGE
	struct mmu_gather tlb;
	pmd_t *pmdp = vma_huge_pmd(vma, idx);

	if (!pmdp)
		return;
	tlb_gather_mmu(&tlb, vma->vma.vm_mm);
	zap_huge_pmd(&tlb, &vma->vma, pmdp, vma_addr(vma, idx));
	tlb_finish_mmu(&tlb);
#endif
}

/*
 * zap_page_range_single() of pages [start, end), one pte table at a time
 * (the upper levels walked once per table): a huge pmd the range covers
 * whole is zapped, one it covers in part is split first (zap_pmd_range()'s
 * __split_huge_pmd()) and its ptes zapped as any
 */
static void zap_range(struct tb_vma *vma, unsigned long start, unsigned long end)
{
	unsigned long i = start, blk_end, addr, j;
	pmd_t *pmdp;
	pte_t *ptep;

	while (i < end) {
		addr = vma_addr(vma, i);
		blk_end = min(i + ((ALIGN(addr + 1, PMD_SIZE) - addr) >> PAGE_SHIFT), end);
		ptep = vma_ptep(vma, i);
		if (!ptep) {
			pmdp = vma_huge_pmd(vma, i);
			if (pmdp && !(addr & ~PMD_MASK) && blk_end - i == PTRS_PER_PMD)
				zap_huge_pmd_of(vma, i);
			if (!pmdp || blk_end - i == PTRS_PER_PMD) {
				i = blk_end;
				continue;
			}
			split_huge_pmd_of(vma, pmdp, i, false, NULL);
			ptep = vma_ptep(vma, i);
		}
		for (j = i; j < blk_end; j++) {
			if (j + ZAP_AHEAD < blk_end)
				zap_prefetch(ptep + (j - i) + ZAP_AHEAD, false);
			if (j + ZAP_AHEAD / 2 < blk_end)
				zap_prefetch(ptep + (j - i) + ZAP_AHEAD / 2, true);
			zap_pte(vma, j);
		}
		i = blk_end;
	}
	/* the folio batches may hold the last references */
	lru_add_drain();
}

static void zap_vma(struct tb_vma *vma)
{
	zap_range(vma, 0, vma->nr_pages);
}
/*
 * MADV_COLLAPSE: madvise() holds mmap_lock for read around the kernel's
 * madvise_collapse(), which collapses each PMD-aligned range of ptes into
 * a THP (trees without THP: -EINVAL)
 */
static int madvise_collapse_range(struct tb_vma *vma, unsigned long start, unsigned long end)
{
#ifdef CONFIG_TRANSPARENT_HUGEPAGE
	struct mm_struct *mm = vma->vma.vm_mm;
	int ret;

	mmap_read_lock(mm);
#if TB_HAVE_collapse_scan_result
	bool lock_dropped = false;

	ret = madvise_collapse(&vma->vma, vma_addr(vma, start), vma_addr(vma, end), &lock_dropped);
#else
	struct vm_area_struct *prev;

	ret = madvise_collapse(&vma->vma, &prev, vma_addr(vma, start), vma_addr(vma, end));
#endif
	mmap_read_unlock(mm);
	return ret;
#else
	return -EINVAL;
#endif
}

/*
 * madvise() of pages [start, start + n) of a vma. MADV_COLD, MADV_PAGEOUT,
 * MADV_FREE (-EINVAL for a file vma, as the kernel's) and MADV_WILLNEED: the
 * kernel's walks (madvise_walk()). Of an anonymous vma only, MADV_DONTNEED: zap_page_range_single() (zap_range()), a large
 * folio left mapped in part going on the deferred split queue (the
 * kernel's __folio_remove_rmap()) for its shrinker to split and free the
 * rest; MADV_COLLAPSE.
 */
int tb_madvise_range(struct tb_vma *vma, unsigned long start, unsigned long n, int advice)
{
	unsigned long end = start + n;

	if (end > vma->nr_pages || end < start)
		return -EINVAL;
	if (advice == MADV_FREE || advice == MADV_COLD || advice == MADV_PAGEOUT)
		return madvise_walk(vma, start, end, advice);
	if (advice == MADV_WILLNEED)
		return madvise_willneed(vma, start, end);
	if (vma->tbf)
		return -EINVAL;
	if (advice == MADV_COLLAPSE)
		return madvise_collapse_range(vma, start, end);
	if (advice != MADV_DONTNEED)
		return -EINVAL;
	lru_add_drain();
	zap_range(vma, start, end);
	return 0;
}

/* whether a vma of mm other than the unmapped one overlaps [start, end) */
static bool mm_spans(struct mm_struct *mm, unsigned long start, unsigned long end)
{
	struct tb_vma *v;

	list_for_each_entry(v, &mm->kshim_vmas, mm_node)
		if (v->vma.vm_start < end && v->vma.vm_end > start)
			return true;
	return false;
}

/* the table an upper entry points to, freed and the entry cleared, unless a vma spans it */
static void free_table_at(struct mm_struct *mm, unsigned long *e, unsigned long start,
			  unsigned long size)
{
	void *t = table_get(e, false);

	if (!t || mm_spans(mm, start, start + size))
		return;
	__atomic_store_n(e, 0, __ATOMIC_RELEASE);
	user_table_free(t);
}

/*
 * free_pgtables() after the vma left the mm: every table of its range
 * that no other vma spans (its floor and ceiling), pte tables first
 */
static void free_vma_tables(struct tb_vma *vma)
{
	struct mm_struct *mm = vma->vma.vm_mm;
	unsigned long start = vma->vma.vm_start, end = vma->vma.vm_end, addr;
	pmd_t *pmd;

	for (addr = ALIGN_DOWN(start, PMD_SIZE); addr < end; addr += PMD_SIZE) {
		pmd = mm_pmd(mm, addr, false, false);
		if (pmd && !pmd_maps_page(pmd))
			free_table_at(mm, &pmd->pmd, addr, PMD_SIZE);
	}
	for (addr = ALIGN_DOWN(start, PUD_SIZE); addr < end; addr += PUD_SIZE) {
		pud_t *pud = table_get(&pgd_offset(mm, addr)->pgd, false);

		if (pud)
			free_table_at(mm, &pud[pud_index(addr)].pud, addr, PUD_SIZE);
	}
	for (addr = ALIGN_DOWN(start, PGDIR_SIZE); addr < end; addr += PGDIR_SIZE)
		free_table_at(mm, &pgd_offset(mm, addr)->pgd, addr, PGDIR_SIZE);
}

void tb_unmap(struct tb_vma *vma)
{
	struct mm_struct *mm;

	if (!vma)
		return;
	mm = vma->vma.vm_mm;
	zap_vma(vma);
	/* a page-table walker holds mmap_lock for read while it looks at vmas */
	mmap_write_lock(mm);
	list_del(&vma->mm_node);
	free_vma_tables(vma);
	mmap_write_unlock(mm);
	list_del(&vma->file_node);
	kfree(vma);
}

/* the OOM reaper: every page goes, the vmas stay until the task exits */
void tb_task_mm_reap(struct mm_struct *mm)
{
	struct tb_vma *vma;

	list_for_each_entry(vma, &mm->kshim_vmas, mm_node)
		zap_vma(vma);
}

/* exit_mmap(): off the multi-gen LRU's list, walkers gone, all unmapped */
void tb_task_mm_exit(struct mm_struct *mm)
{
	struct tb_vma *vma, *tmp;

	lru_gen_del_mm(mm);
#ifdef CONFIG_TRANSPARENT_HUGEPAGE
	/* __mmput(): off khugepaged's list (its mmgrab() dropped) */
	khugepaged_exit(mm);
#endif
	atomic_dec(&mm->mm_users);
	/* walkers holding it by mm_users (mmget_not_zero()) */
	while (atomic_read(&mm->mm_users) > 0)
		cond_resched();
	list_for_each_entry_safe(vma, tmp, &mm->kshim_vmas, mm_node)
		tb_unmap(vma);
	free_tables(mm);
	/* mm_update_next_owner(): no task is left to own it */
	WRITE_ONCE(mm->owner, NULL);
	/*
	 * the users' reference on the struct: an mmgrab() holder (khugepaged,
	 * whose scan was at this mm) drops the last one later, as in the kernel
	 */
	mmdrop(mm);
}

unsigned long tb_mm_rss(struct mm_struct *mm)
{
	struct tb_vma *vma;
	unsigned long n = 0;

	list_for_each_entry(vma, &mm->kshim_vmas, mm_node)
		n += tb_vma_resident(vma) + tb_vma_swapped(vma);
	return n;
}

/* the pte of page idx; under a huge pmd, what the pte of its page would be */
static pte_t vma_pte_get(struct tb_vma *vma, unsigned long idx)
{
	pte_t *ptep = vma_ptep(vma, idx);
	pmd_t *pmd;

	if (ptep)
		return ptep_get(ptep);
	pmd = vma_huge_pmd(vma, idx);
	if (!pmd)
		return __pte(0);
	return __pte((pmd_val(pmdp_get(pmd)) & ~_PAGE_PSE) + (vma_addr(vma, idx) & ~PMD_MASK));
}

/*
 * Present and swap ptes of a vma, one page-table walk per pte table (not
 * per page): a fuzz harness counts them after every operation.
 */
static void vma_count_ptes(struct tb_vma *vma, unsigned long *present, unsigned long *swapped)
{
	unsigned long i = 0, end, addr;
	pte_t *ptep, pte;

	*present = *swapped = 0;
	while (i < vma->nr_pages) {
		addr = vma_addr(vma, i);
		/* the pages up to the end of this pte table (or of the vma) */
		end = i + ((ALIGN(addr + 1, PMD_SIZE) - addr) >> PAGE_SHIFT);
		end = min(end, vma->nr_pages);
		ptep = vma_ptep(vma, i);
		if (!ptep && vma_huge_pmd(vma, i))
			*present += end - i;
		for (; ptep && i < end; i++, ptep++) {
			pte = ptep_get(ptep);
			/* the zero page is no page of the task's (not in its rss) */
			*present += pte_present(pte) && !pfn_is_zero_page(pte_pfn(pte));
			*swapped += pte_is_swap(pte);
		}
		i = end;
	}
}

unsigned long tb_vma_resident(struct tb_vma *vma)
{
	unsigned long present, swapped;

	vma_count_ptes(vma, &present, &swapped);
	return present;
}

unsigned long tb_vma_swapped(struct tb_vma *vma)
{
	unsigned long present, swapped;

	vma_count_ptes(vma, &present, &swapped);
	return swapped;
}

void tb_vma_counts(struct tb_vma *vma, unsigned long *resident, unsigned long *swapped)
{
	vma_count_ptes(vma, resident, swapped);
}

/* the accessed bit of the pte of page index (the MMU sets it, the kernel's walkers clear it) */
bool tb_vma_pte_young(struct tb_vma *vma, unsigned long index)
{
	return index < vma->nr_pages && pte_young(vma_pte_get(vma, index));
}

/* the accessed bit of the pmd over page index (x86 sets it in non-leaf entries too) */
bool tb_vma_pmd_young(struct tb_vma *vma, unsigned long index)
{
	struct mm_struct *mm = vma->vma.vm_mm;

	if (index >= vma->nr_pages || !vma_pmd_present(vma, index))
		return false;
	return pmd_young(pmdp_get(pmd_off(mm, vma_addr(vma, index))));
}

/* the pmd entry over page index: the item the multi-gen LRU's Bloom filter hashes */
void *tb_vma_pmdp(struct tb_vma *vma, unsigned long index)
{
	if (index >= vma->nr_pages || !vma_pmd_present(vma, index))
		return NULL;
	return pmd_off(vma->vma.vm_mm, vma_addr(vma, index));
}

struct folio *tb_vma_folio(struct tb_vma *vma, unsigned long index)
{
	return index < vma->nr_pages ? pte_folio(vma_pte_get(vma, index)) : NULL;
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
#ifdef CONFIG_TRANSPARENT_HUGEPAGE
/* mm/memory.c's (mm/vmscan/memory_unit.c) */
vm_fault_t do_anonymous_page(struct vm_fault *vmf);

/* the vm_fault of a user access to page idx of vma, its pmd as given */
static struct vm_fault user_vmf(struct tb_vma *vma, unsigned long idx, bool write, pmd_t *pmd)
{
	return (struct vm_fault){
		.vma = &vma->vma,
		.address = vma_addr(vma, idx),
		.real_address = vma_addr(vma, idx),
		.flags = FAULT_FLAG_USER | (write ? FAULT_FLAG_WRITE : 0),
		.pgoff = idx,
		.gfp_mask = GFP_HIGHUSER_MOVABLE,
		.pmd = pmd,
	};
}

/*
 * handle_pte_fault() of a pte that is none in an anonymous vma: the
 * kernel's do_anonymous_page(), which picks the folio's order (an mTHP
 * size enabled for the vma, else a small folio), charges it and maps all
 * its pages, none young (x86 leaves that to the MMU): the retried access
 * sets the faulting pte's accessed bit, and its dirty bit on a write
 */
static int do_anon_fault(struct tb_vma *vma, unsigned long idx, bool write)
{
	struct mm_struct *mm = vma->vma.vm_mm;
	unsigned long addr = vma_addr(vma, idx);
	struct vm_fault vmf = user_vmf(vma, idx, write, mm_pmd(mm, addr, false, false));
	vm_fault_t ret = do_anonymous_page(&vmf);
	pte_t *ptep = mm_pte(mm, addr, false, false);

	if (ret & VM_FAULT_ERROR)
		return -ENOMEM;
	/* 0 with nothing mapped: a race the kernel retries (none in the world) */
	if (WARN_ON_ONCE(!ptep || !pte_present(ptep_get(ptep))))
		return -EAGAIN;
	set_bits(&ptep->pte, _PAGE_ACCESSED | (write ? _PAGE_DIRTY : 0));
	tb_stats.minor++;
	tb_charge_time(costs.minor_ns + costs.hit_ns);
	return 0;
}
#endif

static int do_anonymous_page_small(struct tb_vma *vma, unsigned long idx, bool write)
{
	struct folio *folio = tb_alloc_folio(GFP_HIGHUSER_MOVABLE, numa_node_id());

	if (!folio)
		return -ENOMEM;
	if (mem_cgroup_charge(folio, vma->vma.vm_mm, GFP_KERNEL)) {
		folio_put(folio);
		return -ENOMEM;
	}
	/* the kernel zeroes the page (GFP_HIGHUSER_MOVABLE | __GFP_ZERO) */
	tb_page_set_data(&folio->page, false);
	__folio_set_swapbacked(folio);
	folio_mark_uptodate(folio);
	rmap_add(vma, idx, folio);
	folio_add_lru(folio);
	map_pte(vma, idx, folio, write);
	tb_stats.minor++;
	tb_charge_time(costs.minor_ns + costs.hit_ns);
	return 0;
}

#if TB_HAVE_swapin_thp
/*
 * the device's swap_info_struct, whose flags say SWP_SYNCHRONOUS_IO
 * (zram): the world's one device, whatever a tree's lookup (7.2: swap_info[])
 */
static struct swap_info_struct *swap_info_of(swp_entry_t entry)
{
	return tb_swap_device();
}
#endif

/* data_race(si->flags & SWP_SYNCHRONOUS_IO), on 6.1 the world's answer */
static bool __maybe_unused swap_synchronous(swp_entry_t entry)
{
#if TB_HAVE_swapin_thp
	return swap_info_of(entry)->flags & SWP_SYNCHRONOUS_IO;
#else
	return tb_swap_synchronous();
#endif
}

/*
 * a swapped-in folio leaves the swap cache when it is written by its one
 * user or swap is short; 7.x: always on a synchronous device, whose slot
 * the cache would pin for no I/O saved
 */
static bool should_try_to_free_swap(struct folio *folio, struct tb_vma *vma, bool write)
{
	if (!folio_test_swapcache(folio))
		return false;
#if TB_HAVE_swapin_frees_sync_swapcache
	if (swap_synchronous(*tb_folio_swap(folio)))
		return true;
#endif
	if (mem_cgroup_swap_full(folio))
		return true;
	return write && folio_ref_count(folio) == 1 + folio_nr_pages(folio);
}

/*
 * swap_read_folio_zeromap(): slots marked zero-filled (6.12 on) are not
 * read; the folio is zeroed (SWPIN_ZERO). False: the device reads it.
 */
static bool swap_read_zero(struct folio *folio, swp_entry_t entry)
{
	long i, nr = folio_nr_pages(folio);

	if (!tb_swap_zero(entry, nr))
		return false;
	for (i = 0; i < nr; i++)
		tb_page_set_data(folio_page(folio, i), false);
	folio_mark_uptodate(folio);
#if TB_HAVE_memcg_stat_swp_zero
	count_vm_events(SWPIN_ZERO, nr);
	count_memcg_folio_events(folio, SWPIN_ZERO, nr);
#endif
	return true;
}

/*
 * swap_read_folio(): the device's read of the folio's slots, done at once
 * (true; PSWPIN counts its pages), or the zeromap's zeroing (false)
 */
static bool swap_read(struct folio *folio, swp_entry_t entry)
{
	long i, nr = folio_nr_pages(folio);

	if (swap_read_zero(folio, entry))
		return false;
	/* what the slots held, which the world does not keep: data */
	for (i = 0; i < nr; i++)
		tb_page_set_data(folio_page(folio, i), true);
	folio_mark_uptodate(folio);
#if TB_HAVE_mthp_stat_swpin
	/* swap_read_end() */
	if (folio_test_large(folio))
		tb_count_mthp_stat(folio_order(folio), MTHP_STAT_SWPIN);
#endif
#if TB_HAVE_memcg_pswp
	count_memcg_folio_events(folio, PSWPIN, nr);
#endif
	count_vm_events(PSWPIN, nr);
	return true;
}

/*
 * The folio a swap fault had to bring in (swap_read_folio()): do_swap_page()'s
 * major fault, and one read unless the zeromap had the slots
 */
static void swap_read_fault(struct tb_vma *vma, struct folio *folio, swp_entry_t entry)
{
	bool read = swap_read(folio, entry);

	count_vm_event(PGMAJFAULT);
	count_memcg_event_mm(vma->vma.vm_mm, PGMAJFAULT);
	tb_stats.major_anon++;
	tb_charge_time((read ? costs.swapin_ns : costs.minor_ns) + costs.hit_ns);
}

/*
 * The swap uncharge of a slot read into a new folio (cgroup v1's memsw
 * only: on v2 the charge goes with the slot; 7.2 on keeps it with the
 * slot until it is freed), the refault of its shadow, the LRU
 */
static void swap_added_new(struct folio *folio, swp_entry_t entry, void *shadow)
{
#if !TB_HAVE_swap_table && TB_HAVE_swapin_uncharge_nr
	mem_cgroup_swapin_uncharge_swap(entry, 1);
#elif !TB_HAVE_swap_table
	mem_cgroup_swapin_uncharge_swap(entry);
#endif
	if (shadow)
		workingset_refault(folio, shadow);
	folio_add_lru(folio);
}

/* a new order-0 folio read from its slot, in the swap cache or not */
static void swap_read_new_small(struct tb_vma *vma, struct folio *folio, swp_entry_t entry,
				void *shadow)
{
	swap_added_new(folio, entry, shadow);
	swap_read_fault(vma, folio, entry);
}

/*
 * The charge of a new folio a slot is read into, to the memcg the slot's
 * swap is charged to (else mm's; mm NULL: the current task's)
 */
static int swapin_charge(struct folio *folio, swp_entry_t entry, struct mm_struct *mm, gfp_t gfp)
{
#if TB_HAVE_swap_table
	return mem_cgroup_swapin_charge_folio(folio, tb_swap_memcg_id(entry), mm, gfp);
#else
	return mem_cgroup_swapin_charge_folio(folio, mm, gfp, entry);
#endif
}

/*
 * mm/swap_state.c's read_swap_cache_async() of one slot, which MADV_WILLNEED's
 * walk of an anonymous range calls per swap pte: the folio in the swap cache,
 * or a new order-0 one charged to the slot's memcg, added to the swap cache
 * and the LRU and read (the world's reads complete at once). No fault is
 * counted; the fault that maps it later is minor. NULL: a free slot, one a
 * swap-in that skips the swap cache holds (the kernel waits for it, the world
 * skips it), no memory or no charge.
 */
static struct folio *swap_read_async(swp_entry_t entry, gfp_t gfp)
{
	struct folio *folio;
	void *shadow;

	if (!tb_swap_entry_valid(entry))
		return NULL;
	folio = tb_swap_cache_lookup(entry);
	if (folio) {
		folio_get(folio);
		return folio;
	}
	if (!tb_swap_count(entry))
		return NULL;
	folio = tb_alloc_folio(gfp, numa_node_id());
	if (!folio)
		return NULL;
	if (tb_swapcache_prepare(entry, 1)) {
		folio_put(folio);
		return NULL;
	}
	__folio_set_locked(folio);
	__folio_set_swapbacked(folio);
	if (swapin_charge(folio, entry, NULL, gfp)) {
		folio_unlock(folio);
		folio_put(folio);
		tb_swapcache_clear(entry, 1);
		return NULL;
	}
	shadow = get_shadow_from_swap_cache(entry);
	tb_swap_cache_add(folio, entry);
	swap_added_new(folio, entry, shadow);
	if (swap_read(folio, entry))
		tb_charge_time(costs.swapin_ns);
	folio_unlock(folio);
	return folio;
}

#if TB_HAVE_swap_ops
struct folio *read_swap_cache_async(struct swap_io_ctx *ctx, swp_entry_t entry, gfp_t gfp_mask,
				    struct vm_area_struct *vma, unsigned long addr)
{
	return swap_read_async(entry, gfp_mask);
}
#elif TB_HAVE_thp_folio_split
struct folio *read_swap_cache_async(swp_entry_t entry, gfp_t gfp_mask,
				    struct vm_area_struct *vma, unsigned long addr,
				    struct swap_iocb **plug)
{
	return swap_read_async(entry, gfp_mask);
}
#else
struct page *read_swap_cache_async(swp_entry_t entry, gfp_t gfp_mask,
				   struct vm_area_struct *vma, unsigned long addr,
				   bool do_poll, struct swap_iocb **plug)
{
	struct folio *folio = swap_read_async(entry, gfp_mask);

	return folio ? &folio->page : NULL;
}
#endif

#if TB_HAVE_swapin_skips_swapcache
/*
 * do_swap_page() before 7.x for a slot only this pte holds on a
 * SWP_SYNCHRONOUS_IO device (zram): the page is read into a new folio that
 * never enters the swap cache while swapcache_prepare() holds the slot
 * (SWAP_HAS_CACHE) against a racing swap-in, mapped as a new exclusive
 * anon folio; swap_free() drops the pte's hold and swapcache_clear() the
 * swap-in's, which frees the slot and (cgroup v2) its swap charge. No copy
 * stays on the device: reclaim writes the page again. folio: the one
 * 6.12's alloc_swap_folio() allocated and charged (the slot held after);
 * NULL: 6.1 holds the slot, then allocates and charges one.
 */
static int swap_fault_skip_cache(struct tb_vma *vma, unsigned long idx, pte_t orig, bool write,
				 struct folio *folio, void *shadow)
{
	swp_entry_t entry = pte_swp(orig);

	if (!folio) {
		/* -EEXIST or -ENOENT: a racing swap-in or zap has the slot */
		if (tb_swapcache_prepare(entry, 1))
			return -ENOMEM;
		folio = tb_alloc_folio(GFP_HIGHUSER_MOVABLE, numa_node_id());
		if (!folio) {
			tb_swapcache_clear(entry, 1);
			return -ENOMEM;
		}
		__folio_set_locked(folio);
		__folio_set_swapbacked(folio);
		if (swapin_charge(folio, entry, vma->vma.vm_mm, GFP_KERNEL)) {
			folio_unlock(folio);
			folio_put(folio);
			tb_swapcache_clear(entry, 1);
			return -ENOMEM;
		}
	} else {
		__folio_set_locked(folio);
		__folio_set_swapbacked(folio);
		if (tb_swapcache_prepare(entry, 1)) {
			folio_unlock(folio);
			folio_put(folio);
			return -ENOMEM;
		}
	}
	swap_read_new_small(vma, folio, entry, shadow);
	/* the charge's OOM kill may have reaped this task's pte meanwhile */
	if (!pte_same(vma_pte_get(vma, idx), orig)) {
		folio_unlock(folio);
		folio_put(folio);
		tb_swapcache_clear(entry, 1);
		return -ENOMEM;
	}
	tb_swap_free_nr(entry, 1);
	rmap_add(vma, idx, folio);
	map_pte(vma, idx, folio, write);
	folio_unlock(folio);
	tb_swapcache_clear(entry, 1);
	return 0;
}
#endif

#if defined(CONFIG_TRANSPARENT_HUGEPAGE) && TB_HAVE_swapin_thp
/*
 * The swap-in of a large folio (6.12 on), mm/memory.c's do_swap_page()
 * for a SWP_SYNCHRONOUS_IO device (zram, the world's default): the
 * kernel's code picks the order (the mTHP sizes enabled for the vma whose
 * aligned range of ptes is contiguous swap entries) and the world reads
 * the folio and maps its range whole, as set_ptes() of nr_pages does.
 */
#if TB_HAVE_swapin_reads_swap_map
/* mm/memory.c's (mm/vmscan/memory_unit.c) */
struct folio *alloc_swap_folio(struct vm_fault *vmf);
#else
unsigned long thp_swapin_suitable_orders(struct vm_fault *vmf);
#endif

/*
 * do_swap_page()'s mapping of a whole large folio from page start of the
 * vma: one anon rmap of all its pages (a new one for a folio just read), a reference per page
 * (folio_ref_add(nr_pages - 1)) and set_ptes() of one pte from its first
 * page, made dirty on a write fault (every pte then); the MMU's retried
 * access sets the faulting pte's accessed bit, as map_pte() has it
 */
static void map_swapin_folio(struct tb_vma *vma, unsigned long start, struct folio *folio,
			     unsigned long idx, bool write)
{
	struct mm_struct *mm = vma->vma.vm_mm;
	long i, nr = folio_nr_pages(folio);
	pteval_t v;
	pte_t *ptep;

	folio_ref_add(folio, nr - 1);
	if (folio_test_anon(folio))
		folio_add_anon_rmap_ptes(folio, folio_page(folio, 0), nr, &vma->vma,
					 vma_addr(vma, start), RMAP_EXCLUSIVE);
	else
		folio_add_new_anon_rmap(folio, &vma->vma, vma_addr(vma, start), RMAP_EXCLUSIVE);
	atomic_long_add(nr, &mm->kshim_rss[MM_ANONPAGES]);
	for (i = 0; i < nr; i++) {
		v = (write ? _PAGE_DIRTY : 0) | (start + i == idx ? _PAGE_ACCESSED : 0);
		ptep = mm_pte(mm, vma_addr(vma, start + i), false, start + i == idx);
		set_pte(ptep, __pte(pte_val(pfn_pte(folio_pfn(folio) + i, vma->vma.vm_page_prot)) | v));
	}
}

/*
 * do_swap_page()'s test under the pte lock before it maps a large folio
 * from page start: the faulting pte unchanged, the folio's first pte the
 * entry its page had and all nr ptes contiguous entries (swap_pte_batch())
 */
static bool swapin_ptes_same(struct tb_vma *vma, unsigned long start, long nr,
			     unsigned long idx, pte_t orig)
{
	pte_t *ptep = vma_ptep(vma, start);
	pte_t pte;

	if (!ptep || !pte_same(vma_pte_get(vma, idx), orig))
		return false;
	pte = ptep_get(ptep);
	return pte_same(pte, pte_move_swp_offset(orig, -(long)(idx - start))) &&
	       swap_pte_batch(ptep, nr, pte) == nr;
}

#if TB_HAVE_swapin_sync
/*
 * mm/swap_state.c's swap_cache_alloc_folio() for the large orders the
 * kernel's thp_swapin_suitable_orders() left, highest first: a folio of
 * the order added to the swap cache over its aligned slots if each is
 * swapped out, none cached and all of the faulting slot's memcg
 * (__swap_cache_add_check()), then charged to that memcg. A range that
 * does not qualify, no memory or a failed charge (swpin_fallback_charge)
 * count the order's swpin_fallback and the next order is tried; NULL:
 * none is left but order 0, whose turn is the world's order-0 path.
 */
static struct folio *swapin_alloc_large(struct tb_vma *vma, unsigned long idx, swp_entry_t targ,
					unsigned long orders)
{
	struct mm_struct *mm = vma->vma.vm_mm;
	int order = highest_order(orders);
	struct folio *folio;
	unsigned short id;
	void *shadow;
	gfp_t gfp;
	long nr;

	while (orders) {
		nr = 1L << order;
		folio = NULL;
		gfp = thp_shmem_limit_gfp_mask(vma_thp_gfp_mask(&vma->vma), GFP_HIGHUSER_MOVABLE);
		if (!tb_swap_cache_add_check(targ, nr))
			folio = vma_alloc_folio(gfp, order, &vma->vma,
						vma_addr(vma, idx) & ~((PAGE_SIZE << order) - 1));
		if (folio) {
			shadow = get_shadow_from_swap_cache(targ);
			id = tb_swap_memcg_id(targ);
			__folio_set_locked(folio);
			__folio_set_swapbacked(folio);
			tb_swap_cache_add(folio, (swp_entry_t){ .val = round_down(targ.val, nr) });
			if (!mem_cgroup_swapin_charge_folio(folio, id, mm, gfp)) {
				if (shadow)
					workingset_refault(folio, shadow);
				folio_add_lru(folio);
				return folio;
			}
			tb_swap_cache_del_added(folio, shadow);
			folio_unlock(folio);
			folio_put(folio);
			tb_count_mthp_stat(order, MTHP_STAT_SWPIN_FALLBACK_CHARGE);
		}
		tb_count_mthp_stat(order, MTHP_STAT_SWPIN_FALLBACK);
		order = next_order(&orders, order);
	}
	return NULL;
}
#endif

/*
 * The large swap-in of the pte at idx: 0 done, < 0 failed, 1 not taken
 * (the device is not synchronous, no large order fits, or, 6.12, the slot
 * is shared): the order-0 path's turn, with *small, if set, the order-0
 * folio the kernel's alloc_swap_folio() allocated and charged instead.
 */
static int swap_fault_large(struct tb_vma *vma, unsigned long idx, pte_t orig, bool write,
			    struct folio **small)
{
	struct mm_struct *mm = vma->vma.vm_mm;
	unsigned long addr = vma_addr(vma, idx), start;
	swp_entry_t entry = pte_swp(orig);
	struct vm_fault vmf = user_vmf(vma, idx, write, mm_pmd(mm, addr, false, false));
	struct folio *folio;
	long nr;

	vmf.orig_pte = orig;
	if (!swap_synchronous(entry))
		return 1;
#if TB_HAVE_swapin_reads_swap_map
	/* 6.12: a slot only this pte holds is read outside the swap cache */
	if (tb_swap_count(entry) != 1)
		return 1;
	folio = alloc_swap_folio(&vmf);
	if (!folio)
		return -ENOMEM;
	if (!folio_test_large(folio)) {
		*small = folio;
		return 1;
	}
	nr = folio_nr_pages(folio);
	start = (ALIGN_DOWN(addr, nr * PAGE_SIZE) - vma->vma.vm_start) >> PAGE_SHIFT;
	__folio_set_locked(folio);
	__folio_set_swapbacked(folio);
	entry.val = ALIGN_DOWN(entry.val, nr);
	/*
	 * the slots held (SWAP_HAS_CACHE) while the folio is read and mapped;
	 * they are gone if the charge's OOM kill reaped this task's ptes
	 */
	if (tb_swapcache_prepare(entry, nr)) {
		folio_unlock(folio);
		folio_put(folio);
		return -ENOMEM;
	}
	/* cgroup v1's memsw only: on v2 the charge goes with the slots */
	mem_cgroup_swapin_uncharge_swap(entry, nr);
	{
		void *shadow = get_shadow_from_swap_cache(entry);

		if (shadow)
			workingset_refault(folio, shadow);
	}
	folio_add_lru(folio);
	swap_read_fault(vma, folio, entry);
	if (!swapin_ptes_same(vma, start, nr, idx, orig)) {
		folio_unlock(folio);
		folio_put(folio);
		tb_swapcache_clear(entry, nr);
		return -ENOMEM;
	}
	tb_swap_free_nr(entry, nr);
	map_swapin_folio(vma, start, folio, idx, write);
	folio_unlock(folio);
	/* the slots no pte holds now are freed, and their swap uncharged */
	tb_swapcache_clear(entry, nr);
	return 0;
#else
	/* 7.x: swapin_sync() in the swap cache, the orders the kernel allows */
	folio = swapin_alloc_large(vma, idx, entry, thp_swapin_suitable_orders(&vmf));
	if (!folio)
		return 1;
	nr = folio_nr_pages(folio);
	start = (ALIGN_DOWN(addr, nr * PAGE_SIZE) - vma->vma.vm_start) >> PAGE_SHIFT;
	entry = folio->swap;
	swap_read_fault(vma, folio, entry);
	if (!swapin_ptes_same(vma, start, nr, idx, orig)) {
		/* a new large folio not mappable whole leaves the cache */
		tb_swap_cache_del_added(folio, NULL);
		folio_unlock(folio);
		folio_put(folio);
		return -ENOMEM;
	}
	map_swapin_folio(vma, start, folio, idx, write);
	/* folio_put_swap(): the ptes' holds go; the swap charge stays with the slots */
	tb_swap_free_nr(entry, nr);
	/* should_try_to_free_swap(): always on a SWP_SYNCHRONOUS_IO device */
	folio_free_swap(folio);
	folio_unlock(folio);
	return 0;
#endif
}
#endif

#if defined(CONFIG_TRANSPARENT_HUGEPAGE) && TB_HAVE_swapin_maps_cached_large
/*
 * do_swap_page()'s large folio found in the swap cache: mapped whole from
 * its first page if its range lies within the vma and the pmd and its ptes
 * are its swap entries in order; else the faulting page alone. The ptes'
 * holds on its slots go (swap_free_nr()). true: mapped whole
 */
static bool swap_map_cached_large(struct tb_vma *vma, unsigned long idx, pte_t orig,
				  struct folio *folio, bool write)
{
	long nr = folio_nr_pages(folio);
	unsigned long page_idx = swp_offset(pte_swp(orig)) - swp_offset(folio->swap);
	unsigned long addr = vma_addr(vma, idx);
	unsigned long folio_start = addr - page_idx * PAGE_SIZE;

	if (folio_start < max(addr & PMD_MASK, vma->vma.vm_start) ||
	    folio_start + nr * PAGE_SIZE > pmd_addr_end(addr, vma->vma.vm_end) ||
	    !swapin_ptes_same(vma, idx - page_idx, nr, idx, orig))
		return false;
	if (write && !folio_test_lru(folio))
		lru_add_drain();
	map_swapin_folio(vma, idx - page_idx, folio, idx, write);
	tb_swap_free_nr(folio->swap, nr);
	return true;
}
#else
static bool swap_map_cached_large(struct tb_vma *vma, unsigned long idx, pte_t orig,
				  struct folio *folio, bool write)
{
	return false;
}
#endif

static int swap_fault(struct tb_vma *vma, unsigned long idx, bool write)
{
	pte_t orig = vma_pte_get(vma, idx);
	swp_entry_t entry = pte_swp(orig);
	struct folio *folio = tb_swap_cache_lookup(entry), *small = NULL;

	if (folio) {
		folio_get(folio);
		folio_lock(folio);
		tb_stats.minor++;
		tb_charge_time(costs.minor_ns + costs.hit_ns);
	} else {
		void *shadow = get_shadow_from_swap_cache(entry);
#if defined(CONFIG_TRANSPARENT_HUGEPAGE) && TB_HAVE_swapin_thp
		int ret = swap_fault_large(vma, idx, orig, write, &small);

		if (ret <= 0)
			return ret;
#endif
#if TB_HAVE_swapin_skips_swapcache
		/* 6.12: alloc_swap_folio() gave the order-0 folio of such a slot */
		if (small || (swap_synchronous(entry) && tb_swap_count(entry) == 1))
			return swap_fault_skip_cache(vma, idx, orig, write, small, shadow);
#endif
		folio = small ?: tb_alloc_folio(GFP_HIGHUSER_MOVABLE, numa_node_id());
		if (!folio)
			return -ENOMEM;
		if (!small && swapin_charge(folio, entry, vma->vma.vm_mm, GFP_KERNEL)) {
			folio_put(folio);
			return -ENOMEM;
		}
		/*
		 * pte_same(): the charge may have OOM-killed this task, whose
		 * reaper zapped the pte and let go of entry (its slot may be
		 * free). As do_swap_page's out_nomap, give the folio back.
		 */
		if (!pte_same(vma_pte_get(vma, idx), orig)) {
			folio_put(folio);
			return -ENOMEM;
		}
		__folio_set_locked(folio);
		__folio_set_swapbacked(folio);
		tb_swap_cache_add(folio, entry);
		swap_read_new_small(vma, folio, entry, shadow);
	}
	/*
	 * A write maps the folio writable only if this task is its one user,
	 * which the refcount tells: the reference a CPU's LRU add batch holds
	 * is dropped first (do_swap_page()'s lru_add_drain()), else a folio
	 * just read in keeps its swap slot and swap cache copy (a disk's, or
	 * a slot more ptes hold; 7.x frees a synchronous device's anyway).
	 */
	if (folio_test_large(folio) && swap_map_cached_large(vma, idx, orig, folio, write))
		goto mapped;
	if (write && !folio_test_lru(folio))
		lru_add_drain();
	rmap_add(vma, idx, folio);
	map_pte(vma, idx, folio, write);
	tb_swap_put_entry(entry);
mapped:
	if (should_try_to_free_swap(folio, vma, write))
		folio_free_swap(folio);
	folio_unlock(folio);
	return 0;
}

#ifdef CONFIG_TRANSPARENT_HUGEPAGE
/*
 * filemap_fault() of a file with readahead: a folio found starts the
 * asynchronous readahead if it is marked, a miss the synchronous one
 * (mm/filemap.c's, extracted); the faulting page's folio, held, or NULL
 */
static struct folio *file_fault_readahead(struct tb_vma *vma, unsigned long idx,
					  struct folio *folio)
{
	struct vm_fault vmf = user_vmf(vma, idx, false, NULL);

	if (folio) {
		do_async_mmap_readahead(&vmf, folio);
		return folio;
	}
	do_sync_mmap_readahead(&vmf);
	folio = tb_cache_lookup(vma->tbf, idx);
	if (folio) {
		folio_get(folio);
		tb_stats.major_file++;
		tb_charge_time(costs.hit_ns);
	}
	return folio;
}
#else
/* no readahead without large folios in the world (6.1): never called */
static struct folio *file_fault_readahead(struct tb_vma *vma, unsigned long idx,
					  struct folio *folio)
{
	return folio;
}
#endif

/*
 * filemap_fault()'s folio for page idx of a file vma: the cached one (a
 * minor fault; a marked folio starts the asynchronous readahead), else
 * the synchronous readahead's or a page read alone (a major fault); held.
 * *major: whether it had to be read.
 */
static struct folio *file_fault_folio(struct tb_vma *vma, unsigned long idx, bool *major,
				      int *err)
{
	bool ra = tb_file_readahead_on(vma->tbf);
	struct folio *folio = tb_cache_lookup(vma->tbf, idx);

	*major = false;
	if (folio) {
		folio_get(folio);
		tb_stats.minor++;
		tb_charge_time(costs.minor_ns + costs.hit_ns);
		if (ra)
			file_fault_readahead(vma, idx, folio);
		return folio;
	}
	/* filemap_fault(): no cached folio, a read: a major fault */
	*major = true;
	count_vm_event(PGMAJFAULT);
	count_memcg_event_mm(vma->vma.vm_mm, PGMAJFAULT);
	if (ra) {
		folio = file_fault_readahead(vma, idx, NULL);
		if (folio)
			return folio;
	}
	folio = tb_alloc_folio(GFP_HIGHUSER_MOVABLE, numa_node_id());
	if (!folio) {
		*err = -ENOMEM;
		return NULL;
	}
	*err = tb_pagecache_add(vma->tbf, folio, idx, GFP_KERNEL);
	if (*err) {
		folio_put(folio);
		return NULL;
	}
	tb_stats.major_file++;
	tb_charge_time(costs.file_read_ns + costs.hit_ns);
	return folio;
}

#ifdef CONFIG_TRANSPARENT_HUGEPAGE
vm_fault_t do_read_fault(struct vm_fault *vmf);

/* ->fault of the world's files (filemap_fault()): the folio, locked, its page in vmf */
static vm_fault_t tb_file_fault(struct vm_fault *vmf)
{
	struct tb_vma *vma = container_of(vmf->vma, struct tb_vma, vma);
	struct folio *folio;
	bool major;
	int err;

	folio = file_fault_folio(vma, vmf->pgoff, &major, &err);
	if (!folio)
		return VM_FAULT_OOM;
	folio_lock(folio);
	vmf->page = folio_file_page(folio, vmf->pgoff);
	return VM_FAULT_LOCKED | (major ? VM_FAULT_MAJOR : 0);
}

/*
 * The MMU's retried access after a fault mapped page idx: the accessed
 * bit of its pte, or of the pmd that maps it (x86's fault paths install
 * them old, pte_sw_mkyoung() being a no-op there)
 */
static void mmu_access_mapped(struct tb_vma *vma, unsigned long idx)
{
	pte_t *ptep = vma_ptep(vma, idx);
	pmd_t *pmdp;

	if (ptep && pte_present(ptep_get(ptep))) {
		set_bits(&ptep->pte, _PAGE_ACCESSED);
		return;
	}
	pmdp = vma_huge_pmd(vma, idx);
	if (pmdp)
		set_bits(&pmdp->pmd, _PAGE_ACCESSED);
}

/*
 * The read fault of a file page, where the pmd has no pte table yet or
 * its pte is none: the tree's do_read_fault(). It maps the cached pages
 * around the address first (fault-around, filemap_map_pages(): up to
 * fault_around_bytes of ptes, a PMD-sized folio by its pmd), else calls
 * ->fault and finish_fault() (a PMD-sized folio by its pmd where the pmd
 * has no table, else the faulting page's pte). do_fault() frees the pte
 * table it preallocated and did not install.
 */
static int do_file_fault(struct tb_vma *vma, unsigned long idx, bool write)
{
	struct mm_struct *mm = vma->vma.vm_mm;
	struct vm_fault vmf = user_vmf(vma, idx, write, mm_pmd(mm, vma_addr(vma, idx), false, false));
	vm_fault_t ret;

	if (write)
		return -EINVAL;	/* file mappings are read-only here */
	ret = do_read_fault(&vmf);
	if (vmf.prealloc_pte)
		pte_free(mm, vmf.prealloc_pte);
	if (ret & VM_FAULT_OOM)
		return -ENOMEM;
	if (WARN_ON_ONCE(ret & VM_FAULT_ERROR))
		return -EFAULT;
	/* mapped by fault-around: the page was cached, a minor fault */
	if ((ret & VM_FAULT_NOPAGE) && !vmf.page) {
		tb_stats.minor++;
		tb_charge_time(costs.minor_ns + costs.hit_ns);
	}
	mmu_access_mapped(vma, idx);
	return 0;
}
#else
/* 6.1 (built without THP): the faulting page's pte alone, as before fault-around */
static int do_file_fault(struct tb_vma *vma, unsigned long idx, bool write)
{
	struct folio *folio;
	bool major;
	int err;

	if (write)
		return -EINVAL;	/* file mappings are read-only here */
	folio = file_fault_folio(vma, idx, &major, &err);
	if (!folio)
		return err;
	rmap_add(vma, idx, folio);
	map_pte(vma, idx, folio, false);
	return 0;
}
#endif

/*
 * MADV_COLD, MADV_PAGEOUT and MADV_FREE of pages [start, end) of a vma:
 * the tree's mm/madvise.c (mm/vmscan/madvise_unit.c), under the mmap_lock
 * held for read as madvise_walk_vmas() holds it
 */
static int madvise_walk(struct tb_vma *vma, unsigned long start, unsigned long end,
			int advice)
{
	struct mm_struct *mm = vma->vma.vm_mm;
	unsigned long from = vma_addr(vma, start), to = vma_addr(vma, end);
	int ret;

	mmap_read_lock(mm);
	if (advice == MADV_FREE)
		ret = tb_kmadvise_free(&vma->vma, from, to);
	else if (advice == MADV_WILLNEED)
		ret = tb_kmadvise_willneed(&vma->vma, from, to);
	else
		ret = tb_kmadvise_cold(&vma->vma, from, to, advice == MADV_PAGEOUT);
	mmap_read_unlock(mm);
	return ret;
}

/* handle_pte_fault() for the pte of page idx, not present */
static int pte_fault(struct tb_vma *vma, unsigned long idx, pte_t pte, bool write)
{
	if (pte_is_swap(pte))
		return swap_fault(vma, idx, write);
	if (vma->tbf)
		return do_file_fault(vma, idx, write);
#ifdef CONFIG_TRANSPARENT_HUGEPAGE
	return do_anon_fault(vma, idx, write);
#else
	/* trees before THP's port (6.1): an order-0 folio, as mm/memory.c maps it */
	return do_anonymous_page_small(vma, idx, write);
#endif
}

/* mm_account_fault(): every fault, failed ones too */
static void account_fault(struct tb_vma *vma)
{
	count_vm_event(PGFAULT);
	count_memcg_event_mm(vma->vma.vm_mm, PGFAULT);
}

static noinline int fault(struct tb_vma *vma, unsigned long idx, pte_t pte, bool write)
{
	account_fault(vma);
	return pte_fault(vma, idx, pte, write);
}

#ifdef CONFIG_TRANSPARENT_HUGEPAGE
/* mm/mempolicy.c with no policy: the local node's allocator, at the fault's order */
#if TB_HAVE_vma_alloc_folio_hugepage
struct folio *vma_alloc_folio_noprof(gfp_t gfp, int order, struct vm_area_struct *vma,
				     unsigned long addr, bool hugepage)
#else
struct folio *vma_alloc_folio_noprof(gfp_t gfp, int order, struct vm_area_struct *vma,
				     unsigned long addr)
#endif
{
	return tb_alloc_folio_order(gfp, order, numa_node_id());
}

/* linux/highmem.h: a user page cleared, or copied (its contents: zero or not) */
void clear_user_highpage(struct page *page, unsigned long vaddr)
{
	tb_page_set_data(page, false);
}

int copy_mc_user_highpage(struct page *to, struct page *from, unsigned long vaddr,
			  struct vm_area_struct *vma)
{
	tb_page_set_data(to, tb_page_has_data(from));
	return 0;
}

/* mm/page_alloc.c's __folio_alloc(): the world's allocator, on the preferred node */
struct folio *__folio_alloc_noprof(gfp_t gfp, unsigned int order, int preferred_nid,
				   nodemask_t *nodemask)
{
	return tb_alloc_folio_order(gfp, order, preferred_nid);
}

/*
 * mm/memory.c's do_swap_page() for a caller with a vm_fault of its own
 * (khugepaged's __collapse_huge_page_swapin()): the world's swap-in of
 * that pte, which never drops the mmap_lock. The caller's mapped pte is
 * unmapped first, as the kernel's pte_unmap_same() does (it holds the
 * RCU read lock of pte_offset_map())
 */
vm_fault_t do_swap_page(struct vm_fault *vmf)
{
	struct tb_vma *vma = container_of(vmf->vma, struct tb_vma, vma);
	unsigned long idx = (vmf->address - vma->vma.vm_start) >> PAGE_SHIFT;

	pte_unmap(vmf->pte);
	vmf->pte = NULL;

	return swap_fault(vma, idx, vmf->flags & FAULT_FLAG_WRITE) ? VM_FAULT_OOM : 0;
}

/* mm/mempolicy.c: the huge zero folio's allocation (nothing maps it: mm_forbids_zeropage()) */
struct folio *folio_alloc_noprof(gfp_t gfp, unsigned int order)
{
	return tb_alloc_folio_order(gfp, order, numa_node_id());
}

/* mm/mempolicy.c under a policy: the world has none (7.x's filemap_alloc_folio()'s) */
struct mempolicy;
struct folio *folio_alloc_mpol_noprof(gfp_t gfp, unsigned int order, struct mempolicy *pol,
				      pgoff_t ilx, int nid)
{
	WARN_ONCE(1, "tb: the world has no mempolicies");
	return tb_alloc_folio_order(gfp, order, nid);
}

/* mm/memory.c: the world's vmas have their anon_vma from the start */
vm_fault_t __vmf_anon_prepare(struct vm_fault *vmf)
{
	return vmf->vma->anon_vma ? 0 : VM_FAULT_OOM;
}

/* mm/memory.c: a THP's pages are zeroed */
void folio_zero_user(struct folio *folio, unsigned long addr_hint)
{
	long i;

	for (i = 0; i < folio_nr_pages(folio); i++)
		tb_page_set_data(folio_page(folio, i), false);
}

#if TB_HAVE_folio_split_nonuniform
#define TB_TVA_PAGEFAULT	TVA_PAGEFAULT
#else
#define TB_TVA_PAGEFAULT	(TVA_IN_PF | TVA_ENFORCE_SYSFS)
#endif

/*
 * __handle_mm_fault()'s huge pmd: with no pte table under the pmd yet and
 * the vma allowed PMD_ORDER (the kernel's thp_vma_allowable_order()),
 * create_huge_pmd() -> do_huge_pmd_anonymous_page(); 1: fall back to ptes
 */
static int huge_pmd_fault(struct tb_vma *vma, unsigned long idx, pmd_t *pmd, bool write)
{
	struct vm_fault vmf = user_vmf(vma, idx, write, pmd);
	vm_fault_t ret;

	if (vma->tbf || !pmd_none(pmdp_get(pmd)) ||
	    !thp_vma_allowable_order(&vma->vma, vma->vma.vm_flags, TB_TVA_PAGEFAULT, PMD_ORDER))
		return 1;
	ret = do_huge_pmd_anonymous_page(&vmf);
	if (ret & VM_FAULT_FALLBACK)
		return 1;
	if (ret & VM_FAULT_ERROR)
		return -ENOMEM;
	tb_stats.minor++;
	tb_charge_time(costs.minor_ns + costs.hit_ns);
	return 0;
}
#else
static int huge_pmd_fault(struct tb_vma *vma, unsigned long idx, pmd_t *pmd, bool write)
{
	return 1;
}
#endif

/* the MMU's access where the pmd has no pte table: a huge pmd's, or a fault */
static noinline int touch_pmd(struct task_struct *tsk, struct tb_vma *vma, unsigned long idx,
			      bool write)
{
	pmd_t *pmd = mm_pmd(vma->vma.vm_mm, vma_addr(vma, idx), true, true);
	int ret;

	/* __handle_mm_fault(): no page for a pud or pmd table, VM_FAULT_OOM */
	if (!pmd) {
		account_fault(vma);
		return -ENOMEM;
	}
	if (pmd_maps_page(pmd)) {
		set_bits(&pmd->pmd, _PAGE_ACCESSED | (write ? _PAGE_DIRTY : 0));
		tb_stats.hits++;
		charge_time(tsk, costs.hit_ns);
		return 0;
	}
	account_fault(vma);
	ret = huge_pmd_fault(vma, idx, pmd, write);
	if (ret <= 0)
		return ret;
#ifdef CONFIG_TRANSPARENT_HUGEPAGE
	/* do_read_fault() installs the pte table itself, or maps a pmd */
	if (vma->tbf)
		return do_file_fault(vma, idx, write);
#endif
	/* do_anonymous_page()'s pte_alloc(), or __do_fault()'s */
	if (!mm_pte(vma->vma.vm_mm, vma_addr(vma, idx), true, true))
		return -ENOMEM;
	return pte_fault(vma, idx, __pte(0), write);
}

/*
 * do_wp_page() of the zero page's read-only pte: wp_page_copy() maps a
 * new zeroed page in its place, as a fault of a missing pte would
 */
static noinline int wp_zero_page(struct tb_vma *vma, unsigned long idx, pte_t *ptep)
{
	struct mm_struct *mm = vma->vma.vm_mm;

	account_fault(vma);
	spin_lock(&mm->page_table_lock);
	ptep_get_and_clear(mm, vma_addr(vma, idx), ptep);
	spin_unlock(&mm->page_table_lock);
	return do_anonymous_page_small(vma, idx, true);
}

/* a write of data: the page under page idx (mapped now) holds a byte other than zero */
static noinline void written(struct tb_vma *vma, unsigned long idx)
{
	pte_t pte = vma_pte_get(vma, idx);

	if (pte_present(pte) && !pfn_is_zero_page(pte_pfn(pte)))
		tb_page_set_data(pfn_to_page(pte_pfn(pte)), true);
}

/*
 * The MMU's access; a fault (handle_mm_fault) when the pte is not present
 * or a write meets the zero page. data: a write stores a byte other than
 * zero (else the page keeps its contents)
 */
static __always_inline int touch(struct task_struct *tsk, struct tb_vma *vma,
				 unsigned long idx, bool write, bool data)
{
	pte_t *ptep = mm_pte(vma->vma.vm_mm, vma_addr(vma, idx), false, true);
	pte_t pte;
	int ret;

	if (unlikely(!ptep)) {
		ret = touch_pmd(tsk, vma, idx, write);
		goto out;
	}
	pte = ptep_get(ptep);
	if (likely(pte_present(pte))) {
		if (unlikely(write && pfn_is_zero_page(pte_pfn(pte)))) {
			ret = wp_zero_page(vma, idx, ptep);
			goto out;
		}
		set_bits(&ptep->pte, _PAGE_ACCESSED | (write ? _PAGE_DIRTY : 0));
		if (data)
			tb_page_set_data(pfn_to_page(pte_pfn(pte)), true);
		tb_stats.hits++;
		charge_time(tsk, costs.hit_ns);
		return 0;
	}
	ret = fault(vma, idx, pte, write);
out:
	if (!ret && data)
		written(vma, idx);
	return ret;
}

/*
 * No effect on the world: the host starts fetching the pte of a touch to
 * come (its upper tables are few and cached), so that a caller that knows
 * its next accesses overlaps their cache misses, the cost of a hit over
 * gigabytes of simulated memory.
 */
void tb_touch_prefetch(struct tb_vma *vma, unsigned long idx)
{
	pte_t *ptep;

	if (idx >= vma->nr_pages)
		return;
	ptep = mm_pte(vma->vma.vm_mm, vma_addr(vma, idx), false, false);
	if (ptep)
		__builtin_prefetch(ptep, 1);
}

static __always_inline int touch_access(struct tb_vma *vma, unsigned long idx, bool write,
				  bool data)
{
	/* current once: a touch is the world's most frequent call */
	struct task_struct *tsk = current;
	int ret;

	if (idx >= vma->nr_pages)
		return -EINVAL;
	/* the access the vma does not allow: SIGSEGV, no fault is handled */
	if (!(vma->vma.vm_flags & (write ? VM_WRITE : VM_READ)))
		return -EFAULT;
	tb_kthreads_run();
	if (tsk_is_oom_victim(tsk))
		return -ENOMEM;
	/* the task ran since the last walk: switch_mm()'s hint */
	lru_gen_use_mm(vma->vma.vm_mm);
	/* lru_gen_enter_fault()/lru_gen_exit_fault() around handle_mm_fault() */
	tsk->in_lru_fault = vma_has_recency(&vma->vma);
	ret = touch(tsk, vma, idx, write, data);
	tsk->in_lru_fault = false;
	return ret;
}

int tb_touch(struct tb_vma *vma, unsigned long idx, bool write)
{
	return touch_access(vma, idx, write, write);
}

int tb_touch_write_zero(struct tb_vma *vma, unsigned long idx)
{
	return touch_access(vma, idx, true, false);
}

/* ---- the reverse map reclaim walks (mm/rmap.c's folio_referenced_one()) ---- */
/* folio_referenced_one() of a PMD-mapped folio: the pmd's accessed bit, either LRU */
static int referenced_pmd(struct tb_vma *vma, struct folio *folio, unsigned long addr,
			  unsigned long *vm_flags)
{
	int referenced = 0;
#ifdef CONFIG_TRANSPARENT_HUGEPAGE
	pmd_t *pmdp = vma_huge_pmd(vma, folio->index);
	spinlock_t *ptl;

	if (!pmdp)
		return 0;
	ptl = pmd_lock(vma->vma.vm_mm, pmdp);
	if (page_folio(pmd_page(pmdp_get(pmdp))) == folio &&
	    pmdp_clear_flush_young_notify(&vma->vma, addr, pmdp))
		referenced++;
	spin_unlock(ptl);
	if (referenced)
		*vm_flags |= vma->vma.vm_flags & ~VM_LOCKED;
#endif
	return referenced;
}

/* folio_referenced_one()'s test and clear of one pte of folio, under the pte lock */
static int referenced_pte(struct tb_vma *vma, struct page_vma_mapped_walk *pvmw)
{
	int referenced = 0;

#if TB_HAVE_look_around_nr
	/* 7.2: a batch of ptes, here one at a time */
	if (lru_gen_enabled()) {
		if (lru_gen_look_around(pvmw, 1))
			referenced++;
	} else if (clear_flush_young_ptes_notify(&vma->vma, pvmw->address, pvmw->pte, 1)) {
		referenced++;
	}
#elif TB_HAVE_look_around_bool
	if (lru_gen_enabled()) {
		if (lru_gen_look_around(pvmw))
			referenced++;
	} else if (ptep_clear_flush_young_notify(&vma->vma, pvmw->address, pvmw->pte)) {
		referenced++;
	}
#else
	/* before 6.9: a young pte is a reference, and the look-around clears it */
	if (lru_gen_enabled() && pte_young(ptep_get(pvmw->pte)) &&
	    !(vma->vma.vm_flags & (VM_SEQ_READ | VM_RAND_READ))) {
		lru_gen_look_around(pvmw);
		referenced++;
	}
	if (ptep_clear_flush_young_notify(&vma->vma, pvmw->address, pvmw->pte))
		referenced++;
#endif
	return referenced;
}

/*
 * folio_referenced_one(): every pte of vma that maps a page of folio (a
 * large folio mapped by ptes has one per page), or its pmd
 */
static int referenced_one(struct tb_vma *vma, struct folio *folio, struct mem_cgroup *memcg,
			  unsigned long *vm_flags)
{
	struct mm_struct *mm = vma->vma.vm_mm;
	unsigned long addr = vma_addr(vma, folio->index), i;
	struct page_vma_mapped_walk pvmw = {
		.pfn = folio_pfn(folio), .nr_pages = 1, .vma = &vma->vma,
		.ptl = &mm->page_table_lock,
	};
	int referenced = 0;

	/* invalid_folio_referenced_vma() */
	if (!vma_has_recency(&vma->vma))
		return 0;
	if (memcg && !mm_match_cgroup(mm, memcg))
		return 0;
	if (folio->index >= vma->nr_pages)
		return 0;
	if (!mm_pte(mm, addr, false, false))
		return referenced_pmd(vma, folio, addr, vm_flags);
	pvmw.pmd = pmd_off(mm, addr);
	spin_lock(pvmw.ptl);
	for (i = 0; i < folio_nr_pages(folio) && folio->index + i < vma->nr_pages; i++) {
		pvmw.address = vma_addr(vma, folio->index + i);
		pvmw.pte = mm_pte(mm, pvmw.address, false, false);
		pvmw.pfn = folio_pfn(folio) + i;
		if (pvmw.pte && ptep_maps_page(pvmw.pte, folio_page(folio, i)))
			referenced += referenced_pte(vma, &pvmw);
	}
	spin_unlock(pvmw.ptl);
	if (!referenced)
		return 0;
	/* a vma counts once, however many of its ptes were young */
	*vm_flags |= vma->vma.vm_flags & ~VM_LOCKED;
	return 1;
}

static struct tb_vma *anon_vma_of(struct folio *folio)
{
	void *anon_vma = (void *)((unsigned long)folio->mapping & ~TB_MAPPING_FLAGS);

	return container_of(anon_vma, struct tb_vma, anon_vma);
}

/*
 * mm/rmap.c's folio_get_anon_vma(): the anon_vma of a mapped anonymous
 * folio, held; it lives as long as its vma (__put_anon_vma() frees nothing)
 */
#if TB_HAVE_folio_get_anon_vma_const
struct anon_vma *folio_get_anon_vma(const struct folio *folio)
#else
struct anon_vma *folio_get_anon_vma(struct folio *folio)
#endif
{
	unsigned long mapping = (unsigned long)READ_ONCE(folio->mapping);
	struct anon_vma *anon_vma;

	if ((mapping & TB_MAPPING_FLAGS) != TB_MAPPING_ANON || !folio_mapped(folio))
		return NULL;
	anon_vma = (struct anon_vma *)(mapping & ~TB_MAPPING_FLAGS);
	if (!atomic_inc_not_zero(&anon_vma->refcount))
		return NULL;
	return anon_vma;
}

void __put_anon_vma(struct anon_vma *anon_vma)
{
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
	/*
	 * rmap_walk() of a file folio needs the folio lock: a caller not
	 * holding it (is_locked 0) takes it, and a folio someone else has
	 * locked counts as referenced, unwalked, as folio_referenced() does
	 */
	if (!is_locked && !folio_trylock(folio))
		return 1;
	list_for_each_entry(vma, tb_file_vmas(tb_mapping_file(folio->mapping)), file_node)
		referenced += referenced_one(vma, folio, memcg, vm_flags);
	if (!is_locked)
		folio_unlock(folio);
	return referenced;
}

/* try_to_unmap_one() for the pte of page i of folio; false: stop the walk */
static bool unmap_pte(struct tb_vma *vma, struct folio *folio, unsigned long i)
{
	struct mm_struct *mm = vma->vma.vm_mm;
	unsigned long addr = vma_addr(vma, folio->index + i);
	struct page *page = folio_page(folio, i);
	swp_entry_t entry;
	pte_t *ptep, pte;

	if (folio->index + i >= vma->nr_pages)
		return true;
	ptep = mm_pte(mm, addr, false, false);
	if (!ptep_maps_page(ptep, page))
		return true;
	/*
	 * only a folio in the swap cache has an entry to leave behind; a
	 * lazyfree one (MADV_FREE: anon, not swap-backed) has none to need
	 */
	if (folio_test_anon(folio) &&
	    WARN_ON_ONCE(folio_test_swapbacked(folio) != folio_test_swapcache(folio)))
		return false;
	spin_lock(&mm->page_table_lock);
	pte = ptep_get_and_clear(mm, addr, ptep);
	if (folio_test_anon(folio) && !folio_test_swapbacked(folio)) {
		/*
		 * try_to_unmap_one()'s MADV_FREE check: only the isolation's
		 * and the mappings' references, and clean: discarded (the pte
		 * stays empty; the next touch faults a new page). Written
		 * again or held by someone: mapped back, swap-backed again.
		 */
		if (pte_dirty(pte))
			folio_mark_dirty(folio);
		if (folio_ref_count(folio) != 1 + mapcount(folio) || folio_test_dirty(folio)) {
			set_pte(ptep, pte);
			spin_unlock(&mm->page_table_lock);
			folio_set_swapbacked(folio);
			return false;
		}
		spin_unlock(&mm->page_table_lock);
		rmap_remove_page(vma, folio, page);
		folio_put(folio);
		return true;
	}
	/*
	 * folio_try_share_anon_rmap_pte(): an exclusive anon page (with no
	 * fork in the world, every one is) that may be pinned keeps its pte
	 */
	if (folio_test_anon(folio) && folio_maybe_dma_pinned(folio)) {
		set_pte(ptep, pte);
		spin_unlock(&mm->page_table_lock);
		return false;
	}
	if (folio_test_anon(folio)) {
		entry.val = tb_folio_swap(folio)->val + i;
		tb_swap_dup(entry);
		set_pte(ptep, swp_entry_to_pte(entry));
	}
	spin_unlock(&mm->page_table_lock);
	if (pte_dirty(pte))
		folio_mark_dirty(folio);
	rmap_remove_page(vma, folio, page);
	folio_put(folio);
	return true;
}

/*
 * try_to_unmap_one() over a vma: a PMD mapping is split first
 * (TTU_SPLIT_HUGE_PMD, the kernel's __split_huge_pmd()), then each pte
 */
static void unmap_one(struct tb_vma *vma, struct folio *folio, enum ttu_flags flags)
{
	unsigned long i;
#ifdef CONFIG_TRANSPARENT_HUGEPAGE
	pmd_t *pmdp = folio->index < vma->nr_pages ? vma_huge_pmd(vma, folio->index) : NULL;

	if (pmdp && page_folio(pmd_page(pmdp_get(pmdp))) == folio) {
		if (WARN_ONCE(!(flags & TTU_SPLIT_HUGE_PMD),
			      "tb: a PMD-mapped folio is unmapped only split"))
			return;
		split_huge_pmd_of(vma, pmdp, folio->index, false, NULL);
	}
#endif
	for (i = 0; i < folio_nr_pages(folio); i++)
		if (!unmap_pte(vma, folio, i))
			break;
}

/*
 * Migration of a folio's mappings: try_to_migrate() takes each pte's
 * rmap from src (under its memcg; the pte left as the migration entry
 * it stands for, a dirty pte's dirt moved to src), and, once dst has
 * src's place, remove_migration_ptes() maps dst there, the accessed and
 * dirty bits kept, each mapping's reference moved to dst.
 */
static pte_t *migration_ptep(struct tb_vma *vma, struct folio *folio)
{
	pte_t *ptep;

	if (folio->index >= vma->nr_pages)
		return NULL;
	ptep = mm_pte(vma->vma.vm_mm, vma_addr(vma, folio->index), false, false);
	return ptep && pte_folio(ptep_get(ptep)) == folio ? ptep : NULL;
}

static void migrate_pte_begin(struct tb_vma *vma, struct folio *src)
{
	pte_t *ptep = migration_ptep(vma, src);

	if (!ptep)
		return;
	if (pte_dirty(ptep_get(ptep)))
		folio_mark_dirty(src);
	rmap_remove(vma, src);
}

static void migrate_pte_end(struct tb_vma *vma, struct folio *src, struct folio *dst)
{
	struct mm_struct *mm = vma->vma.vm_mm;
	pte_t *ptep = migration_ptep(vma, src);
	pteval_t bits;

	if (!ptep)
		return;
	spin_lock(&mm->page_table_lock);
	bits = pte_val(ptep_get(ptep)) & (_PAGE_ACCESSED | _PAGE_DIRTY);
	set_pte(ptep, __pte(pte_val(pfn_pte(folio_pfn(dst), vma->vma.vm_page_prot)) | bits));
	spin_unlock(&mm->page_table_lock);
	folio_get(dst);
	rmap_add(vma, dst->index, dst);
	folio_put(src);
}

void tb_rmap_migrate_begin(struct folio *src)
{
	struct tb_vma *vma;

	if (!folio_mapped(src))
		return;
	if (folio_test_anon(src)) {
		migrate_pte_begin(anon_vma_of(src), src);
		return;
	}
	list_for_each_entry(vma, tb_file_vmas(tb_mapping_file(src->mapping)), file_node)
		migrate_pte_begin(vma, src);
}

/* dst has src's mapping and index now (src's file mapping may be cleared) */
void tb_rmap_migrate_end(struct folio *src, struct folio *dst)
{
	struct tb_vma *vma;

	if (folio_test_anon(dst)) {
		migrate_pte_end(anon_vma_of(dst), src, dst);
		return;
	}
	list_for_each_entry(vma, tb_file_vmas(tb_mapping_file(dst->mapping)), file_node)
		migrate_pte_end(vma, src, dst);
}

#ifdef CONFIG_TRANSPARENT_HUGEPAGE
/*
 * mm/rmap.c's try_to_migrate_one() for the pte of page i of an anonymous
 * folio: the pte becomes a migration entry for its page (its accessed and
 * dirty bits kept in it), the page's mapping and the folio's reference go
 */
static void migrate_one_pte(struct tb_vma *vma, struct folio *folio, unsigned long i)
{
	struct mm_struct *mm = vma->vma.vm_mm;
	unsigned long addr = vma_addr(vma, folio->index + i);
	struct page *page = folio_page(folio, i);
	pte_t *ptep = vma_ptep(vma, folio->index + i), pte;
	swp_entry_t entry;

	if (!ptep_maps_page(ptep, page))
		return;
	spin_lock(&mm->page_table_lock);
	pte = ptep_get_and_clear(mm, addr, ptep);
	if (pte_dirty(pte))
		folio_mark_dirty(folio);
	/* a pinned exclusive page stays mapped, and the split fails on its count */
	if (PageAnonExclusive(page) && folio_try_share_anon_rmap_pte(folio, page)) {
		set_pte(ptep, pte);
		spin_unlock(&mm->page_table_lock);
		return;
	}
	if (pte_write(pte))
		entry = make_writable_migration_entry(page_to_pfn(page));
	else
		entry = make_readable_migration_entry(page_to_pfn(page));
	if (pte_young(pte))
		entry = make_migration_entry_young(entry);
	if (pte_dirty(pte))
		entry = make_migration_entry_dirty(entry);
	set_pte(ptep, swp_entry_to_pte(entry));
	spin_unlock(&mm->page_table_lock);
	folio_remove_rmap_pte(folio, page, &vma->vma);
	folio_put(folio);
}

/*
 * mm/rmap.c's try_to_migrate(), which a split of a large anonymous folio
 * calls (unmap_folio()): a PMD mapping is split into migration entries
 * (the kernel's __split_huge_pmd() frozen), each pte is made one
 */
void try_to_migrate(struct folio *folio, enum ttu_flags flags)
{
	struct tb_vma *vma;
	unsigned long i;
	pmd_t *pmdp;

	if (WARN_ONCE(!folio_test_anon(folio), "tb: the world migrates anonymous folios only"))
		return;
	if (!folio_mapped(folio))
		return;
	vma = anon_vma_of(folio);
	pmdp = vma_huge_pmd(vma, folio->index);
	if (pmdp && (flags & TTU_SPLIT_HUGE_PMD))
		split_huge_pmd_of(vma, pmdp, folio->index, true, folio);
	for (i = 0; i < folio_nr_pages(folio) && folio_mapped(folio); i++)
		migrate_one_pte(vma, folio, i);
}

#if TB_HAVE_map_unused_to_zeropage
/* mm/migrate.c's try_to_map_unused_to_zeropage() (mm/vmscan/migrate_unit.c) */
bool tb_map_unused_to_zeropage(struct page_vma_mapped_walk *pvmw, struct folio *folio,
			       pte_t old_pte, unsigned long idx);
#if TB_HAVE_remove_migration_ptes_ttu
#define TB_RMP_ZEROPAGE	TTU_USE_SHARED_ZEROPAGE
#else
#define TB_RMP_ZEROPAGE	RMP_USE_SHARED_ZEROPAGE
#endif

/* the kernel's choice for a zero-filled page of a split: the zero page's pte */
static bool map_unused_to_zeropage(struct tb_vma *vma, struct folio *dst, unsigned long i,
				   pte_t *ptep)
{
	struct mm_struct *mm = vma->vma.vm_mm;
	struct page_vma_mapped_walk pvmw = {
		.pfn = folio_pfn(dst), .nr_pages = folio_nr_pages(dst), .vma = &vma->vma,
		.address = vma_addr(vma, dst->index + i), .pte = ptep,
		.ptl = &mm->page_table_lock,
	};
	bool ret;

	spin_lock(&mm->page_table_lock);
	ret = tb_map_unused_to_zeropage(&pvmw, dst, ptep_get(ptep), i);
	spin_unlock(&mm->page_table_lock);
	return ret;
}
#endif

/*
 * mm/migrate.c's remove_migration_pte() over the ptes of dst's pages: a
 * migration entry for a page of src maps dst's page of that index again,
 * with the bits the entry kept; with the split's flag, a zero-filled
 * page is mapped as the zero page if the kernel says so
 */
#if TB_HAVE_remove_migration_ptes_ttu
void remove_migration_ptes(struct folio *src, struct folio *dst, enum ttu_flags flags)
#else
void remove_migration_ptes(struct folio *src, struct folio *dst, int flags)
#endif
{
	struct tb_vma *vma;
	unsigned long i;

	if (!folio_test_anon(dst))
		return;
	vma = anon_vma_of(dst);
	for (i = 0; i < folio_nr_pages(dst); i++) {
		struct page *page = folio_page(dst, i);
		pte_t *ptep = vma_ptep(vma, dst->index + i), pte;
		swp_entry_t entry;

		if (!ptep)
			continue;
		entry = pte_leaf(ptep_get(ptep));
		if (!leaf_is_migration(entry) || leaf_pfn(entry) != folio_pfn(src) + i)
			continue;
#if TB_HAVE_map_unused_to_zeropage
		if ((flags & TB_RMP_ZEROPAGE) && map_unused_to_zeropage(vma, dst, i, ptep))
			continue;
#endif
		folio_get(dst);
		pte = mk_pte(page, vma->vma.vm_page_prot);
		if (!leaf_migration_young(entry))
			pte = pte_mkold(pte);
		if (folio_test_dirty(dst) && leaf_migration_dirty(entry))
			pte = pte_mkdirty(pte);
		folio_add_anon_rmap_pte(dst, page, &vma->vma, vma_addr(vma, dst->index + i),
					leaf_migration_read(entry) ? RMAP_NONE : RMAP_EXCLUSIVE);
		spin_lock(&vma->vma.vm_mm->page_table_lock);
		set_pte(ptep, pte);
		spin_unlock(&vma->vma.vm_mm->page_table_lock);
	}
}

/*
 * mm/huge_memory.c's split of a PUD mapping: the world maps none (no
 * CONFIG_HAVE_ARCH_TRANSPARENT_HUGEPAGE_PUD), mm/pagewalk.c's test of one
 * is false, and only a build that keeps dead calls links this
 */
void __split_huge_pud(struct vm_area_struct *vma, pud_t *pud, unsigned long address)
{
	WARN_ONCE(1, "tb: the world maps no PUD-sized page");
}

#endif

#ifdef CONFIG_TRANSPARENT_HUGEPAGE
/* mm/mlock.c: the world maps nothing VM_LOCKED */
void mlock_folio(struct folio *folio)
{
	WARN_ONCE(1, "tb: the world maps nothing VM_LOCKED");
}

void munlock_folio(struct folio *folio)
{
	WARN_ONCE(1, "tb: the world maps nothing VM_LOCKED");
}
#endif

void try_to_unmap(struct folio *folio, enum ttu_flags flags)
{
	struct tb_vma *vma, *tmp;

	if (!folio_mapped(folio))
		return;
	if (folio_test_anon(folio)) {
		unmap_one(anon_vma_of(folio), folio, flags);
		return;
	}
	list_for_each_entry_safe(vma, tmp, tb_file_vmas(tb_mapping_file(folio->mapping)), file_node)
		unmap_one(vma, folio, flags);
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
