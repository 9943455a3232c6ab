#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <podscope/configuration.hpp>
#include <string>
#include <vector>

namespace podscope::api {

// Chip counts (standard slices) times global batches, on one base configuration.
struct SweepRequest {
    ConfigurationRequest base; // its chips and global batch are replaced point by point
    std::vector<std::int64_t> chips;
    std::vector<std::int64_t> globalBatches; // empty: the base's
};

// One point. A point the model refuses (fewer examples than replicas, ...) has an error and no
// numbers, rather than failing the sweep.
struct SweepRow {
    std::int64_t chips = 0;
    std::int64_t globalBatch = 0;
    std::string error; // empty: the numbers below hold
    double timeToTrainS = 0;
    bool timeToTrainKnown = true; // false: no convergence data, no train_steps (CSV: empty)
    double stepTimeS = 0;
    double throughputExamplesPerS = 0;
    std::int64_t steps = 0;
    double epochs = 0;
    std::vector<double> breakdownS; // by sweepColumns()' breakdown keys, in order
    std::string bottleneck;
    double requiredExamplesPerSPerHost = 0;
    double capacityExamplesPerSPerHost = 0;
    bool extrapolated = false;
    double hbmBytesPerCore = 0;
    nlohmann::json json; // the row of `podscope-cli sweep --json`
};

// The columns of `podscope-cli sweep --csv`, in order: chips, global_batch, ..., the breakdown's
// keys, ..., error.
std::vector<std::string> sweepColumns();
// The keys of SweepRow::breakdownS.
std::vector<std::string> breakdownKeys();

// One row per chip count and global batch, chips first. InputError for an unknown chip count,
// a batch no chip count could use, too many points, or a base the settings refuse.
std::vector<SweepRow> sweep(const SweepRequest& request);

} // namespace podscope::api
