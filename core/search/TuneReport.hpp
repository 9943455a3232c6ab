#pragma once

#include "search/Objective.hpp"
#include "search/SearchSpace.hpp"
#include "search/SearchTally.hpp"
#include "training/StepModel.hpp"

#include <array>
#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

namespace podscope::search {

// analytic: rank by the analytic model only. timeline: then run the best K through the step
// timeline (link contention between buckets, overlap) and rank those by its step.
enum class Fidelity { Analytic, Timeline };
// The Pareto front's cost axis: time to train against chips or against chip-seconds.
enum class ParetoAxis { Chips, ChipSeconds };

std::string toString(Fidelity fidelity);
std::string toString(ParetoAxis axis);

struct TuneSettings {
    Objective objective = Objective::TimeToTrain;
    Fidelity fidelity = Fidelity::Analytic;
    ParetoAxis axis = ParetoAxis::Chips;
    std::size_t top = 10;
    int threads = 1; // for the timeline runs
};

struct RankedConfiguration {
    std::uint64_t index = 0;
    std::array<std::string, kDimensionCount> settings;
    Scenario scenario;
    TrainingResult result; // analytic
    double score = 0;      // the objective's score at the report's fidelity
    int analyticRank = 0;  // 1-based
    // With the timeline fidelity: the step the timeline measured and what follows from it.
    bool confirmed = false;
    double timelineStepS = 0;
    double timelineTimeToTrainS = 0;
    std::string timelineDifference; // where and why the timeline differs from the analytic step
    std::string whyBeatsNext;       // empty for the last row
};

struct FrontPoint {
    std::uint64_t index = 0;
    std::array<std::string, kDimensionCount> settings;
    std::int64_t chips = 0;
    double timeToTrainS = 0;
    double chipSeconds = 0;
    double throughputExamplesPerS = 0;
    Scenario scenario; // to load it, as a listed row's
};

struct TuneReport {
    std::string workload;
    std::string framework;
    TuneSettings settings;
    std::array<std::vector<std::string>, kDimensionCount> dimensions; // the values searched
    std::uint64_t configurations = 0; // the product of the dimensions' sizes
    std::uint64_t evaluated = 0;
    SkipCounts skipped;
    bool complete = true; // false: interrupted, the results cover what was evaluated
    std::vector<RankedConfiguration> top;  // in final order
    std::vector<FrontPoint> front;         // by cost
    std::vector<std::string> orderChanges; // where the timeline reorders the analytic top K
};

// Re-evaluates the tally's best configurations in full, explains each one's lead over the next,
// confirms them with the step timeline at that fidelity, and builds the Pareto front.
TuneReport buildTuneReport(const SearchSpace& space, const SearchTally& tally,
                           const TuneSettings& settings);

nlohmann::json toJson(const TuneReport& report);

// "12.3 ms", "4.56 s", "1.23e+04 examples/s": three significant digits with the unit.
std::string formatObjective(Objective objective, double value);
std::string formatSeconds(double seconds);

} // namespace podscope::search
