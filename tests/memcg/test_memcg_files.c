// SPDX-License-Identifier: GPL-2.0-only
/*
 * cgroup v2 memory control files through memcontrol.c's own handlers:
 * what each write returns, what it changes, and what reads print.
 */
#include <linux/kernel.h>
#include <linux/cgroup.h>
#include <string.h>
#include <stdlib.h>
#include <asm/page.h>
#include <kshim/cgroupfs.h>
#include <kshim/fault.h>
#include <linux/memcontrol.h>
#include <linux/rcupdate.h>
#include "tb_memcg.h"

/* the page counter's limit files all parse with page_counter_memparse() */
static const struct {
	const char *file;
	const char *initial;
} tunables[] = {
	{ "memory.min", "0\n" },
	{ "memory.low", "0\n" },
	{ "memory.high", "max\n" },
	{ "memory.max", "max\n" },
	{ "memory.swap.high", "max\n" },
	{ "memory.swap.max", "max\n" },
};

static void assert_file(const char *path, const char *file, const char *expect)
{
	char buf[256];

	assert_int_equal(tb_cgroup_read(path, file, buf, sizeof(buf)), strlen(expect));
	assert_string_equal(buf, expect);
}

/* write len bytes of buf to every tunable of "a": return value and read-back */
static void assert_tunables(const char *buf, size_t len, ssize_t ret, const char *after)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(tunables); i++) {
		assert_int_equal(tb_cgroup_write("a", tunables[i].file, buf, len), ret);
		assert_file("a", tunables[i].file, after);
	}
}

#define assert_tunables_str(s, ret, after) assert_tunables(s, strlen(s), ret, after)

static void test_mkdir_rmdir(void **state)
{
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	assert_int_equal(tb_cgroup_mkdir("a"), -EEXIST);
	assert_int_equal(tb_cgroup_mkdir("a/b"), 0);
	assert_int_equal(tb_cgroup_mkdir("x/y"), -ENOENT);
	assert_non_null(tb_memcg("a/b"));
	assert_int_equal(tb_cgroup_rmdir("a"), -EBUSY);
	assert_int_equal(tb_cgroup_rmdir("a/b"), 0);
	assert_null(tb_memcg("a/b"));
	assert_int_equal(tb_cgroup_rmdir("a"), 0);
	assert_int_equal(tb_cgroup_rmdir("a"), -ENOENT);
}

/*
 * A memcg's id (what swap records and shadow entries name it by) maps back
 * to it while it is online; offline, the id is gone from the map and the
 * memcg's own reads 0, "no memcg", while references keep it alive.
 */
static void test_offline_memcg_gives_up_its_id(void **state)
{
	struct mem_cgroup *memcg;
	unsigned short id, root_id = tb_memcg_private_id(root_mem_cgroup);

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	memcg = tb_memcg("a");
	id = tb_memcg_private_id(memcg);
	assert_true(id > root_id);
	rcu_read_lock();
	assert_ptr_equal(tb_memcg_from_private_id(id), memcg);
	rcu_read_unlock();
	css_get(&memcg->css);
	assert_int_equal(tb_cgroup_rmdir("a"), 0);
	kshim_rcu_quiesce();
	assert_int_equal(tb_memcg_private_id(memcg), 0);
	rcu_read_lock();
	assert_null(tb_memcg_from_private_id(id));
	assert_ptr_equal(tb_memcg_from_private_id(root_id), root_mem_cgroup);
	rcu_read_unlock();
	css_put(&memcg->css);
	kshim_rcu_quiesce();
	rcu_read_lock();
	assert_ptr_equal(tb_memcg_from_private_id(root_id), root_mem_cgroup);
	rcu_read_unlock();
}

/*
 * A mkdir whose per-node allocations fail (each in turn: the node info,
 * its statistics, their per-CPU part; 6.1 has no second) is -ENOMEM and
 * leaves nothing allocated behind (the world's leak check at teardown);
 * with no failure left to inject, mkdir succeeds.
 */
static void test_mkdir_without_per_node_memory_fails_cleanly(void **state)
{
	int n, ret;

	for (n = 1;; n++) {
		kshim_fault_reset();
		kshim_fault_filter("alloc_mem_cgroup_per_node_info", NULL);
		kshim_fault_nth(n);
		ret = tb_cgroup_mkdir("a");
		if (!kshim_fault_injected())
			break;
		assert_int_equal(ret, -ENOMEM);
		assert_null(tb_memcg("a"));
	}
	kshim_fault_reset();
	assert_int_equal(ret, 0);
	assert_true(n > 2);
}

/*
 * The id a failed mkdir took is free again: ids are handed out lowest
 * first, so the next memcg gets the id the failed one had. The id is
 * the lowest free one; a probe memcg, removed, shows which that is.
 */
static void test_failed_mkdir_gives_its_id_back(void **state)
{
	unsigned short id;

	assert_int_equal(tb_cgroup_mkdir("probe"), 0);
	id = tb_memcg_private_id(tb_memcg("probe"));
	assert_int_equal(tb_cgroup_rmdir("probe"), 0);
	kshim_rcu_quiesce();

	kshim_fault_reset();
	kshim_fault_filter("alloc_mem_cgroup_per_node_info", NULL);
	kshim_fault_nth(1);
	assert_int_equal(tb_cgroup_mkdir("a"), -ENOMEM);
	assert_int_equal(kshim_fault_injected(), 1);
	kshim_fault_reset();

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	assert_int_equal(tb_memcg_private_id(tb_memcg("a")), id);
}

