#pragma once

#include "training/Scenario.hpp"
#include "training/StepModel.hpp"
#include "training/WhatIf.hpp"
#include "view/ScenarioRun.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace podscope::ui {

struct SweepPoint {
    double x = 0; // chips or global batch
    double throughputExamplesPerS = 0;
    double timeToTrainS = 0;
    double epochs = 0;
    double gradientSyncExposedS = 0; // per step
};

struct MeasuredPoint {
    std::string preset;
    double chips = 0;
    double globalBatch = 0;
    double throughputExamplesPerS = 0; // global batch / measured step time; 0 when not published
    double timeToTrainS = 0;
};

// Everything the charts show for one configuration, computed off the UI thread.
struct TrainingAnalysis {
    Scenario scenario;
    TrainingResult result;
    std::vector<SweepPoint> byChips; // standard slices, same global batch; invalid ones left out
    std::vector<SweepPoint> byBatch; // same slice, global batches that divide evenly
    std::optional<std::size_t> fastestBatch; // index into byBatch with the least time to train
    std::vector<MeasuredPoint> measured;     // MLPerf v0.7 presets of the same model
    std::vector<WhatIf> whatIfs;             // as podscope-cli simulate prints them
};

// Throws InputError (naming the field) when the scenario itself is invalid.
TrainingAnalysis analyzeTraining(const Scenario& scenario);

// The collective the 3-D view replays for a training scenario: its gradient summation.
ViewScenario gradientSyncView(const Scenario& scenario, const TrainingResult& result);

} // namespace podscope::ui
