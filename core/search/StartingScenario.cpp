#include "search/StartingScenario.hpp"

#include "training/Presets.hpp"

namespace podscope::search {

std::optional<Scenario> startingScenario(const std::string& model,
                                         const std::optional<std::string>& framework) {
    std::optional<Scenario> chosen;
    int chosenRank = 3;
    for (const auto& name : presetNames()) {
        const Scenario s = loadPreset(name).scenario;
        if (s.workload != model) {
            continue;
        }
        const int rank = framework && s.framework == *framework ? 0 : s.framework == "tf" ? 1 : 2;
        if (rank < chosenRank) {
            chosen = s;
            chosenRank = rank;
        }
    }
    if (chosen && framework) {
        chosen->framework = *framework;
    }
    return chosen;
}

} // namespace podscope::search