static void test_max_write_read(void **state)
{
	char buf[64];

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	assert_int_equal(tb_cgroup_read("a", "memory.max", buf, sizeof(buf)), 4);
	assert_string_equal(buf, "max\n");
	assert_write_ok("a", "memory.max", "100M\n");
	assert_int_equal(tb_cgroup_read_u64("a", "memory.max"), 100 * MB);
	assert_write_ok("a", "memory.max", "max");
	assert_int_equal(tb_cgroup_read_u64("a", "memory.max"), LLONG_MAX);
}

static void test_charge_current(void **state)
{
	struct folio *f;
	int err;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	assert_int_equal(tb_task_enter("a"), 0);
	f = tb_folio_charge(1, GFP_KERNEL, &err);
	assert_non_null(f);
	assert_int_equal(err, 0);
	/* try_charge charges a whole batch; the rest waits in this CPU's stock */
	assert_int_equal(tb_cgroup_read_u64("a", "memory.current"), 64 * 4096);
	assert_int_equal(tb_stock_pages(0, NULL), 63);
	tb_folio_uncharge(f);
	/* uncharge_batch goes to the page counter, not the stock */
	assert_int_equal(tb_cgroup_read_u64("a", "memory.current"), 63 * 4096);
	tb_drain_local_stock();
	assert_int_equal(tb_cgroup_read_u64("a", "memory.current"), 0);
}

static void test_tunables_valid_writes(void **state)
{
	size_t i;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	for (i = 0; i < ARRAY_SIZE(tunables); i++)
		assert_file("a", tunables[i].file, tunables[i].initial);
	assert_tunables_str("50M", 3, "52428800\n");
	/* strstrip() first: blanks and the newline of echo around the value */
	assert_tunables_str("  100M  \n", 9, "104857600\n");
	/* bytes round down to whole pages */
	assert_tunables_str("4097", 4, "4096\n");
	assert_tunables_str("4095", 4, "0\n");
	assert_tunables_str("1k", 2, "0\n");
	/* memparse() is simple_strtoull(base 0): hex and octal prefixes */
	assert_tunables_str("0x100000", 8, "1048576\n");
	assert_tunables_str("010", 3, "0\n");
	assert_tunables_str("1g", 2, "1073741824\n");
	assert_tunables_str("max\n", 4, "max\n");
	assert_tunables_str(" max ", 5, "max\n");
	assert_tunables_str("0", 1, "0\n");
	/* 7E pages fit; 8E is one page past PAGE_COUNTER_MAX and prints "max" */
	assert_tunables_str("7E", 2, "8070450532247928832\n");
	assert_tunables_str("8E", 2, "max\n");
}

static void test_tunables_malformed(void **state)
{
	static const char *const bad[] = {
		"12Q", "-1", "+5", "MAX", "Max", "max x", "maxx", "100M junk", "100MB",
		"100Mx", "1 2", "1.5G", "0x", "0xZ", "1\n2", "k1", "MB",
	};
	size_t i;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	assert_tunables_str("50M", 3, "52428800\n");
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		assert_tunables_str(bad[i], -EINVAL, "52428800\n");
}

/*
 * An empty write never reaches the handler (cgroup_file_write() returns
 * 0), but a blank one does: strstrip() leaves "", memparse("") parses no
 * digit and stops at the NUL, so page_counter_memparse() accepts it as 0.
 * `echo > memory.max` sets the limit to 0 bytes.
 */
static void test_tunables_blank_write_is_zero(void **state)
{
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	assert_tunables_str("50M", 3, "52428800\n");
	assert_tunables_str("", 0, "52428800\n");
	assert_tunables_str("\n", 1, "0\n");
	assert_tunables_str("50M", 3, "52428800\n");
	assert_tunables_str("   \t ", 5, "0\n");
	/*
	 * a bare suffix: no digit, the suffix is consumed, end reached: 0;
	 * 7.2's memparse() takes no suffix without a number: -EINVAL, the
	 * limit stays (memparse_saturates)
	 */
	assert_tunables_str("50M", 3, "52428800\n");
	if (TB_HAVE_memparse_saturates) {
		assert_tunables_str("M", -EINVAL, "52428800\n");
		assert_tunables_str("k\n", -EINVAL, "52428800\n");
	} else {
		assert_tunables_str("M", 1, "0\n");
		assert_tunables_str("50M", 3, "52428800\n");
		assert_tunables_str("k\n", 2, "0\n");
	}
}

/*
 * memparse() neither detects overflow of simple_strtoull() (it wraps mod
 * 2^64) nor of its suffix shifts: 2^64 and 16E become a limit of 0, and
 * twenty nines a limit of about 7.2 EiB, all accepted.
 */
static void test_tunables_overflow_wraps(void **state)
{
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	/* 7.2: an overflowing number or shift is ULLONG_MAX: no limit */
	if (TB_HAVE_parse_integer_saturates) {
		assert_tunables_str("99999999999999999999", 20, "max\n");
		assert_tunables_str("18446744073709551616", 20, "max\n");
	} else {
		assert_tunables_str("99999999999999999999", 20, "7766279631452237824\n");
		assert_tunables_str("18446744073709551616", 20, "0\n");
	}
	assert_tunables_str("50M", 3, "52428800\n");
	if (TB_HAVE_memparse_saturates) {
		assert_tunables_str("16E", 3, "max\n");
		assert_tunables_str("17E", 3, "max\n");
	} else {
		assert_tunables_str("16E", 3, "0\n");
		assert_tunables_str("17E", 3, "1152921504606846976\n");
	}
	assert_tunables_str("18446744073709551615", 20, "max\n");
}

