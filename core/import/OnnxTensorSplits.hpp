#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace podscope {

// Marks the dense layers of an imported graph that a tensor split divides, in Megatron's pairs
// (docs/workloads.md, "ONNX import"): the projections that feed an attention or an activation
// are split by their outputs ("column") and the dense layer that reads the result back by its
// inputs ("row"), so that a pair needs one all-reduce. A dense layer without a partner stays
// whole. Returns how many layers it marked.
int assignTensorSplits(nlohmann::json& layers);

// The split a replica of several cores takes when none is named: the one that divides more of
// the graph's multiply-accumulates (tensor: the marked dense layers; spatial: the convolutions),
// or "none" when neither divides any.
std::string preferredSplit(const nlohmann::json& layers);

} // namespace podscope
