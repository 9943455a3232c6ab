#include "analysis/ScalingSweeps.hpp"

#include "analysis/SweepGrid.hpp"
#include "topology/TopologyPresets.hpp"
#include "training/ScenarioJson.hpp"

#include <cmath>

namespace podscope::analysis {
namespace {

SweepPoint pointAt(const Scenario& sliced, std::int64_t chips, std::int64_t batch) {
    Scenario s = sliced;
    s.globalBatch = batch;
    SweepPoint p = evaluatePoint(s);
    p.chips = chips;
    return p;
}

void report(const SweepProgress& progress, const std::string& what, std::int64_t chips,
            std::int64_t batch) {
    if (progress) {
        progress(what + ": " + std::to_string(chips) + " chips, global batch " +
                 std::to_string(batch));
    }
}

} // namespace

std::vector<SweepPoint> strongScaling(const Scenario& base, const SweepProgress& progress) {
    std::vector<SweepPoint> points;
    for (const auto chips : sweepSliceChips(base.hardware)) {
        Scenario s = base;
        useStandardSlice(s, chips);
        points.push_back(pointAt(s, chips, base.globalBatch));
        report(progress, "strong scaling", chips, base.globalBatch);
    }
    return points;
}

std::vector<SweepPoint> weakScaling(const Scenario& base, const TrainingResult& baseResult,
                                    const SweepProgress& progress) {
    const double perChip =
        static_cast<double>(base.globalBatch) / static_cast<double>(baseResult.chips);
    std::vector<SweepPoint> points;
    for (const auto chips : sweepSliceChips(base.hardware)) {
        const auto batch =
            std::max<std::int64_t>(1, std::llround(perChip * static_cast<double>(chips)));
        Scenario s = base;
        useStandardSlice(s, chips);
        points.push_back(pointAt(s, chips, batch));
        report(progress, "weak scaling", chips, batch);
    }
    return points;
}

std::vector<SweepPoint> batchSweep(const Scenario& base, const TrainingResult& baseResult,
                                   const SweepProgress& progress) {
    std::vector<SweepPoint> points;
    for (const auto batch : sweepBatches(baseResult.plan.replicas, base.globalBatch)) {
        points.push_back(pointAt(base, baseResult.chips, batch));
        report(progress, "batch", baseResult.chips, batch);
    }
    return points;
}

std::vector<SweepPoint> sweepGrid(const Scenario& base, const std::vector<std::int64_t>& chips,
                                  const std::vector<std::int64_t>& globalBatches) {
    std::vector<SweepPoint> points;
    for (const auto n : chips) {
        Scenario s = base;
        useStandardSlice(s, n);
        for (const auto batch : globalBatches) {
            points.push_back(pointAt(s, n, batch));
        }
    }
    return points;
}

} // namespace podscope::analysis
