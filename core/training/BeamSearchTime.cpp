#include "training/BeamSearchTime.hpp"

#include "compute/LayerCost.hpp"
#include "training/StepPlan.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <mutex>
#include <tuple>

namespace podscope {
namespace {

struct BoundDecode {
    LayerGraph encoder;
    LayerGraph step;
};

// Bound graphs per model, beam width and length; never erased, so references stay.
const BoundDecode& boundDecode(const BeamSearchDecode& d) {
    static std::mutex mutex;
    static std::map<std::tuple<std::string, double, double>, BoundDecode> cache;
    const auto key = std::tuple{d.step.source, d.beamWidth, d.maxLength};
    std::lock_guard lock(mutex);
    auto it = cache.find(key);
    if (it == cache.end()) {
        const std::map<std::string, double> overrides = {{"beam", d.beamWidth},
                                                         {"cache", d.maxLength}};
        it = cache
                 .emplace(key, BoundDecode{bindLayerGraph(d.encoder, overrides, "eval_decode"),
                                           bindLayerGraph(d.step, overrides, "eval_decode")})
                 .first;
    }
    return it->second;
}

double forwardSeconds(const LayerGraph& graph, double examples, const StepPlan& p) {
    double seconds = 0;
    for (const Layer& layer : graph.layers) {
        seconds += lowerLayer(layer, examples, p.split, p.core, false).forward.seconds;
    }
    return seconds;
}

} // namespace

DecodeShape decodeShape(const BeamSearchDecode& d, double evalExamples, double replicas) {
    DecodeShape s;
    const double batch = d.evalBatch > 0 ? d.evalBatch : evalExamples;
    s.sentencesPerReplica = std::ceil(batch / replicas);
    if (d.perReplicaMax > 0) {
        s.sentencesPerReplica = std::min(s.sentencesPerReplica, d.perReplicaMax);
    }
    s.batches = std::ceil(evalExamples / (s.sentencesPerReplica * replicas));
    s.tokens = d.outputLength > 0 ? std::min(d.outputLength, d.maxLength) : d.maxLength;
    s.beamWidth = d.beamWidth;
    return s;
}

DecodeTime beamSearchTime(const BeamSearchDecode& d, const StepPlan& p, double evalExamples) {
    DecodeTime t;
    t.shape = decodeShape(d, evalExamples, static_cast<double>(p.parallelism.replicas));
    const BoundDecode& graphs = boundDecode(d);
    t.encoderS = forwardSeconds(graphs.encoder, t.shape.sentencesPerReplica, p);
    t.tokenS = forwardSeconds(graphs.step, t.shape.sentencesPerReplica * d.beamWidth, p);
    t.seconds = t.shape.batches * (t.encoderS + t.shape.tokens * t.tokenS);
    return t;
}

} // namespace podscope
