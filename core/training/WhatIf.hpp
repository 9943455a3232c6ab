#pragma once

#include "training/Scenario.hpp"
#include "training/StepModel.hpp"

#include <string>
#include <vector>

namespace podscope {

// One change to a configuration and what the model predicts with it: the "what if" block of
// `podscope-cli simulate` and of the desktop app.
struct WhatIf {
    std::string key;   // for files: link_bandwidth_x2, decoded_cache_on/off, wus_on/off
    std::string label; // for people: "twice the link bandwidth", ...
    Scenario scenario; // the configuration with the change
    TrainingResult result;
};

// Twice the link bandwidth; the decoded-example cache toggled (only for workloads that decode
// their input); weight-update sharding toggled (left out when the model refuses it). Throws
// InputError when `scenario` itself is refused.
std::vector<WhatIf> whatIfs(const Scenario& scenario);

} // namespace podscope
