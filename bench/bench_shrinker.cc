// SPDX-License-Identifier: GPL-2.0-only
/*
 * shrink_slab over 1000 memcgs (the real mm/shrinker.c), 1 and 2
 * reclaimer threads. One iteration is one pass over every memcg; the
 * items counter is memcgs visited, so items/s is the reclaim walk rate.
 */
#include <benchmark/benchmark.h>
#include "shrinker_ops.h"

static const int nr_memcgs = 1000;

static void setup(const benchmark::State &state)
{
	sb_setup(nr_memcgs, static_cast<unsigned int>(state.range(0)));
}

static void teardown(const benchmark::State &state)
{
	sb_teardown();
}

static void BM_shrink_slab_memcgs(benchmark::State &state)
{
	sb_thread_enter(state.thread_index());
	for (auto _ : state)
		benchmark::DoNotOptimize(sb_shrink_all(0, 10));
	state.SetItemsProcessed(state.iterations() * (nr_memcgs + 1));
	if (state.thread_index())
		sb_thread_exit();
}

BENCHMARK(BM_shrink_slab_memcgs)
	->ArgName("shrinkers")->Arg(1)->Arg(4)
	->Threads(1)->Threads(2)
	->Setup(setup)->Teardown(teardown)
	->UseRealTime()->Unit(benchmark::kMicrosecond);

BENCHMARK_MAIN();
