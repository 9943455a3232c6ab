#pragma once

#include "analysis/CoreRoofs.hpp"
#include "analysis/MachineComparison.hpp"
#include "analysis/MeasuredPoints.hpp"
#include "analysis/SweepPoint.hpp"
#include "training/LayerTable.hpp"
#include "training/Scenario.hpp"
#include "training/StepModel.hpp"
#include "training/WhatIf.hpp"
#include "view/ScenarioRun.hpp"
#include "workload/LayerGraph.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace podscope::ui {

// Everything the charts show for one configuration, computed off the UI thread.
struct TrainingAnalysis {
    Scenario scenario;
    TrainingResult result;
    // The sweeps of core/analysis (the report's too), refused points kept with their reason.
    std::vector<analysis::SweepPoint> byChips; // standard slices, the same global batch
    std::vector<analysis::SweepPoint> byBatch; // the same slice, 1 to 2048 per replica
    // Every bundled machine at the same chips and batch (podscope-cli compare).
    std::vector<analysis::MachinePoint> byMachine;
    std::optional<std::size_t> fastestBatch; // index into byBatch with the least time to train
    // The measured convergence points' batches: outside them a result is extrapolated.
    double measuredBatchLow = 0;
    double measuredBatchHigh = 0;
    std::vector<analysis::MeasuredPoint> measured; // MLPerf v0.7 presets of the same model
    std::vector<WhatIf> whatIfs;                   // as podscope-cli simulate prints them
    // The per-layer table of the step plan the result was evaluated from (podscope-cli layers).
    std::vector<LayerRow> layers;
    analysis::CoreRoofs roofs;
    // What the configuration panel offers: replicas (batch-norm groups are powers of two up to
    // them), whether the model has batch norm, and its sequence length, if it has one.
    std::int64_t replicas = 0;
    bool hasBatchNorm = false;
    std::optional<ShapeVariable> sequenceLength; // the workload's default and range
};

// Throws InputError (naming the field) when the scenario itself is invalid.
TrainingAnalysis analyzeTraining(const Scenario& scenario);

// The HBM a core would need for the scenario, whether or not it fits; nullopt when the scenario
// is invalid for another reason.
std::optional<MemoryUse> plannedMemory(const Scenario& scenario);

// The collective the 3-D view replays for a training scenario: its gradient summation.
ViewScenario gradientSyncView(const Scenario& scenario, const TrainingResult& result);

} // namespace podscope::ui
