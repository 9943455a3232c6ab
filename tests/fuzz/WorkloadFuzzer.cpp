// libFuzzer target for workload files: any text goes to parseWorkloadText (a workload document
// or a Hugging Face config) and, when it parses, its graph is bound and lowered onto a core.
// Bad input must end as InputError; any other exception escapes and libFuzzer reports it as a
// crash, as do sanitizer findings and timeouts.
#include "common/InputError.hpp"
#include "compute/CoreModel.hpp"
#include "compute/LayerCost.hpp"
#include "machine/Machine.hpp"
#include "workload/LayerGraph.hpp"
#include "workload/WorkloadFile.hpp"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        const podscope::Workload w = podscope::parseWorkloadText(text, "fuzz.json");
        const podscope::LayerGraph g = podscope::bindLayerGraph(w.graph, {});
        static const podscope::CoreModel core =
            podscope::loadCoreModel(podscope::defaultMachineName());
        const auto split = podscope::layerSplit(podscope::ModelParallelKind::None, 1, 2);
        double seconds = g.parameters() + g.forwardMacsPerExample();
        for (const podscope::Layer& layer : g.layers) {
            seconds += podscope::lowerLayer(layer, 8, split, core, true).forward.seconds;
        }
        (void)seconds;
    } catch (const podscope::InputError&) {
        // The expected answer to bad input.
    }
    return 0;
}
