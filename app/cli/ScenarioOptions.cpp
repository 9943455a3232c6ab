#include "ScenarioOptions.hpp"

#include "common/InputError.hpp"
#include "common/Limits.hpp"
#include "common/TextFile.hpp"
#include "settings/ScenarioSettings.hpp"
#include "settings/SettingFlags.hpp"
#include "settings/SettingValue.hpp"
#include "training/Presets.hpp"
#include "training/ScenarioJson.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <nlohmann/json.hpp>

namespace podscope::cli {

void addScenarioSourceOptions(CLI::App& cmd, ScenarioSource& s) {
    cmd.add_option("--preset", s.preset,
                   "A bundled MLPerf v0.7 preset (see: podscope-cli presets)");
    cmd.add_option("--config", s.config,
                   "A configuration file (JSON; may name a preset and override some fields)");
}

void addSettingOptions(CLI::App& cmd, SettingFlagTexts& settings,
                       const std::vector<std::string_view>& except) {
    const auto& table = scenarioSettings();
    settings.texts.assign(table.size(), std::nullopt); // bound below: never resized again
    for (std::size_t i = 0; i < table.size(); ++i) {
        const Setting& s = table[i];
        if (s.flag.empty() || std::find(except.begin(), except.end(), s.key) != except.end()) {
            continue;
        }
        cmd.add_option("--" + std::string(s.flag), settings.texts[i], settingHelp(s))
            ->type_name(valueName(s));
    }
}

void addScenarioChoiceOptions(CLI::App& cmd, ScenarioChoice& choice) {
    addScenarioSourceOptions(cmd, choice.source);
    addSettingOptions(cmd, choice.settings);
}

Scenario loadScenario(const ScenarioSource& source) {
    if (source.preset && source.config) {
        throw InputError("preset", "give either --preset or --config, not both");
    }
    if (source.preset) {
        return loadPreset(*source.preset).scenario;
    }
    if (source.config) {
        return loadScenarioFile(*source.config);
    }
    throw InputError("preset", "give --preset NAME or --config FILE (see: podscope-cli presets)");
}

Scenario resolveScenario(const ScenarioSource& source, const SettingFlagTexts& settings) {
    std::vector<SettingText> given;
    for (std::size_t i = 0; i < settings.texts.size(); ++i) {
        if (settings.texts[i]) {
            given.push_back({&scenarioSettings()[i], *settings.texts[i]});
        }
    }
    const auto assignments = parseSettingFlags(given);
    Scenario s = loadScenario(source);
    applySettingFlags(assignments, s);
    return s;
}

Scenario resolveScenario(const ScenarioChoice& choice) {
    return resolveScenario(choice.source, choice.settings);
}

std::optional<std::string> startingPreset(const ScenarioSource& source) {
    if (source.preset) {
        return source.preset;
    }
    if (!source.config) {
        return std::nullopt;
    }
    const std::string text =
        readUserTextFile(*source.config, "config", limits::kMaxConfigFileBytes);
    const auto object = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (object.is_object() && object.contains("preset") && object.at("preset").is_string()) {
        return object.at("preset").get<std::string>();
    }
    return std::nullopt;
}

} // namespace podscope::cli
