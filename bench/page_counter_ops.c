// SPDX-License-Identifier: GPL-2.0-only
/*
 * The page_counter side of bench_page_counter: a world and one chain of
 * counters of the wanted depth. Every benchmark thread charges the same
 * leaf, so with 2 threads every level's usage cache line is contended,
 * as for a memcg whose per-CPU stock is exhausted.
 */
#include <linux/kernel.h>
#include <linux/page_counter.h>
#include <kshim/testbed.h>
#include <kshim/page_counter.h>
#include "page_counter_ops.h"

#define PCB_MAX_DEPTH 8

static struct page_counter chain[PCB_MAX_DEPTH];
static struct page_counter *leaf;

void pcb_setup(unsigned int depth)
{
	unsigned int i;

	if (!depth || depth > PCB_MAX_DEPTH)
		abort();
	kshim_world_boot(NULL);
	memset(chain, 0, sizeof(chain));
	for (i = 0; i < depth; i++)
		kshim_page_counter_init(&chain[i], i ? &chain[i - 1] : NULL, true);
	leaf = &chain[depth - 1];
}

void pcb_teardown(void)
{
	const char *msg = kshim_world_check();

	if (msg || page_counter_read(&chain[0])) {
		fprintf(stderr, "bench_page_counter: %s\n", msg ? msg : "usage left");
		abort();
	}
	kshim_world_teardown();
}

void pcb_thread_enter(int cpu)
{
	kshim_thread_enter(cpu);
}

void pcb_thread_exit(void)
{
	kshim_thread_exit();
}

/* the memcg fast path's shape: try_charge one page, then give it back */
int pcb_charge_uncharge(void)
{
	struct page_counter *fail;

	if (!page_counter_try_charge(leaf, 1, &fail))
		return -1;
	page_counter_uncharge(leaf, 1);
	return 0;
}
