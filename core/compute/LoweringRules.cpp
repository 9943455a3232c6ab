#include "compute/LoweringRules.hpp"

#include "resources/BundledResources.hpp"
#include "workload/SourcedJson.hpp"

#include <nlohmann/json.hpp>

namespace podscope {
namespace {

LoweringRules load() {
    const std::string file = "training/lowering-rules.json";
    const auto json = nlohmann::json::parse(resources::text(file));
    LoweringRules r;
    const auto& bytes = json.at("bytes");
    r.activationBytes = sourcedValue(bytes, "activation", file);
    r.weightBytes = sourcedValue(bytes, "weight", file);
    r.weightGradientBytes = sourcedValue(bytes, "weight_gradient", file);
    const auto& ops = json.at("vector_ops_per_element");
    for (const auto& [key, field] :
         {std::pair{"bias", &r.bias}, {"residual", &r.residual}, {"relu", &r.relu},
          {"relu_backward", &r.reluBackward}, {"gelu", &r.gelu}, {"gelu_backward", &r.geluBackward},
          {"tanh_backward", &r.tanhBackward}, {"batch_norm_stats", &r.batchNormStats},
          {"batch_norm_apply", &r.batchNormApply},
          {"batch_norm_backward_stats", &r.batchNormBackwardStats},
          {"batch_norm_backward_apply", &r.batchNormBackwardApply}, {"layer_norm", &r.layerNorm},
          {"layer_norm_backward", &r.layerNormBackward}, {"softmax", &r.softmax},
          {"softmax_backward", &r.softmaxBackward}, {"loss", &r.lossForward},
          {"loss_backward", &r.lossBackward}, {"lstm_gates", &r.lstmGates},
          {"lstm_gates_backward", &r.lstmGatesBackward}, {"pool_backward", &r.poolBackward}}) {
        *field = sourcedValue(ops, key, file);
    }
    r.lstmGatesTranscendentals = sourcedValue(json, "lstm_gates_transcendentals", file);
    r.vmemResidentFraction = sourcedValue(json, "vmem_resident_fraction", file);
    return r;
}

} // namespace

const LoweringRules& loweringRules() {
    static const LoweringRules rules = load();
    return rules;
}

} // namespace podscope
