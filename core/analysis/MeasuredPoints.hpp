#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace podscope::analysis {

// A measured MLPerf run of a model (a bundled preset), to set beside the model's sweeps.
struct MeasuredPoint {
    std::string preset;
    std::int64_t chips = 0;
    std::int64_t globalBatch = 0;
    double timeToTrainS = 0;
    std::optional<double> throughputExamplesPerS; // when the preset has a measured step time
};

// The bundled presets of `workload` measured on `hardware`, in preset order: a run on one
// machine is no measurement of another.
std::vector<MeasuredPoint> measuredPoints(const std::string& workload, const std::string& hardware);

} // namespace podscope::analysis
