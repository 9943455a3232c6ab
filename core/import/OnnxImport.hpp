#pragma once

#include "workload/UnmappedOperator.hpp"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace podscope {

// An ONNX model read as a workload document (the layer-graph format of docs/workloads.md) and
// the operators that map to no layer.
struct ImportedGraph {
    nlohmann::json workload;
    std::vector<UnmappedOperator> unmapped;
};

// Reads an ONNX model (shapes, not weights: external or stripped initializers load) and maps its
// operators to layers. Throws InputError naming the file and the problem.
ImportedGraph importOnnx(const std::string& path);

// The same for a model already in memory; `file` names it in errors and becomes its name.
ImportedGraph importOnnxBytes(const std::string& bytes, const std::string& file);

} // namespace podscope
