// Speed of the step timeline (issue 13; targets: one multipod ResNet-50 step with contention
// under 1 s on one core and 500 MB, BERT under 2 s). Run:
//   build/bin/podscope_timeline_bench --benchmark_counters_tabular=true
// "spans" counts the chip spans simulated (items x chips x steps); spans/s is their rate.
#include "timeline/StepTimeline.hpp"
#include "trace/TimelineTrace.hpp"
#include "training/Presets.hpp"
#include "training/ScenarioJson.hpp"

#include <benchmark/benchmark.h>

namespace podscope {
namespace {

Scenario bucketed(const std::string& preset) {
    Scenario s = loadPreset(preset).scenario;
    s.gradient.overlap = GradientOverlap::Bucketed; // buckets under the backward pass contend
    return s;
}

void run(benchmark::State& state, const Scenario& scenario, const TimelineOptions& options = {}) {
    double spans = 0, items = 0;
    for (auto _ : state) {
        const StepPlan plan = buildStepPlan(scenario); // as a command does, once per request
        const StepTimeline t = simulateStepTimeline(scenario, plan, options);
        items = static_cast<double>(t.items.size());
        spans = items * static_cast<double>(t.chips) * static_cast<double>(t.stepTimesS.size());
        benchmark::DoNotOptimize(t.stepS);
    }
    state.counters["chips"] = static_cast<double>(scenarioTopology(scenario).chipCount());
    state.counters["items"] = items;
    state.counters["spans"] = spans;
    state.counters["spans/s"] =
        benchmark::Counter(spans, benchmark::Counter::kIsIterationInvariantRate);
}

void BM_ResNetMultipodStepWithContention(benchmark::State& state) {
    run(state, bucketed("mlperf07-resnet50-tf-4096"));
}
BENCHMARK(BM_ResNetMultipodStepWithContention)->Unit(benchmark::kMillisecond);

void BM_BertMultipodStepWithContention(benchmark::State& state) {
    run(state, bucketed("mlperf07-bert-jax-4096"));
}
BENCHMARK(BM_BertMultipodStepWithContention)->Unit(benchmark::kMillisecond);

// 40 steps with host jitter on an input-bound multipod (the distribution of step times).
void BM_ResNetMultipod40StepsWithJitter(benchmark::State& state) {
    Scenario s = loadPreset("mlperf07-resnet50-tf-4096").scenario;
    s.input.decodedCache = false;
    TimelineOptions o;
    o.steps = 40;
    o.hostJitter = 0.3;
    run(state, s, o);
}
BENCHMARK(BM_ResNetMultipod40StepsWithJitter)->Unit(benchmark::kMillisecond);

// The 65,536-chip grid (256x256, wrap in both), the global batch scaled with the chips. The
// gradient sum runs after the backward pass: bucketed, the buckets together exceed what the
// event engine takes in one run.
void BM_Grid65536(benchmark::State& state, const char* preset, std::int64_t globalBatch) {
    Scenario s = loadPreset(preset).scenario;
    s.topology = "256x256";
    s.wrap = "xy";
    s.globalBatch = globalBatch;
    run(state, s);
}
BENCHMARK_CAPTURE(BM_Grid65536, resnet50, "mlperf07-resnet50-tf-4096", 1048576)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);
BENCHMARK_CAPTURE(BM_Grid65536, bert, "mlperf07-bert-jax-4096", 131072)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);

// How time grows with chips: ResNet-50 on the standard slices, 16 examples per core.
void BM_ResNetByChips(benchmark::State& state) {
    Scenario s = bucketed("mlperf07-resnet50-tf-4096");
    useStandardSlice(s, state.range(0));
    s.globalBatch = 32 * state.range(0);
    run(state, s);
}
BENCHMARK(BM_ResNetByChips)->RangeMultiplier(4)->Range(16, 4096)->Unit(benchmark::kMillisecond);

// How time grows with layers: every preset's workload on 256 chips (its own global batch
// per chip), bucketed.
void BM_WorkloadOn256Chips(benchmark::State& state, const char* preset) {
    Scenario s = bucketed(preset);
    const std::int64_t chips = scenarioTopology(s).chipCount();
    const std::int64_t perChip = std::max<std::int64_t>(1, s.globalBatch / chips);
    useStandardSlice(s, 256);
    s.globalBatch = perChip * 256;
    run(state, s);
}
BENCHMARK_CAPTURE(BM_WorkloadOn256Chips, ssd, "mlperf07-ssd-tf-4096")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_WorkloadOn256Chips, resnet50, "mlperf07-resnet50-tf-4096")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_WorkloadOn256Chips, transformer, "mlperf07-transformer-jax-4096")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_WorkloadOn256Chips, bert, "mlperf07-bert-jax-4096")
    ->Unit(benchmark::kMillisecond);

// Issue 20's targets: a 4096-chip 16x16x16 slice (3-D torus) under 1 s, and a multislice of
// four of them joined over the DCN under 4 s (the timeline simulates one slice and the DCN
// stage; docs/multislice.md). 32 examples per chip, bucketed, on the machine with 4096-chip
// cubes and a DCN. ResNet-50 and BERT-large.
void BM_ThreeDSlices(benchmark::State& state, const char* preset, int slices) {
    Scenario s = bucketed(preset);
    const std::int64_t chips = scenarioTopology(s).chipCount();
    const std::int64_t perChip = std::max<std::int64_t>(1, s.globalBatch / chips);
    s.hardware = "tpu-v5p";
    useStandardSlice(s, 4096);
    s.slices = slices;
    s.globalBatch = perChip * 4096 * slices;
    run(state, s);
    state.counters["slices"] = slices;
}
BENCHMARK_CAPTURE(BM_ThreeDSlices, resnet50_1x4096, "mlperf07-resnet50-tf-4096", 1)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_ThreeDSlices, resnet50_4x4096, "mlperf07-resnet50-tf-4096", 4)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_ThreeDSlices, bert_1x4096, "mlperf07-bert-jax-4096", 1)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_ThreeDSlices, bert_4x4096, "mlperf07-bert-jax-4096", 4)
    ->Unit(benchmark::kMillisecond);

// The Chrome trace of the multipod ResNet-50 step, link counters included (200 bins).
void BM_ResNetMultipodTrace(benchmark::State& state) {
    const Scenario s = bucketed("mlperf07-resnet50-tf-4096");
    const StepPlan plan = buildStepPlan(s);
    const StepTimeline t = simulateStepTimeline(s, plan);
    std::size_t bytes = 0;
    for (auto _ : state) {
        bytes = trace::buildTimelineTrace(s, plan, t).dump().size();
    }
    state.counters["bytes"] = static_cast<double>(bytes);
}
BENCHMARK(BM_ResNetMultipodTrace)->Unit(benchmark::kMillisecond);

} // namespace
} // namespace podscope

BENCHMARK_MAIN();
