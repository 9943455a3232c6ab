#pragma once

#include <string>

namespace podscope {

// How an imported layer is named and grouped from the weight it owns (torch.onnx keeps module
// paths: "layer1.0.conv1.weight").

// The group: up to the first numbered part ("layer1", "encoder.layers.encoder_layer_3"), else
// all but the last part ("fc.weight" -> "fc").
std::string groupOfWeight(const std::string& weight);

// The layer: the weight's name without ".weight", "_weight", ".bias" or "_bias".
std::string layerNameOfWeight(const std::string& weight);

} // namespace podscope
