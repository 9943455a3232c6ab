#pragma once

#include "training/StepModel.hpp"

#include <nlohmann/json.hpp>

namespace podscope {

// Field names match `podscope-cli simulate --json` (docs/training-model.md).
nlohmann::json toJson(const TrainingResult& result);

} // namespace podscope