/* kernfs copies len bytes and terminates them: the handler sees "max" */
static void test_tunables_embedded_nul(void **state)
{
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	assert_tunables_str("50M", 3, "52428800\n");
	assert_tunables("max\0x", 5, 5, "max\n");
	assert_tunables("1M\0junk", 7, 7, "1048576\n");
}

/* kernfs: cgroup files have atomic_write_len = PAGE_SIZE */
static void test_write_too_large(void **state)
{
	char buf[PAGE_SIZE + 1];

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	assert_tunables_str("50M", 3, "52428800\n");
	memset(buf, ' ', sizeof(buf));
	memcpy(buf + PAGE_SIZE - 2, "1M", 2);
	assert_tunables(buf, PAGE_SIZE, PAGE_SIZE, "1048576\n");
	memcpy(buf + PAGE_SIZE - 1, "2M", 2);
	assert_tunables(buf, PAGE_SIZE + 1, -E2BIG, "1048576\n");
	assert_int_equal(tb_cgroup_write("a", "memory.reclaim", buf, PAGE_SIZE + 1), -E2BIG);
#if TB_HAVE_cgroup_of_peak
	assert_int_equal(tb_cgroup_write("a", "memory.peak", buf, PAGE_SIZE + 1), -E2BIG);
#else
	/* before 6.12 memory.peak is read-only: kernfs refuses any write */
	assert_int_equal(tb_cgroup_write("a", "memory.peak", buf, PAGE_SIZE + 1), -EACCES);
#endif
}

static ssize_t one_byte_write(struct kernfs_open_file *of, char *buf, size_t nbytes, loff_t off)
{
	return 1;
}

static int zero_write_u64(struct cgroup_subsys_state *css, struct cftype *cft, u64 val)
{
	return 0;
}

static struct cftype handler_files[] = {
	{ .name = "tb.one_byte", .write = one_byte_write },
	{ .name = "tb.u64", .write_u64 = zero_write_u64 },
	{ }	/* terminate */
};

/*
 * cgroup_file_write() gives back what a ->write handler returns (a short
 * write is short), and a ->write_u64 handler's 0 as the whole count
 */
static void test_write_returns_the_handler_value(void **state)
{
	assert_int_equal(cgroup_add_dfl_cftypes(&memory_cgrp_subsys, handler_files), 0);
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	assert_write("a", "memory.tb.one_byte", "12345", 1);
	assert_write("a", "memory.tb.u64", "12345", 5);
}

/* CFTYPE_NOT_ON_ROOT: only memory.stat, numa_stat and reclaim exist on the root */
static void test_root_files(void **state)
{
	static const char *const absent[] = {
		"memory.current", "memory.peak", "memory.min", "memory.low", "memory.high",
		"memory.max", "memory.events", "memory.events.local", "memory.oom.group",
		"memory.swap.current", "memory.swap.high", "memory.swap.max",
		"memory.swap.peak", "memory.swap.events",
	};
	static char big[8192];
	char buf[64];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(absent); i++) {
		assert_int_equal(tb_cgroup_read("", absent[i], buf, sizeof(buf)), -ENOENT);
		assert_int_equal(tb_cgroup_write_str("", absent[i], "0"), -ENOENT);
	}
	assert_int_equal(tb_cgroup_read_key("", "memory.stat", "anon"), 0);
	/* the seq_file of the test bed does not grow: a short buffer overflows */
	assert_int_equal(tb_cgroup_read("", "memory.numa_stat", buf, sizeof(buf)), -EOVERFLOW);
	assert_true(tb_cgroup_read("", "memory.numa_stat", big, sizeof(big)) > 0);
	assert_int_equal(strncmp(big, "anon N0=0\nfile N0=0\n", 20), 0);
	assert_write_ok("", "memory.reclaim", "0");
	/* no such file anywhere */
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	assert_int_equal(tb_cgroup_read("a", "memory.nosuch", buf, sizeof(buf)), -ENOENT);
	assert_int_equal(tb_cgroup_read("a", "cpu.max", buf, sizeof(buf)), -ENOENT);
	assert_int_equal(tb_cgroup_read("b", "memory.max", buf, sizeof(buf)), -ENOENT);
}

/* kernfs refuses to open a file for an operation its cftype lacks */
static void test_read_only_write_only(void **state)
{
	char buf[64];

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	assert_write("a", "memory.current", "0", -EACCES);
	assert_write("a", "memory.events", "0", -EACCES);
	assert_write("a", "memory.events.local", "0", -EACCES);
	assert_write("a", "memory.stat", "0", -EACCES);
	assert_write("a", "memory.swap.current", "0", -EACCES);
	assert_write("a", "memory.swap.events", "0", -EACCES);
	assert_int_equal(tb_cgroup_read("a", "memory.reclaim", buf, sizeof(buf)), -EACCES);
}

/* memory.events' last key since 7.2 (memcg_event_sock_throttled) */
#if TB_HAVE_memcg_event_sock_throttled
#define EVENTS_SOCK "sock_throttled 0\n"
#else
#define EVENTS_SOCK ""
#endif

static void test_initial_text(void **state)
{
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	assert_file("a", "memory.current", "0\n");
	assert_file("a", "memory.peak", "0\n");
	assert_file("a", "memory.swap.current", "0\n");
#if TB_HAVE_memcg_swap_peak
	assert_file("a", "memory.swap.peak", "0\n");
#endif
	assert_file("a", "memory.oom.group", "0\n");
	assert_file("a", "memory.events",
		    "low 0\nhigh 0\nmax 0\noom 0\noom_kill 0\noom_group_kill 0\n" EVENTS_SOCK);
	assert_file("a", "memory.events.local",
		    "low 0\nhigh 0\nmax 0\noom 0\noom_kill 0\noom_group_kill 0\n" EVENTS_SOCK);
	assert_file("a", "memory.swap.events", "high 0\nmax 0\nfail 0\n");
}

