// SPDX-License-Identifier: GPL-2.0-only
/*
 * Seed 003 as before/after pairs in one binary: shrink_slab over N memcgs
 * with 6.1's shrinker code (shrinker_rwsem, down_read_trylock per memcg)
 * and 6.12's (lockless, RCU + refcounts), 1 and 2 reclaimer threads, with
 * and without a thread mounting and unmounting a filesystem. One iteration
 * is one full pass (every memcg once). Counters: visits/s (memcgs walked
 * per second, all reclaimers together), gave_up/pass (6.1: shrink_slab
 * calls that found shrinker_rwsem contended and returned without
 * shrinking), cut_short (6.1: do_shrink_slab loops broken by
 * rwsem_is_contended), mounts/s of the churn thread.
 */
#include <benchmark/benchmark.h>
#include "shrink_trees_ops.h"

static void setup(const benchmark::State &state)
{
	st_setup(state.range(0) == 612, static_cast<unsigned int>(state.range(1)),
		 static_cast<int>(state.range(2)));
}

static void teardown(const benchmark::State &state)
{
	st_teardown();
}

static void BM_shrink_trees(benchmark::State &state)
{
	unsigned long visits = 0;

	st_thread_enter(state.thread_index());
	for (auto _ : state)
		visits += st_pass();
	state.counters["visits/s"] = benchmark::Counter(static_cast<double>(visits),
							benchmark::Counter::kIsRate);
	if (!state.thread_index()) {
		long fails, breaks;

		st_giveups(&fails, &breaks);
		state.counters["gave_up/pass"] = benchmark::Counter(
			static_cast<double>(fails), benchmark::Counter::kAvgIterations);
		state.counters["gave_up"] = static_cast<double>(fails);
		state.counters["cut_short"] = static_cast<double>(breaks);
		state.counters["mounts/s"] = benchmark::Counter(
			static_cast<double>(st_churned()), benchmark::Counter::kIsRate);
	}
	if (state.thread_index())
		st_thread_exit();
}

/* tree (61 = 6.1, 612 = 6.12) x memcgs x churn; the first varies fastest, so
 * the trees' rows come side by side */
BENCHMARK(BM_shrink_trees)
	->ArgNames({"tree", "memcgs", "churn"})
	->ArgsProduct({{61, 612}, {1000, 4000}, {0, 1}})
	->Threads(1)->Threads(2)
	->Setup(setup)->Teardown(teardown)
	->UseRealTime()->Unit(benchmark::kMicrosecond);

int main(int argc, char **argv)
{
	benchmark::Initialize(&argc, argv);
	if (benchmark::ReportUnrecognizedArguments(argc, argv))
		return 1;
	benchmark::RunSpecifiedBenchmarks();
	benchmark::Shutdown();
	return st_shutdown();
}
