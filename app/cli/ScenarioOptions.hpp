#pragma once

#include "training/Scenario.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace CLI {
class App;
}

namespace podscope::cli {

// Where a scenario comes from (--preset or --config) and the flags that override it; shared by
// `simulate` and `sweep`.
struct ScenarioSource {
    std::optional<std::string> preset;
    std::optional<std::string> config;
};

struct ScenarioOverrides {
    std::optional<std::string> topology;
    std::optional<std::string> wrap;
    std::optional<int> modelParallel;
    std::optional<std::string> framework;
    std::optional<std::string> wus;
    std::optional<double> linkBwGBps;
    std::optional<std::string> decodedCache;
};

// One training configuration as `simulate`, `trace` and `report` take it: a source, a standard
// slice and a global batch, and the overrides.
struct ScenarioChoice {
    ScenarioSource source;
    ScenarioOverrides overrides;
    std::optional<std::int64_t> chips;
    std::optional<std::int64_t> globalBatch;
};

void addScenarioSourceOptions(CLI::App& cmd, ScenarioSource& source);
void addScenarioOverrideOptions(CLI::App& cmd, ScenarioOverrides& overrides);
// --preset/--config, --chips, --global-batch and the overrides.
void addScenarioChoiceOptions(CLI::App& cmd, ScenarioChoice& choice);
// The source, then --chips, --global-batch and the overrides; InputError naming the flag.
Scenario resolveScenario(const ScenarioChoice& choice);

// Exactly one of --preset and --config; InputError otherwise.
Scenario loadScenario(const ScenarioSource& source);
void applyOverrides(const ScenarioOverrides& overrides, Scenario& scenario);
// The MLPerf preset the scenario starts from: --preset, or the "preset" key of the --config
// file (call after loadScenario has accepted the file).
std::optional<std::string> startingPreset(const ScenarioSource& source);

// "on"/"off" (also true/false, yes/no); InputError naming `field`.
bool parseOnOff(const std::string& text, const std::string& field);

} // namespace podscope::cli
