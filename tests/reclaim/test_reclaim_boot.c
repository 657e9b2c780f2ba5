// SPDX-License-Identifier: GPL-2.0-only
/*
 * Boot options, cgroup2 mount options and sysctls, each exercised through
 * what the kernel code does with it: cgroup.memory=nokmem and nosocket,
 * memory_localevents, memory_recursiveprot under global pressure,
 * vm.swappiness=0 in global reclaim, and the refusal of unknown options.
 */
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/memcontrol.h>
#include <linux/vmstat.h>
#include <linux/swap.h>
#include "tb_reclaim.h"
#include "tb_mglru.h"

static const char *cmdline;

static int setup_cmdline(void **state)
{
	tb_setup(state);
	if (tb_boot_cmdline(cmdline) || tb_memcg_boot() || tb_mem_boot(&tb_mem))
		return -1;
	/* the *_mglru run: switched on after boot, as tb_reclaim_setup() does */
	if (tb_lru_gen_on() && tb_sysfs_write(LRU_GEN_ENABLED, "y") != 1)
		return -1;
	return 0;
}

static int setup_nokmem(void **state)
{
	cmdline = "cgroup.memory=nokmem";
	return setup_cmdline(state);
}

static int setup_memcg_disabled(void **state)
{
	cmdline = "cgroup_disable=memory";
	return setup_cmdline(state);
}

/*
 * cgroup_disable=memory: mem_cgroup_disabled(), nothing is charged, the
 * memory files are gone, and reclaim works on the node's own lruvec.
 */
static void cgroup_disable_memory_reclaims_the_node_lruvec(void **state)
{
	struct tb_file *f = tb_file_create(PAGES(96 * MB));
	struct pglist_data *pgdat = NODE_DATA(0);

	assert_true(mem_cgroup_disabled());
	assert_int_equal(tb_cgroup_read_u64("", "memory.stat"), -ENOENT);
	tb_run_in("");
	tb_read_range(f, PAGES(96 * MB));
	lru_add_drain();
	assert_true(kshim_reclaim_event_read(PGSTEAL_KSWAPD) >= PAGES(32 * MB));
	assert_int_equal(mem_cgroup_lruvec(NULL, pgdat), &pgdat->__lruvec);
	assert_int_equal(node_page_state(pgdat, NR_ACTIVE_FILE) +
			 node_page_state(pgdat, NR_INACTIVE_FILE), tb_file_cached(f));
	if (tb_lru_gen_on()) {
		/* the lru_gen commands know one "memcg", id 0: the node's lruvec */
		unsigned long max_seq = pgdat->__lruvec.lrugen.max_seq;

		assert_int_equal(tb_lru_gen_cmd("+ 1 0 %lu 1 1", max_seq), -EINVAL);
		assert_true(tb_lru_gen_cmd("+ 0 0 %lu 1 1", max_seq) > 0);
		assert_int_equal(pgdat->__lruvec.lrugen.max_seq, max_seq + 1);
	}
}

static unsigned long file_pages_on_nodes(void)
{
	unsigned long n = 0;
	int nid;

	for_each_online_node(nid)
		n += node_page_state(NODE_DATA(nid), NR_FILE_PAGES);
	return n;
}

/*
 * A folio with no memcg (cgroup_disable=memory) has no lruvec stats:
 * __lruvec_stat_mod_folio() counts its page cache on its node alone, in
 * and out.
 */
static void cgroup_disable_memory_counts_page_cache_on_the_node(void **state)
{
	struct tb_file *f = tb_file_create(256);
	unsigned long before = file_pages_on_nodes();

	tb_run_in("");
	tb_read_range(f, 256);
	assert_int_equal(tb_file_cached(f), 256);
	assert_int_equal(file_pages_on_nodes(), before + 256);
	tb_file_destroy(f);
	assert_int_equal(file_pages_on_nodes(), before);
}

/* cgroup_disable=memory: the root's css_online() queues no periodic stats flush */
static void cgroup_disable_memory_queues_no_stats_flush(void **state)
{
	tb_skip_before_6_4("root css_online() without memcg");
	assert_true(mem_cgroup_disabled());
	assert_false(tb_memcg_stats_flush_queued());
}

static int setup_memcg_disabled_swap(void **state)
{
	tb_mem.swap_pages = PAGES(64 * MB);
	return setup_memcg_disabled(state);
}

/*
 * cgroup_disable=memory: mem_cgroup_get_nr_swap_pages() answers the swap
 * device's free slots for any memcg, NULL (the node's lruvec) included
 */
