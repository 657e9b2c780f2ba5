// SPDX-License-Identifier: GPL-2.0-only
/*
 * Kernel threads of the world. kswapd does not run yet: no node has a
 * kswapd thread, so wakeup_kswapd() finds nobody waiting on kswapd_wait
 * and returns, as on a node whose kswapd was never started; memory runs
 * short into direct reclaim.
 */
#include <linux/kthread.h>
#include "world.h"

bool kthread_should_stop(void)
{
	return false;
}

bool kthread_freezable_should_stop(bool *was_frozen)
{
	if (was_frozen)
		*was_frozen = false;
	return false;
}

void tb_kswapd_stop_all(void)
{
}
