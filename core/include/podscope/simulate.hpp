#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <podscope/configuration.hpp>
#include <string>
#include <vector>

namespace podscope::api {

// One part of a training step ("compute", "gradient_sync_exposed", ...) and its seconds.
struct StepPart {
    std::string key;
    std::string label;
    double seconds = 0;
};

// The analytic model's prediction for one configuration (docs/training-model.md).
struct SimulateResult {
    double stepTimeS = 0;    // a step, evaluation share included
    double trainStepS = 0;   // a training step alone
    double timeToTrainS = 0; // start-up, steps and evaluations; 0 when not known
    // False for a model without convergence data and no train_steps or train_examples.
    bool timeToTrainKnown = true;
    std::string timeToTrainMissing; // why not, in a sentence
    double parameters = 0;
    double forwardFlopsPerExample = 0;
    double throughputExamplesPerS = 0;
    double epochs = 0;
    std::int64_t chips = 0;
    std::int64_t steps = 0;
    bool extrapolated = false; // the batch lies outside the measured convergence points
    std::string bottleneck;
    double hbmBytesPerCore = 0;
    std::vector<StepPart> breakdown; // the step's parts, which add up to stepTimeS
    // The object `podscope-cli simulate --json` prints: the above and more, "scenario" and
    // "what_if".
    nlohmann::json json;
};

// InputError when the model refuses the configuration (it does not fit in HBM, ...).
SimulateResult simulate(const Configuration& configuration);

} // namespace podscope::api