static void cgroup_disable_memory_leaves_all_swap_to_everyone(void **state)
{
	assert_true(mem_cgroup_disabled());
	assert_int_equal(get_nr_swap_pages(), PAGES(64 * MB));
	assert_int_equal(mem_cgroup_get_nr_swap_pages(NULL), PAGES(64 * MB));
}

static int setup_nosocket(void **state)
{
	cmdline = "cgroup.memory=nosocket";
	return setup_cmdline(state);
}

/*
 * memcg_online_kmem(): with nokmem a new memcg gets no objcg and no kmem
 * id. 7.2 (lru_folio_reparent): its folios are charged through objcgs,
 * which mem_cgroup_css_online() gives every memcg: nokmem leaves only the
 * kmem id out.
 */
static void nokmem_memcgs_have_no_objcg(void **state)
{
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	if (TB_HAVE_lru_folio_reparent)
		assert_non_null(tb_memcg_objcg(tb_memcg("a")));
	else
		assert_null(tb_memcg_objcg(tb_memcg("a")));
	assert_int_equal(tb_memcg("a")->kmemcg_id, -1);
}

static void default_memcgs_have_an_objcg(void **state)
{
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	assert_non_null(tb_memcg_objcg(tb_memcg("a")));
	assert_int_equal(tb_memcg("a")->kmemcg_id, tb_memcg_private_id(tb_memcg("a")));
}

static long sockets_key(void)
{
	return atomic_read(&memcg_sockets_enabled_key.key.enabled);
}

#if TB_HAVE_cgroup_memory_nobpf
extern struct static_key_false memcg_bpf_enabled_key;

static long bpf_key(void)
{
	return atomic_read(&memcg_bpf_enabled_key.key.enabled);
}
#else
static long bpf_key(void)
{
	return 0;
}
#endif

/* mem_cgroup_css_alloc(): every memcg takes the socket key, unless nosocket */
static void nosocket_memcgs_leave_the_socket_key_off(void **state)
{
	long before = sockets_key(), bpf = bpf_key();

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	assert_int_equal(sockets_key(), before);
	/* nosocket alone leaves nobpf off: the bpf key is taken (6.1 has none) */
	assert_int_equal(bpf_key(), bpf + TB_HAVE_cgroup_memory_nobpf);
}

static void default_memcgs_take_the_socket_key(void **state)
{
	long before = sockets_key();

	/* the root's css_online() queued the periodic stats flush */
	assert_true(tb_memcg_stats_flush_queued());
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	assert_int_equal(sockets_key(), before + 1);
}

/* rmdir, then the css is freed after its grace periods and works */
static void remove_and_free(const char *path)
{
	assert_int_equal(tb_cgroup_rmdir(path), 0);
	kshim_rcu_quiesce();
}

/*
 * mem_cgroup_css_free() gives back what mem_cgroup_css_alloc() took: the
 * socket key (on the default hierarchy) and the bpf key, once per memcg
 */
static void freed_memcgs_give_back_the_socket_and_bpf_keys(void **state)
{
	long sockets = sockets_key(), bpf = bpf_key();

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	assert_int_equal(tb_cgroup_mkdir("a/b"), 0);
	assert_int_equal(sockets_key(), sockets + 2);
	/* 6.1 has no bpf key: bpf_key() stays 0 */
	assert_int_equal(bpf_key(), bpf + 2 * TB_HAVE_cgroup_memory_nobpf);
	remove_and_free("a/b");
	assert_int_equal(sockets_key(), sockets + 1);
	assert_int_equal(bpf_key(), bpf + TB_HAVE_cgroup_memory_nobpf);
	remove_and_free("a");
	assert_int_equal(sockets_key(), sockets);
	assert_int_equal(bpf_key(), bpf);
}

static int setup_nosocket_nobpf(void **state)
{
	cmdline = "cgroup.memory=nosocket,nobpf";
	return setup_cmdline(state);
}

/* with nosocket,nobpf neither the alloc nor the free touches the keys */
static void nosocket_nobpf_memcgs_never_touch_the_keys(void **state)
{
	long sockets = sockets_key(), bpf = bpf_key();

	tb_skip_before_6_4("cgroup.memory=nobpf");
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	assert_int_equal(sockets_key(), sockets);
	assert_int_equal(bpf_key(), bpf);
	remove_and_free("a");
	assert_int_equal(sockets_key(), sockets);
	assert_int_equal(bpf_key(), bpf);
}

