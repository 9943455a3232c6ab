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
    ScenarioSource source;
    ScenarioOverrides overrides;
    std::optional<std::int64_t> chips;
    std::optional<std::int64_t> globalBatch;
    std::string out;
    bool noCollective = false;
    int bins = 200;
};

CLI::App* addTraceCommand(CLI::App& app, TraceOptions& options);

// Resolves the scenario the way `simulate` does (--preset/--config, then --chips,
// --global-batch and the overrides); shared with `report`.
Scenario resolveScenario(const ScenarioSource& source, const ScenarioOverrides& overrides,
                         const std::optional<std::int64_t>& chips,
                         const std::optional<std::int64_t>& globalBatch);

// Writes the step trace to --out (temp file + rename: an error leaves an existing file alone).
void runTraceCommand(const TraceOptions& options, std::ostream& out, std::ostream& err);

} // namespace podscope::cli
