#pragma once

#include "compute/KernelCost.hpp"
#include "training/StepPlan.hpp"

#include <string>
#include <vector>

namespace podscope {

// One row of the per-layer table (like a profiler's op table): a layer's forward and backward
// work on one core for one training step.
struct LayerRow {
    std::string name;
    std::string group;
    std::string type;
    double forwardS = 0;
    double backwardS = 0;
    double recomputeS = 0;  // the forward again before the backward (rematerialization)
    double sparedBytes = 0; // activations not kept because they are recomputed
    double flops = 0;       // useful FLOPs, forward and backward
    double hbmBytes = 0;
    double kernels = 0;                  // fused kernels launched
    CoreUnit bound = CoreUnit::Overhead; // the unit that took most of its time
    double mxuUtilisation = 0;           // useful FLOP/s over the core's peak
    double arithmeticIntensity = 0;      // FLOPs per HBM byte
    double achievedFlops = 0;            // FLOP/s

    double seconds() const { return forwardS + backwardS + recomputeS; }
};

std::vector<LayerRow> layerTable(const StepPlan& plan);

} // namespace podscope
