// Speed of the training model (targets: one configuration under 100 us, a 200-point sweep under
// 50 ms on one core, the per-layer table under 10 ms). Run:
//   build/bin/podscope_training_bench
#include "common/InputError.hpp"
#include "training/LayerTable.hpp"
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

// 200 points: 8 slice sizes (32 .. 4096 chips) x 25 global batches of BERT, 1 to 25 sequences
// per core; the points that do not fit in HBM are refused, as a sweep refuses them.
void BM_Sweep200Points(benchmark::State& state) {
    const Scenario base = loadPreset("mlperf07-bert-jax-4096").scenario;
    std::vector<Scenario> points;
    for (std::int64_t chips : {32, 64, 128, 256, 512, 1024, 2048, 4096}) {
        for (int k = 1; k <= 25; ++k) {
            Scenario s = base;
            useStandardSlice(s, chips);
            s.globalBatch = 2 * chips * k;
            points.push_back(s);
        }
    }
    double refused = 0;
    for (auto _ : state) {
        double sum = 0;
        refused = 0;
        for (const Scenario& s : points) {
            try {
                sum += simulateTraining(s).timeToTrainS;
            } catch (const InputError&) {
                ++refused;
            }
        }
        benchmark::DoNotOptimize(sum);
    }
    state.counters["points"] = static_cast<double>(points.size());
    state.counters["refused"] = refused;
}

// The per-layer table of the largest graph (BERT-large, 179 layers), as `layers` prints it.
void BM_LayerTable(benchmark::State& state) {
    const Scenario scenario = loadPreset("mlperf07-bert-tf-4096").scenario;
    for (auto _ : state) {
        benchmark::DoNotOptimize(layerTable(buildStepPlan(scenario)).size());
    }
}
BENCHMARK(BM_LayerTable)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Sweep200Points)->Unit(benchmark::kMillisecond);

} // namespace
} // namespace podscope

BENCHMARK_MAIN();
