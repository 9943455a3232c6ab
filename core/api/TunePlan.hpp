#pragma once

#include "search/SearchSpace.hpp"
#include "search/SearchTally.hpp"
#include "search/TuneReport.hpp"

#include <cstdint>
#include <optional>
#include <podscope/tune.hpp>
#include <string>

namespace podscope::api {

// A tune request checked: the space to search and how to rank it.
struct PreparedTune {
    search::SpaceRequest space;
    search::TuneSettings settings;
    std::optional<double> goal;
};

// Everything a user can get wrong, checked before the search starts (InputError naming the
// CLI's flag: "model", "chips", "fix", "objective", "goal", "fidelity", "pareto", "top",
// "threads").
PreparedTune prepareTune(const TuneRequest& request);

// InputError when the search evaluated nothing (every configuration skipped).
void checkSomethingEvaluated(const search::SearchSpace& space, const search::SearchTally& tally);
// InputError when the best misses the goal.
void checkGoal(const PreparedTune& tune, const search::TuneReport& report);

// 1,234,567.
std::string withCommas(std::uint64_t n);

} // namespace podscope::api
