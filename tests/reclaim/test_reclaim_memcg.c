// SPDX-License-Identifier: GPL-2.0-only
/*
 * memcg reclaim through the real mm/vmscan.c: memory.reclaim, memory.max
 * and memory.high over page cache and anonymous memory, and the
 * memory.stat counters the kernel keeps while doing it.
 */
#include <linux/kernel.h>
#include <linux/delay.h>
#include <linux/errno.h>
#include <linux/mm.h>
#include <linux/memcontrol.h>
#include <linux/vmstat.h>
#include <signal.h>
#include <stdio.h>
#include <sys/mman.h>
#include <kshim/trace.h>
#include "tb_reclaim.h"
#include "tb_mglru.h"

/* 4 MiB of clean page cache in "a": memory.reclaim 2M frees at least 2M of it */
static void memory_reclaim_frees_clean_page_cache(void **state)
{
	struct tb_file *f = tb_file_create(PAGES(4 * MB));
	long long before, after;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	tb_read_range(f, PAGES(4 * MB));
	before = tb_cgroup_read_u64("a", "memory.current");
	assert_true(before >= (long long)(4 * MB));
	assert_int_equal(tb_stat("a", "file"), 4 * MB);

	assert_write_ok("a", "memory.reclaim", "2M");
	after = tb_cgroup_read_u64("a", "memory.current");
	assert_true(before - after >= (long long)(2 * MB));
	assert_true(tb_stat("a", "pgsteal") >= (long long)PAGES(2 * MB));
	/* pgscan sums the scans of every kind of reclaim, this one's too */
	assert_in_range(tb_stat("a", "pgscan"), tb_stat("a", "pgsteal"), PAGES(4 * MB));
	assert_int_equal(tb_stat("a", "file"), (long long)tb_file_cached(f) * 4096);
	assert_int_equal(tb_stat("a", "anon"), 0);
	tb_assert_lrus_consistent();
}

/* anonymous memory without a swap device cannot be reclaimed: -EAGAIN */
static void memory_reclaim_of_anon_without_swap_is_eagain(void **state)
{
	struct tb_vma *vma;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	vma = tb_map_anon(PAGES(2 * MB));
	tb_touch_range(vma, PAGES(2 * MB), true);
	assert_int_equal(tb_stat("a", "anon"), 2 * MB);
	assert_write("a", "memory.reclaim", "1M", -EAGAIN);
	assert_int_equal(tb_vma_resident(vma), PAGES(2 * MB));
	assert_int_equal(tb_stat("a", "pgsteal"), 0);
}

/* with swap, memory.reclaim swaps anon out; touching it again swaps it in */
static void memory_reclaim_swaps_anon_out_and_faults_it_back(void **state)
{
	struct tb_vma *vma;
	unsigned long swapped;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	vma = tb_map_anon(PAGES(2 * MB));
	tb_touch_range(vma, PAGES(2 * MB), true);
	assert_write_ok("a", "memory.reclaim", "1M");
	swapped = tb_vma_swapped(vma);
	assert_true(swapped >= PAGES(1 * MB));
	assert_int_equal(kshim_vm_event_read(PSWPOUT), swapped);
	assert_int_equal(tb_cgroup_read_u64("a", "memory.swap.current"), swapped * 4096);
	assert_int_equal(tb_swap_used(), swapped);

	tb_touch_range(vma, PAGES(2 * MB), false);
	assert_int_equal(tb_vma_swapped(vma), 0);
	assert_int_equal(kshim_vm_event_read(PSWPIN), swapped);
	tb_assert_lrus_consistent();
}

/*
 * Fault accounting (mm_account_fault(), do_swap_page(), filemap_fault()):
 * every fault counts in pgfault, a fault that had to read from swap or
 * from the file in pgmajfault too, in /proc/vmstat and in memory.stat
 */
static void faults_that_read_count_as_major(void **state)
{
	struct tb_file *f = tb_file_create(PAGES(1 * MB));
	struct tb_vma *vma, *fvma;
	unsigned long swapped;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	vma = tb_map_anon(PAGES(2 * MB));
	tb_touch_range(vma, PAGES(2 * MB), true);
	assert_int_equal(tb_stat("a", "pgfault"), PAGES(2 * MB));
	assert_int_equal(tb_stat("a", "pgmajfault"), 0);
	assert_write_ok("a", "memory.reclaim", "1M");
	swapped = tb_vma_swapped(vma);
	assert_true(swapped > 0);
	tb_touch_range(vma, PAGES(2 * MB), false);
	assert_int_equal(tb_stat("a", "pgmajfault"), swapped);
	assert_int_equal(kshim_vm_event_read(PGMAJFAULT), swapped);

	fvma = tb_map_file(f);
	tb_touch_range(fvma, PAGES(1 * MB), false);
	assert_int_equal(tb_stat("a", "pgmajfault"), swapped + PAGES(1 * MB));
	/* the pages still mapped were hits, not faults */
	assert_int_equal(tb_stat("a", "pgfault"), PAGES(2 * MB) + swapped + PAGES(1 * MB));
	assert_int_equal(kshim_vm_event_read(PGFAULT), tb_stat("a", "pgfault"));
}

/* memory.max keeps a page cache reader at its limit by reclaiming its own pages */
static void memory_max_reclaims_page_cache_to_stay_under_limit(void **state)
{
	struct tb_file *f = tb_file_create(PAGES(8 * MB));

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	assert_write_ok("a", "memory.max", "2M");
	tb_run_in("a");
	tb_read_range(f, PAGES(8 * MB));
	assert_true(tb_cgroup_read_u64("a", "memory.current") <= (long long)(2 * MB));
	assert_true(tb_stat("a", "pgscan") >= (long long)PAGES(6 * MB));
	assert_int_equal(tb_cgroup_read_key("a", "memory.events", "oom_kill"), 0);
	assert_true(tb_cgroup_read_key("a", "memory.events", "max") > 0);
	tb_assert_lrus_consistent();
}

/*
 * memory_max_write() by a task of the cgroup itself, over anon it cannot
 * reclaim (no swap): after its reclaim retries the OOM killer picks the
 * writer, __oom_kill_process() sends it SIGKILL, and the write's loop
 * stops at signal_pending() with the usage still over the new max (the
 * victim's memory goes when it leaves the kernel); the write returns its
 * length. (A victim with no signal pending kept the loop going for ever:
 * mem_cgroup_out_of_memory() says true for a task already dying.)
 */
static void memory_max_write_that_oom_kills_its_writer_returns(void **state)
{
	struct tb_vma *vma;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	vma = tb_map_anon(PAGES(1 * MB));
	tb_touch_range(vma, PAGES(1 * MB), true);
	assert_write_ok("a", "memory.max", "0");
	assert_int_equal(tb_cgroup_read_key("a", "memory.events", "oom_kill"), 1);
	assert_true(tb_task_oom_killed());
	assert_true(fatal_signal_pending(current));
	assert_true(tb_cgroup_read_u64("a", "memory.current") >= (long long)(1 * MB));
}

/* memory.max over unreclaimable anon (no swap) ends in an OOM kill */
static void memory_max_over_anon_without_swap_oom_kills(void **state)
{
	struct tb_vma *vma;
	unsigned long i;
	int err = 0;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	assert_write_ok("a", "memory.max", "1M");
	tb_run_in("a");
	vma = tb_map_anon(PAGES(2 * MB));
	for (i = 0; i < PAGES(2 * MB) && !err; i++)
		err = tb_touch(vma, i, true);
	assert_int_equal(err, -ENOMEM);
	assert_int_equal(tb_cgroup_read_key("a", "memory.events", "oom_kill"), 1);
	/*
	 * The victim is the faulting task: its pages stay until it leaves the
	 * kernel (the oom_reaper waits for it to exit), so the charge that
	 * invoked the OOM killer fails; the fault returns VM_FAULT_OOM and the
	 * task dies on its way back to user mode, its memory with it. Its
	 * page tables are charged too (the kernel memory of memory.stat).
	 */
	assert_true(tb_stat("a", "pagetables") > 0);
	assert_int_equal(tb_vma_resident(vma) * PAGE_SIZE + tb_stat("a", "kernel"), 1 * MB);
	tb_task_return_to_user();
	assert_int_equal(tb_vma_resident(vma), 0);
	assert_int_equal(tb_stat("a", "anon"), 0);
}

