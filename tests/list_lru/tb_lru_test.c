// SPDX-License-Identifier: GPL-2.0-only
#include <linux/kernel.h>
#include <kshim/memcg.h>
#include <kshim/objpage.h>
#include "tb_lru_test.h"

int tb_lru_setup(void **state)
{
	const struct tb_fs_ops *ops = *state;

	tb_world.nr_nodes = 2;
	tb_setup(state);
	ops->use();
	ops->giveups_reset();
	tb_fs_errors();
	return 0;
}

int tb_lru_teardown(void **state)
{
	long errors = tb_fs_errors();
	int ret = tb_teardown(state);

	/* after the teardown: its RCU flush frees memcgs through the hooks */
	kshim_memcg_hooks = NULL;
	if (ret)
		return -1;
	if (errors || kshim_objpage_live()) {
		print_error("harness errors (objects freed twice, fresh objects list_lru_add refused): %ld, object pages left: %lu\n",
			    errors, kshim_objpage_live());
		return -1;
	}
	return 0;
}