static void test_oom_group(void **state)
{
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	assert_write_ok("a", "memory.oom.group", "1\n");
	assert_file("a", "memory.oom.group", "1\n");
	assert_write("a", "memory.oom.group", "2", -EINVAL);
	assert_write("a", "memory.oom.group", "-1", -EINVAL);
	assert_write("a", "memory.oom.group", "1x", -EINVAL);
	/* unlike the limits, a blank write is kstrtoint("") = -EINVAL */
	assert_write("a", "memory.oom.group", "\n", -EINVAL);
	assert_write("a", "memory.oom.group", "", 0);
	assert_file("a", "memory.oom.group", "1\n");
	assert_write_ok("a", "memory.oom.group", " 0x0 ");
	assert_file("a", "memory.oom.group", "0\n");
}

/* memory.current counts whole folios (over 64 pages: no stock), parents too */
static void test_current_hierarchical(void **state)
{
	struct folio *f;
	int err;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	assert_int_equal(tb_cgroup_mkdir("a/b"), 0);
	assert_int_equal(tb_task_enter("a/b"), 0);
	f = tb_folio_charge(100, GFP_KERNEL, &err);
	assert_int_equal(err, 0);
	assert_non_null(tb_folio_charge(65, GFP_KERNEL, &err));
	assert_int_equal(tb_cgroup_read_u64("a/b", "memory.current"), 165 * 4096);
	assert_int_equal(tb_cgroup_read_u64("a", "memory.current"), 165 * 4096);
	assert_int_equal(tb_stock_pages(0, NULL), 0);
	tb_folio_uncharge(f);
	assert_file("a/b", "memory.current", "266240\n");
	assert_file("a", "memory.current", "266240\n");
	assert_file("a", "memory.peak", "675840\n");
	assert_file("a/b", "memory.swap.current", "0\n");
}

/* memory.stat fits the page memory_stat_show() gives it: a read logs nothing */
static void test_stat_read_logs_no_overflow(void **state)
{
	char *buf = malloc(16384), *log = malloc(65536);

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	assert_true(tb_cgroup_read("a", "memory.stat", buf, 16384) > 0);
	assert_true(tb_cgroup_read("", "memory.stat", buf, 16384) > 0);
	tb_dmesg(log, 65536);
	assert_null(strstr(log, "stat buffer overflow"));
	free(log);
	free(buf);
}

/*
 * memcg keeps no counter of a node item outside its lists
 * (NR_VMSCAN_IMMEDIATE is counted per node only): init_memcg_stats() leaves its index U8_MAX,
 * and memcg_page_state() of it WARNs once and reads 0.
 */
static void test_untracked_stat_item_warns_and_reads_zero(void **state)
{
#if !TB_HAVE_memcg_stats_index
	tb_skip("memcg stats index every item before 6.11: none is missing");
#else
	unsigned int warns = kshim_warn_count();

	kshim_expect_warns(1);
	assert_int_equal(tb_memcg_stat(tb_memcg(""), NR_VMSCAN_IMMEDIATE), 0);
	assert_int_equal(kshim_warn_count(), warns + 1);
	assert_non_null(strstr(kshim_last_report(), "missing stat item"));
#endif
}

static void test_stat_keys(void **state)
{
	static const char *const keys[] = {
		"anon", "file", "kernel", "kernel_stack", "pagetables", "sec_pagetables",
		"percpu", "sock", "vmalloc", "shmem", "file_mapped", "file_dirty",
		"file_writeback", "swapcached", "inactive_anon", "active_anon",
		"inactive_file", "active_file", "unevictable", "slab_reclaimable",
		"slab_unreclaimable", "slab", "workingset_refault_anon",
		"workingset_nodereclaim",
#if TB_HAVE_memcg_stat_pgdemote
		/* the last of memory_stats[] without CONFIG_NUMA_BALANCING */
		"pgdemote_kswapd", "pgdemote_direct", "pgdemote_khugepaged",
#endif
		"pgscan", "pgsteal", "pgfault", "pgmajfault",
#if TB_HAVE_memcg_stat_swp_zero
		/* the last of memcg_vm_event_stat[] without THP, zswap, NUMA balancing */
		"swpin_zero", "swpout_zero",
#endif
	};
	char *buf = malloc(16384);
	struct folio *f;
	ssize_t n;
	size_t i;
	int err;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	assert_int_equal(tb_task_enter("a"), 0);
	f = tb_folio_charge(100, GFP_KERNEL, &err);
	assert_non_null(f);
	n = tb_cgroup_read("a", "memory.stat", buf, 16384);
	assert_true(n > 0);
	assert_int_equal(buf[n - 1], '\n');
	for (i = 0; i < ARRAY_SIZE(keys); i++) {
		long long v = tb_cgroup_read_key("a", "memory.stat", keys[i]);

		if (v < 0)
			fail_msg("memory.stat has no \"%s\"", keys[i]);
		/* a charged folio is not mapped, on an LRU nor in page cache */
		assert_int_equal(v, 0);
	}
	/*
	 * 6.12's memory_stats[] ends with the demotion counters
	 * (PGDEMOTE_KSWAPD, ...); 6.1's ends at workingset_nodereclaim.
	 */
	assert_int_equal(tb_cgroup_read_key("a", "memory.stat", "pgdemote_kswapd") >= 0,
			 TB_HAVE_memcg_stat_pgdemote);
	free(buf);
	tb_folio_uncharge(f);
}

