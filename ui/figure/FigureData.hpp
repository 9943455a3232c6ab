#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace podscope::report {
struct ReportData;
}

namespace podscope::ui {

struct TrainingAnalysis;

// What each figure shows, as plain numbers, whoever computed them: the app's analysis or the
// report's sweeps fill the same structures and the same chart draws them (ui/charts), so a figure
// in the report is the figure in the app. Titles and captions are plain text for both.

struct FigurePoint {
    double x = 0;
    double y = 0;
    bool operator==(const FigurePoint&) const = default;
};

// Throughput against chips on the standard slices.
struct ScalingFigure {
    enum class Kind {
        Strong, // the same global batch on every slice: fewer examples per chip on more chips
        Weak,   // the same examples per chip: the global batch grows with the slice
    };
    Kind kind = Kind::Strong;
    std::string workload;
    double globalBatch = 0;            // Strong
    double batchPerChip = 0;           // Weak
    std::vector<FigurePoint> model;    // chips, examples/s (slices the model refuses left out)
    std::vector<double> gradientSyncS; // per model point: exposed gradient sync per step, s
    std::vector<FigurePoint> measured; // chips, examples/s of MLPerf v0.7 runs, at their batch
};

// The ideal line: the smallest slice's throughput per chip, times the chips.
std::vector<FigurePoint> idealScaling(const ScalingFigure& figure);
// "Strong scaling: throughput against chips" and the conditions below it.
std::string title(const ScalingFigure& figure);
std::string subtitle(const ScalingFigure& figure);
// What the figure shows and why it bends, for the report and the docs; names any point above
// ideal scaling and what makes it so.
std::string caption(const ScalingFigure& figure);
// Throughput per chip relative to the smallest slice's (1 = ideal), per model point.
// A point above 1.005 is "super-linear"; caption() explains each such point.
std::vector<double> scalingEfficiency(const ScalingFigure& figure);

// The step-time breakdown's caption.
std::string breakdownCaption(const std::string& workload, std::int64_t chips,
                             std::int64_t globalBatch);

// Time to train and epochs to converge against the global batch on one slice.
struct BatchFigure {
    struct Point {
        double batch = 0;
        double timeToTrainS = 0;
        double epochs = 0;
    };
    std::string workload;
    std::int64_t chips = 0;
    std::vector<Point> points; // by batch
    std::optional<double> currentBatch;
    std::optional<std::size_t> fastest; // index into points
    std::vector<FigurePoint> measured;  // global batch, time to train of MLPerf runs on this slice
};
std::string title(const BatchFigure& figure);
std::string subtitle(const BatchFigure& figure);
std::string caption(const BatchFigure& figure);

// 65536 as "65,536".
std::string groupDigits(double value);

// From the app's analysis: strong scaling, and the batch sweep on the current slice.
ScalingFigure scalingFigure(const TrainingAnalysis& analysis);
BatchFigure batchFigure(const TrainingAnalysis& analysis);

// From the report's sweeps.
ScalingFigure strongScalingFigure(const report::ReportData& data);
ScalingFigure weakScalingFigure(const report::ReportData& data);
BatchFigure batchFigure(const report::ReportData& data);

} // namespace podscope::ui
