#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <podscope/configuration.hpp>
#include <string>
#include <vector>

namespace podscope::api {

// A layer's forward and backward work on one core for one training step.
struct LayerInfo {
    std::string name;
    std::string group;
    std::string type;
    double forwardS = 0;
    double backwardS = 0;
    double recomputeS = 0;   // its forward pass run again in the backward pass (rematerialization)
    double sparedBytes = 0;  // HBM the recompute spares at the step's peak
    double flops = 0; // useful FLOPs, forward and backward
    double hbmBytes = 0;
    double kernels = 0;
    std::string bound; // the core unit that took most of its time
    double mxuUtilisation = 0;
    double arithmeticIntensity = 0; // FLOPs per HBM byte
};

struct LayersResult {
    std::int64_t examplesPerReplica = 0;
    double corePeakFlops = 0; // FLOP/s of one core
    // Rematerialization, when activations would not fit in HBM otherwise.
    int recomputedLayers = 0;
    double recomputeS = 0;
    double recomputeSavedBytes = 0;
    double hbmBytes = 0;         // everything a core keeps in HBM, after any recompute
    double hbmCapacityBytes = 0; // per core
    std::vector<LayerInfo> layers;
    nlohmann::json json; // the object `podscope-cli layers --json` prints
};

LayersResult layers(const Configuration& configuration);

} // namespace podscope::api
