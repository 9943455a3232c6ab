#pragma once

#include "collective/CollectiveSpec.hpp"
#include "input/HostInput.hpp"
#include "machine/Machine.hpp"
#include "workload/Workload.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace podscope {

enum class EvalMode { Sync, Async };

// When the gradient sum starts: after the whole backward pass (XLA's all-reduce combiner, what
// the 2020 TPU code did), or in buckets as the backward pass makes gradients ready.
enum class GradientOverlap { AfterBackward, Bucketed };

// When a step's activations do not fit in HBM: recompute the cheapest forward layers in the
// backward pass until they do, as XLA does (auto), or refuse the configuration (off).
enum class RematPolicy { Auto, Off };

struct GradientSettings {
    ElementType precision = ElementType::BF16;
    Algorithm algorithm = Algorithm::TwoD;
    int chunks = 4;
    std::string dimOrder; // reduce-scatter order such as "yx"; empty: wrapped dimensions first
    GradientOverlap overlap = GradientOverlap::AfterBackward;
    double bucketMiB = 32; // bucketed overlap: gradient bytes per chip in one bucket
};

// Host CPU time per example of each input stage, replacing the workload's where set.
struct InputCostOverrides {
    std::optional<double> readS, decodeS, augmentS, batchS; // core-seconds per example
};

// Everything one simulated training run needs. Files and flags fill it (ScenarioJson.hpp).
struct Scenario {
    std::string workload;
    std::string framework;
    std::string hardware = defaultMachineName();
    std::string topology;                        // preset name or DIMS
    std::optional<std::string> wrap;             // for DIMS
    bool twisted = false;                        // a twisted torus, where the machine offers one
    std::optional<double> linkBandwidthGBps;     // what-if; default: the hardware's
    std::optional<double> linkLatencyUs;         // per hop; default: the hardware's
    std::optional<double> crossPodBandwidthGBps; // links between pods; default: as the others
    // Multislice (docs/multislice.md): copies of the slice joined over the data-centre network;
    // the global batch spans them all.
    int slices = 1;
    std::optional<double> dcnBandwidthGBps; // per host; default: the machine's dcn_GBps_per_host
    std::int64_t globalBatch = 0;
    int modelParallel = 1;
    ModelParallelKind modelParallelKind = ModelParallelKind::None;
    bool weightUpdateSharding = false;
    GradientSettings gradient;
    HostInputSettings input;
    InputCostOverrides inputCost;
    std::optional<EvalMode> evalMode;      // default: the workload's
    std::optional<double> evalEveryEpochs; // evaluation cadence; default: the workload's
    std::optional<int> sequenceLength;     // tokens per example; default: the workload's
    std::optional<int> batchNormGroup;     // cores that share batch statistics; default: 1
    RematPolicy remat = RematPolicy::Auto;
    // The length of the run, replacing the workload's convergence model (the only way to a
    // time to train for a model without one): steps, or training examples.
    std::optional<std::int64_t> trainSteps;
    std::optional<double> trainExamples;
};

std::string toString(EvalMode mode);
std::string toString(GradientOverlap overlap);
GradientOverlap parseGradientOverlap(const std::string& text, const std::string& field);
std::string toString(RematPolicy policy);
RematPolicy parseRematPolicy(const std::string& text, const std::string& field);

} // namespace podscope