/*
 * memory_reclaim() looks at signal_pending() before each batch: a task
 * with a signal pending gets -EINTR and nothing is reclaimed. 7.2
 * (proactive_reclaim_restarts): -ERESTARTSYS, which the signal layer
 * turns into -EINTR for a handler without SA_RESTART (or restarts).
 */
static void memory_reclaim_is_interrupted_by_a_signal(void **state)
{
	struct tb_file *f = tb_file_create(256);
	struct tb_task *t;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	t = tb_run_in("a");
	tb_read_range(f, 256);
	tb_task_signal(t, SIGTERM);
	assert_write("a", "memory.reclaim", "1M",
		     TB_HAVE_proactive_reclaim_restarts ? -ERESTARTSYS : -EINTR);
	assert_int_equal(tb_file_cached(f), 256);
	assert_int_equal(tb_stat("a", "pgsteal"), 0);
}

/*
 * memory_max_write() sets the limit, then reclaims down to it unless a
 * signal is pending: with SIGKILL pending the write succeeds at once and
 * usage stays above the new limit, with no reclaim and no OOM kill.
 */
static void memory_max_write_stops_reclaiming_on_a_fatal_signal(void **state)
{
	struct tb_file *f = tb_file_create(256);
	struct tb_task *t;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	t = tb_run_in("a");
	tb_read_range(f, 256);
	tb_task_signal(t, SIGKILL);
	assert_write_ok("a", "memory.max", "512K");
	assert_int_equal(tb_file_cached(f), 256);
	assert_true(tb_cgroup_read_u64("a", "memory.current") > 512 * 1024);
	assert_int_equal(tb_cgroup_read_key("a", "memory.events", "oom_kill"), 0);
}

/*
 * A task with SIGKILL pending faulting anon over memory.max (no swap):
 * after its reclaim retries mem_cgroup_oom() counts an oom event and
 * mem_cgroup_out_of_memory() passes a dying task (task_is_dying(): true,
 * out_of_memory() not called), so its charge fails once more retries
 * find it dying, and nobody is killed. From 7.2 out_of_memory() is
 * called and its task_will_free_mem() marks the task itself a victim,
 * still killing nobody.
 */
static void a_dying_tasks_charge_over_max_fails_and_kills_nobody(void **state)
{
	struct tb_vma *vma;
	struct tb_task *t;
	unsigned long i;
	int err = 0;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	assert_write_ok("a", "memory.max", "1M");
	t = tb_run_in("a");
	vma = tb_map_anon(PAGES(2 * MB));
	tb_task_signal(t, SIGKILL);
	for (i = 0; i < PAGES(2 * MB) && !err; i++)
		err = tb_touch(vma, i, true);
	assert_int_equal(err, -ENOMEM);
	assert_true(tb_cgroup_read_key("a", "memory.events", "oom") > 0);
	assert_int_equal(tb_cgroup_read_key("a", "memory.events", "oom_kill"), 0);
	assert_int_equal(tb_task_is_oom_victim(t), !TB_HAVE_memcg_oom_passes_dying);
}

/* 2M of anon in "a", 1M or more of it swapped out by memory.reclaim */
static struct tb_vma *anon_half_swapped(unsigned long *swapped)
{
	struct tb_vma *vma;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	vma = tb_map_anon(PAGES(2 * MB));
	tb_touch_range(vma, PAGES(2 * MB), true);
	assert_write_ok("a", "memory.reclaim", "1M");
	/* a disk's writes complete (the folios written stay in the swap cache) */
	msleep(1);
	*swapped = tb_vma_swapped(vma);
	assert_true(*swapped >= PAGES(1 * MB));
	return vma;
}

/*
 * 64 MiB of swap on a disk: do_swap_page() keeps what it reads in the
 * swap cache (on zram, a synchronous device, every tree frees a read
 * slot at once: test_reclaim_lru's swapin_by_a_read_from_zram_frees_the_slot)
 */
static int setup_swap_disk(void **state)
{
	tb_mem.swap_pages = PAGES(64 * MB);
	tb_mem.swap_disk = true;
	return tb_reclaim_setup(state);
}

/*
 * cgroup v2: a read fault from a disk swaps the page in but the swap slot
 * stays in the swap cache, and stays charged to memory.swap.current until
 * it is freed. (From zram the kernel keeps no copy: the slot and its
 * charge go at once.)
 */
static void read_swapin_keeps_the_swap_charge(void **state)
{
	unsigned long swapped;
	struct tb_vma *vma = anon_half_swapped(&swapped);

	tb_touch_range(vma, PAGES(2 * MB), false);
	assert_int_equal(tb_vma_swapped(vma), 0);
	assert_int_equal(tb_cgroup_read_u64("a", "memory.swap.current"), swapped * 4096);
}

/*
 * With its swap usage at half of memory.swap.max the memcg's swap counts
 * as full (mem_cgroup_swap_full): the first read swap-in frees its slot,
 * after which usage is below half and the rest keep theirs. On a disk:
 * from zram a read frees every slot whatever the usage.
 */
static void swapin_frees_the_slot_while_swap_is_half_full(void **state)
{
	unsigned long swapped;
	struct tb_vma *vma = anon_half_swapped(&swapped);
	char buf[32];

	snprintf(buf, sizeof(buf), "%lu", 2 * swapped * 4096);
	assert_write_ok("a", "memory.swap.max", buf);
	tb_touch_range(vma, PAGES(2 * MB), false);
	assert_int_equal(tb_vma_swapped(vma), 0);
	assert_int_equal(tb_cgroup_read_u64("a", "memory.swap.current"), (swapped - 1) * 4096);
}

/*
 * A swap-in the memcg cannot charge fails the fault: memory.max at usage,
 * nothing to reclaim (no page cache, memory.swap.max 0 keeps the anon
 * resident), so the charge ends in an OOM kill of the faulting task and
 * fails (mem_cgroup_swapin_charge_folio() returns the error); the page
 * stays in swap and memory.current where it was.
 */
static void swapin_that_cannot_be_charged_fails_the_fault(void **state)
{
	unsigned long swapped, i;
	struct tb_vma *vma = anon_half_swapped(&swapped);
	long long usage;
	char buf[32];
	int err = 0;

	assert_write_ok("a", "memory.swap.max", "0");
	tb_drain_local_stock();
	usage = tb_cgroup_read_u64("a", "memory.current");
	snprintf(buf, sizeof(buf), "%lld", usage);
	assert_write_ok("a", "memory.max", buf);
	for (i = 0; i < PAGES(2 * MB) && !err; i++)
		err = tb_touch(vma, i, false);
	assert_int_equal(err, -ENOMEM);
	assert_int_equal(tb_cgroup_read_key("a", "memory.events", "oom_kill"), 1);
	assert_int_equal(tb_vma_swapped(vma), swapped);
	assert_int_equal(tb_cgroup_read_u64("a", "memory.current"), usage);
	tb_task_return_to_user();
	assert_int_equal(tb_vma_resident(vma), 0);
}

/*
 * A child's reclaim events reach its parent once: a flush after more
 * reclaim in the child adds only the new events.
 */
static void child_events_count_once_in_the_parent(void **state)
{
	struct tb_file *f = tb_file_create(PAGES(4 * MB));

	assert_int_equal(tb_cgroup_mkdir("p"), 0);
	assert_int_equal(tb_cgroup_mkdir("p/c"), 0);
	tb_run_in("p/c");
	tb_read_range(f, PAGES(4 * MB));
	assert_write_ok("p/c", "memory.reclaim", "2M");
	tb_memcg_flush_stats(tb_memcg("p"));
	assert_true(tb_stat("p/c", "pgsteal") >= (long long)PAGES(2 * MB));
	assert_int_equal(tb_stat("p", "pgsteal"), tb_stat("p/c", "pgsteal"));
	assert_write_ok("p/c", "memory.reclaim", "1M");
	tb_memcg_flush_stats(tb_memcg("p"));
	assert_int_equal(tb_stat("p", "pgsteal"), tb_stat("p/c", "pgsteal"));
}

/* a memcg's page cache on the LRU lists, in memory.stat */
static long long lru_file(const char *path)
{
	return tb_stat(path, "inactive_file") + tb_stat(path, "active_file");
}

