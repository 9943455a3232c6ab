#include "training/Optimizer.hpp"

#include "resources/BundledResources.hpp"
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

} // namespace podscope
