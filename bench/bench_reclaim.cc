// SPDX-License-Identifier: GPL-2.0-only
/*
 * Reclaim throughput of the real 6.12 mm/vmscan.c, single thread: pages
 * reclaimed per second of wall time by one write of N pages' worth to a
 * memcg's memory.reclaim, the memcg holding N pages of clean page cache
 * read once (BM_reclaim_file) or of anonymous memory written once, to a
 * swap device (BM_reclaim_anon). Only the memory.reclaim write is timed
 * (manual time); the refill before it (re-reading the file, touching the
 * anon pages again) is not. Counters: pages_per_s (pages reclaimed, as
 * memory.stat pgsteal counts them, over the timed wall time), ns_per_page,
 * insn_per_page (instructions retired in the write per page reclaimed,
 * perf_event_open; insn_counted = 0 where the machine has no counter),
 * scanned_per_page (pgscan over pgsteal), pages_per_iter, short_iters
 * (writes that returned -EAGAIN, short of N).
 * The *_mglru rows are the same with the multi-gen LRU switched on
 * (lru_gen/enabled = y before the first page): eviction by
 * lru_gen_shrink_lruvec(), its aging and evict_folios(), beside the
 * classic LRU's shrink_lruvec() in the same run.
 * C++ only: the kernel side lives in reclaim_ops.c.
 */
#include <benchmark/benchmark.h>
#include <cstdio>
#include "reclaim_ops.h"

static bool setup_failed;
static bool teardown_failed;

template <int mglru>
static void setup(const benchmark::State &state)
{
	setup_failed = rb_setup(static_cast<enum rb_kind>(state.range(0)),
				static_cast<unsigned long>(state.range(1)), mglru) != 0;
}

static void teardown(const benchmark::State &state)
{
	if (rb_teardown())
		teardown_failed = true;
}

static void BM_reclaim(benchmark::State &state)
{
	unsigned long long pages = 0, scanned = 0;
	long long ns = 0, insns = 0, shorts = 0;
	bool counted = rb_insn_available();

	if (setup_failed) {
		state.SkipWithError("world setup failed");
		return;
	}
	for (auto _ : state) {
		struct rb_result res;

		if (rb_refill() || rb_reclaim(&res)) {
			state.SkipWithError("refill or reclaim failed");
			break;
		}
		state.SetIterationTime(res.ns * 1e-9);
		pages += res.pages;
		scanned += res.scanned;
		ns += res.ns;
		if (res.insns < 0)
			counted = false;
		else
			insns += res.insns;
		if (res.err)
			shorts++;
	}
	double p = static_cast<double>(pages);

	state.counters["pages_per_s"] = benchmark::Counter(p, benchmark::Counter::kIsRate);
	state.counters["ns_per_page"] = pages ? ns / p : 0;
	state.counters["pages_per_iter"] = benchmark::Counter(p,
		benchmark::Counter::kAvgIterations);
	state.counters["scanned_per_page"] = pages ? scanned / p : 0;
	state.counters["insn_counted"] = counted ? 1 : 0;
	if (counted)
		state.counters["insn_per_page"] = pages ? insns / p : 0;
	state.counters["short_iters"] = static_cast<double>(shorts);
}

/* kind (0 = clean page cache, 1 = anon to swap) x pages per iteration */
#define BM_RECLAIM(name, k, mglru)					\
	BENCHMARK(BM_reclaim)->Name(name)				\
		->ArgNames({"anon", "pages"})				\
		->ArgsProduct({{k}, {8192, 16384, 32768}})		\
		->Setup(setup<mglru>)->Teardown(teardown)		\
		->UseManualTime()->Unit(benchmark::kMillisecond)

BM_RECLAIM("BM_reclaim_file", RB_FILE, 0);
BM_RECLAIM("BM_reclaim_file_mglru", RB_FILE, 1);
BM_RECLAIM("BM_reclaim_anon", RB_ANON, 0);
BM_RECLAIM("BM_reclaim_anon_mglru", RB_ANON, 1);

static void touch_setup(const benchmark::State &state)
{
	setup_failed = rb_touch_setup(static_cast<unsigned long>(state.range(0))) != 0;
}

/*
 * The world's cost of one access that hits a resident page (page-table
 * walk, accessed and dirty bits, virtual clock): the per-access cost of
 * seed 002, whose accesses are almost all hits. Counters: ns_per_touch,
 * insn_per_touch. BM_touch_hit_prefetch: the same touches, each pte
 * prefetched 8 touches ahead (tb_touch_prefetch()), as seed 002 does.
 */
template <int prefetch>
static void BM_touch_hit(benchmark::State &state)
{
	const unsigned long n = 1 << 16;
	long long ns = 0, insns = 0, touches = 0;
	bool counted = rb_insn_available();

	if (setup_failed) {
		state.SkipWithError("world setup failed");
		return;
	}
	for (auto _ : state) {
		struct rb_result res;

		if (rb_touch_random(n, prefetch, &res)) {
			state.SkipWithError("touch failed");
			break;
		}
		state.SetIterationTime(res.ns * 1e-9);
		ns += res.ns;
		touches += n;
		if (res.insns < 0)
			counted = false;
		else
			insns += res.insns;
	}
	state.counters["ns_per_touch"] = touches ? static_cast<double>(ns) / touches : 0;
	state.counters["insn_counted"] = counted ? 1 : 0;
	if (counted)
		state.counters["insn_per_touch"] = touches ? static_cast<double>(insns) / touches : 0;
}
/* the same touches with each pte prefetched 8 touches ahead, as seed 002 does */
#define BM_TOUCH(name, prefetch)						\
	BENCHMARK(BM_touch_hit<prefetch>)->Name(name)->ArgNames({"pages"})	\
		->Arg(1 << 16)->Arg(1 << 20)->Arg(1 << 22)			\
		->Setup(touch_setup)->Teardown(teardown)->UseManualTime()	\
		->Unit(benchmark::kMillisecond)
BM_TOUCH("BM_touch_hit", 0);
BM_TOUCH("BM_touch_hit_prefetch", 1);

int main(int argc, char **argv)
{
	benchmark::Initialize(&argc, argv);
	if (benchmark::ReportUnrecognizedArguments(argc, argv))
		return 1;
	benchmark::RunSpecifiedBenchmarks();
	benchmark::Shutdown();
	if (teardown_failed) {
		std::fprintf(stderr, "bench_reclaim: a teardown check failed\n");
		return 1;
	}
	return 0;
}
