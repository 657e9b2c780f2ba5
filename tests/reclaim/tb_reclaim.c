// SPDX-License-Identifier: GPL-2.0-only
#include <linux/kernel.h>
#include <linux/swap.h>
#include <linux/vmstat.h>
#include <string.h>
#include "tb_reclaim.h"

struct tb_mem_config tb_mem;
const char *tb_reclaim_cmdline;

/* TB_LRU_GEN=y: every suite runs again with the multi-gen LRU on (ctest *_mglru) */
bool tb_lru_gen_on(void)
{
	const char *v = getenv("TB_LRU_GEN");

	return v && *v == 'y';
}

unsigned int tb_nodes(void)
{
	const char *v = getenv("TB_NODES");

	return v && atoi(v) > 1 ? atoi(v) : 1;
}

/*
 * TB_NODES=N: the same machine on N nodes, its RAM split evenly over
 * them (so a test that fills more than the RAM still does); the test's
 * thread runs on CPU 0, node 0, and falls back to the others
 */
static void split_over_nodes(void)
{
	unsigned int nodes = tb_nodes();

	if (nodes == 1 || tb_world.nr_nodes > 1)
		return;
	tb_world.nr_nodes = nodes;
	tb_mem.ram_pages = (tb_mem.ram_pages ?: PAGES(64 * MB)) / nodes;
}

int tb_reclaim_setup(void **state)
{
	split_over_nodes();
	tb_setup(state);
	if (tb_reclaim_cmdline && tb_boot_cmdline(tb_reclaim_cmdline)) {
		print_error("the boot command line '%s' was refused\n", tb_reclaim_cmdline);
		return -1;
	}
	if (tb_memcg_boot() || tb_mem_boot(&tb_mem)) {
		print_error("tb_memcg_boot/tb_mem_boot failed\n");
		return -1;
	}
	/* switched on as an administrator does, before any page is faulted */
	if (tb_lru_gen_on() && tb_sysfs_write("kernel/mm/lru_gen/enabled", "y") != 1) {
		print_error("writing y to /sys/kernel/mm/lru_gen/enabled failed\n");
		return -1;
	}
	return 0;
}

int tb_reclaim_setup_swap(void **state)
{
	tb_mem.swap_pages = PAGES(64 * MB);
	return tb_reclaim_setup(state);
}

int tb_reclaim_teardown(void **state)
{
	const char *msg;

	/* first: the clean-up below takes locks a failed test may hold */
	kshim_release_held();
	tb_mem = (struct tb_mem_config){ 0 };
	tb_reclaim_cmdline = NULL;
	msg = tb_mem_teardown();
	tb_world.nr_nodes = 0;
	if (msg)
		print_error("memory check: %s\n", msg);
	return tb_teardown(state) || msg ? -1 : 0;
}

struct tb_task *tb_run_in(const char *path)
{
	int err;
	struct tb_task *t = tb_task_spawn(path, &err);

	assert_int_equal(err, 0);
	assert_non_null(t);
	tb_task_switch(t);
	return t;
}

void tb_read_range(struct tb_file *file, unsigned long n)
{
	unsigned long i;

	for (i = 0; i < n; i++)
		assert_int_equal(tb_file_read(file, i), 0);
}

void tb_touch_range(struct tb_vma *vma, unsigned long n, bool write)
{
	unsigned long i;

	for (i = 0; i < n; i++)
		assert_int_equal(tb_touch(vma, i, write), 0);
}

void tb_limit_to_current(const char *path)
{
	char max[32];

	/* the stocks' precharge returned first: else the next charges take it */
	tb_drain_all_stock(tb_memcg(path), true);
	snprintf(max, sizeof(max), "%llu",
		 (unsigned long long)tb_cgroup_read_u64(path, "memory.current"));
	assert_write_ok(path, "memory.max", max);
}

long long tb_stat(const char *path, const char *key)
{
	long long v;

	tb_memcg_flush_stats(tb_memcg(path));
	v = tb_cgroup_read_key(path, "memory.stat", key);

	assert_true(v >= 0);
	return v;
}

long long tb_usage(const char *path)
{
	long long v = tb_cgroup_read_u64(path, "memory.current");
	int cpu;

	for_each_possible_cpu(cpu)
		v -= (long long)tb_stock_pages_of(cpu, tb_memcg(path)) * PAGE_SIZE;
	return v;
}

void tb_assert_lrus_consistent(void)
{
	const char *msg = tb_mem_check();

	if (msg)
		fail_msg("%s", msg);
}

void tb_assert_shm_unlock_rescues(const char *path, struct tb_file *a, struct tb_file *b,
				  unsigned long nr, struct tb_file *late)
{
	tb_file_set_unevictable(a, false);
	tb_file_set_unevictable(b, false);
	assert_int_equal(kshim_vm_event_read(UNEVICTABLE_PGRESCUED), nr);
	assert_int_equal(kshim_vm_event_read(UNEVICTABLE_PGSCANNED), nr);

	tb_file_set_unevictable(late, true);
	tb_read_range(late, 1);
	tb_file_set_unevictable(late, false);
	assert_int_equal(kshim_vm_event_read(UNEVICTABLE_PGSCANNED), nr + 1);
	assert_int_equal(kshim_vm_event_read(UNEVICTABLE_PGRESCUED), nr);
	lru_add_drain();
	assert_int_equal(tb_stat(path, "unevictable"), 0);
}

void tb_reclaim_swappiness(const char *path, const char *amount, int swappiness)
{
	char buf[64];
#if TB_HAVE_reclaim_swappiness_arg
	snprintf(buf, sizeof(buf), "%s swappiness=%d", amount, swappiness);
	assert_write_ok(path, "memory.reclaim", buf);
#else
	/*
	 * Before 6.8 memory.reclaim takes no swappiness= and a cgroup v2
	 * memcg reclaims with vm.swappiness (mem_cgroup_swappiness()): the
	 * sysctl, written for the call.
	 */
	int old = vm_swappiness;

	vm_swappiness = swappiness;
	snprintf(buf, sizeof(buf), "%s", amount);
	assert_write_ok(path, "memory.reclaim", buf);
	vm_swappiness = old;
#endif
}

void tb_take_free_pages_down_to(unsigned long target, struct list_head *held)
{
	struct folio *folio;

	while (tb_free_pages(0) > target) {
		folio = tb_alloc_folio(GFP_ATOMIC & ~__GFP_KSWAPD_RECLAIM, 0);
		assert_non_null(folio);
		list_add(&folio->lru, held);
	}
}

void tb_put_folios(struct list_head *held)
{
	struct folio *folio, *tmp;

	list_for_each_entry_safe(folio, tmp, held, lru) {
		list_del(&folio->lru);
		folio_put(folio);
	}
}
