#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <podscope/configuration.hpp>
#include <string>
#include <vector>

namespace podscope::api {

// The step timeline's what-ifs and options, as `podscope-cli timeline` takes them
// (docs/step-timeline.md).
struct TimelineRequest {
    std::optional<std::int64_t> slowChip;
    std::optional<std::int64_t> slowHost;
    std::optional<double> slowFactor; // 1 to 100; default 1.5 for a chip, 2 for a host
    double hostJitter = 0;            // 0 to 2
    std::int64_t steps = 1;           // 1 to 10000; the last is detailed
    std::int64_t seed = 1;
    bool withEvaluation = false;
    bool contention = true;
};

struct TimelineResult {
    std::int64_t chips = 0;
    double stepS = 0;              // the last step
    double analyticTrainStepS = 0; // the analytic model's training step
    double trainingStepS = 0;      // the last step without its evaluations' share
    std::string difference;        // why the two differ; empty within 2 %
    std::vector<double> stepTimesS;
    std::map<std::string, double> secondsByActivity; // the reference chip in the last step
    std::int64_t referenceChip = 0;                  // the slow chip, or chip 0
    std::int64_t slowestChip = 0;                    // the chip the others wait for
    nlohmann::json json; // the object `podscope-cli timeline --json` prints
};

// InputError naming the option (as podscope-cli names its flag: "slow-chip") before any
// simulation.
TimelineResult timeline(const Configuration& configuration, const TimelineRequest& request = {});

} // namespace podscope::api
