#pragma once

#include <iosfwd>

namespace CLI {
class App;
}

namespace podscope::cli {

struct PresetsOptions {
    bool json = false;
};

CLI::App* addPresetsCommand(CLI::App& app, PresetsOptions& options);
void runPresetsCommand(const PresetsOptions& options, std::ostream& out);

} // namespace podscope::cli
