// SPDX-License-Identifier: GPL-2.0-only
/*
 * Transparent huge pages' settings as mm/huge_memory.c and mm/khugepaged.c
 * keep them: the boot options, hugepage_init()'s rule for small machines,
 * the files of /sys/kernel/mm/transparent_hugepage (one directory per
 * size), and the free-memory reserve khugepaged keeps while THP is on
 * (set_recommended_min_free_kbytes()). The world boots with
 * transparent_hugepage=never unless its command line says otherwise.
 */
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/mmzone.h>
#include "tb_reclaim.h"

#define THP "kernel/mm/transparent_hugepage/"

/* a machine of mb MiB booted with the command line given */
static int boot(void **state, unsigned long mb, const char *cmdline)
{
	tb_mem = (struct tb_mem_config){ .ram_pages = PAGES(mb * MB) };
	tb_setup(state);
	if (tb_boot_cmdline(cmdline) || tb_memcg_boot() || tb_mem_boot(&tb_mem))
		return -1;
	return 0;
}

static int setup_1g(void **state)
{
	return boot(state, 1024, "");
}

static int setup_1g_always(void **state)
{
	return boot(state, 1024, "transparent_hugepage=always");
}

static int setup_256m_always(void **state)
{
	return boot(state, 256, "transparent_hugepage=always");
}

static int setup_1g_anon_64k(void **state)
{
	return boot(state, 1024, "thp_anon=64K:always");
}

static void assert_reads(const char *file, const char *want)
{
	char buf[256];

	assert_true(tb_sysfs_read(file, buf, sizeof(buf)) > 0);
	assert_string_equal(buf, want);
}

static void thp_boots_never_without_a_boot_option(void **state)
{
	assert_reads(THP "enabled", "always madvise [never]\n");
	assert_reads(THP "hpage_pmd_size", "2097152\n");
	assert_reads(THP "khugepaged/max_ptes_none", "511\n");
}

static void thp_boot_option_always_turns_it_on(void **state)
{
	assert_reads(THP "enabled", "[always] madvise never\n");
	/* the PMD size inherits the global setting; the smaller ones are off */
	assert_reads(THP "hugepages-2048kB/enabled", "always [inherit] madvise never\n");
	assert_reads(THP "hugepages-64kB/enabled", "always inherit madvise [never]\n");
}

/* hugepage_init(): below 512 MiB of RAM THP starts off, whatever the command line */
static void thp_stays_off_below_512_mib_of_ram(void **state)
{
	assert_reads(THP "enabled", "always madvise [never]\n");
	assert_int_equal(tb_sysfs_write(THP "enabled", "always"), strlen("always"));
	assert_reads(THP "enabled", "[always] madvise never\n");
}

static void thp_anon_boot_option_sets_one_size(void **state)
{
	assert_reads(THP "hugepages-64kB/enabled", "[always] inherit madvise never\n");
	assert_reads(THP "hugepages-2048kB/enabled", "always inherit madvise [never]\n");
}

static void thp_refuses_a_bad_setting_with_einval(void **state)
{
	assert_int_equal(tb_sysfs_write(THP "enabled", "sometimes"), -EINVAL);
	assert_int_equal(tb_sysfs_write(THP "hugepages-2048kB/enabled", "sometimes"), -EINVAL);
	assert_int_equal(tb_sysfs_write(THP "khugepaged/max_ptes_none", "512"), -EINVAL);
	assert_reads(THP "enabled", "always madvise [never]\n");
}

static void thp_boot_option_of_a_bad_value_is_refused(void **state)
{
	/* a world booted already: the option is checked, not applied */
	assert_int_equal(tb_boot_cmdline("transparent_hugepage=sometimes"), -EINVAL);
	assert_reads(THP "enabled", "always madvise [never]\n");
}

/*
 * set_recommended_min_free_kbytes(), which runs whenever the setting
 * changes: with THP on, two pageblocks free plus MIGRATE_PCPTYPES^2 per
 * zone (ZONE_NORMAL alone, 512-page pageblocks): 5632 pages, 22528 kB,
 * under 5% of the buffer pages. With THP off, the kernel's formula,
 * int_sqrt(16 * kB of buffer pages), the buffer pages being RAM less the
 * high watermark of the moment: 262144 - 1548 pages at boot (min 1024 of
 * 4096 kB, high 1024 + 2 * 262), 4083 kB; 262144 - 8448 after THP's
 * reserve (min 5632, high 5632 + 2 * 1408), 4029 kB.
 */
static void thp_on_raises_min_free_kbytes_to_khugepaged_reserve(void **state)
{
	assert_int_equal(min_free_kbytes, 4083);
	assert_int_equal(tb_wmark(0, WMARK_MIN), 4083 / 4);
	assert_int_equal(tb_sysfs_write(THP "enabled", "always"), strlen("always"));
	assert_int_equal(min_free_kbytes, 22528);
	assert_int_equal(tb_wmark(0, WMARK_MIN), 5632);
	assert_int_equal(tb_wmark(0, WMARK_HIGH), 5632 + 2 * 1408);
	assert_int_equal(tb_sysfs_write(THP "enabled", "never"), strlen("never"));
	assert_int_equal(min_free_kbytes, 4029);
	assert_int_equal(tb_wmark(0, WMARK_MIN), 4029 / 4);
}

/* with THP on at boot, the reserve is there from the start */
static void thp_always_at_boot_keeps_khugepaged_reserve(void **state)
{
	assert_int_equal(min_free_kbytes, 22528);
	assert_int_equal(tb_wmark(0, WMARK_MIN), 5632);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(thp_boots_never_without_a_boot_option,
						setup_1g, tb_reclaim_teardown),
		cmocka_unit_test_setup_teardown(thp_boot_option_always_turns_it_on,
						setup_1g_always, tb_reclaim_teardown),
		cmocka_unit_test_setup_teardown(thp_stays_off_below_512_mib_of_ram,
						setup_256m_always, tb_reclaim_teardown),
		cmocka_unit_test_setup_teardown(thp_anon_boot_option_sets_one_size,
						setup_1g_anon_64k, tb_reclaim_teardown),
		cmocka_unit_test_setup_teardown(thp_refuses_a_bad_setting_with_einval,
						setup_1g, tb_reclaim_teardown),
		cmocka_unit_test_setup_teardown(thp_boot_option_of_a_bad_value_is_refused,
						setup_1g, tb_reclaim_teardown),
		cmocka_unit_test_setup_teardown(thp_on_raises_min_free_kbytes_to_khugepaged_reserve,
						setup_1g, tb_reclaim_teardown),
		cmocka_unit_test_setup_teardown(thp_always_at_boot_keeps_khugepaged_reserve,
						setup_1g_always, tb_reclaim_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
