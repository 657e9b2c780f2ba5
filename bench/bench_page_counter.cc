// SPDX-License-Identifier: GPL-2.0-only
/*
 * page_counter charge+uncharge cost against hierarchy depth and thread
 * count. C++ only: the kernel side lives in page_counter_ops.c.
 */
#include <benchmark/benchmark.h>
#include "page_counter_ops.h"

/* once per run, before its threads start: a fresh world and chain */
static void setup(const benchmark::State &state)
{
	pcb_setup(static_cast<unsigned int>(state.range(0)));
}

static void teardown(const benchmark::State &state)
{
	pcb_teardown();
}

static void BM_charge_uncharge(benchmark::State &state)
{
	/* each benchmark thread is one virtual CPU */
	pcb_thread_enter(state.thread_index());
	for (auto _ : state) {
		if (pcb_charge_uncharge()) {
			state.SkipWithError("try_charge failed");
			break;
		}
	}
	state.SetItemsProcessed(state.iterations());
	/* thread 0 is the main thread, which keeps its world membership */
	if (state.thread_index())
		pcb_thread_exit();
}

BENCHMARK(BM_charge_uncharge)
	->ArgName("depth")->Arg(1)->Arg(4)
	->Threads(1)->Threads(2)
	->Setup(setup)->Teardown(teardown)
	->UseRealTime();

BENCHMARK_MAIN();