/* a bad option is refused and the good ones beside it are not applied */
static void unknown_options_are_refused_and_change_nothing(void **state)
{
	assert_int_equal(tb_boot_cmdline("cgroup.memory=nokmem vm.bogus=1"), -EINVAL);
	assert_int_equal(tb_cgroup_mount_options("memory_localevents,nosuch"), -EINVAL);
	assert_false(cgroup_subsys_on_dfl(memory_cgrp_subsys) &&
		     (cgrp_dfl_root.flags & CGRP_ROOT_MEMORY_LOCAL_EVENTS));
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	assert_non_null(tb_memcg_objcg(tb_memcg("a")));
}

/*
 * A machine the world cannot be is refused before anything boots, with
 * -EINVAL (and one line on stderr): under 4 MiB of RAM per node, a swap
 * device over 64 GiB, a vm.swappiness over 200, a vm.watermark_scale_factor
 * over 3000 (the sysctl's own bound). This case's machine is booted only
 * once every bad one was refused.
 */
static int setup_memcg_only(void **state)
{
	tb_setup(state);
	return tb_memcg_boot();
}

static void impossible_machines_are_refused_before_boot(void **state)
{
	struct tb_mem_config bad[] = {
		{ .ram_pages = 1023 },
		{ .swap_pages = (64UL << 18) + 1 },
		{ .swappiness = 201, .swappiness_set = true },
		{ .watermark_scale_factor = 3001 },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		assert_int_equal(tb_mem_boot(&bad[i]), -EINVAL);
		assert_false(tb_mem_booted());
	}
	assert_int_equal(tb_mem_boot(&tb_mem), 0);
	assert_true(tb_mem_booted());
}

/* a child under memory.max reads 4x its limit of page cache */
static void child_hits_its_max(void)
{
	struct tb_file *f = tb_file_create(PAGES(8 * MB));

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	assert_int_equal(tb_cgroup_mkdir("a/b"), 0);
	assert_write_ok("a/b", "memory.max", "2M");
	tb_run_in("a/b");
	tb_read_range(f, PAGES(8 * MB));
}

/* memcg_memory_event(): events count up the tree by default */
static void memory_events_are_hierarchical_by_default(void **state)
{
	child_hits_its_max();
	assert_true(tb_cgroup_read_key("a/b", "memory.events", "max") > 0);
	assert_int_equal(tb_cgroup_read_key("a", "memory.events", "max"),
			 tb_cgroup_read_key("a/b", "memory.events", "max"));
	assert_int_equal(tb_cgroup_read_key("a", "memory.events.local", "max"), 0);
}

/* memory_localevents: the parent's memory.events shows its own events only */
static void memory_localevents_keeps_events_local(void **state)
{
	assert_int_equal(tb_cgroup_mount_options("memory_localevents"), 0);
	child_hits_its_max();
	assert_true(tb_cgroup_read_key("a/b", "memory.events", "max") > 0);
	assert_int_equal(tb_cgroup_read_key("a", "memory.events", "max"), 0);
}

/*
 * Global pressure on a machine with swap: "a" has memory.min 8M, its child
 * "a/b" none; "c" touches more anon than the RAM. With
 * memory_recursiveprot the child inherits the parent's protection and
 * keeps its anon; without it, nothing protects the child.
 */
static unsigned long child_anon_left(bool recursiveprot)
{
	struct tb_vma *vma, *hog;

	if (recursiveprot)
		assert_int_equal(tb_cgroup_mount_options("memory_recursiveprot"), 0);
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	assert_int_equal(tb_cgroup_mkdir("a/b"), 0);
	assert_int_equal(tb_cgroup_mkdir("c"), 0);
	assert_write_ok("a", "memory.min", "8M");
	tb_run_in("a/b");
	vma = tb_map_anon(PAGES(6 * MB));
	tb_touch_range(vma, PAGES(6 * MB), true);
	tb_run_in("c");
	hog = tb_map_anon(PAGES(80 * MB));
	tb_touch_range(hog, PAGES(80 * MB), true);
	return tb_vma_resident(vma);
}

static void memory_recursiveprot_protects_unprotected_children(void **state)
{
	assert_int_equal(child_anon_left(true), PAGES(6 * MB));
}

