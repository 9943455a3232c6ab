#pragma once

#include <string>

namespace podscope {

// Element sizes and per-element operation counts used to lower layers to kernels, from
// resources/training/lowering-rules.json (each a count from the operation's definition).
struct LoweringRules {
    double activationBytes = 2;     // bf16 activations in HBM
    double weightBytes = 2;         // bf16 weight copies read by the matmuls
    double weightGradientBytes = 4; // fp32 weight gradients
    // Vector operations per element.
    double bias = 1, residual = 1;
    double relu = 1, reluBackward = 1;
    double gelu = 8, geluBackward = 10;
    double tanhBackward = 2;
    double batchNormStats = 3, batchNormApply = 2;
    double batchNormBackwardStats = 4, batchNormBackwardApply = 3;
    double layerNorm = 8, layerNormBackward = 12;
    double softmax = 5, softmaxBackward = 4;
    double lossForward = 4, lossBackward = 2;
    double lstmGates = 10, lstmGatesTranscendentals = 5, lstmGatesBackward = 14;
    double poolBackward = 2;
    // A recurrent weight matrix stays in VMEM across time steps when it fits in this fraction.
    double vmemResidentFraction = 0.5;
};

const LoweringRules& loweringRules();

} // namespace podscope
