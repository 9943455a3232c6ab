#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace podscope {

// A Hugging Face transformers config.json: an object with model_type, architectures, n_layer
// or num_hidden_layers, and no layer graph of its own.
bool isHfConfig(const nlohmann::json& document);

// The workload document (docs/workloads.md) of a Hugging Face config of the families PodScope
// maps: GPT-2, BERT, T5 (encoder-decoder) and Llama-style decoders (grouped-query attention,
// gated MLP, RMSNorm; mixture-of-experts where num_local_experts says so). Layers of the
// existing types, with Megatron tensor splits. `file` names the config in errors (InputError
// naming the key); `name` becomes the workload's name.
nlohmann::json hfConfigWorkload(const nlohmann::json& config, const std::string& file,
                                const std::string& name);

} // namespace podscope
