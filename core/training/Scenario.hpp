#pragma once

#include "collective/CollectiveSpec.hpp"
#include "input/HostInput.hpp"
#include "workload/Workload.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace podscope {

enum class EvalMode { Sync, Async };

struct GradientSettings {
    ElementType precision = ElementType::BF16;
    Algorithm algorithm = Algorithm::TwoD;
    int chunks = 4;
};

// Everything one simulated training run needs. Files and flags fill it (ScenarioJson.hpp).
struct Scenario {
    std::string workload;
    std::string framework;
    std::string hardware = "tpu-v3";
    std::string topology;                    // preset name or DIMS
    std::optional<std::string> wrap;         // for DIMS
    std::optional<double> linkBandwidthGBps; // what-if; default: the hardware's
    std::int64_t globalBatch = 0;
    int modelParallel = 1;
    ModelParallelKind modelParallelKind = ModelParallelKind::None;
    bool weightUpdateSharding = false;
    GradientSettings gradient;
    HostInputSettings input;
    std::optional<EvalMode> evalMode; // default: the workload's
};

std::string toString(EvalMode mode);

} // namespace podscope