/*
 * A removed child's page cache counts in its parent's memory.stat once,
 * whether its folios stay with the dying child or move to the parent's
 * lists (lru_folio_reparent, which moves the child's own LRU counts with
 * them), and leaves it when reclaimed.
 */
static void removed_child_s_page_cache_counts_once_in_its_parent(void **state)
{
	struct tb_file *f = tb_file_create(PAGES(2 * MB));
	struct tb_task *t;

	assert_int_equal(tb_cgroup_mkdir("p"), 0);
	assert_int_equal(tb_cgroup_mkdir("p/c"), 0);
	t = tb_run_in("p/c");
	tb_read_range(f, PAGES(2 * MB));
	lru_add_drain();
	tb_memcg_flush_stats(NULL);
	assert_int_equal(lru_file("p"), 2 * MB);
	assert_int_equal(tb_task_move(t, "p"), 0);
	assert_int_equal(tb_cgroup_rmdir("p/c"), 0);
	tb_memcg_flush_stats(NULL);
	assert_int_equal(lru_file("p"), 2 * MB);
	assert_int_equal(tb_stat("p", "file"), 2 * MB);
	assert_write_ok("p", "memory.reclaim", "1M");
	tb_memcg_flush_stats(NULL);
	assert_true(tb_file_cached(f) <= PAGES(1 * MB));
	assert_int_equal(lru_file("p"), (long long)tb_file_cached(f) * 4096);
}

/* lruvec_page_state_local() of item summed over the nodes */
static unsigned long lruvec_local(const char *path, int item)
{
	unsigned long sum = 0;
	unsigned int nid;

	for (nid = 0; nid < tb_nodes(); nid++)
		sum += lruvec_page_state_local(mem_cgroup_lruvec(tb_memcg(path), NODE_DATA(nid)),
					       item);
	return sum;
}

/*
 * mem_cgroup_css_rstat_flush() keeps beside each subtree count the
 * memcg's own (memcg_page_state_local(), memcg_events_local(),
 * lruvec_page_state_local()): p holds 1M of page cache and its child c
 * 3M, of which memory.reclaim takes 1M or more.
 */
static void local_counters_leave_out_the_children(void **state)
{
	struct tb_file *fp = tb_file_create(PAGES(1 * MB)), *fc = tb_file_create(PAGES(3 * MB));
	static const int events[] = { PGFAULT, PGMAJFAULT, PGACTIVATE, PGDEACTIVATE, PGLAZYFREE };
	static const int reclaim_events[] = { TB_PGSCAN_PROACTIVE, TB_PGSTEAL_PROACTIVE, PGREFILL };
	struct mem_cgroup *p, *c;
	unsigned long steal;
	unsigned int i;

	assert_int_equal(tb_cgroup_mkdir("p"), 0);
	assert_int_equal(tb_cgroup_mkdir("p/c"), 0);
	tb_run_in("p");
	tb_read_range(fp, PAGES(1 * MB));
	tb_run_in("p/c");
	tb_read_range(fc, PAGES(3 * MB));
	assert_write_ok("p/c", "memory.reclaim", "1M");
	tb_memcg_flush_stats(NULL);
	p = tb_memcg("p");
	c = tb_memcg("p/c");

	assert_int_equal(tb_file_cached(fp), PAGES(1 * MB));
	assert_int_equal(tb_memcg_stat_local(p, NR_FILE_PAGES), PAGES(1 * MB));
	assert_int_equal(tb_memcg_stat_local(c, NR_FILE_PAGES), tb_file_cached(fc));
	assert_int_equal(memcg_page_state(p, NR_FILE_PAGES), PAGES(1 * MB) + tb_file_cached(fc));
	assert_int_equal(lruvec_local("p", NR_FILE_PAGES), PAGES(1 * MB));
	assert_int_equal(lruvec_local("p/c", NR_FILE_PAGES), tb_file_cached(fc));

	steal = tb_memcg_reclaim_events(c, TB_PGSTEAL_PROACTIVE, false);
	assert_true(steal >= PAGES(1 * MB));
	assert_int_equal(tb_memcg_reclaim_events(p, TB_PGSTEAL_PROACTIVE, false), steal);
	/* and each event alike, those that did not change since a flush too */
	for (i = 0; i < ARRAY_SIZE(events); i++) {
		unsigned long in_c = tb_memcg_events(c, events[i], false);

		assert_int_equal(tb_memcg_events(c, events[i], true), in_c);
		assert_int_equal(tb_memcg_events(p, events[i], true),
				 tb_memcg_events(p, events[i], false) - in_c);
	}
	for (i = 0; i < ARRAY_SIZE(reclaim_events); i++) {
		unsigned long in_c = tb_memcg_reclaim_events(c, reclaim_events[i], false);

		assert_int_equal(tb_memcg_reclaim_events(c, reclaim_events[i], true), in_c);
		assert_int_equal(tb_memcg_reclaim_events(p, reclaim_events[i], true),
				 tb_memcg_reclaim_events(p, reclaim_events[i], false) - in_c);
	}
}

/*
 * A flush (mem_cgroup_css_rstat_flush()) adds to a memcg's own count of
 * an item only what the CPUs changed of that item: reading 1M of page
 * cache changes file pages, and file_dirty and shmem, its neighbours in
 * the memcg's counters, stay 0 in the memcg's own counts as in its
 * subtree's
 */
static void an_item_no_cpu_changed_stays_0_in_the_local_counts(void **state)
{
	struct tb_file *f = tb_file_create(PAGES(1 * MB));
	struct mem_cgroup *a;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	tb_read_range(f, PAGES(1 * MB));
	tb_memcg_flush_stats(NULL);
	a = tb_memcg("a");
	assert_int_equal(tb_memcg_stat_local(a, NR_FILE_PAGES), PAGES(1 * MB));
	assert_int_equal(tb_memcg_stat_local(a, NR_FILE_DIRTY), 0);
	assert_int_equal(tb_memcg_stat_local(a, NR_SHMEM), 0);
	assert_int_equal(memcg_page_state(a, NR_FILE_DIRTY), 0);
	assert_int_equal(memcg_page_state(a, NR_SHMEM), 0);
}

/*
 * memory.current less the pages the CPUs' charge stocks hold for the
 * memcg: with several memcgs a stock (7.2, memcg_stock_slots), one
 * charged from another memcg's task keeps its slot
 */
static long long current_less_stock(const char *path)
{
	long long pages = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		pages += tb_stock_pages_of(cpu, tb_memcg(path));
	return tb_cgroup_read_u64(path, "memory.current") - pages * 4096;
}

/* a's task with 2M of anon, 1M or more of it swapped out, then moved to b */
static struct tb_vma *swapped_in_a_then_moved_to_b(unsigned long *swapped)
{
	struct tb_task *t;
	struct tb_vma *vma;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	assert_int_equal(tb_cgroup_mkdir("b"), 0);
	t = tb_run_in("a");
	vma = tb_map_anon(PAGES(2 * MB));
	tb_touch_range(vma, PAGES(2 * MB), true);
	assert_write_ok("a", "memory.reclaim", "1M");
	*swapped = tb_vma_swapped(vma);
	assert_true(*swapped >= PAGES(1 * MB));
	assert_int_equal(tb_task_move(t, "b"), 0);
	return vma;
}

/*
 * mem_cgroup_swapin_charge_folio() charges a page swapped in to the memcg
 * its swap entry is charged to (lookup_swap_cgroup_id()), while that
 * memcg is online, not to the faulting task's
 */
static void swapin_charges_the_memcg_of_the_swap_entry(void **state)
{
	unsigned long swapped;
	struct tb_vma *vma;
	long long a;

	tb_skip_before_6_4("swap-in charging");
	vma = swapped_in_a_then_moved_to_b(&swapped);
	a = current_less_stock("a");

	tb_touch_range(vma, PAGES(2 * MB), false);
	assert_int_equal(tb_vma_swapped(vma), 0);
	assert_int_equal(current_less_stock("a"), a + swapped * 4096);
	assert_int_equal(current_less_stock("b"), 0);
}

