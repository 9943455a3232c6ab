#pragma once

#include "analysis/CoreRoofs.hpp"
#include "analysis/MeasuredPoints.hpp"
#include "analysis/SweepPoint.hpp"
#include "training/LayerTable.hpp"
#include "training/Presets.hpp"
#include "training/Scenario.hpp"
#include "training/StepModel.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace podscope::report {

// The sweeps are the app's (core/analysis), so that the report's figures are the app's. The
// result, the layer table and the roofs come from one step plan.
struct ReportData {
    Scenario scenario;
    std::optional<Preset> preset; // the preset the report was made from, if any
    TrainingResult result;
    std::vector<LayerRow> layers;
    analysis::CoreRoofs roofs;
    std::vector<analysis::SweepPoint> strongScaling; // standard slices 16 ... 4096, same batch
    std::vector<analysis::SweepPoint> weakScaling;   // standard slices, same examples per chip
    std::vector<analysis::SweepPoint> batches; // the scenario's slice, 1 to 2048 per replica
    std::vector<analysis::MeasuredPoint> measured;
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
