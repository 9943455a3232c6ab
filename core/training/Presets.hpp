#pragma once

#include "training/Scenario.hpp"

#include <optional>
#include <string>
#include <vector>

namespace podscope {

// The measured result a preset reproduces. Used by tests and reports, never by the model.
struct PresetReference {
    double timeToTrainS = 0;
    std::optional<double> stepTimeS;
    bool stepTimeIncludesEval = true;
    std::string source;
    std::string stepSource; // where the measured step time comes from
    int evaluationsMin = 0; // evaluations of the runs the score keeps
    int evaluationsMax = 0;
};

struct Preset {
    std::string name;
    std::string title; // as people say it: "BERT, JAX, 4096 chips" (the name when the file has none)
    std::string description;
    Scenario scenario;
    PresetReference reference;
};

std::vector<std::string> presetNames();
// Throws InputError naming `field` for an unknown name.
Preset loadPreset(const std::string& name, const std::string& field = "preset");

} // namespace podscope
