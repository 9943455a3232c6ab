#include "common/InputError.hpp"
#include "common/Suggestion.hpp"
#include "settings/ScenarioSettings.hpp"
#include "settings/SettingFlags.hpp"
#include "settings/SettingValue.hpp"
#include "training/Presets.hpp"
#include "training/Scenario.hpp"
#include "training/ScenarioJson.hpp"

#include <algorithm>
#include <charconv>
#include <podscope/configuration.hpp>

namespace podscope::api {
namespace {

std::vector<std::string> flagNames() {
    std::vector<std::string> names;
    for (const Setting& s : scenarioSettings()) {
        if (!s.flag.empty()) {
            names.emplace_back(s.flag);
        }
    }
    return names;
}

const Setting& settingNamed(const std::string& name) {
    std::string flag = name;
    std::replace(flag.begin(), flag.end(), '_', '-'); // Python's spelling of the flag
    if (const Setting* s = findSettingByFlag(flag); s != nullptr) {
        return *s;
    }
    const auto names = flagNames();
    const auto match = closestMatch(flag, names);
    std::string known;
    for (const auto& n : names) {
        known += (known.empty() ? "" : ", ") + n;
    }
    throw InputError(name, "unknown setting" + (match ? "; did you mean '" + *match + "'?" : "") +
                               " (settings: " + known + ")");
}

// A value as a command line would give it, so that both are read, checked and refused alike.
std::string flagText(const std::string& name, const nlohmann::json& value) {
    if (value.is_string()) {
        return value.get<std::string>();
    }
    if (value.is_boolean()) {
        return value.get<bool>() ? "on" : "off";
    }
    if (value.is_number_integer()) {
        return value.dump();
    }
    if (value.is_number_float()) {
        char digits[32];
        const auto end = std::to_chars(digits, digits + sizeof digits, value.get<double>()).ptr;
        return std::string(digits, end); // the shortest text that reads back the same number
    }
    throw InputError(name, "give one value (text, a number or true/false), not " +
                               std::string(value.type_name()));
}

bool given(const std::vector<SettingAssignment>& assignments, std::string_view key) {
    return std::any_of(assignments.begin(), assignments.end(),
                       [key](const SettingAssignment& a) { return a.setting->key == key; });
}

// A model given alone (--workload FILE with neither a preset nor a file): the required settings
// from the flags, or their standalone values (the table states them; docs/settings.md).
Scenario standaloneScenario(const std::vector<SettingAssignment>& assignments) {
    if (!given(assignments, "workload")) {
        throw InputError("preset", "give --preset NAME, --config FILE or --workload MODEL (see: "
                                   "podscope-cli presets)");
    }
    Scenario s;
    for (const Setting& setting : scenarioSettings()) {
        if (!setting.required || given(assignments, setting.key)) {
            continue;
        }
        if (!setting.standalone.empty()) {
            writeSetting(setting, s, std::string(setting.standalone), std::string(setting.flag));
            continue;
        }
        const auto alternative =
            std::find_if(scenarioSettings().begin(), scenarioSettings().end(),
                         [&](const Setting& other) { return other.excludes == setting.key; });
        if (alternative != scenarioSettings().end() && given(assignments, alternative->key)) {
            continue;
        }
        const std::string instead = alternative != scenarioSettings().end()
                                        ? " (or --" + std::string(alternative->flag) + ")"
                                        : std::string();
        throw InputError(std::string(setting.flag),
                         "is required" + instead +
                             " for a model given alone (--workload without --preset or --config)");
    }
    return s;
}

Scenario loadSource(const ConfigurationRequest& r,
                    const std::vector<SettingAssignment>& assignments) {
    if (!r.preset.empty() && !r.file.empty()) {
        throw InputError("preset", "give either --preset or --config, not both");
    }
    if (!r.preset.empty()) {
        return loadPreset(r.preset).scenario;
    }
    if (!r.file.empty()) {
        return loadScenarioFile(r.file);
    }
    return standaloneScenario(assignments);
}

} // namespace

Configuration::Configuration(std::shared_ptr<const Scenario> scenario)
    : scenario_(std::move(scenario)) {}

Configuration Configuration::load(const ConfigurationRequest& request) {
    std::vector<SettingText> given;
    for (const SettingValue& v : request.settings) {
        if (!v.value.is_null()) { // null: not given (Python's None)
            given.push_back({&settingNamed(v.name), flagText(v.name, v.value)});
        }
    }
    const auto assignments = parseSettingFlags(given); // before any file is read
    Scenario s = loadSource(request, assignments);
    applySettingFlags(assignments, s);
    return fromScenario(s);
}

Configuration Configuration::fromJson(const nlohmann::json& object) {
    return fromScenario(parseScenario(object.dump(2), "configuration"));
}

Configuration Configuration::fromScenario(const Scenario& scenario) {
    return Configuration(std::make_shared<const Scenario>(scenario));
}

nlohmann::json Configuration::toJson() const {
    return podscope::toJson(*scenario_);
}

void Configuration::save(const std::string& path) const {
    saveScenarioFile(path, *scenario_);
}

std::vector<std::string> presetNames() {
    return podscope::presetNames();
}

} // namespace podscope::api