/* ... and, once that memcg is offline, to the faulting mm's memcg */
static void swapin_of_a_removed_memcg_charges_the_faulting_task(void **state)
{
	unsigned long swapped;
	struct tb_vma *vma;

	tb_skip_before_6_4("swap-in charging");
	vma = swapped_in_a_then_moved_to_b(&swapped);

	assert_int_equal(tb_cgroup_rmdir("a"), 0);
	tb_touch_range(vma, PAGES(2 * MB), false);
	assert_int_equal(tb_vma_swapped(vma), 0);
	assert_int_equal(current_less_stock("b"), swapped * 4096);
}

/*
 * __mem_cgroup_try_charge_swap() of a page of a removed memcg charges the
 * swap to its closest online ancestor (mem_cgroup_id_get_online()), which
 * the freed slots uncharge again
 */
static void swapout_of_a_removed_memcg_charges_its_parent(void **state)
{
	struct tb_task *t;
	struct tb_vma *vma;
	unsigned long swapped;

	assert_int_equal(tb_cgroup_mkdir("p"), 0);
	assert_int_equal(tb_cgroup_mkdir("p/a"), 0);
	t = tb_run_in("p/a");
	vma = tb_map_anon(PAGES(2 * MB));
	tb_touch_range(vma, PAGES(2 * MB), true);
	assert_int_equal(tb_task_move(t, "p"), 0);
	assert_int_equal(tb_cgroup_rmdir("p/a"), 0);
	assert_write_ok("p", "memory.reclaim", "1M");
	swapped = tb_vma_swapped(vma);
	assert_true(swapped >= PAGES(1 * MB));
	assert_int_equal(tb_cgroup_read_u64("p", "memory.swap.current"), swapped * 4096);
	/* MEMCG_SWAP, the count cgroup v1's memory.stat shows */
	tb_memcg_flush_stats(NULL);
	assert_int_equal(memcg_page_state(tb_memcg("p"), MEMCG_SWAP), swapped);
	tb_unmap(vma);
	assert_int_equal(tb_cgroup_read_u64("p", "memory.swap.current"), 0);
	tb_memcg_flush_stats(NULL);
	assert_int_equal(memcg_page_state(tb_memcg("p"), MEMCG_SWAP), 0);
}

/* the root's swap is never charged to its counter: it only sums its children's */
static void swapout_from_the_root_charges_no_swap_counter(void **state)
{
	struct tb_vma *vma;

	tb_run_in("");
	vma = tb_map_anon(PAGES(2 * MB));
	tb_touch_range(vma, PAGES(2 * MB), true);
	assert_write_ok("", "memory.reclaim", "1M");
	assert_true(tb_vma_swapped(vma) >= PAGES(1 * MB));
	assert_int_equal(page_counter_read(&tb_memcg("")->swap), 0);
}

/*
 * mem_cgroup_get_nr_swap_pages() is what is left under memory.swap.max:
 * once a's swap is at its max, reclaim finds no anon it could swap
 * (get_scan_count(), the multi-gen LRU's get_swappiness()) and does not
 * try: a second memory.reclaim fails without a new swap.events max.
 * The multi-gen LRU's get_swappiness() counts a memcg with fewer than
 * MIN_LRU_BATCH swap pages left as out of swap: evicting a batch of 64
 * at a time (before mglru_evict_budget) it fills the 256 pages exactly;
 * evicting evictable >> priority it stops with some left (45 on 7.3).
 */
static void memcg_at_its_swap_max_reclaims_no_anon(void **state)
{
	struct tb_vma *vma;
	long long max_events;
	long left;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	vma = tb_map_anon(PAGES(2 * MB));
	tb_touch_range(vma, PAGES(2 * MB), true);
	assert_write_ok("a", "memory.swap.max", "1M");
	assert_write("a", "memory.reclaim", "2M", -EAGAIN);
	left = mem_cgroup_get_nr_swap_pages(tb_memcg("a"));
	if (tb_lru_gen_on() && TB_HAVE_mglru_evict_budget)
		assert_true(left > 0 && left < MIN_LRU_BATCH);
	else
		assert_int_equal(left, 0);
	assert_int_equal(tb_cgroup_read_u64("a", "memory.swap.current"), 1 * MB - left * PAGE_SIZE);
	/*
	 * each failed swap charge: one max and one fail event; the classic
	 * LRU fails some on the way, the multi-gen LRU none here
	 */
	max_events = tb_cgroup_read_key("a", "memory.swap.events", "max");
	assert_true(max_events > 0 || tb_lru_gen_on());
	assert_int_equal(tb_cgroup_read_key("a", "memory.swap.events", "fail"), max_events);
	assert_write("a", "memory.reclaim", "1M", -EAGAIN);
	assert_int_equal(tb_cgroup_read_key("a", "memory.swap.events", "max"), max_events);
	assert_int_equal(tb_vma_swapped(vma), PAGES(1 * MB) - left);
}

static int setup_swap_1m(void **state)
{
	tb_mem.swap_pages = PAGES(1 * MB);
	return tb_reclaim_setup(state);
}

/*
 * folio_alloc_swap() of a folio that gets no slot (the device is full)
 * calls the swap charge all the same, which counts the failure in
 * memory.swap.events fail (MEMCG_SWAP_FAIL) of the memcg and its
 * ancestors, and not in max: swap.max was not what failed it.
 * MADV_PAGEOUT (reclaim_pages()) asks a slot for each of 512 folios: 256
 * get one, 256 fail.
 */
static void a_folio_that_gets_no_swap_slot_counts_a_swap_fail(void **state)
{
	struct tb_vma *vma;

	assert_int_equal(tb_cgroup_mkdir("p"), 0);
	assert_int_equal(tb_cgroup_mkdir("p/a"), 0);
	tb_run_in("p/a");
	vma = tb_map_anon(PAGES(2 * MB));
	tb_touch_range(vma, PAGES(2 * MB), true);
	assert_int_equal(tb_madvise(vma, MADV_PAGEOUT), 0);
	assert_int_equal(tb_swap_used(), PAGES(1 * MB));
	assert_int_equal(tb_vma_swapped(vma), PAGES(1 * MB));
	assert_int_equal(tb_cgroup_read_key("p/a", "memory.swap.events", "fail"), PAGES(1 * MB));
	assert_int_equal(tb_cgroup_read_key("p", "memory.swap.events", "fail"), PAGES(1 * MB));
	assert_int_equal(tb_cgroup_read_key("p/a", "memory.swap.events", "max"), 0);
	assert_int_equal(tb_cgroup_read_u64("p/a", "memory.swap.current"), 1 * MB);
}

/*
 * reclaim_pages() reclaims MADV_PAGEOUT's folios with PF_MEMALLOC set
 * (memalloc_noreclaim_save()) and restores the task's flags after: its
 * next charge over memory.max reclaims, where a reclaimer's own charge
 * would be forced past the limit (try_charge_memcg()).
 */
static void madv_pageout_leaves_the_tasks_next_charge_to_reclaim(void **state)
{
	struct tb_vma *vma;
	unsigned long i;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	vma = tb_map_anon(PAGES(2 * MB));
	tb_touch_range(vma, PAGES(1 * MB), true);
	assert_int_equal(tb_madvise(vma, MADV_PAGEOUT), 0);
	assert_int_equal(tb_vma_swapped(vma), PAGES(1 * MB));
	assert_write_ok("a", "memory.max", "512K");
	for (i = PAGES(1 * MB); i < PAGES(2 * MB); i++)
		assert_int_equal(tb_touch(vma, i, true), 0);
	assert_true(tb_usage("a") <= 512 * 1024);
	assert_true(tb_cgroup_read_key("a", "memory.events", "max") > 0);
	tb_unmap(vma);
}

/* a 4M vma in memcg "a" with a written page in each of its two pte tables */
static struct tb_vma *a_page_in_each_pte_table(void)
{
	struct tb_vma *vma;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	vma = tb_map_anon(PAGES(4 * MB));
	assert_int_equal(tb_touch(vma, 0, true), 0);
	assert_int_equal(tb_touch(vma, PAGES(3 * MB), true), 0);
	return vma;
}

/*
 * MADV_PAGEOUT walks every pte table of its range: madvise's pmd_entry
 * returns 0 after each table, so walk_page_range() goes on to the next.
 * A page in each half of a 4M vma: both swapped out
 */
static void madv_pageout_reaches_every_pte_table_of_the_range(void **state)
{
	struct tb_vma *vma = a_page_in_each_pte_table();

	assert_int_equal(tb_madvise(vma, MADV_PAGEOUT), 0);
	assert_int_equal(tb_vma_swapped(vma), 2);
	assert_int_equal(tb_vma_resident(vma), 0);
	tb_unmap(vma);
}

