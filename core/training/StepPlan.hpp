#pragma once

#include "collective/CollectiveSpec.hpp"
#include "collective/DcnAllReduce.hpp"
#include "compute/CoreModel.hpp"
#include "compute/LayerCost.hpp"
#include "parallelism/ParallelismPlan.hpp"
#include "topology/Topology.hpp"
#include "training/Framework.hpp"
#include "training/Scenario.hpp"
#include "workload/Workload.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace podscope {

// Communication inside one training step (docs/training-model.md, "The step plan").
enum class ExchangeKind {
    Halo,            // spatial partitions swap the border rows of a feature map
    TensorAllReduce, // Megatron partitions sum activations or their gradients
    BatchNormSum,    // cross-replica batch norm sums its statistics over the group
    GradientReduce,  // gradient all-reduce, or reduce-scatter with weight-update sharding
    GradientGather,  // all-gather of the updated weights (weight-update sharding)
    LayerNormSum,    // LARS/LAMB trust ratios of sharded weights need the layers' norms
};
enum class StepPhase { Forward, Backward, AfterBackward, Update };

struct Exchange {
    ExchangeKind kind = ExchangeKind::Halo;
    StepPhase phase = StepPhase::Forward;
    int layer = -1; // the layer it belongs to; -1 for step-wide exchanges
    // Collectives over chips (absent for on-chip-only exchanges and halos).
    std::optional<CollectiveSpec> collective;
    double onChipBytes = 0; // summed or swapped between the two cores of a chip, through HBM
    double iciBytes = 0;    // halo bytes over one link to the neighbouring chip
    // Gradient buckets: when the bucket's last gradient is ready, measured from the start of
    // the backward pass.
    double readyAfterS = 0;
};

// Rematerialization (docs/training-model.md, "Rematerialization"): layers whose outputs the
// backward pass recomputes instead of keeping them from the forward pass.
struct Recompute {
    int layers = 0;
    double seconds = 0;    // their forward passes again, per step
    double savedBytes = 0; // activations not kept, less the recomputed ones live at once
};

// HBM a core needs for a configuration (bytes).
struct MemoryUse {
    double weights = 0; // fp32 master weights and the bf16 copies
    double gradients = 0;
    double optimizerState = 0;
    double activations = 0; // kept from the forward pass for the backward pass (after recompute)
    double workspace = 0;   // the largest layer's inputs and outputs
    double capacity = 0;
    Recompute recompute;

    double total() const { return weights + gradients + optimizerState + activations + workspace; }
    bool fits() const { return total() <= capacity; }
};

struct OptimizerWork {
    std::string name;
    double parametersUpdated = 0; // by one core per step
    KernelWork work;
};

// One training step of one replica, built once per configuration: what every layer asks of a
// core, the exchanges the step makes and when, the optimizer's work and the HBM it all needs.
// The analytic evaluator (StepModel) times it; the step timeline replays it.
struct StepPlan {
    explicit StepPlan(Topology slice)
        : topology(std::move(slice)) {}

    Topology topology;
    ParallelismPlan parallelism;
    LayerSplit split;
    CoreModel core;
    const Workload* workload = nullptr;
    const Framework* framework = nullptr;
    const LayerGraph* graph = nullptr; // bound once per workload and sequence length
    std::vector<LayerCost> layers;     // one per layer of the graph
    std::vector<Exchange> exchanges;
    OptimizerWork optimizer;
    MemoryUse memory;
    double parametersPerCore = 0;
    int gradientGroupChips = 1; // chips that sum each gradient
    // Weight-update sharding in effect: asked for, and more than one chip sums each gradient.
    // The update is sharded over the chips of the group: with one chip the option changes
    // nothing (the chip's two cores still all-reduce their gradients).
    bool weightUpdateSharded = false;
    int batchNormGroupCores = 1;
    // Multislice: the slices the data-parallel replicas span (parallelism is per slice; the
    // global batch is split evenly over the slices) and the gradient sum's DCN stage, between the
    // ICI reduce-scatter and all-gather (docs/multislice.md).
    int slices = 1;
    DcnAllReduce dcn;
};

// Throws InputError naming the field for impossible configurations (including one that does not
// fit in HBM, with the numbers). `calibration` replaces the bundled fitted parameters.
StepPlan buildStepPlan(const Scenario& scenario, const CoreCalibration* calibration = nullptr);

// The same plan without the memory check (to report what a refused configuration would need).
StepPlan buildStepPlanUnchecked(const Scenario& scenario,
                                const CoreCalibration* calibration = nullptr);

// Plans built so far in this process (both functions above count): a request builds its plan
// once and hands it on (tests count the builds per command).
std::int64_t stepPlansBuilt();

// The slice a scenario runs on, with its link overrides. Throws InputError naming the field.
Topology scenarioTopology(const Scenario& scenario);

std::string toString(ExchangeKind kind);

} // namespace podscope
