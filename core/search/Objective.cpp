#include "search/Objective.hpp"

#include "common/InputError.hpp"

namespace podscope::search {

const std::array<std::string, 3>& objectiveNames() {
    static const std::array<std::string, 3> names = {"time-to-train", "throughput", "chip-seconds"};
    return names;
}

std::string toString(Objective objective) {
    return objectiveNames()[static_cast<std::size_t>(objective)];
}

Objective parseObjective(const std::string& text, const std::string& field) {
    const auto& names = objectiveNames();
    for (std::size_t i = 0; i < names.size(); ++i) {
        if (text == names[i]) {
            return static_cast<Objective>(i);
        }
    }
    throw InputError(field, "'" + text +
                                "' is not an objective (time-to-train, throughput, chip-seconds)");
}

double objectiveScore(Objective objective, double timeToTrainS, double throughputExamplesPerS,
                      double chipSeconds) {
    switch (objective) {
    case Objective::TimeToTrain:
        return timeToTrainS;
    case Objective::Throughput:
        return -throughputExamplesPerS;
    case Objective::ChipSeconds:
        return chipSeconds;
    }
    return timeToTrainS;
}

double objectiveValue(Objective objective, double score) {
    return objective == Objective::Throughput ? -score : score;
}

std::string objectiveUnit(Objective objective) {
    switch (objective) {
    case Objective::TimeToTrain:
        return "s";
    case Objective::Throughput:
        return "examples/s";
    case Objective::ChipSeconds:
        return "chip-s";
    }
    return "";
}

bool meetsGoal(Objective objective, double score, double limit) {
    const double value = objectiveValue(objective, score);
    return objective == Objective::Throughput ? value >= limit : value <= limit;
}

} // namespace podscope::search
