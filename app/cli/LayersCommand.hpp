#pragma once

#include "ScenarioOptions.hpp"

#include <iosfwd>

namespace CLI {
class App;
}

namespace podscope::cli {

struct LayersOptions {
    ScenarioChoice scenario;
    bool json = false;
    bool csv = false;
};

CLI::App* addLayersCommand(CLI::App& app, LayersOptions& options);
void runLayersCommand(const LayersOptions& options, std::ostream& out);

} // namespace podscope::cli