/*
 * memory.numa_stat has a line for each node-level item of memory_stats[],
 * down to its last: pgdemote_khugepaged without CONFIG_NUMA_BALANCING
 * (6.1's: workingset_nodereclaim), here 0 on node 0
 */
static void test_numa_stat_ends_with_the_last_node_item(void **state)
{
	const char *want = TB_HAVE_reclaim_stats_per_node ? "pgrefill N0=0" :
			   TB_HAVE_memcg_stat_pgdemote ? "pgdemote_khugepaged N0=0" :
							 "workingset_nodereclaim N0=0";
	char *buf = malloc(16384), *last;
	ssize_t n;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	n = tb_cgroup_read("a", "memory.numa_stat", buf, 16383);
	assert_true(n > 1);
	assert_int_equal(buf[n - 1], '\n');
	buf[n - 1] = '\0';
	last = strrchr(buf, '\n');
	assert_non_null(last);
	assert_int_equal(strncmp(last + 1, want, strlen(want)), 0);
	free(buf);
}

/* ---- memory.peak: one peak per open file once written (6.12) ---- */
static ssize_t of_write(struct kernfs_open_file *of, const char *s)
{
	return kshim_cgroupfs_fwrite(of, s, strlen(s));
}

static long long of_pages(struct kernfs_open_file *of)
{
	char buf[64];
	ssize_t n = kshim_cgroupfs_fread(of, buf, sizeof(buf));

	if (n < 0)
		return n;
	return strtoll(buf, NULL, 10) / 4096;
}

static struct kernfs_open_file *of_open(const char *path, const char *file)
{
	int err;
	struct kernfs_open_file *of = kshim_cgroupfs_open(path, file, &err);

	assert_int_equal(err, 0);
	assert_non_null(of);
	return of;
}

#define peak_pages(path) (tb_cgroup_read_u64(path, "memory.peak") / 4096)


/* a memory.peak case: skipped before 6.12, else current's task in a new "a" */
static void peak_case_in_a(void)
{
#if !TB_HAVE_cgroup_of_peak
	tb_skip("memory.peak is read-only before 6.12: no per-open-file reset");
#endif
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	assert_int_equal(tb_task_enter("a"), 0);
}

static void test_peak_fd_reset(void **state)
{
	struct kernfs_open_file *a;
	struct folio *f;

	peak_case_in_a();
	tb_charge_ok(100);
	f = tb_charge_ok(100);
	tb_folio_uncharge(f);
	a = of_open("a", "memory.peak");
	/* never written: the counter's global watermark */
	assert_int_equal(of_pages(a), 200);
	/* any content resets it to the usage now, for this file only */
	assert_int_equal(of_write(a, "whatever\n"), 9);
	assert_int_equal(of_pages(a), 100);
	assert_int_equal(peak_pages("a"), 200);
	/* an empty write does not reach peak_write() */
	tb_charge_ok(70);
	tb_folio_uncharge(tb_charge_ok(80));
	assert_int_equal(of_pages(a), 250);
	assert_int_equal(of_write(a, ""), 0);
	assert_int_equal(of_pages(a), 250);
	assert_int_equal(of_write(a, "0"), 1);
	assert_int_equal(of_pages(a), 170);
	assert_int_equal(peak_pages("a"), 250);
	kshim_cgroupfs_close(a);
	/* a tb_cgroup_write() is open + write + close: nothing stays registered */
	assert_write_ok("a", "memory.peak", "reset");
	assert_int_equal(peak_pages("a"), 250);
	assert_write_ok("a", "memory.swap.peak", "reset");
	assert_file("a", "memory.swap.peak", "0\n");
}

/*
 * A reset through file B resets pc->local_watermark to the usage now and
 * raises every other registered file's value to that usage, not to the
 * local watermark it replaces. File A, reset before a peak of 200 pages,
 * then reads 100 after B's reset at usage 100: the peak A observed since
 * its own reset is lost (cgroup-v2.rst: a reset applies to "subsequent
 * reads through the same file descriptor").
 */
static void test_peak_other_fd_reset_lowers_peak(void **state)
{
	struct kernfs_open_file *a, *b, *c;

	peak_case_in_a();
	a = of_open("a", "memory.peak");
	assert_int_equal(of_write(a, "r"), 1);
	tb_charge_ok(100);
	tb_folio_uncharge(tb_charge_ok(100));
	assert_int_equal(of_pages(a), 200);
	b = of_open("a", "memory.peak");
	assert_int_equal(of_pages(b), 200);
	assert_int_equal(of_write(b, "r"), 1);
	assert_int_equal(of_pages(b), 100);
	assert_int_equal(of_pages(a), 100);	/* not 200 */
	assert_int_equal(peak_pages("a"), 200);
	/* both see a new peak */
	tb_folio_uncharge(tb_charge_ok(65));
	assert_int_equal(of_pages(a), 165);
	assert_int_equal(of_pages(b), 165);
	/* A leaves the watcher list at release; B's next reset must not see it */
	kshim_cgroupfs_close(a);
	c = of_open("a", "memory.peak");
	assert_int_equal(of_write(c, "r"), 1);
	assert_int_equal(of_write(b, "r"), 1);
	assert_int_equal(of_pages(c), 100);
	kshim_cgroupfs_close(b);
	kshim_cgroupfs_close(c);
}

/*
 * A reset through B raises the other files' values to the usage now but
 * never lowers them: A, reset at 200 pages, still reads 200 after B's
 * reset at 100.
 */