/* MADV_FREE as well: a written page in each half of a 4M vma, both made lazyfree */
static void madv_free_reaches_every_pte_table_of_the_range(void **state)
{
	struct tb_vma *vma = a_page_in_each_pte_table();

	assert_int_equal(tb_madvise(vma, MADV_FREE), 0);
	lru_add_drain();	/* small folios wait in this CPU's lazyfree batch */
	assert_int_equal(tb_stat("a", "pglazyfree"), 2);
	tb_unmap(vma);
}

/* n written pages of a task in "a", paged out: their ptes hold swap entries */
static struct tb_vma *swapped_out_in_a(unsigned long n)
{
	struct tb_vma *vma;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	vma = tb_map_anon(n);
	tb_touch_range(vma, n, true);
	assert_int_equal(tb_madvise(vma, MADV_PAGEOUT), 0);
	assert_int_equal(tb_vma_swapped(vma), n);
	return vma;
}

/*
 * MADV_WILLNEED of swapped anonymous memory reads each slot into the swap
 * cache (madvise's swapin walk, read_swap_cache_async()): charged to a
 * again, counted as swapped in, the ptes left as they are; no fault is
 * counted, and the faults that map the pages later are minor
 */
static void madv_willneed_reads_swapped_pages_into_the_swap_cache(void **state)
{
	struct tb_vma *vma = swapped_out_in_a(64);
	long long pswpin = kshim_vm_event_read(PSWPIN);

	assert_int_equal(tb_madvise(vma, MADV_WILLNEED), 0);
	assert_int_equal(kshim_vm_event_read(PSWPIN) - pswpin, 64);
	assert_int_equal(tb_stat("a", "swapcached"), 64 * 4096);
	/* on the LRU already: madvise_willneed() drains this CPU's add batch */
	assert_int_equal(tb_stat("a", "inactive_anon") + tb_stat("a", "active_anon"), 64 * 4096);
	assert_int_equal(tb_stat("a", "anon"), 0);	/* mapped anon only */
	assert_int_equal(tb_vma_swapped(vma), 64);
	assert_int_equal(tb_vma_resident(vma), 0);
	assert_int_equal(tb_stat("a", "pgmajfault"), 0);
	tb_touch_range(vma, 64, false);
	assert_int_equal(tb_vma_resident(vma), 64);
	assert_int_equal(tb_stat("a", "pgmajfault"), 0);
	assert_int_equal(kshim_vm_event_read(PSWPIN) - pswpin, 64);
	tb_unmap(vma);
}

/* MADV_WILLNEED of part of a range reads that part only; a second one reads nothing */
static void madv_willneed_of_a_range_reads_that_range_once(void **state)
{
	struct tb_vma *vma = swapped_out_in_a(64);
	long long pswpin = kshim_vm_event_read(PSWPIN);

	assert_int_equal(tb_madvise_range(vma, 16, 16, MADV_WILLNEED), 0);
	assert_int_equal(tb_stat("a", "swapcached"), 16 * 4096);
	assert_int_equal(tb_madvise_range(vma, 16, 16, MADV_WILLNEED), 0);
	assert_int_equal(kshim_vm_event_read(PSWPIN) - pswpin, 16);
	tb_touch_range(vma, 64, false);
	assert_int_equal(tb_stat("a", "pgmajfault"), 48);
	tb_unmap(vma);
}

/* the walk reads the swapped ptes of its range only: a present page is left alone */
static void madv_willneed_reads_only_the_swapped_pages(void **state)
{
	struct tb_vma *vma = swapped_out_in_a(64);
	long long pswpin;

	tb_touch_range(vma, 8, true);
	pswpin = kshim_vm_event_read(PSWPIN);
	assert_int_equal(tb_madvise(vma, MADV_WILLNEED), 0);
	assert_int_equal(kshim_vm_event_read(PSWPIN) - pswpin, 56);
	assert_int_equal(tb_stat("a", "swapcached"), 56 * 4096);
	assert_int_equal(tb_vma_resident(vma), 8);
	tb_unmap(vma);
}

/*
 * The swap-in walk's folios are charged like any swap-in: over memory.max
 * the charge reclaims (the clean swap cache folios it has just read, whose
 * slots keep their copy), and memory.current stays within the limit. (The
 * limit is well above a CPU's LRU add batch: reclaim cannot see the
 * folios waiting there.)
 */
static void madv_willneed_over_memory_max_reclaims_what_it_read(void **state)
{
	struct tb_vma *vma = swapped_out_in_a(PAGES(8 * MB));

	assert_write_ok("a", "memory.max", "2M");
	assert_int_equal(tb_madvise(vma, MADV_WILLNEED), 0);
	assert_true(tb_cgroup_read_u64("a", "memory.current") <= 2 * MB);
	assert_true(tb_stat("a", "pgsteal") > 0);
	assert_int_equal(tb_cgroup_read_key("a", "memory.events", "oom_kill"), 0);
	assert_int_equal(tb_vma_swapped(vma), PAGES(8 * MB));
	tb_unmap(vma);
}

/*
 * swap_writepage()'s zeromap (6.12 on): a zero-filled page is not written,
 * its slot is marked (swpout_zero, no pswpout) and still holds it (swap
 * charged); its swap-in reads nothing (swpin_zero, no pswpin) and gives
 * back a zero-filled page. A page holding data is written and read as
 * before.
 */
static void zero_filled_pages_swap_out_and_in_without_io(void **state)
{
	long out = kshim_vm_event_read(PSWPOUT), in = kshim_vm_event_read(PSWPIN);
	struct tb_vma *vma;
	unsigned long i;

	if (!TB_HAVE_memcg_stat_swp_zero)
		tb_skip("6.1 has no zeromap: it writes every page");
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	vma = tb_map_anon(16);
	for (i = 0; i < 16; i++)
		assert_int_equal(i == 3 ? tb_touch(vma, i, true) : tb_touch_write_zero(vma, i), 0);
	assert_int_equal(tb_madvise(vma, MADV_PAGEOUT), 0);
	assert_int_equal(tb_vma_swapped(vma), 16);
	assert_int_equal(tb_stat("a", "swpout_zero"), 15);
	assert_int_equal(kshim_vm_event_read(PSWPOUT) - out, 1);
	assert_int_equal(tb_cgroup_read_u64("a", "memory.swap.current"), 16 * 4096);
	tb_touch_range(vma, 16, false);
	assert_int_equal(tb_stat("a", "swpin_zero"), 15);
	assert_int_equal(kshim_vm_event_read(PSWPIN) - in, 1);
	assert_false(tb_page_has_data(&tb_vma_folio(vma, 0)->page));
	assert_true(tb_page_has_data(&tb_vma_folio(vma, 3)->page));
	assert_int_equal(tb_stat("a", "pgmajfault"), 16);
	tb_unmap(vma);
}

/*
 * Pages only read map the zero page (a huge zero pmd where THP is on),
 * which vm_normal_page() / vm_normal_folio_pmd() report as no folio:
 * MADV_COLD, MADV_PAGEOUT and MADV_FREE pass over them, nothing swapped,
 * nothing charged, and no bad page map reported
 */
static void madvise_walks_pass_over_the_zero_page(void **state)
{
	struct tb_vma *vma;

	if (!TB_HAVE_thp_folio_split)
		tb_skip("6.1: the world's read fault there allocates a page, it maps no zero page");
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	vma = tb_map_anon(PAGES(4 * MB));
	tb_touch_range(vma, PAGES(4 * MB), false);
	assert_int_equal(tb_vma_resident(vma), 0);
	assert_int_equal(tb_madvise(vma, MADV_COLD), 0);
	assert_int_equal(tb_madvise(vma, MADV_PAGEOUT), 0);
	assert_int_equal(tb_madvise(vma, MADV_FREE), 0);
	assert_int_equal(tb_vma_swapped(vma), 0);
	assert_int_equal(tb_stat("a", "anon"), 0);
	tb_unmap(vma);
}

static int setup_swap_4m_disk(void **state)
{
	tb_mem.swap_pages = PAGES(4 * MB);
	tb_mem.swap_disk = true;
	return tb_reclaim_setup(state);
}

