#pragma once

#include "training/Scenario.hpp"
#include "training/StepModel.hpp"

#include <nlohmann/json.hpp>

namespace podscope::trace {

struct StepTraceOptions {
    // Also simulate the gradient summation with the event engine and add its phases, per-pod
    // tracks and link-utilisation counters. Costs seconds on 4096 chips.
    bool withGradientCollective = true;
    int timeBins = 200;
};

// One training step as a Chrome trace: a track per step-breakdown part laid out in time order
// (compute, exposed gradient sync, model-parallel comm, optimizer, input stall, amortised
// evaluation, overhead), and optionally the gradient all-reduce from the event engine. The
// scenario is embedded under otherData so that the trace can be regenerated. Throws
// InputError when the collective is too large for the event engine.
nlohmann::json buildStepTrace(const Scenario& scenario, const TrainingResult& result,
                              const StepTraceOptions& options = {});

} // namespace podscope::trace
