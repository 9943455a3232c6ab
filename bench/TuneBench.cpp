// Speed of the configuration search (issue 14; targets: an analytic search of 100,000
// configurations under 2 s on 2 cores, the timeline confirmation of the top 20 multipod
// configurations under 30 s). Run:
//   build/bin/podscope_tune_bench
// Throughput per MPI rank: docs/performance.md (mpirun -np 1 and -np 2 of podscope-cli tune).
#include "search/Search.hpp"
#include "search/SearchSpace.hpp"
#include "search/TuneReport.hpp"
#include "training/Presets.hpp"

#include <benchmark/benchmark.h>

namespace podscope::search {
namespace {

// ResNet-50 on 2048 and 4096 chips: 112,000 configurations (docs/performance.md).
SearchSpace resnetSpace() {
    SpaceRequest request;
    request.base = loadPreset("mlperf07-resnet50-tf-4096").scenario;
    request.chips = {2048, 4096};
    return SearchSpace(request);
}

void BM_AnalyticSearch(benchmark::State& state) {
    const SearchSpace space = resnetSpace();
    SearchOptions options;
    options.threads = static_cast<int>(state.range(0));
    std::uint64_t evaluated = 0;
    for (auto _ : state) {
        const SearchTally tally = runSearch(space, options);
        evaluated = tally.evaluated();
        benchmark::DoNotOptimize(tally.best().front().score);
    }
    state.counters["configurations"] = static_cast<double>(space.configurationCount());
    state.counters["evaluated"] = static_cast<double>(evaluated);
    state.counters["configurations_per_s"] =
        benchmark::Counter(static_cast<double>(space.configurationCount()),
                           benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_AnalyticSearch)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

// The 20 fastest Transformer configurations on the multipod, each through the step timeline.
void BM_TimelineConfirmTop20(benchmark::State& state) {
    SpaceRequest request;
    request.base = loadPreset("mlperf07-transformer-tf-4096").scenario;
    request.chips = {4096};
    const SearchSpace space(request);
    SearchOptions options;
    options.threads = static_cast<int>(state.range(0));
    options.keep = 21;
    const SearchTally tally = runSearch(space, options);
    TuneSettings settings;
    settings.top = 20;
    settings.threads = options.threads;
    settings.fidelity = Fidelity::Timeline;
    for (auto _ : state) {
        const TuneReport report = buildTuneReport(space, tally, settings);
        benchmark::DoNotOptimize(report.top.size());
    }
}
BENCHMARK(BM_TimelineConfirmTop20)
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(1);

} // namespace
} // namespace podscope::search

BENCHMARK_MAIN();
