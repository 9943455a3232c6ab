// The search's Pareto figure (issue 14): the front the dialog draws is non-dominated and
// dominates every configuration the table lists, on either cost axis, and its caption names the
// step along the front that buys the least. Plain C++, no display.
#include "figure/ParetoFigure.hpp"

#include "search/Search.hpp"
#include "search/TuneReport.hpp"
#include "training/Presets.hpp"

#include <gtest/gtest.h>

namespace podscope::ui {
namespace {

search::TuneReport smallReport(search::ParetoAxis axis) {
    search::SpaceRequest request;
    request.base = loadPreset("mlperf07-resnet50-tf2-16").scenario;
    request.chips = {16, 32, 64};
    const search::SearchSpace space(request);
    search::SearchOptions options;
    // Throughput ranks by examples per second, not time to train: the table's rows then differ
    // from the front and the dominance check has something to check.
    options.objective = search::Objective::Throughput;
    options.keep = 9;
    search::TuneSettings settings;
    settings.objective = options.objective;
    settings.axis = axis;
    settings.top = 8;
    return search::buildTuneReport(space, search::runSearch(space, options), settings);
}

void expectParetoProperties(const ParetoFigure& figure) {
    ASSERT_GE(figure.front.size(), 2u);
    ASSERT_FALSE(figure.listed.empty());
    for (std::size_t i = 0; i + 1 < figure.front.size(); ++i) {
        // More cost, less time: otherwise the cheaper point would dominate the dearer.
        EXPECT_LT(figure.front[i].cost, figure.front[i + 1].cost) << i;
        EXPECT_GT(figure.front[i].timeToTrainS, figure.front[i + 1].timeToTrainS) << i;
    }
    for (const auto& row : figure.listed) {
        const bool dominated = std::ranges::any_of(figure.front, [&](const auto& p) {
            return p.cost <= row.cost * (1 + 1e-12) &&
                   p.timeToTrainS <= row.timeToTrainS * (1 + 1e-12);
        });
        EXPECT_TRUE(dominated) << "configuration " << row.index << " (" << row.label
                               << ") lies below the front";
        EXPECT_NE(row.label.find("global_batch="), std::string::npos) << row.label;
    }
}

TEST(ParetoFigure, FrontAgainstChipsIsNonDominatedAndBoundsTheListedRows) {
    const search::TuneReport report = smallReport(search::ParetoAxis::Chips);
    const ParetoFigure figure = paretoFigure(report);
    EXPECT_EQ(figure.cost, ParetoFigure::Cost::Chips);
    EXPECT_EQ(figure.front.size(), report.front.size());
    EXPECT_EQ(figure.listed.size(), report.top.size());
    EXPECT_EQ(figure.evaluated, report.evaluated);
    expectParetoProperties(figure);
    for (const auto& p : figure.front) {
        EXPECT_TRUE(p.cost == 16 || p.cost == 32 || p.cost == 64) << p.cost;
    }
    EXPECT_EQ(costAxisTitle(figure), "chips");
    EXPECT_EQ(title(figure), "Pareto front: time to train against chips");
    EXPECT_NE(subtitle(figure).find("resnet50"), std::string::npos) << subtitle(figure);
    EXPECT_EQ(subtitle(figure).find("cancelled"), std::string::npos);
}

TEST(ParetoFigure, FrontAgainstChipSecondsCountsChipsTimesTime) {
    const search::TuneReport report = smallReport(search::ParetoAxis::ChipSeconds);
    const ParetoFigure figure = paretoFigure(report);
    EXPECT_EQ(figure.cost, ParetoFigure::Cost::ChipSeconds);
    expectParetoProperties(figure);
    for (std::size_t i = 0; i < figure.listed.size(); ++i) {
        const auto& r = report.top[i].result;
        EXPECT_DOUBLE_EQ(figure.listed[i].cost, static_cast<double>(r.chips) * r.timeToTrainS);
    }
    for (std::size_t i = 0; i < figure.front.size(); ++i) {
        const auto& p = report.front[i];
        EXPECT_DOUBLE_EQ(figure.front[i].cost, static_cast<double>(p.chips) * p.timeToTrainS);
    }
    EXPECT_EQ(costAxisTitle(figure), "cost (chip-seconds)");
}

TEST(ParetoFigure, CaptionNamesTheStepThatBuysTheLeast) {
    ParetoFigure figure;
    figure.workload = "resnet50";
    figure.objective = "time-to-train";
    figure.evaluated = 3;
    // 16 -> 32 chips: 1000 s / 520 s = 1.92x for 2x (96 %); 32 -> 64: 1.3x for 2x (65 %).
    figure.front = {{16, 1000, 1, "a"}, {32, 520, 2, "b"}, {64, 400, 3, "c"}};
    figure.listed = figure.front;
    const std::string text = caption(figure);
    EXPECT_NE(text.find("from 32 chips to 64 chips"), std::string::npos) << text;
    EXPECT_NE(text.find("falls 1.3x for 2x the cost (65 % efficient)"), std::string::npos) << text;
    EXPECT_NE(text.find("(3 points)"), std::string::npos) << text;
    figure.complete = false;
    EXPECT_NE(subtitle(figure).find("cancelled"), std::string::npos) << subtitle(figure);
    EXPECT_EQ(caption(ParetoFigure{}), "No configuration was evaluated.");
}

} // namespace
} // namespace podscope::ui
