// SPDX-License-Identifier: GPL-2.0-only
/*
 * The real 6.12 mm/memcontrol.c: folio charge+uncharge with a per-CPU
 * stock hit vs a stock miss, against hierarchy depth and thread count;
 * and mod_objcg_state, 6.12 ("after", one vmstat slot per slab type) vs
 * the single-slot stock ("before", mm/variants/obj_stock_single_slot.c)
 * on an alternating and a single-type trace. C++ only: the kernel side
 * lives in memcg_ops.c.
 */
#include <benchmark/benchmark.h>
#include "memcg_ops.h"

/* charge+uncharge pairs timed per iteration; the stock holds 63 */
#define PAIRS 32

/* once per run, before its threads start: a fresh world */
static void setup(const benchmark::State &state)
{
	mcb_setup(static_cast<unsigned int>(state.range(0)));
}

static void setup_depth1(const benchmark::State &state)
{
	mcb_setup(1);
}

static void teardown(const benchmark::State &state)
{
	mcb_teardown();
}

/*
 * Manual time: only the PAIRS charge+uncharge pairs are timed, not the
 * stock refill that lets every charge of the hit case hit.
 */
static void charge(benchmark::State &state, int miss)
{
	/* each benchmark thread is one virtual CPU */
	long long total = 0;

	mcb_thread_enter(state.thread_index());
	for (auto _ : state) {
		long long ns = mcb_charge_run(miss, PAIRS);

		if (ns < 0) {
			state.SkipWithError("charge failed");
			break;
		}
		total += ns;
		state.SetIterationTime(ns * 1e-9);
	}
	state.SetItemsProcessed(state.iterations() * PAIRS);
	/*
	 * each thread's own latency, averaged over the threads (with 2
	 * threads the Time column is wall time over all threads' iterations)
	 */
	state.counters["ns_per_pair"] = benchmark::Counter(state.iterations() ?
		static_cast<double>(total) / (state.iterations() * PAIRS) : 0,
		benchmark::Counter::kAvgThreads);
	/* thread 0 is the main thread, which keeps its world membership */
	if (state.thread_index())
		mcb_thread_exit();
}

static void BM_memcg_charge_hit(benchmark::State &state)
{
	charge(state, 0);
}

static void BM_memcg_charge_miss(benchmark::State &state)
{
	charge(state, 1);
}

BENCHMARK(BM_memcg_charge_hit)
	->ArgName("depth")->Arg(1)->Arg(4)
	->Threads(1)->Threads(2)
	->Setup(setup)->Teardown(teardown)
	->UseManualTime();

BENCHMARK(BM_memcg_charge_miss)
	->ArgName("depth")->Arg(1)->Arg(4)
	->Threads(1)->Threads(2)
	->Setup(setup)->Teardown(teardown)
	->UseManualTime();

/* range(0): 0 = 6.12 "after", 1 = single-slot "before"; range(1): trace */
static void BM_memcg_objstock(benchmark::State &state)
{
	int before = static_cast<int>(state.range(0));
	int alternating = static_cast<int>(state.range(1));
	unsigned long i = 0, mod, flush;

	mcb_thread_enter(0);
	mcb_objstock_begin(before);
	for (auto _ : state)
		mcb_objstock_step(i++, alternating);
	mcb_objstock_counts(&mod, &flush);
	state.SetItemsProcessed(state.iterations());
	state.counters["mod_calls"] = static_cast<double>(mod);
	state.counters["flush_calls"] = static_cast<double>(flush);
	state.counters["miss_rate"] = mod ? static_cast<double>(flush) / mod : 0;
}

BENCHMARK(BM_memcg_objstock)
	->ArgNames({"before", "alternating"})
	->Args({0, 1})->Args({1, 1})->Args({0, 0})->Args({1, 0})
	->Setup(setup_depth1)->Teardown(teardown)
	->UseRealTime();

BENCHMARK_MAIN();