/*
 * mem_cgroup_swap_full() is true while the device is over half full
 * (vm_swap_full()), whatever the memcg's limits: each read swap-in frees
 * its slot until 512 of the 1024 are used. On a disk: from zram a read
 * frees every slot whatever the usage.
 */
static void swapin_frees_slots_while_the_device_is_half_full(void **state)
{
	struct tb_vma *vma;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	vma = tb_map_anon(PAGES(3 * MB));
	tb_touch_range(vma, PAGES(3 * MB), true);
	/* writes in flight free nothing yet: the pass may end short (6.1's MGLRU: -EAGAIN) */
	tb_cgroup_write_str("a", "memory.reclaim", "3M");
	msleep(1);
	assert_true(tb_swap_used() > PAGES(2 * MB) + 64);
	tb_touch_range(vma, PAGES(3 * MB), false);
	assert_int_equal(tb_vma_swapped(vma), 0);
	assert_int_equal(tb_swap_used(), PAGES(2 * MB));
}

/*
 * mem_cgroup_fork() and mem_cgroup_attach() flag a task's objcg (bit 0 of
 * task->objcg, CURRENT_OBJCG_UPDATE_FLAG): its next kernel-memory charge
 * (a page table of its first fault) looks the objcg up, in the memcg it is
 * in then
 */
static void moving_a_task_flags_its_objcg_for_a_lookup(void **state)
{
	struct tb_task *t;

	if (!TB_HAVE_current_objcg)
		tb_skip("no task->objcg before 6.9 (a kernel charge looks up current's memcg)");
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	assert_int_equal(tb_cgroup_mkdir("b"), 0);
	t = tb_run_in("a");
	assert_int_equal((unsigned long)READ_ONCE(current->objcg) & 1, 1);
	tb_touch(tb_map_anon(1), 0, true);
	assert_ptr_equal(READ_ONCE(current->objcg), tb_memcg_objcg(tb_memcg("a")));
	assert_int_equal(tb_task_move(t, "b"), 0);
	assert_int_equal((unsigned long)READ_ONCE(current->objcg) & 1, 1);
}

/* p/c with prot (memory.min or memory.low) set to 4M and 2M of page cache, read by t */
static struct tb_task *protected_child_with_page_cache(const char *prot, struct tb_file *f)
{
	struct tb_task *t;

	assert_int_equal(tb_cgroup_mkdir("p"), 0);
	assert_int_equal(tb_cgroup_mkdir("p/c"), 0);
	assert_write_ok("p/c", prot, "4M");
	t = tb_run_in("p/c");
	tb_read_range(f, PAGES(2 * MB));
	return t;
}

/*
 * mem_cgroup_css_offline() sets a removed memcg's memory.min to 0: its
 * page cache, which memory.min kept from the parent's reclaim while it
 * was online, is reclaimed once it is removed
 */
static void a_removed_memcg_s_memory_min_protects_nothing(void **state)
{
	struct tb_file *f = tb_file_create(PAGES(2 * MB));
	struct tb_task *t = protected_child_with_page_cache("memory.min", f);

	assert_write("p", "memory.reclaim", "1M", -EAGAIN);
	assert_int_equal(tb_file_cached(f), PAGES(2 * MB));
	assert_int_equal(tb_task_move(t, "p"), 0);
	assert_int_equal(tb_cgroup_rmdir("p/c"), 0);
	assert_write_ok("p", "memory.reclaim", "1M");
	assert_true(tb_file_cached(f) <= PAGES(1 * MB));
}

/*
 * ... and its memory.low to 0: reclaim of the parent takes its page cache
 * in the first pass, without the low event (memory.events low, counted up
 * the hierarchy) of a pass that reclaims below memory.low
 */
static void a_removed_memcg_s_memory_low_protects_nothing(void **state)
{
	struct tb_file *f = tb_file_create(PAGES(2 * MB));
	struct tb_task *t = protected_child_with_page_cache("memory.low", f);
	long long low;

	assert_write_ok("p", "memory.reclaim", "512K");
	low = tb_cgroup_read_key("p", "memory.events", "low");
	assert_true(low > 0);
	assert_int_equal(tb_task_move(t, "p"), 0);
	assert_int_equal(tb_cgroup_rmdir("p/c"), 0);
	assert_write_ok("p", "memory.reclaim", "512K");
	assert_int_equal(tb_cgroup_read_key("p", "memory.events", "low"), low);
	assert_true(tb_file_cached(f) <= PAGES(1 * MB));
}

/*
 * The lookup of a flagged objcg (current_objcg_update()) returns what it
 * cached: a task's first kernel allocation is charged to its memcg, and
 * its first after a move to the memcg it moved to; a page charged before
 * the move stays charged where it was
 */
static void the_first_kernel_allocation_after_a_move_charges_the_new_memcg(void **state)
{
	struct folio *fa, *fb;
	struct tb_task *t;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	assert_int_equal(tb_cgroup_mkdir("b"), 0);
	t = tb_run_in("a");
	fa = tb_alloc_folio_order(GFP_KERNEL_ACCOUNT, 0, 0);
	assert_non_null(fa);
	assert_true(folio_memcg_kmem(fa));
	assert_ptr_equal(folio_memcg(fa), tb_memcg("a"));
	assert_int_equal(tb_stat("a", "kernel"), PAGE_SIZE);

	assert_int_equal(tb_task_move(t, "b"), 0);
	fb = tb_alloc_folio_order(GFP_KERNEL_ACCOUNT, 0, 0);
	assert_non_null(fb);
	assert_ptr_equal(folio_memcg(fb), tb_memcg("b"));
	assert_int_equal(tb_stat("b", "kernel"), PAGE_SIZE);
	assert_int_equal(tb_stat("a", "kernel"), PAGE_SIZE);
	tb_page_free(&fa->page, 0);
	tb_page_free(&fb->page, 0);
	assert_int_equal(tb_stat("a", "kernel"), 0);
	assert_int_equal(tb_stat("b", "kernel"), 0);
}

/*
 * mem_cgroup_exit() drops the exiting task's objcg and leaves it none:
 * what the task allocates after cgroup_exit() (exit_notify()'s signal to
 * its parent) is charged to no memcg, though the memcg is still there
 */
static void a_kernel_allocation_after_exit_charges_no_memcg(void **state)
{
	struct folio *folio;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	assert_int_equal(tb_task_enter("a"), 0);
	folio = tb_alloc_folio_order(GFP_KERNEL_ACCOUNT, 0, 0);
	assert_non_null(folio);
	assert_ptr_equal(folio_memcg(folio), tb_memcg("a"));
	tb_page_free(&folio->page, 0);
	tb_task_leave();

	folio = tb_alloc_folio_order(GFP_KERNEL_ACCOUNT, 0, 0);
	assert_non_null(folio);
	assert_int_equal(folio->memcg_data, 0);
	assert_int_equal(tb_stat("a", "kernel"), 0);
	tb_page_free(&folio->page, 0);
}

/*
 * current_objcg_update() gives a task without an mm (one past exit_mm(),
 * whose cgroup_exit() has not dropped its objcg yet) no objcg, and drops
 * the update flag: its kernel allocations are charged to no memcg (before
 * 6.9 memcg_kmem_bypass() decides the same)
 */
static void a_task_without_an_mm_charges_no_kernel_memory(void **state)
{
	struct mm_struct *mm;
	struct folio *folio;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	mm = current->mm;
	current->mm = NULL;
	folio = tb_alloc_folio_order(GFP_KERNEL_ACCOUNT, 0, 0);
	current->mm = mm;
	assert_non_null(folio);
	assert_int_equal(folio->memcg_data, 0);
	if (TB_HAVE_current_objcg)
		assert_null(READ_ONCE(current->objcg));
	assert_int_equal(tb_stat("a", "kernel"), 0);
	tb_page_free(&folio->page, 0);
}

/* ... nor a kernel thread that borrowed a task's mm (kthread_use_mm()) */
static void a_kernel_thread_with_an_mm_charges_no_kernel_memory(void **state)
{
	struct folio *folio;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	current->flags |= PF_KTHREAD;
	folio = tb_alloc_folio_order(GFP_KERNEL_ACCOUNT, 0, 0);
	current->flags &= ~PF_KTHREAD;
	assert_non_null(folio);
	assert_int_equal(folio->memcg_data, 0);
	assert_int_equal(tb_stat("a", "kernel"), 0);
	tb_page_free(&folio->page, 0);
}

