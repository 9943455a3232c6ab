// libFuzzer target for workload files: any text goes to parseWorkloadText (a workload document
// or a Hugging Face config) and, when it parses, its graph is bound to its default shapes and
// counted. Bad input must end as InputError; any other exception escapes and libFuzzer reports
// it as a crash, as do sanitizer findings and timeouts.
#include "common/InputError.hpp"
#include "workload/LayerGraph.hpp"
#include "workload/WorkloadFile.hpp"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        const podscope::Workload w = podscope::parseWorkloadText(text, "fuzz.json");
        const podscope::LayerGraph g = podscope::bindLayerGraph(w.graph, {});
        // Sizes are checked at the edge (positive, at most 1e12): the totals stay finite.
        if (!std::isfinite(g.parameters()) || !std::isfinite(g.forwardMacsPerExample())) {
            std::abort();
        }
    } catch (const podscope::InputError&) {
        // The expected answer to bad input.
    }
    return 0;
}