static void without_recursiveprot_children_are_unprotected(void **state)
{
	if (TB_HAVE_memcgs_need_aging && tb_lru_gen_on()) {
		TB_ONE_NODE_ONLY("asserts a/b's lruvec of node 0 (its generations); on "
				 "several nodes each node's lruvec ages on its own");
		/*
		 * The multi-gen LRU of such trees: a/b's anon, faulted in,
		 * is all in its youngest generation; once eviction moved
		 * min_seq over the empty ones, the lruvec needs aging.
		 * kswapd's get_nr_to_scan() leaves that to
		 * lru_gen_age_node(), which returns at once while another
		 * memcg's eviction makes progress (sc->memcgs_need_aging),
		 * and direct reclaim does not age at DEF_PRIORITY: c's
		 * eviction always makes progress, a/b is never aged nor
		 * scanned and keeps its anon, unprotected as it is.
		 */
		assert_int_equal(child_anon_left(false), PAGES(6 * MB));
		assert_int_equal(tb_memcg("a/b")->memory.emin, 0);
		assert_int_equal(tb_stat("a/b", "pgscan"), 0);
		assert_int_equal(tb_lruvec_of("a/b")->lrugen.max_seq, MIN_NR_GENS + 1);
		assert_true(tb_stat("c", "pgsteal") > 0);
		assert_true(tb_swap_used() > 0);
		return;
	}
	assert_true(child_anon_left(false) < PAGES(6 * MB));
	assert_true(tb_swap_used() > 0);
}

/*
 * vm.swappiness=0 in global reclaim: get_scan_count() gives anon a share
 * of swappiness * ... = 0, so with page cache to reclaim nothing swaps.
 */
static int setup_swappiness_0(void **state)
{
	tb_mem = (struct tb_mem_config){ .swap_pages = PAGES(64 * MB), .swappiness = 0,
					 .swappiness_set = true };
	return tb_reclaim_setup(state);
}

static void vm_swappiness_0_global_reclaim_keeps_anon(void **state)
{
	struct tb_file *f = tb_file_create(PAGES(128 * MB));
	struct tb_vma *vma;

	TB_ONE_NODE_ONLY("a node filled with anon has tiny page cache: get_scan_count() "
			 "scans its anon at any swappiness (test_reclaim_numa)");
	tb_run_in("");
	vma = tb_map_anon(PAGES(16 * MB));
	tb_touch_range(vma, PAGES(16 * MB), true);
	tb_read_range(f, PAGES(128 * MB));
	assert_true(kshim_reclaim_event_read(PGSTEAL_FILE) > 0);
	assert_int_equal(tb_vma_resident(vma), PAGES(16 * MB));
	assert_int_equal(tb_swap_used(), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(nokmem_memcgs_have_no_objcg, setup_nokmem,
						tb_reclaim_teardown),
		TB_RECLAIM_TEST(default_memcgs_have_an_objcg),
		cmocka_unit_test_setup_teardown(nosocket_memcgs_leave_the_socket_key_off,
						setup_nosocket, tb_reclaim_teardown),
		TB_RECLAIM_TEST(default_memcgs_take_the_socket_key),
		TB_RECLAIM_TEST(freed_memcgs_give_back_the_socket_and_bpf_keys),
		TB_RECLAIM_TEST_ON(nosocket_nobpf_memcgs_never_touch_the_keys,
				   setup_nosocket_nobpf),
		TB_RECLAIM_TEST(unknown_options_are_refused_and_change_nothing),
		TB_RECLAIM_TEST_ON(impossible_machines_are_refused_before_boot, setup_memcg_only),
		cmocka_unit_test_setup_teardown(cgroup_disable_memory_reclaims_the_node_lruvec,
						setup_memcg_disabled, tb_reclaim_teardown),
		cmocka_unit_test_setup_teardown(cgroup_disable_memory_counts_page_cache_on_the_node,
						setup_memcg_disabled, tb_reclaim_teardown),
		TB_RECLAIM_TEST_ON(cgroup_disable_memory_leaves_all_swap_to_everyone,
				   setup_memcg_disabled_swap),
		TB_RECLAIM_TEST_ON(cgroup_disable_memory_queues_no_stats_flush,
				   setup_memcg_disabled),
		TB_RECLAIM_TEST(memory_events_are_hierarchical_by_default),
		TB_RECLAIM_TEST(memory_localevents_keeps_events_local),
		TB_RECLAIM_SWAP_TEST(memory_recursiveprot_protects_unprotected_children),
		TB_RECLAIM_SWAP_TEST(without_recursiveprot_children_are_unprotected),
		TB_RECLAIM_TEST_ON(vm_swappiness_0_global_reclaim_keeps_anon, setup_swappiness_0),
	};

	return TB_RUN(tests);
}
