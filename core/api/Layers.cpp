#include "training/LayerTable.hpp"
#include "training/ScenarioJson.hpp"

#include <podscope/layers.hpp>

namespace podscope::api {

LayersResult layers(const Configuration& configuration) {
    const Scenario& s = configuration.scenario();
    const StepPlan plan = buildStepPlan(s);
    LayersResult result;
    result.examplesPerReplica = plan.parallelism.perReplicaBatch;
    result.corePeakFlops = plan.core.peakFlops();
    result.recomputedLayers = plan.memory.recompute.layers;
    result.recomputeS = plan.memory.recompute.seconds;
    result.recomputeSavedBytes = plan.memory.recompute.savedBytes;
    result.hbmBytes = plan.memory.total();
    result.hbmCapacityBytes = plan.memory.capacity;
    result.json["scenario"] = podscope::toJson(s);
    result.json["examples_per_replica"] = result.examplesPerReplica;
    result.json["layers"] = nlohmann::json::array();
    for (const LayerRow& r : layerTable(plan)) {
        const LayerInfo info{r.name,
                             r.group,
                             r.type,
                             r.forwardS,
                             r.backwardS,
                             r.recomputeS,
                             r.sparedBytes,
                             r.flops,
                             r.hbmBytes,
                             r.kernels,
                             toString(r.bound),
                             r.mxuUtilisation,
                             r.arithmeticIntensity};
        result.json["layers"].push_back({{"name", info.name},
                                         {"group", info.group},
                                         {"type", info.type},
                                         {"forward_s", info.forwardS},
                                         {"backward_s", info.backwardS},
                                         {"recompute_s", info.recomputeS},
                                         {"spared_bytes", info.sparedBytes},
                                         {"flops", info.flops},
                                         {"hbm_bytes", info.hbmBytes},
                                         {"kernels", info.kernels},
                                         {"bound", info.bound},
                                         {"mxu_utilisation", info.mxuUtilisation},
                                         {"arithmetic_intensity", info.arithmeticIntensity}});
        result.layers.push_back(info);
    }
    return result;
}

} // namespace podscope::api
