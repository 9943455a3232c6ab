// Speed of the ONNX importer (issue 21 target: a 300-layer model in under 200 ms). The
// torchvision ResNet-50 fixture has 375 nodes; ViT-B/16 (1733 nodes, shape arithmetic that takes
// several rounds of folding and inference) is the harder case. Run:
//   build/bin/podscope_onnx_bench
#include "import/OnnxImport.hpp"

#include <benchmark/benchmark.h>
#include <string>

namespace podscope {
namespace {

void importFixture(benchmark::State& state, const std::string& name) {
    const std::string path = std::string(PODSCOPE_ONNX_FIXTURES) + "/" + name + ".onnx";
    importOnnx(path); // ONNX registers its operator schemas on first use
    for (auto _ : state) {
        benchmark::DoNotOptimize(importOnnx(path).workload.size());
    }
}

void BM_ImportResNet50(benchmark::State& state) {
    importFixture(state, "resnet50");
}
BENCHMARK(BM_ImportResNet50)->Unit(benchmark::kMillisecond);

void BM_ImportVitB16(benchmark::State& state) {
    importFixture(state, "vit_b_16");
}
BENCHMARK(BM_ImportVitB16)->Unit(benchmark::kMillisecond);

} // namespace
} // namespace podscope

BENCHMARK_MAIN();
