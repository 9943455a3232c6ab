#pragma once

#include "training/Scenario.hpp"

#include <nlohmann/json.hpp>
#include <string>

namespace podscope {

// The configuration file format: one JSON object whose keys are the settings of
// scenarioSettings() (settings/ScenarioSettings.hpp; docs/settings.md), nested by their key
// paths ("gradient": {"chunks": 8}), and "preset". A file that names a preset starts from it and
// overrides only the keys it has; otherwise the required settings (workload, framework,
// topology or chips, global_batch) must be there. Errors are InputError naming the field and
// the line.
Scenario parseScenario(const std::string& text, const std::string& origin);

// Applies the keys of `object` to `scenario`; `text` (may be empty) locates lines for messages.
void applyScenarioJson(const nlohmann::json& object, Scenario& scenario, const std::string& text,
                       const std::string& origin);

// Every field written out: reading it back gives the same scenario.
nlohmann::json toJson(const Scenario& scenario);

Scenario loadScenarioFile(const std::string& path);
// Writes to a temporary file next to `path`, then renames it over `path`.
void saveScenarioFile(const std::string& path, const Scenario& scenario);

// Sets topology and wrap to the standard slice with this many chips.
void useStandardSlice(Scenario& scenario, std::int64_t chips);

} // namespace podscope