/*
 * An accounted kernel allocation the memcg cannot take (memory.max 0,
 * nothing to reclaim, __GFP_NORETRY): __memcg_kmem_charge_page() fails
 * with the charge's -ENOMEM, and the allocator frees the page and fails
 */
static void a_kernel_allocation_over_memory_max_fails(void **state)
{
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	assert_write_ok("a", "memory.max", "0");
	tb_run_in("a");
	assert_null(tb_alloc_folio_order(GFP_KERNEL_ACCOUNT | __GFP_NORETRY, 0, 0));
	assert_true(tb_cgroup_read_key("a", "memory.events", "max") > 0);
	assert_int_equal(tb_stat("a", "kernel"), 0);
	assert_int_equal(tb_cgroup_read_u64("a", "memory.current"), 0);
}

/*
 * A kernel page freed by its last put_page() (a pipe buffer's) is
 * uncharged by __folio_put()'s mem_cgroup_uncharge(): uncharge_batch()
 * takes its page off memory.stat kernel
 */
static void a_kernel_page_put_by_its_last_reference_is_uncharged(void **state)
{
	struct folio *folio;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	folio = tb_alloc_folio_order(GFP_KERNEL_ACCOUNT, 0, 0);
	assert_non_null(folio);
	assert_int_equal(tb_stat("a", "kernel"), PAGE_SIZE);
	folio_put(folio);
	assert_int_equal(tb_stat("a", "kernel"), 0);
	assert_int_equal(tb_usage("a"), 0);
}

/*
 * An accounted kernel allocation of order 2 (kmalloc_large() of 16K with
 * __GFP_ACCOUNT): __memcg_kmem_charge_page() charges its 4 pages to the
 * task's memcg, and __free_pages() gives back all 4
 * (__memcg_kmem_uncharge_page()), to the memcg and to memory.stat kernel
 */
static void a_kernel_page_of_order_2_charges_and_uncharges_4_pages(void **state)
{
	struct folio *folio;
	long long usage;

	if (!TB_HAVE_thp_folio_split)
		tb_skip("the world allocates order 0 only where it has no large folios");
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	usage = tb_usage("a");
	folio = tb_alloc_folio_order(GFP_KERNEL_ACCOUNT, 2, 0);
	assert_non_null(folio);
	assert_true(folio_memcg_kmem(folio));
	assert_int_equal(tb_stat("a", "kernel"), 4 * PAGE_SIZE);
	assert_int_equal(tb_usage("a"), usage + 4 * PAGE_SIZE);
	tb_page_free(&folio->page, 2);
	assert_int_equal(tb_stat("a", "kernel"), 0);
	assert_int_equal(tb_usage("a"), usage);
}

/*
 * mem_cgroup_lru_gen_attach() of a task without an mm (a kernel thread
 * moved between cgroups) has no mm to migrate: it looks at task->mm
 * before its owner. Only the objcg flag is set.
 */
static void moving_a_task_without_an_mm_migrates_no_mm(void **state)
{
	struct tb_task *t;
	struct mm_struct *mm;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	assert_int_equal(tb_cgroup_mkdir("b"), 0);
	t = tb_run_in("a");
	mm = current->mm;
	current->mm = NULL;
	assert_int_equal(tb_task_move(t, "b"), 0);
	current->mm = mm;
	if (tb_lru_gen_on())
		assert_ptr_equal(mm->lru_gen.memcg, tb_memcg("a"));
}

/*
 * kswapd's reclaim of a memcg's pages counts in the memcg's events, the
 * first of them (pgscan_kswapd) as the others: a is the only memcg
 * with pages, so its counts are the machine's.
 */
static void kswapd_reclaim_counts_in_the_memcg_events(void **state)
{
	struct tb_file *f = tb_file_create(PAGES(96 * MB));

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	tb_read_range(f, PAGES(96 * MB));
	tb_kthreads_settle();
	assert_true(kshim_reclaim_event_read(PGSCAN_KSWAPD) > 0);
	assert_int_equal(tb_stat("a", "pgscan_kswapd"), kshim_reclaim_event_read(PGSCAN_KSWAPD));
	assert_int_equal(tb_stat("a", "pgsteal_kswapd"), kshim_reclaim_event_read(PGSTEAL_KSWAPD));
}

/*
 * As with memory.swap.max, swap usage at half of memory.swap.high counts
 * as full: the first read swap-in from a disk frees its slot.
 */
static void swapin_frees_the_slot_while_swap_is_half_high(void **state)
{
	unsigned long swapped;
	struct tb_vma *vma = anon_half_swapped(&swapped);
	char buf[32];

	snprintf(buf, sizeof(buf), "%lu", 2 * swapped * 4096);
	assert_write_ok("a", "memory.swap.high", buf);
	tb_touch_range(vma, PAGES(2 * MB), false);
	assert_int_equal(tb_vma_swapped(vma), 0);
	assert_int_equal(tb_cgroup_read_u64("a", "memory.swap.current"), (swapped - 1) * 4096);
}

/*
 * A charge that may not start I/O (GFP_NOIO: a block driver's allocation,
 * or one in a memalloc_noio_save() scope) reclaims what needs no I/O. At
 * memory.max with 256 anon pages and 128 of clean page cache, GFP_NOIO
 * charges past the CPU's stock get their pages from the page cache: an
 * anon folio not yet in the swap cache would need add_to_swap(), so the
 * classic LRU's shrink_folio_list() keeps it, and the multi-gen LRU's
 * isolate_folio() leaves it on its list ("swap constrained", pgscan
 * skipped) even where its anon generation is the older (aged twice
 * before the file was read: isolate_folios() picks anon first), then
 * scans the page cache. Nothing is swapped out, nobody is OOM-killed.
 */
static void noio_charge_reclaims_page_cache_and_swaps_nothing_out(void **state)
{
	struct tb_file *f = tb_file_create(128);
	struct folio *folios[72];	/* more than MEMCG_CHARGE_BATCH (64) */
	struct tb_vma *vma;
	unsigned int n;
	int err;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	tb_run_in("a");
	vma = tb_map_anon(256);
	tb_touch_range(vma, 256, true);
	lru_add_drain();
	if (tb_lru_gen_on()) {
		unsigned long seq = tb_lruvec_of("a")->lrugen.max_seq;

		assert_true(tb_lru_gen_cmd("+ %u 0 %lu 1 1", tb_memcg_id("a"), seq) > 0);
		assert_true(tb_lru_gen_cmd("+ %u 0 %lu 1 1", tb_memcg_id("a"), seq + 1) > 0);
	}
	tb_read_range(f, 128);
	lru_add_drain();
	tb_limit_to_current("a");

	/* the CPU's stock first, then the counter over max: reclaim */
	for (n = 0; n < ARRAY_SIZE(folios); n++) {
		folios[n] = tb_folio_charge(1, GFP_NOIO, &err);
		assert_int_equal(err, 0);
	}
	assert_true(tb_file_cached(f) < 128);
	assert_int_equal(tb_vma_resident(vma), 256);
	assert_int_equal(tb_swap_used(), 0);
	assert_int_equal(tb_cgroup_read_key("a", "memory.events", "oom_kill"), 0);
	for (n = 0; n < ARRAY_SIZE(folios); n++)
		tb_folio_uncharge(folios[n]);
	tb_assert_lrus_consistent();
}

static int setup_512m(void **state)
{
	tb_mem.ram_pages = PAGES(512 * MB);
	return tb_reclaim_setup(state);
}

/* memcgs p/a and p/b, each having read its file (pages of it) once */
static void read_in_p_a_and_p_b(struct tb_file *fa, unsigned long na,
				struct tb_file *fb, unsigned long nb)
{
	assert_int_equal(tb_cgroup_mkdir("p"), 0);
	assert_int_equal(tb_cgroup_mkdir("p/a"), 0);
	assert_int_equal(tb_cgroup_mkdir("p/b"), 0);
	tb_run_in("p/a");
	tb_read_range(fa, na);
	tb_run_in("p/b");
	tb_read_range(fb, nb);
	tb_task_switch(NULL);
	lru_add_drain();
}

