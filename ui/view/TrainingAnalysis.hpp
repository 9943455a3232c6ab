#pragma once

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

struct SweepPoint {
    double x = 0; // chips or global batch
    double throughputExamplesPerS = 0;
    double timeToTrainS = 0;
    double epochs = 0;
    double gradientSyncExposedS = 0; // per step
    // The batch sweep only:
    bool extrapolated = false; // outside the measured convergence points (the core's flag)
    bool exceedsHbm = false;   // refused: the per-core HBM use (memory) is over capacity
    MemoryUse memory;          // per core as planned, for a refused batch too
};

struct MeasuredPoint {
    std::string preset;
    double chips = 0;
    double globalBatch = 0;
    double throughputExamplesPerS = 0; // global batch / measured step time; 0 when not published
    double timeToTrainS = 0;
};

// The ceilings of the roofline: what a core can do at most, from the core model.
struct CoreRoofs {
    double peakFlops = 0;     // nominal: 2 MXUs x 128 x 128 x 2 x clock
    double mxuEfficiency = 1; // calibrated share of the MXU cycles that stream results
    double hbmBytesPerS = 0;  // achieved HBM bandwidth (nominal x measured DMA efficiency)

    double mxuRoofFlops() const { return peakFlops * mxuEfficiency; }
    // Where the HBM roof meets the MXU roof (FLOP per byte).
    double ridgeIntensity() const { return hbmBytesPerS > 0 ? mxuRoofFlops() / hbmBytesPerS : 0; }
};

// Everything the charts show for one configuration, computed off the UI thread.
struct TrainingAnalysis {
    Scenario scenario;
    TrainingResult result;
    std::vector<SweepPoint> byChips; // standard slices, same global batch; invalid ones left out
    // Same slice, global batches that divide evenly; those that do not fit in HBM are kept,
    // marked exceedsHbm, without times.
    std::vector<SweepPoint> byBatch;
    std::optional<std::size_t> fastestBatch; // index into byBatch with the least time to train
    // The measured convergence points' batches: outside them a result is extrapolated.
    double measuredBatchLow = 0;
    double measuredBatchHigh = 0;
    std::vector<MeasuredPoint> measured;     // MLPerf v0.7 presets of the same model
    std::vector<WhatIf> whatIfs;             // as podscope-cli simulate prints them
    // The per-layer table of the step plan the result was evaluated from (podscope-cli layers).
    std::vector<LayerRow> layers;
    CoreRoofs roofs;
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
