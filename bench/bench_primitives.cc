// SPDX-License-Identifier: GPL-2.0-only
/*
 * What each shim primitive costs in the benchmark build (TB_KERNEL_COST):
 * one benchmark per primitive, PRIM_N operations per iteration, time per
 * operation as the "per_op" counter. The README's primitive table sets
 * these beside the kernel's; tools/tb bench adds the instruction count.
 */
#include <benchmark/benchmark.h>
#include "prim_ops.h"

static void BM_prim(benchmark::State &state)
{
	unsigned int i = static_cast<unsigned int>(state.range(0));

	for (auto _ : state)
		prim_run(i);
	state.SetLabel(prim_name(i));
	state.counters["per_op"] = benchmark::Counter(
		static_cast<double>(PRIM_N), benchmark::Counter::kIsIterationInvariantRate |
		benchmark::Counter::kInvert);
}

int main(int argc, char **argv)
{
	unsigned int i;

	prim_setup();
	for (i = 0; prim_name(i); i++)
		benchmark::RegisterBenchmark((std::string("BM_prim/") + prim_name(i)).c_str(),
					     BM_prim)->Arg(i);
	benchmark::Initialize(&argc, argv);
	if (benchmark::ReportUnrecognizedArguments(argc, argv))
		return 1;
	benchmark::RunSpecifiedBenchmarks();
	benchmark::Shutdown();
	prim_teardown();
	return 0;
}