static void test_peak_other_fd_reset_keeps_higher_value(void **state)
{
	struct kernfs_open_file *a, *b;
	struct folio *f;

	peak_case_in_a();
	tb_charge_ok(100);
	f = tb_charge_ok(100);
	a = of_open("a", "memory.peak");
	assert_int_equal(of_write(a, "r"), 1);
	tb_folio_uncharge(f);
	b = of_open("a", "memory.peak");
	assert_int_equal(of_write(b, "r"), 1);
	assert_int_equal(of_pages(b), 100);
	assert_int_equal(of_pages(a), 200);
	kshim_cgroupfs_close(a);
	kshim_cgroupfs_close(b);
}

/*
 * B's reset raises A's value to the usage then, and that value outlives a
 * later, lower reset: A (reset at 0) reads 200 after B's reset at 200 and
 * C's at 100, where B's and C's resets leave the local watermark at 100.
 */
static void test_peak_other_fd_reset_raises_peers_for_good(void **state)
{
	struct kernfs_open_file *a, *b, *c;
	struct folio *f;

	peak_case_in_a();
	a = of_open("a", "memory.peak");
	assert_int_equal(of_write(a, "r"), 1);
	tb_charge_ok(100);
	f = tb_charge_ok(100);
	b = of_open("a", "memory.peak");
	assert_int_equal(of_write(b, "r"), 1);
	tb_folio_uncharge(f);
	c = of_open("a", "memory.peak");
	assert_int_equal(of_write(c, "r"), 1);
	assert_int_equal(of_pages(c), 100);
	assert_int_equal(of_pages(b), 200);
	assert_int_equal(of_pages(a), 200);
	kshim_cgroupfs_close(a);
	kshim_cgroupfs_close(b);
	kshim_cgroupfs_close(c);
}

/* ---- memory.reclaim ---- */
/*
 * 6.12's memory_reclaim() memparse()s a leading size, then takes
 * space-separated swappiness=0..200 tokens (match_token); 6.1's passes the
 * whole stripped buffer to page_counter_memparse(buf, "", ...), so any
 * token after the size is -EINVAL, and a blank write equals its "max" ("")
 * and asks for PAGE_COUNTER_MAX pages.
 */
static void test_reclaim_parse(void **state)
{
	/* rejected by both parsers */
	static const char *const bad[] = {
		"abc", "-1", "1Q", "1M foo", "1M swappiness=201", "1M swappiness=-1",
		"1M swappiness=abc", "1M swappiness=60x", "1M swappiness=", "1M swappiness=0x",
		"1M swappiness = 60", "swappiness=60", "1M,swappiness=60",
		"1M swappiness=99999999999", "1M swappiness=60 x",
	};
	/* nothing to reclaim: 0 pages, including less than a page */
	static const char *const noop[] = { "0", "0\n", "4095", "1k" };
	/* valid swappiness= tokens: 0 pages with 6.12's, -EINVAL with 6.1's */
	static const char *const swappiness[] = { " 0 swappiness=200 ", "0 swappiness=0" };
	size_t i;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		assert_write("a", "memory.reclaim", bad[i], -EINVAL);
	for (i = 0; i < ARRAY_SIZE(noop); i++)
		assert_write_ok("a", "memory.reclaim", noop[i]);
	for (i = 0; i < ARRAY_SIZE(swappiness); i++)
		assert_write("a", "memory.reclaim", swappiness[i],
			     TB_HAVE_swappiness_range ? (ssize_t)strlen(swappiness[i]) : -EINVAL);
	assert_write("a", "memory.reclaim", "", 0);
	assert_int_equal(tb_reclaim_calls(), 0);
#if TB_HAVE_swappiness_range
	/* memparse() read no digits */
	assert_write("a", "memory.reclaim", "\n", -EINVAL);
	assert_int_equal(tb_reclaim_calls(), 0);
#else
	/* all of it, from an empty cgroup: futile, 1 + MAX_RECLAIM_RETRIES calls */
	assert_write("a", "memory.reclaim", "\n", -EAGAIN);
	assert_int_equal(tb_reclaim_calls(), 17);
#endif
}

/* futile reclaim: MAX_RECLAIM_RETRIES (16) retries after the first call */
static void test_reclaim_futile_eagain(void **state)
{
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	assert_write("a", "memory.reclaim", "1M", -EAGAIN);
	assert_int_equal(tb_reclaim_calls(), 17);
	assert_write("", "memory.reclaim", "4096", -EAGAIN);
	assert_int_equal(tb_reclaim_calls(), 34);
}

/* n one-page folios in the task, stock drained: memory.current is n pages */
static void hold_pages(const char *path, unsigned int n)
{
	unsigned int i;

	assert_int_equal(tb_task_enter(path), 0);
	for (i = 0; i < n; i++)
		assert_non_null(tb_folio_charge(1, GFP_KERNEL, NULL));
	tb_drain_local_stock();
	assert_int_equal(tb_cgroup_read_u64(path, "memory.current"), n * 4096LL);
}

/*
 * Each call asks for a quarter of what is left, and vmscan raises that to
 * SWAP_CLUSTER_MAX (32): 64, 48, 36, 32, 32, 32, then the last 12 pages.
 */
static void test_reclaim_frees(void **state)
{
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	hold_pages("a", 256);
	tb_reclaim_script(TB_RECLAIM_PAGES, 1000);
	assert_write_ok("a", "memory.reclaim", "1M");
#if TB_HAVE_reclaim_quarter_batches
	assert_int_equal(tb_reclaim_calls(), 7);
#else
	assert_int_equal(tb_reclaim_calls(), 1);	/* 6.1: all 256 pages asked at once */
#endif
	assert_int_equal(tb_reclaim_freed(), 256);
	assert_file("a", "memory.current", "0\n");
	assert_int_equal(tb_task_pages(), 0);
	assert_int_equal(tb_reclaim_last_swappiness(), -1);
}

