#include "figure/FigureData.hpp"

#include "report/Report.hpp"
#include "topology/TopologyPresets.hpp"
#include "view/TrainingAnalysis.hpp"

#include <cmath>
#include <cstdio>

namespace podscope::ui {
namespace {

// Above this share of ideal, a point counts as super-linear (0.5 %: beyond rounding).
constexpr double kSuperLinear = 1.005;

std::string fixed(double value, int decimals) {
    char text[64];
    std::snprintf(text, sizeof text, "%.*f", decimals, value);
    return text;
}

std::string chipsText(double chips) {
    return groupDigits(chips) + " chips";
}

// "32x32, wrap-around in X and Y" for a standard slice; empty when it is not one.
std::string sliceText(double chips) {
    try {
        const TopologyPreset slice = standardSlice(static_cast<std::int64_t>(chips));
        std::string dims;
        std::string wrapped;
        static const char* names = "XYZW";
        for (std::size_t d = 0; d < slice.dims.size(); ++d) {
            if (d) {
                dims += 'x'; // appended apart: GCC 12 at -O3 reports a false -Wrestrict for "x" + string
            }
            dims += std::to_string(slice.dims[d]);
            if (d < slice.wrap.size() && slice.wrap[d]) {
                wrapped += std::string(wrapped.empty() ? "" : " and ") + names[d % 4];
            }
        }
        return dims + (wrapped.empty() ? ", a mesh without wrap-around links"
                                       : ", wrap-around in " + wrapped);
    } catch (const std::exception&) {
        return {};
    }
}

bool sliceWraps(double chips) {
    try {
        const TopologyPreset slice = standardSlice(static_cast<std::int64_t>(chips));
        for (const bool w : slice.wrap) {
            if (w) {
                return true;
            }
        }
    } catch (const std::exception&) {
    }
    return false;
}

// Why points lie above ideal scaling, from what the model reports for them.
std::string superLinearNote(const ScalingFigure& f) {
    const auto efficiency = scalingEfficiency(f);
    std::size_t first = 0, best = 0;
    for (std::size_t i = 1; i < efficiency.size(); ++i) {
        if (efficiency[i] > kSuperLinear && first == 0) {
            first = i;
        }
        if (efficiency[i] > efficiency[best]) {
            best = i;
        }
    }
    if (first == 0) {
        return {};
    }
    std::string note = " From " + chipsText(f.model[first].x) + " the model runs above ideal (" +
                       fixed(100 * efficiency[best], 0) + " % of it at " +
                       chipsText(f.model[best].x) + ").";
    const bool haveSync = f.gradientSyncS.size() == f.model.size();
    if (haveSync && f.gradientSyncS[first] < f.gradientSyncS[first - 1]) {
        note += " The exposed gradient sync per step falls from " +
                fixed(f.gradientSyncS[first - 1] * 1e3, 2) + " ms on " +
                chipsText(f.model[first - 1].x) + " (" + sliceText(f.model[first - 1].x) + ") to " +
                fixed(f.gradientSyncS[first] * 1e3, 2) + " ms on " + chipsText(f.model[first].x) +
                " (" + sliceText(f.model[first].x) + ").";
        if (!sliceWraps(f.model.front().x) && sliceWraps(f.model[first].x)) {
            note += " The smallest slices are meshes without wrap-around links (the 16-chip "
                    "v3-32 by its system description, 32 to 256 chips by assumption: they span no "
                    "full 32-chip ring) and larger ones wrap (resources/topologies/presets.json): "
                    "the ideal line extends a mesh, which a torus beats. The points above it come "
                    "from the slices' links, not from the training itself.";
        }
    }
    return note;
}

} // namespace

std::string groupDigits(double value) {
    const auto whole = static_cast<long long>(std::llround(std::abs(value)));
    std::string digits = std::to_string(whole);
    for (int at = static_cast<int>(digits.size()) - 3; at > 0; at -= 3) {
        digits.insert(static_cast<std::size_t>(at), 1, ','); // one char, not a string: GCC 12's false -Wrestrict
    }
    if (value < 0) {
        digits.insert(0, 1, '-');
    }
    return digits;
}

std::vector<FigurePoint> idealScaling(const ScalingFigure& figure) {
    std::vector<FigurePoint> ideal;
    if (figure.model.empty() || !(figure.model.front().x > 0)) {
        return ideal;
    }
    const double perChip = figure.model.front().y / figure.model.front().x;
    for (const FigurePoint& p : figure.model) {
        ideal.push_back({p.x, perChip * p.x});
    }
    return ideal;
}

std::vector<double> scalingEfficiency(const ScalingFigure& figure) {
    std::vector<double> efficiency;
    const auto ideal = idealScaling(figure);
    for (std::size_t i = 0; i < ideal.size(); ++i) {
        efficiency.push_back(ideal[i].y > 0 ? figure.model[i].y / ideal[i].y : 0.0);
    }
    return efficiency;
}

std::string title(const ScalingFigure& figure) {
    return figure.kind == ScalingFigure::Kind::Strong ? "Strong scaling: throughput against chips"
                                                      : "Weak scaling: throughput against chips";
}

std::string subtitle(const ScalingFigure& figure) {
    if (figure.kind == ScalingFigure::Kind::Strong) {
        return figure.workload + ", global batch " + groupDigits(figure.globalBatch) +
               " on every slice";
    }
    return figure.workload + ", " + fixed(figure.batchPerChip, figure.batchPerChip < 10 ? 1 : 0) +
           " examples per chip on every slice";
}

std::string caption(const ScalingFigure& figure) {
    std::string text = "Throughput of " + figure.workload +
                       " in examples per second on the standard TPU-v3 slices, both axes "
                       "logarithmic. ";
    if (figure.kind == ScalingFigure::Kind::Strong) {
        text += "Strong scaling keeps the global batch (" + groupDigits(figure.globalBatch) +
                "), so each chip gets fewer examples as the slice grows. ";
    } else {
        text += "Weak scaling keeps the examples per chip (" +
                fixed(figure.batchPerChip, figure.batchPerChip < 10 ? 1 : 0) +
                "), so the global batch grows with the slice and only communication can make a "
                "step slower. ";
    }
    text += "The dashed line is ideal scaling: the smallest slice's throughput per chip times the "
            "chips.";
    if (!figure.measured.empty()) {
        text += " Measured points are MLPerf v0.7 runs of the same model, at their own global "
                "batch.";
    }
    return text + superLinearNote(figure);
}

std::string breakdownCaption(const std::string& workload, std::int64_t chips,
                             std::int64_t globalBatch) {
    return "The parts of one training step of " + workload + " on " + chipsText(double(chips)) +
           " at a global batch of " + groupDigits(double(globalBatch)) +
           ", stacked; parts that take no time are left out. Exposed gradient sync is the part of "
           "the gradient all-reduce not hidden behind the backward pass; evaluation is amortised "
           "over the steps between evaluations.";
}

std::string title(const BatchFigure&) {
    return "Time to train against global batch";
}

std::string subtitle(const BatchFigure& figure) {
    return figure.workload + " on " + chipsText(double(figure.chips));
}

std::string caption(const BatchFigure& figure) {
    std::string text = "Time to train " + figure.workload + " on " +
                       chipsText(double(figure.chips)) +
                       " (solid, left axis) and epochs to converge (dashed, right axis) against "
                       "the global batch, in powers of two per replica. A larger batch runs fewer, "
                       "longer steps but needs more epochs";
    if (figure.fastest) {
        text += "; the fastest batch, " + groupDigits(figure.points[*figure.fastest].batch) +
                ", is where more batch stops paying (the paper's batch-size limit)";
    }
    text += ".";
    if (figure.currentBatch) {
        text += " The square marks the configuration's batch.";
    }
    if (!figure.measured.empty()) {
        text += " Measured points are MLPerf v0.7 runs on this slice.";
    }
    return text;
}

ScalingFigure scalingFigure(const TrainingAnalysis& analysis) {
    ScalingFigure f;
    f.kind = ScalingFigure::Kind::Strong;
    f.workload = analysis.scenario.workload;
    f.globalBatch = static_cast<double>(analysis.scenario.globalBatch);
    for (const auto& p : analysis.byChips) {
        f.model.push_back({p.x, p.throughputExamplesPerS});
        f.gradientSyncS.push_back(p.gradientSyncExposedS);
    }
    for (const auto& m : analysis.measured) {
        if (m.throughputExamplesPerS > 0) {
            f.measured.push_back({m.chips, m.throughputExamplesPerS});
        }
    }
    return f;
}

BatchFigure batchFigure(const TrainingAnalysis& analysis) {
    BatchFigure f;
    f.workload = analysis.scenario.workload;
    f.chips = analysis.result.chips;
    for (const auto& p : analysis.byBatch) {
        f.points.push_back({p.x, p.timeToTrainS, p.epochs});
        if (p.x == static_cast<double>(analysis.scenario.globalBatch)) {
            f.currentBatch = p.x;
        }
    }
    f.fastest = analysis.fastestBatch;
    for (const auto& m : analysis.measured) {
        if (m.chips == static_cast<double>(f.chips)) {
            f.measured.push_back({m.globalBatch, m.timeToTrainS});
        }
    }
    return f;
}

namespace {

ScalingFigure scalingFrom(const report::ReportData& data,
                          const std::vector<report::SweepPoint>& sweep, ScalingFigure::Kind kind) {
    ScalingFigure f;
    f.kind = kind;
    f.workload = data.scenario.workload;
    f.globalBatch = static_cast<double>(data.scenario.globalBatch);
    f.batchPerChip =
        static_cast<double>(data.scenario.globalBatch) / static_cast<double>(data.result.chips);
    for (const auto& p : sweep) {
        if (p.result) {
            f.model.push_back({static_cast<double>(p.chips), p.result->throughputExamplesPerS});
            f.gradientSyncS.push_back(p.result->breakdown.gradientSyncExposed);
        }
    }
    for (const auto& m : data.measured) {
        if (m.throughputExamplesPerS) {
            f.measured.push_back({static_cast<double>(m.chips), *m.throughputExamplesPerS});
        }
    }
    return f;
}

} // namespace

ScalingFigure strongScalingFigure(const report::ReportData& data) {
    return scalingFrom(data, data.strongScaling, ScalingFigure::Kind::Strong);
}

ScalingFigure weakScalingFigure(const report::ReportData& data) {
    return scalingFrom(data, data.weakScaling, ScalingFigure::Kind::Weak);
}

BatchFigure batchFigure(const report::ReportData& data) {
    BatchFigure f;
    f.workload = data.scenario.workload;
    f.chips = data.result.chips;
    for (const auto& p : data.batches) {
        if (!p.result) {
            continue;
        }
        const double batch = static_cast<double>(p.globalBatch);
        if (!f.fastest || p.result->timeToTrainS < f.points[*f.fastest].timeToTrainS) {
            f.fastest = f.points.size();
        }
        f.points.push_back({batch, p.result->timeToTrainS, p.result->epochs});
        if (p.globalBatch == data.scenario.globalBatch) {
            f.currentBatch = batch;
        }
    }
    for (const auto& m : data.measured) {
        if (m.chips == f.chips) {
            f.measured.push_back({static_cast<double>(m.globalBatch), m.timeToTrainS});
        }
    }
    return f;
}

} // namespace podscope::ui
