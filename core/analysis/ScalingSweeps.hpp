#pragma once

#include "analysis/SweepPoint.hpp"
#include "training/Scenario.hpp"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace podscope::analysis {

// Called after each point with what it was ("strong scaling: 256 chips, global batch 4096").
using SweepProgress = std::function<void(const std::string&)>;

// The scaling sweeps of the app's charts and the report, and `podscope-cli sweep`'s grid: one
// implementation, so that every view of a sweep shows the same points.

// The standard slices of 16 chips or more (SweepGrid.hpp), the same global batch.
std::vector<SweepPoint> strongScaling(const Scenario& base, const SweepProgress& progress = {});

// The standard slices, the same examples per chip as `base` (simulated as `baseResult`).
std::vector<SweepPoint> weakScaling(const Scenario& base, const TrainingResult& baseResult,
                                    const SweepProgress& progress = {});

// `base`'s slice, 1 to 2048 examples per replica and its own batch (SweepGrid.hpp).
std::vector<SweepPoint> batchSweep(const Scenario& base, const TrainingResult& baseResult,
                                   const SweepProgress& progress = {});

// Every chip count (standard slices) times every global batch, chips first. InputError for a
// chip count that is not a standard slice: a typo, not a row.
std::vector<SweepPoint> sweepGrid(const Scenario& base, const std::vector<std::int64_t>& chips,
                                  const std::vector<std::int64_t>& globalBatches);

} // namespace podscope::analysis
