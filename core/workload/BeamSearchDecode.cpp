#include "workload/BeamSearchDecode.hpp"

#include "workload/SourcedJson.hpp"

#include <stdexcept>

namespace podscope {

BeamSearchDecode parseBeamSearchDecode(const nlohmann::json& json, const std::string& file) {
    BeamSearchDecode d;
    d.encoder = parseLayerGraphSpec(json.at("encoder"), file + ": eval.decode.encoder");
    d.step = parseLayerGraphSpec(json.at("step"), file + ": eval.decode.step");
    for (const char* name : {"beam", "cache", "src"}) {
        if (!d.step.variables.count(name) || !d.encoder.variables.count(name)) {
            throw std::runtime_error(file + ": eval.decode graphs need the variable '" + name +
                                     "'");
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
