#pragma once

#include "import/OnnxModel.hpp"
#include "workload/UnmappedOperator.hpp"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace podscope {

// The layers of a prepared ONNX model (the "layers" array of a workload's graph, per example)
// and the operators that map to none.
struct MappedLayers {
    nlohmann::json layers = nlohmann::json::array();
    std::vector<UnmappedOperator> unmapped; // largest share of FLOPs first
    int operators = 0;                      // nodes that compute on examples
    std::vector<std::string> notes;         // approximations made, for the description
};

MappedLayers mapOnnxLayers(const OnnxModel& model, const std::string& file);

} // namespace podscope
