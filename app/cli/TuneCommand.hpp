#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace podscope::cli {

struct TuneOptions {
    std::optional<std::string> model;
    std::optional<std::string> preset;
    std::optional<std::string> framework;
    std::string chips; // "4096", "256..4096" or "512,4096"
    std::string objective = "time-to-train";
    std::optional<double> goal;
    std::string fidelity = "analytic";
    std::string pareto = "chips";
    int top = 10;
    std::vector<std::string> fixes; // key=value
    bool allowExtrapolation = false;
    std::optional<int> threads;
    std::optional<std::string> trainSteps, trainExamples; // a run length for a model file
    std::optional<std::string> hardware;                  // the machine searched on
    std::optional<std::string> dcnBandwidth; // multislice: DCN bandwidth per host (GB/s)
    std::optional<std::string> out;
    std::optional<std::string> chart; // the Pareto chart: .png, .svg or .pdf
    bool csv = false;
    bool json = false;
    bool mpi = false;
};

CLI::App* addTuneCommand(CLI::App& app, TuneOptions& options);

// Searches the configurations of a model for the fastest (docs/tune.md). Returns the exit
// status: 0, or 130 when Ctrl-C stopped the search (what it found is written all the same).
// Throws InputError for bad flags, an empty space or a goal no configuration meets.
int runTuneCommand(const TuneOptions& options, std::ostream& out, std::ostream& err);

} // namespace podscope::cli
