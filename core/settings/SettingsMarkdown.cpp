#include "settings/SettingsMarkdown.hpp"

#include "settings/ScenarioSettings.hpp"
#include "settings/SettingValue.hpp"

namespace podscope {
namespace {

std::string code(std::string_view text) {
    return text.empty() ? "" : "`" + std::string(text) + "`";
}

// "Gradient summation: Chunks", or "" for a setting the panel does not show.
std::string panelPlace(const Setting& s) {
    for (const SettingGroup& group : settingGroups()) {
        if (group.key == s.panel.group && s.panel.control != PanelControl::None) {
            return std::string(group.title) + ": " + std::string(s.panel.label);
        }
    }
    return "";
}

} // namespace

std::string settingsMarkdown() {
    std::string text = "| Key | Flag | Type | Values | Default | Description | In the app |\n"
                       "|---|---|---|---|---|---|---|\n";
    for (const Setting& s : scenarioSettings()) {
        text += "| " + code(s.key) + " | " +
                code(s.flag.empty() ? "" : "--" + std::string(s.flag)) + " | " + typeName(s.type) +
                " | " + acceptedValues(s) + " | " + defaultValue(s) + " | " +
                std::string(s.description) + " | " + panelPlace(s) + " |\n";
    }
    return text;
}

} // namespace podscope
