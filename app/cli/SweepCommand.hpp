#pragma once

#include "ScenarioOptions.hpp"

#include <cstdint>
#include <iosfwd>
#include <vector>

namespace CLI {
class App;
}

namespace podscope::cli {

struct SweepOptions {
    ScenarioSource source;
    SettingFlagTexts settings; // all but chips and global_batch, which are lists here
    std::vector<std::int64_t> chips;
    std::vector<std::int64_t> globalBatches; // empty: the scenario's
    bool csv = false;
    bool json = false;
};

CLI::App* addSweepCommand(CLI::App& app, SweepOptions& options);

// One row per (chips, global batch) point; a point that is impossible (say, fewer examples than
// replicas) is a row with an error, not a failure of the whole sweep.
void runSweepCommand(const SweepOptions& options, std::ostream& out);

} // namespace podscope::cli
