#include "figure/ParetoFigure.hpp"

#include "figure/FigureData.hpp"
#include "search/SearchSpace.hpp"
#include "search/TuneReport.hpp"

#include <array>
#include <cmath>
#include <cstdio>

namespace podscope::ui {
namespace {

std::string settingsLabel(const std::array<std::string, search::kDimensionCount>& settings) {
    std::string label;
    for (int d = 0; d < search::kDimensionCount; ++d) {
        if (!label.empty()) {
            label += ", ";
        }
        label += search::dimensionKeys()[static_cast<std::size_t>(d)];
        label += '=';
        label += settings[static_cast<std::size_t>(d)];
    }
    return label;
}

std::string costText(const ParetoFigure& figure, double cost) {
    return figure.cost == ParetoFigure::Cost::Chips ? groupDigits(cost) + " chips"
                                                    : groupDigits(cost) + " chip-seconds";
}

std::string ratioText(double ratio) {
    char text[32];
    std::snprintf(text, sizeof text, "%.2g", ratio);
    return text;
}

} // namespace

ParetoFigure paretoFigure(const search::TuneReport& report) {
    ParetoFigure figure;
    figure.workload = report.workload;
    figure.objective = search::toString(report.settings.objective);
    figure.cost = report.settings.axis == search::ParetoAxis::Chips
                      ? ParetoFigure::Cost::Chips
                      : ParetoFigure::Cost::ChipSeconds;
    figure.evaluated = report.evaluated;
    figure.complete = report.complete;
    for (const search::FrontPoint& p : report.front) {
        figure.front.push_back({figure.cost == ParetoFigure::Cost::Chips
                                    ? static_cast<double>(p.chips)
                                    : p.chipSeconds,
                                p.timeToTrainS, p.index, settingsLabel(p.settings)});
    }
    for (const search::RankedConfiguration& row : report.top) {
        const double chips = static_cast<double>(row.result.chips);
        figure.listed.push_back(
            {figure.cost == ParetoFigure::Cost::Chips ? chips : chips * row.result.timeToTrainS,
             row.result.timeToTrainS, row.index, settingsLabel(row.settings)});
    }
    return figure;
}

std::string costAxisTitle(const ParetoFigure& figure) {
    return figure.cost == ParetoFigure::Cost::Chips ? "chips" : "cost (chip-seconds)";
}

std::string title(const ParetoFigure& figure) {
    return figure.cost == ParetoFigure::Cost::Chips
               ? "Pareto front: time to train against chips"
               : "Pareto front: time to train against chip-seconds";
}

std::string subtitle(const ParetoFigure& figure) {
    if (figure.workload.empty()) {
        return {};
    }
    std::string text = figure.workload + ", " + groupDigits(static_cast<double>(figure.evaluated)) +
                       " configurations evaluated, analytic model";
    if (!figure.complete) {
        text += " (search cancelled: the configurations evaluated until then)";
    }
    return text;
}

std::string caption(const ParetoFigure& figure) {
    if (figure.front.empty()) {
        return "No configuration was evaluated.";
    }
    std::string text = "Each point of the front trains " + figure.workload +
                       " faster than every configuration of the same or a lower cost (" +
                       std::to_string(figure.front.size()) +
                       " points); the other markers are the " +
                       std::to_string(figure.listed.size()) + " best by " + figure.objective +
                       ". Times to train are the analytic model's.";
    // The step along the front that buys the least: time saved relative to cost added.
    std::size_t worst = 0;
    double worstEfficiency = 0;
    for (std::size_t i = 0; i + 1 < figure.front.size(); ++i) {
        const auto& a = figure.front[i];
        const auto& b = figure.front[i + 1];
        if (!(a.cost > 0) || !(b.timeToTrainS > 0)) {
            continue;
        }
        const double efficiency = (a.timeToTrainS / b.timeToTrainS) / (b.cost / a.cost);
        if (worstEfficiency == 0 || efficiency < worstEfficiency) {
            worst = i;
            worstEfficiency = efficiency;
        }
    }
    if (worstEfficiency > 0) {
        const auto& a = figure.front[worst];
        const auto& b = figure.front[worst + 1];
        text += " The step that buys the least is from " + costText(figure, a.cost) + " to " +
                costText(figure, b.cost) + ": time to train falls " +
                ratioText(a.timeToTrainS / b.timeToTrainS) + "x for " + ratioText(b.cost / a.cost) +
                "x the cost (" +
                std::to_string(static_cast<int>(std::lround(100 * worstEfficiency))) +
                " % efficient).";
    }
    return text;
}

} // namespace podscope::ui
