#pragma once

#include "ScenarioOptions.hpp"

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>

namespace CLI {
class App;
}

namespace podscope::cli {

struct SimulateOptions {
    ScenarioChoice scenario;
    std::optional<std::string> saveConfig;
    bool json = false;
};

CLI::App* addSimulateCommand(CLI::App& app, SimulateOptions& options);

// Throws InputError on bad input. The configuration is saved only after the scenario has been
// evaluated successfully.
void runSimulateCommand(const SimulateOptions& options, std::ostream& out);

} // namespace podscope::cli
