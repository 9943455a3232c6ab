#pragma once

#include "ScenarioOptions.hpp"

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace podscope::cli {

struct ProfileOptions {
    std::optional<std::string> summary; // bundled name or a summary JSON file
    std::optional<std::string> table;   // a profiler op table (CSV)
    int cores = 0;
    double steps = 0;
    std::vector<std::string> exclude;
    bool measuredJson = false;
    bool json = false;
    ScenarioChoice scenario;
};

CLI::App* addProfileCommand(CLI::App& app, ProfileOptions& options);
void runProfileCommand(const ProfileOptions& options, std::ostream& out);

} // namespace podscope::cli
