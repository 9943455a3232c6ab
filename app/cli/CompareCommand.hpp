#pragma once

#include "ScenarioOptions.hpp"

#include <iosfwd>

namespace CLI {
class App;
}

namespace podscope::cli {

struct CompareOptions {
    ScenarioChoice choice;
    bool json = false;
};

CLI::App* addCompareCommand(CLI::App& app, CompareOptions& options);

// The configuration on every bundled machine at the same chip count and global batch: step
// time, time to train and chip time, each relative to the configuration's own machine. A
// machine that refuses it (no slice of that size, not enough HBM) is a row with the reason.
void runCompareCommand(const CompareOptions& options, std::ostream& out);

} // namespace podscope::cli
