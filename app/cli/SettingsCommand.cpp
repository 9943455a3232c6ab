#include "SettingsCommand.hpp"

#include "settings/ScenarioSettings.hpp"
#include "settings/SettingValue.hpp"
#include "settings/SettingsMarkdown.hpp"

#include <CLI/CLI.hpp>
#include <ostream>

namespace podscope::cli {

CLI::App* addSettingsCommand(CLI::App& app, SettingsOptions& o) {
    auto* cmd = app.add_subcommand(
        "settings", "List the settings of a configuration: file keys, flags, values, defaults");
    cmd->add_flag("--markdown", o.markdown, "Print the table of docs/settings.md");
    return cmd;
}

void runSettingsCommand(const SettingsOptions& o, std::ostream& out) {
    if (o.markdown) {
        out << settingsMarkdown();
        return;
    }
    auto padded = [](std::string text, std::size_t width) {
        return text + std::string(text.size() < width ? width - text.size() : 1, ' ');
    };
    for (const Setting& s : scenarioSettings()) {
        out << padded(std::string(s.key), 28)
            << padded(s.flag.empty() ? "" : "--" + std::string(s.flag), 22) << settingHelp(s)
            << "\n";
    }
}

} // namespace podscope::cli
