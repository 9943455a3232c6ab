#pragma once

#include "training/Presets.hpp"
#include "training/Scenario.hpp"
#include "training/StepModel.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace podscope::report {

struct SweepPoint {
    std::int64_t chips = 0;
    std::int64_t globalBatch = 0;
    std::optional<TrainingResult> result; // empty when the point is impossible
    std::string error;
};

// A measured MLPerf v0.7 point of the same model (from the bundled presets).
struct MeasuredPoint {
    std::string preset;
    std::int64_t chips = 0;
    std::int64_t globalBatch = 0;
    double timeToTrainS = 0;
    std::optional<double> throughputExamplesPerS; // when the preset has a measured step time
};

struct ReportData {
    Scenario scenario;
    std::optional<Preset> preset; // the preset the report was made from, if any
    TrainingResult result;
    std::vector<SweepPoint> scaling; // chips 16 ... 4096, per-chip batch kept
    std::vector<SweepPoint> batches; // the scenario's chips, global batch from 1/8x to 4x
    std::vector<MeasuredPoint> measured;
};

using Progress = std::function<void(const std::string&)>;

// Evaluates the scenario and the two sweeps; reports each sweep point through `progress`.
ReportData computeReport(const Scenario& scenario, const std::optional<Preset>& preset,
                         const Progress& progress = {});

// The pieces of the report, each a complete file's content; deterministic for one input.
std::string resultsJson(const ReportData& data);
std::string resultsCsv(const ReportData& data);
std::string scalingSvg(const ReportData& data);
std::string breakdownSvg(const ReportData& data);
std::string batchSvg(const ReportData& data);
std::string reportHtml(const ReportData& data);

struct ReportFiles {
    std::vector<std::string> written;  // paths, in the order written
    std::vector<std::string> warnings; // e.g. PNG skipped
};

// Writes results.json, results.csv, trace.json, scaling/breakdown/batch .svg (and .png when
// rsvg-convert is on PATH) and report.html into `dir` (created if missing), each through a
// temporary file and a rename. Throws InputError naming "out" when `dir` cannot be written.
ReportFiles writeReport(const ReportData& data, const std::string& dir,
                        const Progress& progress = {});

} // namespace podscope::report
