#pragma once

#include <iosfwd>

namespace CLI {
class App;
}

namespace podscope::cli {

struct MachinesOptions {
    bool json = false;
};

CLI::App* addMachinesCommand(CLI::App& app, MachinesOptions& options);
void runMachinesCommand(const MachinesOptions& options, std::ostream& out);

} // namespace podscope::cli
