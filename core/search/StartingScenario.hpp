#pragma once

#include "training/Scenario.hpp"

#include <optional>
#include <string>

namespace podscope::search {

// The scenario a search of `model` starts from: the model's MLPerf preset of `framework` if there
// is one, else its TF preset, else any (the framework, input pipeline and evaluation schedule are
// then Google's); with `framework` given, the scenario runs that framework. Empty when the model
// has no preset.
std::optional<Scenario> startingScenario(const std::string& model,
                                         const std::optional<std::string>& framework = {});

} // namespace podscope::search
