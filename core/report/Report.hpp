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
    // A refusal because the configuration does not fit in HBM: what a core would need.
    std::optional<MemoryUse> exceedsHbm;
};

// A measured MLPerf v0.7 point of the same model (from the bundled presets).
struct MeasuredPoint {
    std::string preset;
    std::int64_t chips = 0;
    std::int64_t globalBatch = 0;
    double timeToTrainS = 0;
    std::optional<double> throughputExamplesPerS; // when the preset has a measured step time
};

// The sweeps are the app's (report/Sweeps.hpp), so that the report's figures are the app's.
struct ReportData {
    Scenario scenario;
    std::optional<Preset> preset; // the preset the report was made from, if any
    TrainingResult result;
    std::vector<SweepPoint> strongScaling; // standard slices 16 ... 4096, the same global batch
    std::vector<SweepPoint> weakScaling;   // standard slices, the same examples per chip
    std::vector<SweepPoint> batches;       // the scenario's slice, 1 to 2048 examples per replica
    std::vector<MeasuredPoint> measured;
};

// A chart of the report, drawn by whoever links a chart renderer (podscope-cli and the app draw
// them with the app's Qt Charts figures: ui/export/ReportFigures): the core writes and embeds it.
struct ReportFigure {
    std::string name;    // file stem: "strong-scaling" writes strong-scaling.svg and .png
    std::string title;   // the figure's heading in report.html
    std::string caption; // what it shows, below it
    std::string svg;     // the SVG document
    std::string png;     // the PNG file's bytes
};

using Progress = std::function<void(const std::string&)>;

// Evaluates the scenario and the two sweeps; reports each sweep point through `progress`.
ReportData computeReport(const Scenario& scenario, const std::optional<Preset>& preset,
                         const Progress& progress = {});

// The pieces of the report, each a complete file's content; deterministic for one input. The
// HTML embeds each figure's SVG with its caption; without figures it says that none were drawn.
std::string resultsJson(const ReportData& data);
std::string resultsCsv(const ReportData& data);
std::string reportHtml(const ReportData& data, const std::vector<ReportFigure>& figures);

struct ReportFiles {
    std::vector<std::string> written;  // paths, in the order written
    std::vector<std::string> warnings; // e.g. no charts
};

// Writes results.json, results.csv, trace.json, each figure as NAME.svg and NAME.png, and
// report.html into `dir` (created if missing), each through a temporary file and a rename.
// Without figures, warns that the report has no charts. Throws InputError naming "out" when
// `dir` cannot be written.
ReportFiles writeReport(const ReportData& data, const std::vector<ReportFigure>& figures,
                        const std::string& dir, const Progress& progress = {});

} // namespace podscope::report
