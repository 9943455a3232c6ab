#include "import/OnnxImport.hpp"

#include "common/InputError.hpp"

namespace podscope {

// Placeholder until the importer lands (issue "Bring your own model").
ImportedGraph importOnnx(const std::string& path) {
    throw InputError("workload", path + ": ONNX import is not available in this build");
}

} // namespace podscope
