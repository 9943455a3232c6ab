#pragma once

#include "ScenarioOptions.hpp"

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace podscope::cli {

struct TimelineCommandOptions {
    ScenarioChoice scenario;
    std::optional<std::int64_t> slowChip;
    std::optional<std::int64_t> slowHost;
    std::optional<double> slowFactor;
    double hostJitter = 0;
    std::int64_t steps = 1;
    std::int64_t seed = 1;
    bool withEvaluation = false;
    bool noContention = false;
    bool json = false;
    std::optional<std::string> out;
    std::int64_t bins = 200;
    std::vector<std::int64_t> traceChips;
};

CLI::App* addTimelineCommand(CLI::App& app, TimelineCommandOptions& options);

// Simulates the step timeline and prints its summary (text or --json); with --out also writes
// it as a Chrome trace (temp file + rename). Throws InputError naming the flag on bad input,
// before any simulation for flags and output paths.
void runTimelineCommand(const TimelineCommandOptions& options, std::ostream& out,
                        std::ostream& err);

} // namespace podscope::cli
