#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>

namespace podscope::search {

// What a search minimises (throughput is maximised: its score is negated).
enum class Objective { TimeToTrain, Throughput, ChipSeconds };

const std::array<std::string, 3>& objectiveNames();
std::string toString(Objective objective);
// Throws InputError naming `field`.
Objective parseObjective(const std::string& text, const std::string& field = "objective");

// Lower is better.
double objectiveScore(Objective objective, double timeToTrainS, double throughputExamplesPerS,
                      double chipSeconds);
// The objective's value from a score, in its unit (seconds, examples/s, chip-seconds).
double objectiveValue(Objective objective, double score);
std::string objectiveUnit(Objective objective);

// A goal the best configuration must meet: a time to train or chip-seconds of at most `limit`,
// or a throughput of at least `limit`.
bool meetsGoal(Objective objective, double score, double limit);

} // namespace podscope::search
