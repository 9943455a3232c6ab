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

struct TraceOptions {
    ScenarioChoice scenario;
    std::string out;
    bool noCollective = false;
    bool step = false; // the step timeline of every chip instead of the analytic breakdown
    int bins = 200;
};

CLI::App* addTraceCommand(CLI::App& app, TraceOptions& options);

// Writes the step trace to --out (temp file + rename: an error leaves an existing file alone).
void runTraceCommand(const TraceOptions& options, std::ostream& out, std::ostream& err);

} // namespace podscope::cli