/*
 * A reclaim that may walk part of the memcg tree (memory.reclaim: not
 * kswapd, not a full walk) stops after the memcg whose pages bring it to
 * its goal, exactly as well as beyond. "p/a" holds 45056 pages of page
 * cache read once, "p/b" 3000; memory.reclaim "128K" of p wants 32.
 * Priority 12: a gives 45056 >> 12 = 11, b none (3000 >> 12). Priority
 * 11: a gives 45045 >> 11 = 21, 32 in all: the walk stops before b,
 * which would have given 3000 >> 11 = 1.
 */
static void partial_walk_stops_at_exactly_its_goal(void **state)
{
	unsigned long n = 45056, nb = 3000;
	struct tb_file *fa = tb_file_create(n), *fb = tb_file_create(nb);

	tb_skip_before_6_4("shrink_node_memcgs() stop at the goal");
	TB_CLASSIC_LRU_ONLY("shrink_node_memcgs()' partial walk");
	TB_ONE_NODE_ONLY("one node's walk");
	read_in_p_a_and_p_b(fa, n, fb, nb);
	kshim_trace_reset();
	assert_write_ok("p", "memory.reclaim", "128K");
	assert_int_equal(n - tb_file_cached(fa), 11 + 21);
	assert_int_equal(tb_file_cached(fb), nb);
	assert_int_equal(kshim_trace.inactive_scanned[1][DEF_PRIORITY], 11);
	assert_int_equal(kshim_trace.inactive_scanned[1][DEF_PRIORITY - 1], 21);
}

/*
 * vmpressure() of each memcg a limit's reclaim walks (shrink_node_memcgs();
 * proactive reclaim, memory.reclaim, records none) counts what was scanned
 * and freed in that memcg alone: reclaim that frees what it scans is no
 * pressure (VMPRESSURE_LOW) and leaves the memcg's socket pressure, the
 * network stack's cue to trim its buffers, as it was. memory.max 24M on p
 * walks p/a and p/b, 16M of clean page cache read once each: every 512
 * pages scanned (vmpressure_win) in a memcg are weighed, and each is freed.
 */
static void reclaim_that_frees_what_it_scans_leaves_socket_pressure(void **state)
{
	unsigned long n = PAGES(16 * MB);
	struct tb_file *fa = tb_file_create(n), *fb = tb_file_create(n);
	struct mem_cgroup *a, *b;
	u64 pa, pb;

	read_in_p_a_and_p_b(fa, n, fb, n);
	a = tb_memcg("p/a");
	b = tb_memcg("p/b");
	pa = READ_ONCE(a->socket_pressure);
	pb = READ_ONCE(b->socket_pressure);
	assert_write_ok("p", "memory.max", "24M");
	assert_true(tb_stat("p/a", "pgscan") >= 512);
	assert_true(tb_stat("p/b", "pgscan") >= 512);
	assert_int_equal(tb_stat("p/a", "pgsteal"), tb_stat("p/a", "pgscan"));
	assert_int_equal(tb_stat("p/b", "pgsteal"), tb_stat("p/b", "pgscan"));
	assert_true(READ_ONCE(a->socket_pressure) == pa);
	assert_true(READ_ONCE(b->socket_pressure) == pb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		TB_RECLAIM_TEST(reclaim_that_frees_what_it_scans_leaves_socket_pressure),
		TB_RECLAIM_TEST_ON(partial_walk_stops_at_exactly_its_goal, setup_512m),
		TB_RECLAIM_TEST(memory_reclaim_is_interrupted_by_a_signal),
		TB_RECLAIM_TEST(memory_max_write_stops_reclaiming_on_a_fatal_signal),
		TB_RECLAIM_TEST(a_dying_tasks_charge_over_max_fails_and_kills_nobody),
		TB_RECLAIM_TEST(memory_reclaim_frees_clean_page_cache),
		TB_RECLAIM_TEST(removed_child_s_page_cache_counts_once_in_its_parent),
		TB_RECLAIM_TEST(memory_reclaim_of_anon_without_swap_is_eagain),
		TB_RECLAIM_SWAP_TEST(memory_reclaim_swaps_anon_out_and_faults_it_back),
		TB_RECLAIM_TEST(memory_max_reclaims_page_cache_to_stay_under_limit),
		TB_RECLAIM_SWAP_TEST(faults_that_read_count_as_major),
		TB_RECLAIM_TEST(memory_max_over_anon_without_swap_oom_kills),
		TB_RECLAIM_TEST(memory_max_write_that_oom_kills_its_writer_returns),
		TB_RECLAIM_TEST_ON(read_swapin_keeps_the_swap_charge, setup_swap_disk),
		TB_RECLAIM_SWAP_TEST(swapin_that_cannot_be_charged_fails_the_fault),
		TB_RECLAIM_TEST_ON(swapin_frees_the_slot_while_swap_is_half_full, setup_swap_disk),
		TB_RECLAIM_TEST(child_events_count_once_in_the_parent),
		TB_RECLAIM_TEST(local_counters_leave_out_the_children),
		TB_RECLAIM_TEST(an_item_no_cpu_changed_stays_0_in_the_local_counts),
		TB_RECLAIM_TEST(moving_a_task_flags_its_objcg_for_a_lookup),
		TB_RECLAIM_TEST(a_removed_memcg_s_memory_min_protects_nothing),
		TB_RECLAIM_TEST(a_removed_memcg_s_memory_low_protects_nothing),
		TB_RECLAIM_TEST(the_first_kernel_allocation_after_a_move_charges_the_new_memcg),
		TB_RECLAIM_TEST(a_kernel_allocation_after_exit_charges_no_memcg),
		TB_RECLAIM_TEST(a_task_without_an_mm_charges_no_kernel_memory),
		TB_RECLAIM_TEST(a_kernel_thread_with_an_mm_charges_no_kernel_memory),
		TB_RECLAIM_TEST(a_kernel_allocation_over_memory_max_fails),
		TB_RECLAIM_TEST(a_kernel_page_put_by_its_last_reference_is_uncharged),
		TB_RECLAIM_TEST(a_kernel_page_of_order_2_charges_and_uncharges_4_pages),
		TB_RECLAIM_TEST(moving_a_task_without_an_mm_migrates_no_mm),
		TB_RECLAIM_TEST(kswapd_reclaim_counts_in_the_memcg_events),
		TB_RECLAIM_SWAP_TEST(swapin_charges_the_memcg_of_the_swap_entry),
		TB_RECLAIM_SWAP_TEST(swapin_of_a_removed_memcg_charges_the_faulting_task),
		TB_RECLAIM_SWAP_TEST(swapout_of_a_removed_memcg_charges_its_parent),
		TB_RECLAIM_SWAP_TEST(swapout_from_the_root_charges_no_swap_counter),
		TB_RECLAIM_SWAP_TEST(memcg_at_its_swap_max_reclaims_no_anon),
		TB_RECLAIM_TEST_ON(a_folio_that_gets_no_swap_slot_counts_a_swap_fail, setup_swap_1m),
		TB_RECLAIM_TEST_ON(swapin_frees_slots_while_the_device_is_half_full, setup_swap_4m_disk),
		TB_RECLAIM_TEST_ON(swapin_frees_the_slot_while_swap_is_half_high, setup_swap_disk),
		TB_RECLAIM_SWAP_TEST(noio_charge_reclaims_page_cache_and_swaps_nothing_out),
		TB_RECLAIM_SWAP_TEST(madv_pageout_leaves_the_tasks_next_charge_to_reclaim),
		TB_RECLAIM_SWAP_TEST(madv_pageout_reaches_every_pte_table_of_the_range),
		TB_RECLAIM_SWAP_TEST(madv_free_reaches_every_pte_table_of_the_range),
		TB_RECLAIM_SWAP_TEST(madvise_walks_pass_over_the_zero_page),
		TB_RECLAIM_SWAP_TEST(zero_filled_pages_swap_out_and_in_without_io),
		TB_RECLAIM_SWAP_TEST(madv_willneed_reads_swapped_pages_into_the_swap_cache),
		TB_RECLAIM_SWAP_TEST(madv_willneed_of_a_range_reads_that_range_once),
		TB_RECLAIM_SWAP_TEST(madv_willneed_reads_only_the_swapped_pages),
		TB_RECLAIM_SWAP_TEST(madv_willneed_over_memory_max_reclaims_what_it_read),
	};

	return TB_RUN(tests);
}
