#include "training/Optimizer.hpp"

#include "resources/BundledResources.hpp"
#include "workload/LayerGraph.hpp"
#include "workload/SourcedJson.hpp"

#include <map>
#include <nlohmann/json.hpp>
#include <stdexcept>

namespace podscope {
namespace {

std::map<std::string, OptimizerDefinition> loadAll() {
    const std::string file = "training/optimizers.json";
    const auto json = nlohmann::json::parse(resources::text(file));
    std::map<std::string, OptimizerDefinition> all;
    for (const auto& [name, o] : json.at("optimizers").items()) {
        OptimizerDefinition d;
        d.name = name;
        d.stateValues = sourcedValue(o, "state_values", file);
        d.hbmBytesPerParam = sourcedValue(o, "hbm_bytes_per_param", file);
        d.vectorOpsPerParam = sourcedValue(o, "vector_ops_per_param", file);
        d.transcendentalsPerParam = sourcedValue(o, "transcendentals_per_param", file);
        d.layerNorms = o.at("layer_norms").at("value").get<bool>();
        all[name] = d;
    }
    return all;
}

} // namespace

const OptimizerDefinition& optimizerDefinition(const std::string& name) {
    static const std::map<std::string, OptimizerDefinition> all = loadAll();
    const auto it = all.find(name);
    if (it == all.end()) {
        throw std::runtime_error("training/optimizers.json defines no optimizer '" + name + "'");
    }
    return it->second;
}

double updateKernels(const Layer& layer, const OptimizerDefinition& optimizer) {
    const bool ownWeights = layer.tiedTo < 0;
    double matrices = 0;
    double vectors = 0;
    switch (layer.type) {
    case LayerType::Conv:
        matrices = ownWeights ? 1 : 0;
        vectors = (layer.batchNorm == BatchNormKind::Batch ? 2 : 0) + (layer.bias ? 1 : 0);
        break;
    case LayerType::Dense:
        matrices = ownWeights ? 1 : 0;
        vectors = layer.bias ? 1 : 0;
        break;
    case LayerType::Recurrent:
        matrices = ownWeights ? 1 : 0;
        vectors = layer.biases > 0 ? 1 : 0;
        break;
    case LayerType::Embedding:
        matrices = ownWeights ? 1 : 0;
        break;
    case LayerType::Norm:
        vectors = layer.rms ? 1 : 2;
        break;
    default:
        break;
    }
    return matrices * (optimizer.layerNorms ? 2 : 1) + vectors;
}

} // namespace podscope
