#pragma once

#include "workload/Convergence.hpp"

#include <string>
#include <vector>

namespace podscope {

enum class ModelParallelKind { None, Spatial, Tensor };

// Achieved fraction of peak as a function of the examples each core works on per step:
// efficiency(b) = eMax * b / (b + bHalf).
struct EfficiencyCurve {
    double eMax = 0.5;
    double bHalf = 1.0;
    double at(double examplesPerCore) const {
        return eMax * examplesPerCore / (examplesPerCore + bHalf);
    }
};

// Host work per training example, in CPU core-seconds per stage.
struct InputCost {
    double readS = 0;
    double decodeS = 0; // skipped when decoded examples are cached in host RAM
    double augmentS = 0;
    double batchS = 0;
    double bytesToDevice = 0; // per example, over the host-to-device link
};

struct EvalSchedule {
    double everyEpochs = 0;   // > 0: evaluate every this many epochs
    double everySteps = 0;    // > 0: evaluate every this many steps (instead of epochs)
    double everyExamples = 0; // > 0: evaluate every this many training examples
    double firstEpoch = 0;    // no evaluation before this epoch (0: from the first interval)
    bool asyncDefault = false;
    double flopsPerExample = 0;
    double examples = 0;
    double fixedCostS = 0; // per synchronous evaluation: metric, decode, work off the chips
    // Asynchronous evaluation: hidden behind training, except that the run ends only when the
    // result of the last one is in: this long after the last step.
    double asyncTailS = 0;
};

// Per-layer communication of one kind of model parallelism inside a replica.
struct PartitionTraits {
    bool supported = false;
    double exchangesPerStep = 0; // activation all-reduces (tensor) or halo exchanges (spatial)
    double bytesPerExamplePerExchange = 0; // for the whole replica, bf16
};

struct ModelParallelTraits {
    ModelParallelKind preferred = ModelParallelKind::None;
    PartitionTraits spatial;
    PartitionTraits tensor;

    const PartitionTraits& of(ModelParallelKind kind) const {
        return kind == ModelParallelKind::Spatial ? spatial : tensor;
    }
};

// A model and its training recipe, loaded from resources/workloads/<name>.json.
struct Workload {
    std::string name;
    std::string description;
    std::string exampleUnit; // "image", "sequence", ...
    double parameters = 0;
    double trainFlopsPerExample = 0;
    double trainExamples = 0;
    EfficiencyCurve efficiency;
    double gradientOverlapFraction = 0;
    std::string optimizer;
    double optimizerBytesPerParam = 0;
    ModelParallelTraits modelParallel;
    EvalSchedule eval;
    InputCost input;
    double inRunStartupS = 0;
    Convergence convergence;
};

// Throws InputError for an unknown name.
Workload loadWorkload(const std::string& name);
std::vector<std::string> workloadNames();

std::string toString(ModelParallelKind kind);
ModelParallelKind parseModelParallelKind(const std::string& text, const std::string& field);

} // namespace podscope
