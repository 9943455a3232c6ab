#pragma once

#include "training/Scenario.hpp"
#include "training/StepModel.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace podscope::analysis {

// One configuration of a sweep. A point the model refuses keeps its refusal rather than failing
// the sweep: fewer examples than replicas, a batch that does not fit in HBM, ...
struct SweepPoint {
    std::int64_t chips = 0;
    std::int64_t globalBatch = 0;
    std::optional<TrainingResult> result; // empty when refused
    std::string error;                    // the refusal, as the CLI prints it
    // A refusal because the configuration does not fit in HBM: what a core would need.
    std::optional<MemoryUse> exceedsHbm;
};

// Simulates `scenario` (its slice and batch already set): one step plan when it is accepted.
SweepPoint evaluatePoint(const Scenario& scenario);

} // namespace podscope::analysis
