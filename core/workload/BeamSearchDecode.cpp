#include "workload/BeamSearchDecode.hpp"

#include "common/InputError.hpp"
#include "workload/SourcedJson.hpp"

namespace podscope {

BeamSearchDecode parseBeamSearchDecode(const nlohmann::json& json, const std::string& file) {
    for (const char* graph : {"encoder", "step"}) {
        if (!json.is_object() || !json.contains(graph)) {
            throw InputError("workload", file + ": needs an object '" + graph + "'");
        }
    }
    BeamSearchDecode d;
    d.encoder = parseLayerGraphSpec(json.at("encoder"), file + ".encoder");
    d.step = parseLayerGraphSpec(json.at("step"), file + ".step");
    for (const char* name : {"beam", "cache", "src"}) {
        if (!d.step.variables.count(name) || !d.encoder.variables.count(name)) {
            throw InputError("workload",
                             file + ": the graphs need the variable '" + name + "'");
        }
    }
    d.beamWidth = d.step.variables.at("beam").value;
    d.maxLength = d.step.variables.at("cache").value;
    d.outputLength = sourcedValueOr(json, "output_length", 0, file);
    d.evalBatch = sourcedValueOr(json, "eval_batch", 0, file);
    d.perReplicaMax = sourcedValueOr(json, "batch_per_replica_max", 0, file);
    return d;
}

} // namespace podscope
