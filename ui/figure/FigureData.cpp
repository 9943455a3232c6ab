#include "figure/FigureData.hpp"

#include "machine/Machine.hpp"
#include "report/Report.hpp"
#include "topology/TopologyPresets.hpp"
#include "training/LayerTable.hpp"
#include "training/StepPlan.hpp"
#include "view/TrainingAnalysis.hpp"
#include "workload/Workload.hpp"
#include "workload/WorkloadFile.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <filesystem>

namespace podscope::ui {
namespace {

// Above this share of ideal, a point counts as super-linear (0.5 %: beyond rounding).
constexpr double kSuperLinear = 1.005;

std::string chipsText(double chips) {
    return groupDigits(chips) + " chips";
}

std::string gibText(double bytes) {
    return fixedDecimals(bytes / (1024.0 * 1024.0 * 1024.0), 1) + " GiB";
}

// "14 examples per core", "0.5 examples per core".
std::string perCoreText(double examples) {
    const bool whole = std::abs(examples - std::round(examples)) < 1e-9;
    return (whole ? groupDigits(examples) : fixedDecimals(examples, 2)) +
           (whole && std::llround(examples) == 1 ? " example" : " examples") + " per core";
}

// "32x32, wrap-around in X and Y" for a standard slice; empty when it is not one.
std::string figureMachine(const ScalingFigure& f) {
    return f.machine.empty() ? defaultMachineName() : f.machine;
}

std::string sliceText(const ScalingFigure& f, double chips) {
    try {
        const TopologyPreset slice =
            standardSlice(figureMachine(f), static_cast<std::int64_t>(chips));
        std::string dims;
        std::string wrapped;
        static const char* names = "XYZW";
        for (std::size_t d = 0; d < slice.dims.size(); ++d) {
            if (d) {
                dims += 'x'; // appended apart: GCC 12 at -O3 reports a false -Wrestrict for "x" +
                             // string
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

// Whether the machine file says that some of its slice shapes are assumed, not published.
bool slicesRestOnAssumptions(const ScalingFigure& f) {
    try {
        return bundledMachine(figureMachine(f)).slicesSource.find("assumption") !=
               std::string::npos;
    } catch (const std::exception&) {
        return false;
    }
}

bool sliceWraps(const ScalingFigure& f, double chips) {
    try {
        const TopologyPreset slice =
            standardSlice(figureMachine(f), static_cast<std::int64_t>(chips));
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
                       fixedDecimals(100 * efficiency[best], 0) + " % of it at " +
                       chipsText(f.model[best].x) + ").";
    const bool haveSync = f.gradientSyncS.size() == f.model.size();
    if (haveSync && f.gradientSyncS[first] < f.gradientSyncS[first - 1]) {
        note += " The exposed gradient sync per step falls from " +
                fixedDecimals(f.gradientSyncS[first - 1] * 1e3, 2) + " ms on " +
                chipsText(f.model[first - 1].x) + " (" + sliceText(f, f.model[first - 1].x) +
                ") to " + fixedDecimals(f.gradientSyncS[first] * 1e3, 2) + " ms on " +
                chipsText(f.model[first].x) + " (" + sliceText(f, f.model[first].x) + ").";
        if (!sliceWraps(f, f.model.front().x) && sliceWraps(f, f.model[first].x)) {
            note +=
                " The smallest slices are meshes without wrap-around links and larger ones "
                "wrap (the slice shapes of the " +
                figureMachine(f) + " machine description, with their sources" +
                (slicesRestOnAssumptions(f) ? "; some shapes' wrap-around is an assumption" : "") +
                "): the ideal line "
                "extends a mesh, which a torus beats. The points above it come from the "
                "slices' links, not from the training itself.";
        }
    }
    return note;
}

} // namespace

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
    return figure.workload + ", " +
           fixedDecimals(figure.batchPerChip, figure.batchPerChip < 10 ? 1 : 0) +
           " examples per chip on every slice";
}

std::string caption(const ScalingFigure& figure) {
    std::string text = "Throughput of " + figure.workload +
                       " in examples per second on the standard slices of " +
                       figureMachine(figure) + ", both axes logarithmic. ";
    if (figure.kind == ScalingFigure::Kind::Strong) {
        text += "Strong scaling keeps the global batch (" + groupDigits(figure.globalBatch) +
                "), so each chip gets fewer examples as the slice grows. ";
    } else {
        text += "Weak scaling keeps the examples per chip (" +
                fixedDecimals(figure.batchPerChip, figure.batchPerChip < 10 ? 1 : 0) +
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

bool outsideMeasuredRange(const BatchFigure& figure, double batch) {
    // The core's tolerance (workload/Convergence.cpp): a batch at the edge is measured.
    constexpr double kTolerance = 1e-9;
    return figure.measuredRange && (batch < figure.measuredRange->first * (1 - kTolerance) ||
                                    batch > figure.measuredRange->second * (1 + kTolerance));
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
    if (figure.criticalBatch > 0) {
        text += " The dotted line is the critical batch of the convergence fit (B_noise = " +
                groupDigits(figure.criticalBatch) +
                "): past it, the examples needed grow almost in proportion to the batch.";
    }
    if (figure.measuredRange) {
        const bool any = std::any_of(figure.points.begin(), figure.points.end(),
                                     [](const BatchFigure::Point& p) { return p.extrapolated; });
        if (any) {
            text += " Batches outside the measured convergence points (" +
                    groupDigits(figure.measuredRange->first) + " to " +
                    groupDigits(figure.measuredRange->second) +
                    ") are extrapolated from the fit (shaded).";
        }
    }
    if (!figure.refused.empty()) {
        text += " From " + groupDigits(figure.refused.front().batch) +
                " the batch does not fit in HBM (hatched): it needs " +
                gibText(figure.refused.front().needsBytes) + " per core, which has " +
                gibText(figure.hbmCapacityBytes);
        if (figure.refused.size() > 2) {
            text += "; the sweep's larger batches up to " +
                    groupDigits(figure.refused.back().batch) + " do not fit either";
        }
        text += ".";
    }
    if (figure.currentBatch) {
        text += " The square marks the configuration's batch.";
    }
    if (!figure.measured.empty()) {
        text += " Measured points are MLPerf v0.7 runs on this slice.";
    }
    return text;
}

std::vector<LayerGroup> layerGroups(const LayersFigure& figure) {
    std::vector<LayerGroup> groups;
    for (std::size_t i = 0; i < figure.layers.size(); ++i) {
        const LayerRow& row = figure.layers[i];
        if (groups.empty() || groups.back().name != row.group) {
            groups.push_back({row.group, 0, 0, {}});
        }
        groups.back().forwardS += row.forwardS;
        groups.back().backwardS += row.backwardS;
        groups.back().layers.push_back(i);
    }
    return groups;
}

namespace {

// "layer07" -> {"layer", "07"}; a name without a trailing number has no number.
std::pair<std::string, std::string> stemAndNumber(const std::string& name) {
    std::size_t digits = name.size();
    while (digits > 0 && std::isdigit(static_cast<unsigned char>(name[digits - 1]))) {
        --digits;
    }
    return {name.substr(0, digits), name.substr(digits)};
}

} // namespace

LayerBars layerBars(const LayersFigure& figure, std::size_t maxBars) {
    LayerBars result;
    std::vector<LayerGroup> groups = layerGroups(figure);
    if (groups.size() <= maxBars || maxBars < 2) {
        // One bar per group: BERT's 24 encoder layers side by side.
        result.groupsPerBar.assign(groups.size(), 1);
        result.bars = std::move(groups);
        return result;
    }
    // Of the last bar, when its group is numbered: a group repeats the run when it has the same
    // stem, as many layers and the same time (ResNet's group1 ... group4 are different stages).
    std::string runStem, runFirst;
    std::size_t runLayers = 0;
    double runSeconds = 0;
    for (LayerGroup& group : groups) {
        const auto [stem, number] = stemAndNumber(group.name);
        const bool repeats = !number.empty() && !runFirst.empty() && stem == runStem &&
                             group.layers.size() == runLayers &&
                             std::abs(group.seconds() - runSeconds) <= 1e-9 * runSeconds;
        if (repeats) {
            LayerGroup& bar = result.bars.back();
            bar.forwardS += group.forwardS;
            bar.backwardS += group.backwardS;
            bar.layers.insert(bar.layers.end(), group.layers.begin(), group.layers.end());
            bar.name = stem + runFirst + "-" + number;
            ++result.groupsPerBar.back();
        } else {
            result.bars.push_back(std::move(group));
            result.groupsPerBar.push_back(1);
            runStem = stem;
            runFirst = number;
            runLayers = result.bars.back().layers.size();
            runSeconds = result.bars.back().seconds();
        }
    }
    if (result.bars.size() <= maxBars || maxBars < 2) {
        return result;
    }
    // Slowest first; among equals (BERT's identical encoder layers), the model's order.
    std::stable_sort(
        result.bars.begin(), result.bars.end(),
        [](const LayerGroup& a, const LayerGroup& b) { return a.seconds() > b.seconds(); });
    // Sorted above without their counts: recount from the layers kept in each bar.
    LayerGroup rest;
    for (std::size_t i = maxBars - 1; i < result.bars.size(); ++i) {
        rest.forwardS += result.bars[i].forwardS;
        rest.backwardS += result.bars[i].backwardS;
        rest.layers.insert(rest.layers.end(), result.bars[i].layers.begin(),
                           result.bars[i].layers.end());
    }
    const std::size_t groupCount = groups.size();
    result.bars.resize(maxBars - 1);
    result.groupsPerBar.clear();
    std::size_t kept = 0;
    for (const LayerGroup& bar : result.bars) {
        // A sorted bar is one group or a merged run; count its groups by its layers' groups.
        std::size_t count = 0;
        std::string last;
        for (std::size_t layer : bar.layers) {
            count += figure.layers[layer].group != last;
            last = figure.layers[layer].group;
        }
        result.groupsPerBar.push_back(count);
        kept += count;
    }
    result.restGroups = groupCount - kept;
    rest.name = "rest (" + std::to_string(result.restGroups) + " groups)";
    result.bars.push_back(std::move(rest));
    result.groupsPerBar.push_back(result.restGroups);
    result.sortedBySeconds = true;
    return result;
}

std::string title(const LayersFigure&) {
    return "Time per layer group: forward and backward";
}

std::string subtitle(const LayersFigure& figure) {
    return figure.workload + " on " + chipsText(double(figure.chips)) + ", " +
           perCoreText(figure.examplesPerCore) + ", " + std::to_string(figure.layers.size()) +
           " layers in " + std::to_string(layerGroups(figure).size()) + " groups";
}

std::string caption(const LayersFigure& figure) {
    double forward = 0, backward = 0;
    for (const LayerRow& row : figure.layers) {
        forward += row.forwardS;
        backward += row.backwardS;
    }
    const LayerBars bars = layerBars(figure, kLayerBars);
    std::string order = bars.sortedBySeconds ? "the " + std::to_string(bars.bars.size() - 1) +
                                                   " slowest bars, "
                                                   "slowest first, and the rest in one bar"
                                             : "in the model's order";
    for (std::size_t i = 0; i < bars.bars.size(); ++i) {
        if (bars.groupsPerBar[i] > 1 && bars.bars[i].name.find('-') != std::string::npos) {
            order += " (" + bars.bars[i].name + ": " + std::to_string(bars.groupsPerBar[i]) +
                     " identical groups, " +
                     fixedDecimals(bars.bars[i].seconds() * 1e3 / double(bars.groupsPerBar[i]), 2) +
                     " ms each on average)";
            break; // the first such run explains the notation
        }
    }
    return "One core's time per training step in each group of consecutive layers of " +
           figure.workload + " (" + perCoreText(figure.examplesPerCore) + "), " + order +
           ": the forward pass and the backward pass (input and weight gradients) stacked. "
           "In all, " +
           fixedDecimals(forward * 1e3, 2) + " ms forward and " + fixedDecimals(backward * 1e3, 2) +
           " ms backward; each layer's kernels take the time of their slowest unit (MXU, HBM, "
           "vector or transcendental unit) plus a fixed cost per kernel. Hover a bar in the app "
           "for its layers; podscope-cli layers prints them all.";
}

double RooflineFigure::roofAt(double intensity) const {
    return std::min(mxuRoofFlops(), hbmBytesPerS * intensity);
}

bool onRoofline(const LayerRow& layer) {
    return layer.flops > 0 && layer.hbmBytes > 0 && layer.achievedFlops > 0;
}

std::string title(const RooflineFigure&) {
    return "Roofline: achieved FLOP/s against arithmetic intensity";
}

std::string subtitle(const RooflineFigure& figure) {
    return figure.workload + " on " + chipsText(double(figure.chips)) + ", " +
           perCoreText(figure.examplesPerCore) + ", one point per layer";
}

std::string caption(const RooflineFigure& figure) {
    const auto placed = std::count_if(figure.layers.begin(), figure.layers.end(), onRoofline);
    const auto left = static_cast<long>(figure.layers.size()) - placed;
    const double ridge = figure.hbmBytesPerS > 0 ? figure.mxuRoofFlops() / figure.hbmBytesPerS : 0;
    std::string text =
        "Each point is a layer of " + figure.workload +
        " on one core, forward and backward: its FLOPs per byte of HBM traffic against the FLOP/s "
        "it achieves, both axes logarithmic. No layer can rise above the roofs: HBM bandwidth (" +
        significantDigits(figure.hbmBytesPerS / 1e9) +
        " GB/s) times the intensity left of the ridge at " + significantDigits(ridge) +
        " FLOP/byte, and the MXUs right of it (the nominal " +
        significantDigits(figure.peakFlops / 1e12) +
        " TFLOP/s, dashed, times the calibrated streaming "
        "efficiency " +
        significantDigits(figure.mxuEfficiency) + " = " +
        significantDigits(figure.mxuRoofFlops() / 1e12) +
        " TFLOP/s). Points are coloured by the unit that bound the layer's time; the gap below "
        "the roof is tile padding, the fixed cost of each kernel and the vector units.";
    if (left > 0) {
        text += " " + std::to_string(left) + (left == 1 ? " layer" : " layers") +
                " without matrix work (norms, pools, losses) " + (left == 1 ? "is" : "are") +
                " left out.";
    }
    return text;
}

namespace {

// A figure names a model file by its name, not the folders it sits in.
std::string workloadLabel(const std::string& workload) {
    return isWorkloadFilePath(workload) ? std::filesystem::path(workload).filename().string()
                                        : workload;
}

// The app's analysis and the report hold the same sweeps (core/analysis): one figure from each.
ScalingFigure scalingFrom(const Scenario& scenario, const TrainingResult& result,
                          const std::vector<analysis::SweepPoint>& sweep,
                          const std::vector<analysis::MeasuredPoint>& measured,
                          ScalingFigure::Kind kind) {
    ScalingFigure f;
    f.kind = kind;
    f.workload = workloadLabel(scenario.workload);
    f.machine = scenario.hardware;
    f.globalBatch = static_cast<double>(scenario.globalBatch);
    f.batchPerChip = static_cast<double>(scenario.globalBatch) / static_cast<double>(result.chips);
    for (const auto& p : sweep) {
        if (p.result) {
            f.model.push_back({static_cast<double>(p.chips), p.result->throughputExamplesPerS});
            f.gradientSyncS.push_back(p.result->breakdown.gradientSyncExposed);
        }
    }
    for (const auto& m : measured) {
        if (m.throughputExamplesPerS) {
            f.measured.push_back({static_cast<double>(m.chips), *m.throughputExamplesPerS});
        }
    }
    if (kind == ScalingFigure::Kind::Strong && result.throughputExamplesPerS > 0) {
        f.current = FigurePoint{static_cast<double>(result.chips), result.throughputExamplesPerS};
    }
    return f;
}

BatchFigure batchFrom(const Scenario& scenario, const TrainingResult& result,
                      const std::vector<analysis::SweepPoint>& sweep,
                      const std::vector<analysis::MeasuredPoint>& measured, double measuredBatchLow,
                      double measuredBatchHigh) {
    BatchFigure f;
    f.workload = workloadLabel(scenario.workload);
    f.chips = result.chips;
    f.hbmCapacityBytes = result.memory.capacity;
    f.criticalBatch = result.criticalBatch;
    if (measuredBatchHigh > 0) {
        f.measuredRange = {measuredBatchLow, measuredBatchHigh};
    }
    for (const auto& p : sweep) {
        const double batch = static_cast<double>(p.globalBatch);
        if (p.exceedsHbm) {
            f.refused.push_back({batch, p.exceedsHbm->total()});
            continue;
        }
        if (!p.result || !p.result->timeToTrainKnown) {
            continue; // no convergence data and no run length: no time to plot
        }
        if (!f.fastest || p.result->timeToTrainS < f.points[*f.fastest].timeToTrainS) {
            f.fastest = f.points.size();
        }
        f.points.push_back(
            {batch, p.result->timeToTrainS, p.result->epochs, p.result->extrapolated});
        if (p.globalBatch == scenario.globalBatch) {
            f.currentBatch = batch;
        }
    }
    for (const auto& m : measured) {
        if (m.chips == f.chips) {
            f.measured.push_back({static_cast<double>(m.globalBatch), m.timeToTrainS});
        }
    }
    return f;
}

RooflineFigure rooflineFrom(const Scenario& scenario, const TrainingResult& result,
                            const std::vector<LayerRow>& layers, const analysis::CoreRoofs& roofs) {
    return {workloadLabel(scenario.workload),
            result.chips,
            result.plan.examplesPerCore,
            layers,
            roofs.peakFlops,
            roofs.mxuEfficiency,
            roofs.hbmBytesPerS};
}

} // namespace

ScalingFigure scalingFigure(const TrainingAnalysis& a) {
    return scalingFrom(a.scenario, a.result, a.byChips, a.measured, ScalingFigure::Kind::Strong);
}

BatchFigure batchFigure(const TrainingAnalysis& a) {
    return batchFrom(a.scenario, a.result, a.byBatch, a.measured, a.measuredBatchLow,
                     a.measuredBatchHigh);
}

LayersFigure layersFigure(const TrainingAnalysis& a) {
    return {workloadLabel(a.scenario.workload), a.result.chips, a.result.plan.examplesPerCore,
            a.layers};
}

RooflineFigure rooflineFigure(const TrainingAnalysis& a) {
    return rooflineFrom(a.scenario, a.result, a.layers, a.roofs);
}

ScalingFigure strongScalingFigure(const report::ReportData& d) {
    return scalingFrom(d.scenario, d.result, d.strongScaling, d.measured,
                       ScalingFigure::Kind::Strong);
}

ScalingFigure weakScalingFigure(const report::ReportData& d) {
    return scalingFrom(d.scenario, d.result, d.weakScaling, d.measured, ScalingFigure::Kind::Weak);
}

BatchFigure batchFigure(const report::ReportData& d) {
    const Convergence& convergence = cachedWorkload(d.scenario.workload).convergence;
    return batchFrom(d.scenario, d.result, d.batches, d.measured, convergence.lowestMeasuredBatch(),
                     convergence.highestMeasuredBatch());
}

LayersFigure layersFigure(const report::ReportData& d) {
    return {workloadLabel(d.scenario.workload), d.result.chips, d.result.plan.examplesPerCore,
            d.layers};
}

RooflineFigure rooflineFigure(const report::ReportData& d) {
    return rooflineFrom(d.scenario, d.result, d.layers, d.roofs);
}

} // namespace podscope::ui