/* progress resets nothing: once reclaim stops freeing, 17 futile calls */
static void test_reclaim_partial_then_eagain(void **state)
{
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	hold_pages("a", 100);
	tb_reclaim_script(TB_RECLAIM_PAGES, 1000);
	assert_write("a", "memory.reclaim", "1M", -EAGAIN);
#if TB_HAVE_reclaim_quarter_batches
	assert_int_equal(tb_reclaim_calls(), 2 + 17);
#else
	assert_int_equal(tb_reclaim_calls(), 1 + 17);	/* 6.1: the 100 pages in one call */
#endif
	assert_int_equal(tb_reclaim_freed(), 100);
	assert_file("a", "memory.current", "0\n");
}

/*
 * Under 4 pages the batch is 0 ("will converge on zero, but reclaim
 * enforces a minimum"): the request is met by vmscan's SWAP_CLUSTER_MAX.
 */
static void test_reclaim_small_request(void **state)
{
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	hold_pages("a", 128);
	tb_reclaim_script(TB_RECLAIM_PAGES, 1000);
	assert_write_ok("a", "memory.reclaim", "4096");
	assert_int_equal(tb_reclaim_calls(), 1);
	assert_int_equal(tb_cgroup_read_u64("a", "memory.current"), 96 * 4096);
}

static void test_reclaim_swappiness(void **state)
{
	static const struct {
		const char *buf;
		int swappiness;
	} cases[] = {
		{ "1M", -1 },
		{ "1M swappiness=0", 0 },
		{ "1M  swappiness=0x3c  ", 60 },
		{ "1M swappiness=60 swappiness=10", 10 },
		{ "1M\tswappiness=7", 7 },	/* strstrip() after memparse() */
		{ "1M swappiness=200", 200 },
		{ "1M swappiness=010", 8 },
	};
	size_t i;

#if !TB_HAVE_swappiness_range
	tb_skip("memory.reclaim takes no swappiness= before 6.8");
#endif
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		assert_write("a", "memory.reclaim", cases[i].buf, -EAGAIN);
		assert_int_equal(tb_reclaim_last_swappiness(), cases[i].swappiness);
	}
}

/* ---- memory.events ---- */
static void assert_events(const char *path, const char *file, long long max, long long oom,
			  long long oom_kill)
{
	assert_int_equal(tb_cgroup_read_key(path, file, "max"), max);
	assert_int_equal(tb_cgroup_read_key(path, file, "oom"), oom);
	assert_int_equal(tb_cgroup_read_key(path, file, "oom_kill"), oom_kill);
	assert_int_equal(tb_cgroup_read_key(path, file, "oom_group_kill"), 0);
	assert_int_equal(tb_cgroup_read_key(path, file, "low"), 0);
	assert_int_equal(tb_cgroup_read_key(path, file, "high"), 0);
}

/*
 * One GFP_KERNEL charge over max with futile reclaim: a "max" event per
 * reclaim attempt (1 + drain retry + 16 retries = 18), then one "oom" and
 * the kill of the only task, itself. Its pages stay charged until it
 * leaves the kernel (the oom_reaper waits OOM_REAPER_DELAY for the victim
 * to exit), so the charge retries 17 more times (35 "max" events, as the
 * real 6.12's test_memcg_max counts) and fails once task_is_dying(); the
 * task's return to user mode frees its pages. Events propagate to
 * ancestors below the root; events.local stays in the memcg over its limit.
 */
static void test_events_max_oom_kill(void **state)
{
	int err, i;

	assert_int_equal(tb_cgroup_mkdir("p"), 0);
	assert_int_equal(tb_cgroup_mkdir("p/a"), 0);
	assert_write_ok("p/a", "memory.max", "1M");
	assert_int_equal(tb_task_enter("p/a"), 0);
	for (i = 0; i < 4; i++)
		tb_charge_ok(64);
	assert_int_equal(tb_stock_pages(0, NULL), 0);
	assert_null(tb_folio_charge(1, GFP_KERNEL, &err));
	assert_int_equal(err, -ENOMEM);
	assert_int_equal(tb_reclaim_calls(), 18 + 17);
	assert_int_equal(tb_oom_kills(), 1);
	assert_true(tb_task_oom_killed());
	assert_int_equal(tb_task_pages(), 256);
	assert_file("p/a", "memory.current", "1048576\n");
	tb_task_return_to_user();
	assert_int_equal(tb_task_pages(), 0);
	assert_file("p/a", "memory.current", "0\n");
	assert_int_equal(tb_stock_pages(0, NULL), 0);
	assert_events("p/a", "memory.events", 35, 1, 1);
	assert_events("p/a", "memory.events.local", 35, 1, 1);
	assert_events("p", "memory.events", 35, 1, 1);
	assert_events("p", "memory.events.local", 0, 0, 0);
	assert_int_equal(tb_cgroup_events_notified("p/a"), 37);
	assert_int_equal(tb_cgroup_events_notified("p"), 37);
	assert_int_equal(tb_cgroup_events_notified(""), 0);
	/* memory.events.local is notified of a memcg's own events only */
	assert_int_equal(tb_cgroup_events_local_notified("p/a"), 37);
	assert_int_equal(tb_cgroup_events_local_notified("p"), 0);
	assert_file("p/a", "memory.swap.events", "high 0\nmax 0\nfail 0\n");
}

/*
 * memory.oom.group above the OOM domain does not count: an OOM of p/a (its
 * own memory.max) kills the victim alone though p has memory.oom.group
 * set, as mem_cgroup_get_oom_group() stops its walk up at p/a. With it set
 * on p/a, the same OOM is a group kill of p/a.
 */
