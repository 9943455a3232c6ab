#pragma once

#include "training/Scenario.hpp"

#include <optional>
#include <string>

namespace podscope::ui {

// A configuration the model refuses, told as the configuration panel names things, with a
// nearby configuration the model accepts where one is easy to find.
struct ConfigurationProblem {
    std::string field;       // as the model names it: "global_batch", "model_parallel" ...
    std::string setting;     // as the panel labels it: "Global batch", "Cores per replica" ...
    std::string explanation; // plain words: "Global batch: 1000 is not a multiple of ..."
    struct Suggestion {
        std::string text;   // "Use a global batch of 8192 (1 example per replica)"
        std::string action; // a button's label: "Use 8192"
        Scenario scenario;  // the refused configuration with that one change; accepted by the model
    };
    std::optional<Suggestion> suggestion;
};

// `message`: the model's refusal, "field: problem" (an InputError's text).
ConfigurationProblem explainProblem(const Scenario& refused, const std::string& message);

// The panel's label for a field the model names ("gradient.dim_order" -> "Dimension order");
// unknown fields in words ("some_field" -> "Some field").
std::string settingName(const std::string& field);

} // namespace podscope::ui
