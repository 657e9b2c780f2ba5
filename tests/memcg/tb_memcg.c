// SPDX-License-Identifier: GPL-2.0-only
#include <linux/kernel.h>
#include <string.h>
#include "tb_memcg.h"

int tb_memcg_setup(void **state)
{
	tb_setup(state);
	if (tb_memcg_boot()) {
		print_error("tb_memcg_boot failed\n");
		return -1;
	}
	return 0;
}

int tb_memcg_teardown(void **state)
{
	/* first: the clean-up below takes locks a failed test may hold */
	kshim_release_held();
	tb_task_leave();
	tb_memcg_shutdown();
	return tb_teardown(state);
}

struct folio *tb_charge_ok(unsigned int nr_pages)
{
	int err;
	struct folio *f = tb_folio_charge(nr_pages, GFP_KERNEL, &err);

	assert_int_equal(err, 0);
	assert_non_null(f);
	return f;
}
