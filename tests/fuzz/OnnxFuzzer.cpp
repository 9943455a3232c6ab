// libFuzzer target for the ONNX importer (issue 21): any bytes go to importOnnxBytes and, when
// they import, the document's graph is parsed and bound as a workload would be. Bad input must end
// as InputError; anything else (another exception, a sanitizer finding, a timeout) is a finding.
#include "common/InputError.hpp"
#include "import/OnnxImport.hpp"
#include "workload/LayerGraph.hpp"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string bytes(reinterpret_cast<const char*>(data), size);
    try {
        const podscope::ImportedGraph imported = podscope::importOnnxBytes(bytes, "fuzz.onnx");
        const auto spec = podscope::parseLayerGraphSpec(imported.workload.at("graph"), "fuzz.onnx");
        podscope::bindLayerGraph(spec, {});
    } catch (const podscope::InputError&) {
        // The expected answer to bad input.
    }
    return 0;
}
