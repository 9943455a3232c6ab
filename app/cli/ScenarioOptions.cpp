#include "ScenarioOptions.hpp"

#include "common/InputError.hpp"
#include "common/Limits.hpp"
#include "common/TextFile.hpp"
#include "settings/ScenarioSettings.hpp"
#include "settings/SettingValue.hpp"

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

api::ConfigurationRequest configurationRequest(const ScenarioSource& source,
                                               const SettingFlagTexts& settings) {
    api::ConfigurationRequest request;
    request.preset = source.preset.value_or("");
    request.file = source.config.value_or("");
    if (source.preset && source.preset->empty()) {
        throw InputError("preset", "give a preset's name (see: podscope-cli presets)");
    }
    if (source.config && source.config->empty()) {
        throw InputError("config", "give a configuration file's path");
    }
    for (std::size_t i = 0; i < settings.texts.size(); ++i) {
        if (settings.texts[i]) {
            request.settings.push_back(
                {std::string(scenarioSettings()[i].flag), *settings.texts[i]});
        }
    }
    return request;
}

Scenario resolveScenario(const ScenarioSource& source, const SettingFlagTexts& settings) {
    return api::Configuration::load(configurationRequest(source, settings)).scenario();
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
