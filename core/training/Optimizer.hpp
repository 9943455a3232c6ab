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

struct Layer;

// Kernels that update one layer's weights when each core updates every tensor it holds (no
// weight-update sharding): one per variable (a weight, a bias, a batch norm's scale and shift, a
// layer norm's), as the optimizer updates each variable in a fused kernel of its own; and, for a
// trust ratio, one more per weight matrix, whose norms are reduced in a kernel before the
// update that reads them. Biases and normalisation parameters take no trust ratio, as LARS and
// LAMB exclude them. 0 for a layer without weights of its own (tied, or none).
double updateKernels(const Layer& layer, const OptimizerDefinition& optimizer);

} // namespace podscope
