// Speed of the training model (issue 3 targets: one configuration under 100 us with the
// analytic engine, a 200-point sweep under 50 ms on one core). Run:
//   build/bin/podscope_training_bench
#include "training/Presets.hpp"
#include "training/ScenarioJson.hpp"
#include "training/StepModel.hpp"

#include <benchmark/benchmark.h>

namespace podscope {
namespace {

void BM_SimulateOneConfiguration(benchmark::State& state) {
    const Scenario scenario = loadPreset("mlperf07-resnet50-tf-4096").scenario;
    for (auto _ : state) {
        benchmark::DoNotOptimize(simulateTraining(scenario).timeToTrainS);
    }
}
BENCHMARK(BM_SimulateOneConfiguration)->Unit(benchmark::kMicrosecond);

// 200 points: 8 slice sizes (32 .. 4096 chips) x 25 global batches, BERT (every point valid).
void BM_Sweep200Points(benchmark::State& state) {
    const Scenario base = loadPreset("mlperf07-bert-jax-4096").scenario;
    std::vector<Scenario> points;
    for (std::int64_t chips : {32, 64, 128, 256, 512, 1024, 2048, 4096}) {
        for (int k = 0; k < 25; ++k) {
            Scenario s = base;
            useStandardSlice(s, chips);
            s.globalBatch = 8192 + 8192 * k; // multiples of 8192: whole examples per replica
            points.push_back(s);
        }
    }
    for (auto _ : state) {
        double sum = 0;
        for (const Scenario& s : points) {
            sum += simulateTraining(s).timeToTrainS;
        }
        benchmark::DoNotOptimize(sum);
    }
    state.counters["points"] = static_cast<double>(points.size());
}
BENCHMARK(BM_Sweep200Points)->Unit(benchmark::kMillisecond);

} // namespace
} // namespace podscope

BENCHMARK_MAIN();
