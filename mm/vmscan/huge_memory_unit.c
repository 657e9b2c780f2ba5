// SPDX-License-Identifier: GPL-2.0-only
/*
 * mm/huge_memory.c's policy and mechanics of transparent huge pages: the
 * sysfs knobs and boot options, the orders a fault may take, the split
 * of a large folio and of a PMD mapping, the deferred split queue and its
 * shrinker, over the reclaim environment.
 */
#include "vmscan/reclaim_env.h"
#include <asm-generic/tlb.h>	/* madvise_free_huge_pmd()'s TLB gathering */
#include <linux/swapops.h>
#include <linux/page_owner.h>
#include <linux/poison.h>
#include <asm/pgalloc.h>
#include <linux/sizes.h>
#include <linux/list_lru.h>
#include <linux/userfaultfd_k.h>
#if TB_HAVE_leafops_h
#include <linux/leafops.h>
#endif

/* mm/vmscan/khugepaged_unit.c: khugepaged's statics as at boot */
void tb_khugepaged_reset(void);
void tb_khugepaged_drop_scan(void);

#include KHUGE_MEMORY_EXTRACT

/*
 * The kernel's boot values of the settings a world changes (its command
 * line, its sysfs writes), for the next world to start from
 */
static unsigned long thp_flags_at_boot;
static bool thp_cmdline_set;

static __attribute__((constructor)) void thp_boot_values(void)
{
	thp_flags_at_boot = transparent_hugepage_flags;
}

static const struct {
	const char *name;
	int (*setup)(char *str);
} thp_options[] = {
	{ "transparent_hugepage=", setup_transparent_hugepage },
	{ "thp_anon=", setup_thp_anon },
};

/*
 * A boot option goes to its own __setup handler, which takes it or warns
 * and ignores it, as the kernel does (then -EINVAL)
 */
int tb_thp_boot_option(char *opt, bool apply)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(thp_options); i++) {
		size_t len = strlen(thp_options[i].name);

		if (strncmp(opt, thp_options[i].name, len))
			continue;
		if (!apply)
			return 0;
		if (!thp_options[i].setup(opt + len))
			return -EINVAL;
		if (i == 0)
			thp_cmdline_set = true;
		return 0;
	}
	return -ENOENT;
}

/*
 * hugepage_init() at subsys_initcall time. Without transparent_hugepage=
 * on its command line the world boots with "never", as the oracle boots
 * the real kernel: a test asks for THP by the boot option or sysfs.
 */
void tb_thp_boot(void)
{
	if (!thp_cmdline_set)
		setup_transparent_hugepage("never");
	/*
	 * /sys/kernel/mm/transparent_hugepage/use_zero_page = 0: the world
	 * maps no huge zero page, so a read fault allocates a THP as a write
	 * fault does (the kernel's default is 1)
	 */
	clear_bit(TRANSPARENT_HUGEPAGE_USE_ZERO_PAGE_FLAG, &transparent_hugepage_flags);
	WARN_ON(hugepage_init());
}

/* what hugepage_init() made goes; the next boot starts from the kernel's values */
void tb_thp_shutdown(void)
{
	/* every size off first, so that khugepaged's thread is stopped */
	transparent_hugepage_flags = 0;
	huge_anon_orders_always = huge_anon_orders_madvise = huge_anon_orders_inherit = 0;
	WARN_ON(start_stop_khugepaged());
	tb_khugepaged_drop_scan();
	thp_shrinker_exit();
	khugepaged_destroy();
	hugepage_exit_sysfs(kobject_create_and_add("transparent_hugepage", mm_kobj));
	transparent_hugepage_flags = thp_flags_at_boot;
	anon_orders_configured = false;
	thp_cmdline_set = false;
	tb_khugepaged_reset();
}

/*
 * A per-size THP counter (hugepages-<size>kB/stats/) for the world: the
 * per-CPU mthp_stats live in this library's per-CPU section, which only
 * its own code reaches (the world's swap device counts MTHP_STAT_SWPOUT)
 */
void tb_count_mthp_stat(int order, enum mthp_stat_item item)
{
	count_mthp_stat(order, item);
}
