#pragma once

#include "workload/LayerGraph.hpp"

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace podscope {

// How a translation model evaluates: beam-search decoding of the evaluation set on the device
// (docs/training-model.md, "Evaluation"). The encoder graph runs once per batch (counts per
// sentence), the step graph once per decoded token (counts per hypothesis, sentence x beam);
// both bind the variables "beam" (beam width), "cache" (maximum decode length) and "src".
struct BeamSearchDecode {
    LayerGraphSpec encoder;
    LayerGraphSpec step;
    double beamWidth = 0;     // the graphs' "beam"
    double maxLength = 0;     // the graphs' "cache": the decode loop's limit and the cache length
    double outputLength = 0;  // tokens a batch decodes when its loop stops early; 0: runs to max
    double evalBatch = 0;     // sentences per evaluation step over all replicas; 0: the set
    double perReplicaMax = 0; // at most this many sentences per replica; 0: no limit
};

// Reads a workload's eval.decode; a defect names the file.
BeamSearchDecode parseBeamSearchDecode(const nlohmann::json& json, const std::string& file);

} // namespace podscope
