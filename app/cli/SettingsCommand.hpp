#pragma once

#include <iosfwd>

namespace CLI {
class App;
}

namespace podscope::cli {

struct SettingsOptions {
    bool markdown = false;
};

CLI::App* addSettingsCommand(CLI::App& app, SettingsOptions& options);
// Lists the settings of a scenario (the table in docs/settings.md, which --markdown prints).
void runSettingsCommand(const SettingsOptions& options, std::ostream& out);

} // namespace podscope::cli
