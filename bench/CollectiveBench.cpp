// Speed and memory of the collective engines. Run:
//   build/bin/podscope_collective_bench --benchmark_counters_tabular=true
// Figures are quoted in docs/performance.md.
#include "collective/AnalyticEngine.hpp"
#include "collective/EventEngine.hpp"
#include "collective/FunctionalRunner.hpp"
#include "collective/LoadProfile.hpp"
#include "topology/Hardware.hpp"
#include "topology/TopologyPresets.hpp"

#include "machine/Machine.hpp"

#include <benchmark/benchmark.h>

#include <sys/resource.h>

namespace podscope {
namespace {

Topology slice(std::int64_t chips) {
    const std::string& machine = defaultMachineName();
    const auto preset = standardSlice(machine, chips);
    TopologySpec spec = resolveTopology(namedTopologyPresets(machine).front().name, std::nullopt,
                                        loadHardware(machine));
    spec.name = preset.name;
    spec.dims = preset.dims;
    spec.wrap = preset.wrap;
    return Topology(spec);
}

CollectiveSpec allReduce(Algorithm algorithm, int chunks) {
    CollectiveSpec spec;
    spec.algorithm = algorithm;
    spec.chunks = chunks;
    spec.bytesPerChip = 64.0 * 1024 * 1024;
    return spec;
}

double peakRssMiB() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return static_cast<double>(usage.ru_maxrss) / 1024.0;
}

// One all-reduce on the 4096-chip multipod, closed form. Target: under 10 us.
void BM_AnalyticAllReduceMultipod(benchmark::State& state) {
    const Topology topology = slice(4096);
    const auto algorithm = static_cast<Algorithm>(state.range(0));
    const CollectiveSpec spec = allReduce(algorithm, 4);
    for (auto _ : state) {
        benchmark::DoNotOptimize(runAnalytic(topology, spec));
    }
    state.SetLabel(toString(algorithm));
}
BENCHMARK(BM_AnalyticAllReduceMultipod)
    ->Arg(static_cast<int>(Algorithm::TwoD))
    ->Arg(static_cast<int>(Algorithm::TwoDDual))
    ->Arg(static_cast<int>(Algorithm::Ring))
    ->Arg(static_cast<int>(Algorithm::BidirRing))
    ->Arg(static_cast<int>(Algorithm::FlatRing))
    ->Unit(benchmark::kMicrosecond);

// The part of an analytic evaluation that a new topology or algorithm pays once: building the
// rings on the lines through chip 0 and their link loads (cached afterwards).
void BM_AnalyticProfileBuildMultipod(benchmark::State& state) {
    const Topology topology = slice(4096);
    const auto algorithm = static_cast<Algorithm>(state.range(0));
    const CollectiveSpec spec = allReduce(algorithm, 4);
    for (auto _ : state) {
        benchmark::DoNotOptimize(buildLoadProfile(topology, spec));
    }
    state.SetLabel(toString(algorithm));
}
BENCHMARK(BM_AnalyticProfileBuildMultipod)
    ->Arg(static_cast<int>(Algorithm::TwoD))
    ->Arg(static_cast<int>(Algorithm::TwoDDual))
    ->Arg(static_cast<int>(Algorithm::FlatRing))
    ->Unit(benchmark::kMicrosecond);

// Event engine, 64 MiB 2d all-reduce, growing with chips (arg 0) and chunks (arg 1).
// Target: 4096 chips, 4 chunks under 100 ms and 200 MB.
void BM_EventAllReduce(benchmark::State& state) {
    const Topology topology = slice(state.range(0));
    const CollectiveSpec spec = allReduce(Algorithm::TwoD, static_cast<int>(state.range(1)));
    std::int64_t events = 0, occupancies = 0;
    double recordMiB = 0;
    for (auto _ : state) {
        const EventSimulation run = runEventEngine(topology, spec);
        events = run.results.front().events;
        occupancies = run.results.front().linkOccupancies;
        recordMiB = static_cast<double>(run.record.memoryBytes()) / (1024.0 * 1024.0);
        benchmark::DoNotOptimize(run.results.front().timeS);
    }
    state.counters["events"] = static_cast<double>(events);
    state.counters["events/s"] = benchmark::Counter(static_cast<double>(events), benchmark::Counter::kIsIterationInvariantRate);
    state.counters["links/s"] =
        benchmark::Counter(static_cast<double>(occupancies), benchmark::Counter::kIsIterationInvariantRate);
    state.counters["record_MiB"] = recordMiB;
    state.counters["peak_rss_MiB"] = peakRssMiB();
}
BENCHMARK(BM_EventAllReduce)
    ->ArgsProduct({{16, 64, 256, 1024, 4096}, {4}})
    ->ArgsProduct({{4096}, {1, 2, 8, 16}})
    ->Unit(benchmark::kMillisecond);

// The functional check on the multipod (1024 elements per chip).
void BM_FunctionalAllReduceMultipod(benchmark::State& state) {
    const Topology topology = slice(4096);
    const CollectiveSpec spec = allReduce(Algorithm::TwoD, 4);
    for (auto _ : state) {
        benchmark::DoNotOptimize(runFunctional(topology, spec).verified);
    }
}
BENCHMARK(BM_FunctionalAllReduceMultipod)->Unit(benchmark::kMillisecond);

} // namespace
} // namespace podscope

BENCHMARK_MAIN();
