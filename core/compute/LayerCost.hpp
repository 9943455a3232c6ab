#pragma once

#include "compute/KernelCost.hpp"
#include "workload/LayerGraph.hpp"
#include "workload/Workload.hpp"

#include <array>

namespace podscope {

// How a replica's examples are spread over its cores (docs/training-model.md, "Model
// parallelism"). Spatial partitions are strips of each feature map (a rows x 1 grid, as Google's
// runs split the height: input_partition_dims 1,8).
struct LayerSplit {
    ModelParallelKind kind = ModelParallelKind::None;
    int degree = 1;
    int gridRows = 1;
    int gridCols = 1;
};

LayerSplit layerSplit(ModelParallelKind kind, int degree, int coresPerChip);

// The time of a pass (forward or backward) as the sum of its kernels, and which unit bound it.
struct PassCost {
    KernelWork work;
    double seconds = 0;
    std::array<double, kCoreUnitCount> secondsByUnit{}; // indexed by CoreUnit
    // Time of the kernels below the core's roofline ridge (memory-bound as a profiler classes
    // them, whatever unit bound them here).
    double belowRidgeS = 0;

    void add(const KernelWork& kernel, const CoreModel& core);
    CoreUnit bound() const;
};

// One layer on one core for one training step.
struct LayerCost {
    PassCost forward;
    PassCost backward; // input gradient, weight gradient and the normalisations' backward
    // The forward pass again, just before the backward pass, when the step plan recomputes this
    // layer's outputs instead of keeping them (rematerialization); empty otherwise.
    PassCost recompute;
    double sparedBytes = 0;     // activations not kept because they are recomputed
    double parameters = 0;      // weights this core holds and updates (0 when tied)
    double savedBytes = 0;      // activations kept from the forward for the backward pass
    double savedInputBytes = 0; // the part of savedBytes that is the layer's input
    double workspaceBytes = 0;  // inputs and outputs of the layer's largest kernel
    // Spatial partitioning: bytes of one halo exchange across a partition boundary (strips of
    // rows; [1] would be a split of the columns). Forward and backward each exchange once.
    std::array<double, 2> haloBytes{};
    // Tensor splits: bytes of the activation all-reduces among the replica's cores.
    double tensorAllReduceForward = 0;
    double tensorAllReduceBackward = 0;
    double batchNormChannels = 0; // batch statistics summed over the batch-norm group
};

// `examples`: the replica's examples per step; `inputGradient`: whether the layer must pass a
// gradient to its input (not for the first layer on the data, nor for embeddings).
LayerCost lowerLayer(const Layer& layer, double examples, const LayerSplit& split,
                     const CoreModel& core, bool inputGradient);

} // namespace podscope
