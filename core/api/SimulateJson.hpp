#pragma once

#include "training/Scenario.hpp"
#include "training/StepModel.hpp"
#include "training/WhatIf.hpp"

#include <nlohmann/json.hpp>
#include <vector>

namespace podscope::api {

// The object of `podscope-cli simulate --json` and the API's SimulateResult::json: the result,
// its "scenario" and its "what_if" block.
nlohmann::json simulateJson(const Scenario& scenario, const TrainingResult& result,
                            const std::vector<WhatIf>& whatIfs);

} // namespace podscope::api
