#pragma once

#include "training/Scenario.hpp"

#include <optional>
#include <podscope/configuration.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace CLI {
class App;
}

namespace podscope::cli {

// Where a scenario comes from: --preset or --config.
struct ScenarioSource {
    std::optional<std::string> preset;
    std::optional<std::string> config;
};

// The scenario flags (one per setting of scenarioSettings() with a flag) as typed, in the
// table's order; checked and applied by the core (settings/SettingFlags.hpp), as podscope does.
struct SettingFlagTexts {
    std::vector<std::optional<std::string>> texts;
};

// One training configuration as `simulate`, `trace`, `layers`, `timeline` and `report` take it.
struct ScenarioChoice {
    ScenarioSource source;
    SettingFlagTexts settings;
};

void addScenarioSourceOptions(CLI::App& cmd, ScenarioSource& source);
// An option per setting with a flag, but those whose keys are in `except` (sweep takes lists of
// chips and of global batches instead).
void addSettingOptions(CLI::App& cmd, SettingFlagTexts& settings,
                       const std::vector<std::string_view>& except = {});
// --preset/--config and every scenario flag.
void addScenarioChoiceOptions(CLI::App& cmd, ScenarioChoice& choice);

// The flags as the public API's request (podscope/configuration.hpp), which loads it.
api::ConfigurationRequest configurationRequest(const ScenarioSource& source,
                                               const SettingFlagTexts& settings);
// The flags checked, then the source (exactly one of --preset and --config) loaded and the flags
// applied, by the API; InputError naming the flag.
Scenario resolveScenario(const ScenarioSource& source, const SettingFlagTexts& settings);
Scenario resolveScenario(const ScenarioChoice& choice);
// The MLPerf preset the scenario starts from: --preset, or the "preset" key of the --config
// file (call after resolveScenario has accepted the file).
std::optional<std::string> startingPreset(const ScenarioSource& source);

} // namespace podscope::cli