static void oom_in_p_a(void)
{
	int err, i;

	assert_int_equal(tb_task_enter("p/a"), 0);
	for (i = 0; i < 4; i++)
		tb_charge_ok(64);
	assert_null(tb_folio_charge(1, GFP_KERNEL, &err));
	assert_int_equal(err, -ENOMEM);
	assert_true(tb_task_oom_killed());
	tb_task_return_to_user();
	assert_file("p/a", "memory.current", "0\n");
}

static void test_oom_group_above_the_oom_domain_is_ignored(void **state)
{
	assert_int_equal(tb_cgroup_mkdir("p"), 0);
	assert_int_equal(tb_cgroup_mkdir("p/a"), 0);
	assert_write_ok("p", "memory.oom.group", "1");
	assert_write_ok("p/a", "memory.max", "1M");
	oom_in_p_a();
	assert_int_equal(tb_oom_kills(), 1);
	assert_int_equal(tb_cgroup_read_key("p/a", "memory.events", "oom_kill"), 1);
	assert_int_equal(tb_cgroup_read_key("p", "memory.events.local", "oom_group_kill"), 0);
	assert_int_equal(tb_cgroup_read_key("p/a", "memory.events", "oom_group_kill"), 0);

	tb_task_leave();
	assert_write_ok("p/a", "memory.oom.group", "1");
	oom_in_p_a();
	assert_int_equal(tb_cgroup_read_key("p/a", "memory.events.local", "oom_group_kill"), 1);
	assert_int_equal(tb_cgroup_read_key("p", "memory.events.local", "oom_group_kill"), 0);
}

/* a charge over memory.high, reclaimed at once, raises one "high" event */
static void test_events_high(void **state)
{
	assert_int_equal(tb_cgroup_mkdir("p"), 0);
	assert_int_equal(tb_cgroup_mkdir("p/a"), 0);
	assert_int_equal(tb_task_enter("p/a"), 0);
	tb_charge_ok(128);
	assert_write_ok("p/a", "memory.high", "614400");	/* 150 pages */
	tb_reclaim_script(TB_RECLAIM_PAGES, 1000);
	tb_charge_ok(128);
	/* try_charge called mem_cgroup_handle_over_high() (over 64 pages) */
	assert_int_equal(tb_reclaim_calls(), 1);
	assert_int_equal(tb_cgroup_read_u64("p/a", "memory.current"), 128 * 4096);
	assert_int_equal(tb_cgroup_read_key("p/a", "memory.events", "high"), 1);
	assert_int_equal(tb_cgroup_read_key("p/a", "memory.events.local", "high"), 1);
	assert_int_equal(tb_cgroup_read_key("p", "memory.events", "high"), 1);
	assert_int_equal(tb_cgroup_read_key("p", "memory.events.local", "high"), 0);
	assert_int_equal(tb_cgroup_read_key("p/a", "memory.events", "max"), 0);
	tb_task_return_to_user();
	assert_int_equal(tb_reclaim_calls(), 1);
	assert_int_equal(kshim_slept_jiffies(), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		TB_MEMCG_TEST(test_mkdir_rmdir),
		TB_MEMCG_TEST(test_offline_memcg_gives_up_its_id),
		TB_MEMCG_TEST(test_mkdir_without_per_node_memory_fails_cleanly),
		TB_MEMCG_TEST(test_failed_mkdir_gives_its_id_back),
		TB_MEMCG_TEST(test_max_write_read),
		TB_MEMCG_TEST(test_charge_current),
		TB_MEMCG_TEST(test_tunables_valid_writes),
		TB_MEMCG_TEST(test_tunables_malformed),
		TB_MEMCG_TEST(test_tunables_blank_write_is_zero),
		TB_MEMCG_TEST(test_tunables_overflow_wraps),
		TB_MEMCG_TEST(test_tunables_embedded_nul),
		TB_MEMCG_TEST(test_write_too_large),
		TB_MEMCG_TEST(test_write_returns_the_handler_value),
		TB_MEMCG_TEST(test_root_files),
		TB_MEMCG_TEST(test_read_only_write_only),
		TB_MEMCG_TEST(test_initial_text),
		TB_MEMCG_TEST(test_oom_group),
		TB_MEMCG_TEST(test_current_hierarchical),
		TB_MEMCG_TEST(test_stat_keys),
		TB_MEMCG_TEST(test_stat_read_logs_no_overflow),
		TB_MEMCG_TEST(test_untracked_stat_item_warns_and_reads_zero),
		TB_MEMCG_TEST(test_numa_stat_ends_with_the_last_node_item),
		TB_MEMCG_TEST(test_peak_fd_reset),
		TB_MEMCG_TEST(test_peak_other_fd_reset_lowers_peak),
		TB_MEMCG_TEST(test_peak_other_fd_reset_keeps_higher_value),
		TB_MEMCG_TEST(test_peak_other_fd_reset_raises_peers_for_good),
		TB_MEMCG_TEST(test_reclaim_parse),
		TB_MEMCG_TEST(test_reclaim_futile_eagain),
		TB_MEMCG_TEST(test_reclaim_frees),
		TB_MEMCG_TEST(test_reclaim_partial_then_eagain),
		TB_MEMCG_TEST(test_reclaim_small_request),
		TB_MEMCG_TEST(test_reclaim_swappiness),
		TB_MEMCG_TEST(test_events_max_oom_kill),
		TB_MEMCG_TEST(test_events_high),
		TB_MEMCG_TEST(test_oom_group_above_the_oom_domain_is_ignored),
	};

	return TB_RUN(tests);
}
