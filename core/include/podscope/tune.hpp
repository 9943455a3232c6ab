#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace podscope::api {

// The search for the fastest configuration of a model, as `podscope-cli tune` takes it
// (docs/tune.md).
struct TuneRequest {
    std::string model;     // resnet50, bert, ...; or
    std::string preset;    // start from this MLPerf preset instead
    std::string framework; // with model: tf, jax or tf2; empty: the model's TF preset
    std::string chips;     // "4096", "512,4096" or "256..4096" (standard slices)
    std::string objective = "time-to-train"; // or throughput, chip-seconds
    std::optional<double> goal;              // the best must reach it, else InputError
    std::string fidelity = "analytic";       // or timeline
    std::string pareto = "chips";            // or chip-seconds
    int top = 10;                            // 1 to 100
    std::vector<std::pair<std::string, std::string>> fixes; // {"gradient.chunks", "8"}
    bool allowExtrapolation = false;
    std::optional<int> threads; // default: all cores
    // Scenario flags applied to the starting configuration, as the command line spells them:
    // {"train-steps", "10000"} (the run length of a model without convergence data).
    std::vector<std::pair<std::string, std::string>> settings;
};

struct TunedConfiguration {
    int rank = 0; // 1-based
    double timeToTrainS = 0;
    double stepTimeS = 0;
    double throughputExamplesPerS = 0;
    std::int64_t chips = 0;
    std::vector<std::pair<std::string, std::string>> settings; // the searched dimensions' values
    std::string whyBeatsNext;
};

struct TuneResult {
    std::uint64_t configurations = 0;
    std::uint64_t evaluated = 0;
    std::vector<TunedConfiguration> top;
    nlohmann::json json; // the object `podscope-cli tune --json` prints
};

// InputError for bad options (the CLI's messages), an empty space or an unmet goal.
TuneResult tune(const TuneRequest& request);

} // namespace podscope::api
