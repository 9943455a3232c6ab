#pragma once

#include "common/NumberFormat.hpp"
#include "training/LayerTable.hpp"

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
    std::string machine;               // whose slices the chip counts are (resources/machines)
    double globalBatch = 0;            // Strong
    double batchPerChip = 0;           // Weak
    std::vector<FigurePoint> model;    // chips, examples/s (slices the model refuses left out)
    std::vector<double> gradientSyncS; // per model point: exposed gradient sync per step, s
    std::vector<FigurePoint> measured; // chips, examples/s of MLPerf v0.7 runs, at their batch
    // Strong: this configuration's chips and examples/s (the model's result for it), marked.
    std::optional<FigurePoint> current;
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
        bool extrapolated = false; // outside the measured convergence points (the core's flag)
    };
    // A batch the sweep visited that does not fit in HBM: refused, with what it would need.
    struct Refused {
        double batch = 0;
        double needsBytes = 0; // HBM per core
    };
    std::string workload;
    std::int64_t chips = 0;
    std::vector<Point> points;    // by batch, those that fit in HBM
    std::vector<Refused> refused; // by batch, above the points
    double hbmCapacityBytes = 0;  // per core
    // The measured convergence points span [low, high]: outside it a point is extrapolated.
    std::optional<std::pair<double, double>> measuredRange;
    double criticalBatch = 0; // B_noise of the convergence fit; 0 when unknown
    std::optional<double> currentBatch;
    std::optional<std::size_t> fastest; // index into points
    std::vector<FigurePoint> measured;  // global batch, time to train of MLPerf runs on this slice
};
std::string title(const BatchFigure& figure);
std::string subtitle(const BatchFigure& figure);
std::string caption(const BatchFigure& figure);
// Whether a batch lies outside the measured convergence range (shaded "extrapolated").
bool outsideMeasuredRange(const BatchFigure& figure, double batch);

// The per-layer table of one core's training step (podscope-cli layers), for the layer-time
// bars and the roofline.
struct LayersFigure {
    std::string workload;
    std::int64_t chips = 0;
    double examplesPerCore = 0;
    std::vector<LayerRow> layers; // in the model's order
};
// Consecutive layers of one group (a ResNet stage, a BERT encoder layer) summed: one bar each.
struct LayerGroup {
    std::string name;
    double forwardS = 0;
    double backwardS = 0;
    std::vector<std::size_t> layers; // indices into LayersFigure::layers
    double seconds() const { return forwardS + backwardS; }
};
std::vector<LayerGroup> layerGroups(const LayersFigure& figure);
// The bars the chart draws, in the model's order: one per group while there are at most
// `maxBars` (BERT's embeddings, layer00 ... layer23 and heads: 26 bars). Past that, a run of
// identical numbered groups (layer00 ... layer23, Transformer's encoder0 ... encoder5: same
// layers, same time) is one bar, "layer00-23"; were there still more than `maxBars`, the slowest
// maxBars - 1, slowest first, and one bar for the rest ("rest (15 groups)").
struct LayerBars {
    std::vector<LayerGroup> bars;
    std::vector<std::size_t> groupsPerBar; // groups of layerGroups() in each bar
    bool sortedBySeconds = false;
    std::size_t restGroups = 0; // groups in the last bar, when sorted
};
LayerBars layerBars(const LayersFigure& figure, std::size_t maxBars);
// As many as a single-column figure can show side by side, each bar a few points wide (the
// chart labels only some of them when their names do not fit).
inline constexpr std::size_t kLayerBars = 32;
std::string title(const LayersFigure& figure);
std::string subtitle(const LayersFigure& figure);
std::string caption(const LayersFigure& figure);

// Arithmetic intensity against achieved FLOP/s of each layer under the core's roofs.
struct RooflineFigure {
    std::string workload;
    std::int64_t chips = 0;
    double examplesPerCore = 0;
    std::vector<LayerRow> layers;
    double peakFlops = 0;     // nominal
    double mxuEfficiency = 1; // calibrated: the MXU roof is peak x this
    double hbmBytesPerS = 0;  // achieved HBM bandwidth: the HBM roof is this x intensity

    double mxuRoofFlops() const { return peakFlops * mxuEfficiency; }
    // The roof over a layer of this intensity: min(MXU roof, HBM bandwidth x intensity).
    double roofAt(double intensity) const;
};
// Layers with matrix work and HBM traffic: the ones a log-log roofline can place.
bool onRoofline(const LayerRow& layer);
std::string title(const RooflineFigure& figure);
std::string subtitle(const RooflineFigure& figure);
std::string caption(const RooflineFigure& figure);

// 65536 as "65,536".

// From the app's analysis: strong scaling, the batch sweep on the current slice, the layers.
ScalingFigure scalingFigure(const TrainingAnalysis& analysis);
BatchFigure batchFigure(const TrainingAnalysis& analysis);
LayersFigure layersFigure(const TrainingAnalysis& analysis);
RooflineFigure rooflineFigure(const TrainingAnalysis& analysis);

// From the report's sweeps.
ScalingFigure strongScalingFigure(const report::ReportData& data);
ScalingFigure weakScalingFigure(const report::ReportData& data);
BatchFigure batchFigure(const report::ReportData& data);
// The report's scenario's layer table and roofs, from its step plan (as the app's analysis).
LayersFigure layersFigure(const report::ReportData& data);
RooflineFigure rooflineFigure(const report::ReportData& data);

} // namespace podscope::ui
