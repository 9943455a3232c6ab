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
    // The default: the step timeline of every chip (as timeline --out writes it).
    bool step = false;         // asks for the default by name (accepted as before)
    bool collective = false;   // the analytic breakdown and the gradient collective instead
    bool noCollective = false; // the analytic breakdown alone
    int bins = 200;
};

CLI::App* addTraceCommand(CLI::App& app, TraceOptions& options);

// Writes the step trace to --out (temp file + rename: an error leaves an existing file alone).
void runTraceCommand(const TraceOptions& options, std::ostream& out, std::ostream& err);

} // namespace podscope::cli
