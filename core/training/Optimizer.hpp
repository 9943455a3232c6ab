#pragma once

#include <string>

namespace podscope {

// An optimizer from its definition (resources/training/optimizers.json): state and per-update
// work per parameter.
struct OptimizerDefinition {
    std::string name;
    double stateValues = 0;      // fp32 values kept per parameter besides the weight
    double hbmBytesPerParam = 0; // read and written by one update
    double vectorOpsPerParam = 0;
    double transcendentalsPerParam = 0;
    bool layerNorms = false;     // per-layer trust ratios (LARS, LAMB)
};

// Throws std::runtime_error for a name the bundled file does not define (a workload defect).
const OptimizerDefinition& optimizerDefinition(const std::string& name);

} // namespace podscope
