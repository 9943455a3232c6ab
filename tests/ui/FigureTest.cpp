// What the figures show (issue 15): round ticks, readable numbers, captions that explain the
// data. Plain C++, no display.
#include "figure/AxisTicks.hpp"
#include "figure/FigureData.hpp"
#include "figure/Palette.hpp"
#include "figure/TimeUnit.hpp"
#include "report/Report.hpp"
#include "training/Presets.hpp"

#include <cmath>
#include <gtest/gtest.h>
#include <set>

namespace podscope::ui {
namespace {

std::vector<std::string> labels(const AxisTicks& ticks) {
    std::vector<std::string> out;
    for (const Tick& t : ticks.ticks) {
        out.push_back(t.label);
    }
    return out;
}

// A value is "round" when it is 1, 2 or 5 times a power of ten (or zero), or a multiple of a
// 1-2-5 step.
bool isMultipleOf(double value, double step) {
    const double k = value / step;
    return std::abs(k - std::round(k)) < 1e-9 * std::max(1.0, std::abs(k));
}

TEST(AxisTicks, NumbersReadAsPeopleWriteThem) {
    EXPECT_EQ(formatTick(65536, NumberStyle::Binary, 65536), "64k");
    EXPECT_EQ(formatTick(1 << 20, NumberStyle::Binary, 1 << 20), "1M");
    EXPECT_EQ(formatTick(512, NumberStyle::Binary, 512), "512");
    EXPECT_EQ(formatTick(15000, NumberStyle::Decimal, 5000), "15k");
    EXPECT_EQ(formatTick(2500000, NumberStyle::Decimal, 500000), "2.5M");
    EXPECT_EQ(formatTick(4096, NumberStyle::Decimal, 1024), "4096"); // four digits stay plain
    EXPECT_EQ(formatTick(0.25, NumberStyle::Decimal, 0.05), "0.25");
    EXPECT_EQ(formatTick(0.3, NumberStyle::Decimal, 0.1), "0.3");
    EXPECT_EQ(formatTick(7.5, NumberStyle::Decimal, 2.5), "7.5");
    EXPECT_EQ(formatTick(0, NumberStyle::Decimal, 0.1), "0");
    EXPECT_EQ(formatTick(-10, NumberStyle::Decimal, 5), "-10");
}

TEST(AxisTicks, NiceStepsAreOneTwoOrFiveTimesAPowerOfTen) {
    EXPECT_DOUBLE_EQ(niceStep(3.9), 5);
    EXPECT_DOUBLE_EQ(niceStep(11.7), 20);
    EXPECT_DOUBLE_EQ(niceStep(0.13), 0.2);
    EXPECT_DOUBLE_EQ(niceStep(100), 100);
    EXPECT_DOUBLE_EQ(niceStep(0), 1); // no data: a step all the same
}

TEST(AxisTicks, LinearChoicesStepByOneTwoFiveFromZeroAndCoverTheData) {
    // The axis: a maximum of 15.6 stepped at max/4 (3.9, 7.8, 11.7) before.
    const auto choices = linearTickChoices(0, 15.6, true, NumberStyle::Decimal);
    ASSERT_FALSE(choices.empty());
    std::set<std::size_t> counts;
    for (const AxisTicks& choice : choices) {
        ASSERT_GE(choice.ticks.size(), 2u);
        EXPECT_LE(choice.ticks.size(), 12u);
        EXPECT_DOUBLE_EQ(choice.low, 0);
        EXPECT_GE(choice.high, 15.6);
        const double step = choice.ticks[1].value - choice.ticks[0].value;
        EXPECT_DOUBLE_EQ(step, niceStep(step)) << step;
        for (const Tick& t : choice.ticks) {
            EXPECT_TRUE(isMultipleOf(t.value, step)) << t.value;
        }
        EXPECT_DOUBLE_EQ(choice.ticks.back().value, choice.high);
        counts.insert(choice.ticks.size());
    }
    EXPECT_EQ(counts.size(), choices.size()); // densest first, each sparser than the one before
    EXPECT_EQ(labels(choices[0]),
              (std::vector<std::string>{"0", "2", "4", "6", "8", "10", "12", "14", "16"}));
    EXPECT_EQ(labels(choices[1]), (std::vector<std::string>{"0", "5", "10", "15", "20"}));
    // Large values take one suffix for the whole axis.
    const auto large = linearTickChoices(0, 14000, true, NumberStyle::Decimal);
    bool sawFiveK = false;
    for (const AxisTicks& choice : large) {
        if (choice.ticks[1].value == 5000) {
            sawFiveK = true;
            EXPECT_EQ(labels(choice), (std::vector<std::string>{"0", "5k", "10k", "15k"}));
        }
    }
    EXPECT_TRUE(sawFiveK);
}

TEST(AxisTicks, LogTwoChoicesArePowersOfTwoInsideAWidenedRange) {
    // Global batches from 8,192 to 262,144 (the batch axis spanned 1,000-1,000,000).
    const auto choices = logTickChoices(8192, 262144, 2, NumberStyle::Binary);
    ASSERT_FALSE(choices.empty());
    EXPECT_EQ(labels(choices.front()),
              (std::vector<std::string>{"8k", "16k", "32k", "64k", "128k", "256k"}));
    for (const AxisTicks& choice : choices) {
        EXPECT_LT(choice.low, 8192);
        EXPECT_GT(choice.low, 4096); // widened by a quarter octave, not a decade
        EXPECT_GT(choice.high, 262144);
        EXPECT_LT(choice.high, 2 * 262144.0);
        for (const Tick& t : choice.ticks) {
            EXPECT_DOUBLE_EQ(std::exp2(std::round(std::log2(t.value))), t.value);
        }
    }
    EXPECT_EQ(labels(choices[1]), (std::vector<std::string>{"16k", "64k", "256k"}));
}

TEST(AxisTicks, LogTenChoicesAreOneTwoFivePerDecadeThenDecades) {
    const auto choices = logTickChoices(17800, 4.8e6, 10, NumberStyle::Decimal);
    ASSERT_GE(choices.size(), 3u);
    EXPECT_EQ(labels(choices[0]),
              (std::vector<std::string>{"20k", "50k", "100k", "200k", "500k", "1M", "2M", "5M"}));
    EXPECT_EQ(labels(choices.back()).size(), 1u); // the sparsest: one decade mark
    // Up to 10k and beyond, thousands read 2k and 5k, not 2000 and 5000 beside 10k.
    EXPECT_EQ(labels(logTickChoices(1000, 2e5, 10, NumberStyle::Decimal).front()),
              (std::vector<std::string>{"1k", "2k", "5k", "10k", "20k", "50k", "100k", "200k"}));
    EXPECT_EQ(labels(logTickChoices(100, 5000, 10, NumberStyle::Decimal).front()),
              (std::vector<std::string>{"100", "200", "500", "1000", "2000", "5000"}));
    for (const AxisTicks& choice : choices) {
        for (const Tick& t : choice.ticks) {
            const double mantissa =
                t.value / std::pow(10.0, std::floor(std::log10(t.value) + 1e-9));
            EXPECT_TRUE(std::abs(mantissa - 1) < 1e-9 || std::abs(mantissa - 2) < 1e-9 ||
                        std::abs(mantissa - 5) < 1e-9)
                << t.value;
        }
    }
}

TEST(AxisTicks, ChoosesTheDensestTicksWhoseLabelsDoNotCollide) {
    const auto choices = linearTickChoices(0, 100, true, NumberStyle::Decimal);
    // Labels 10 px wide, 2 px apart at least.
    auto extent = [](const std::string&) { return 10.0; };
    auto position = [](double length) {
        return [length](const AxisTicks& c, double v) {
            return (v - c.low) / (c.high - c.low) * length;
        };
    };
    const AxisTicks wide = chooseTicks(choices, 1000, 2, position(1000), extent);
    const AxisTicks narrow = chooseTicks(choices, 60, 2, position(60), extent);
    EXPECT_EQ(wide.ticks.size(), 11u); // every 10
    EXPECT_LE(narrow.ticks.size(), 6u);
    for (std::size_t i = 1; i < narrow.ticks.size(); ++i) {
        const double gap = (narrow.ticks[i].value - narrow.ticks[i - 1].value) / narrow.high * 60;
        EXPECT_GE(gap, 12);
    }
}

TEST(AxisTicks, OnlyDataSpanningADecadeGetsALogAxis) {
    EXPECT_TRUE(spansDecade(20, 5000));
    EXPECT_TRUE(spansDecade(1, 10));
    EXPECT_FALSE(spansDecade(27, 80)); // a time-to-train curve that stays within 3x
    EXPECT_FALSE(spansDecade(0, 80));  // zero is not on a log axis
}

TEST(TimeUnit, ChosenSoThatNumbersReadOneToAThousand) {
    EXPECT_STREQ(timeUnitFor(0.0142).symbol, "ms");
    EXPECT_STREQ(timeUnitFor(2.5).symbol, "s");
    EXPECT_STREQ(timeUnitFor(4e-5).symbol, "\xC2\xB5s");
}

TEST(Palette, BreakdownPartsHaveDistinctOkabeItoColours) {
    std::set<std::tuple<int, int, int>> seen;
    const std::set<std::tuple<int, int, int>> okabeIto = {
        {230, 159, 0}, {86, 180, 233}, {0, 158, 115},  {240, 228, 66},
        {0, 114, 178}, {213, 94, 0},   {204, 121, 167}};
    for (int part = 0; part < 7; ++part) {
        const Rgb c = palette::breakdownPartColor(part);
        seen.insert({c.r, c.g, c.b});
        EXPECT_TRUE(okabeIto.count({c.r, c.g, c.b})) << part;
    }
    EXPECT_EQ(seen.size(), 7u);
}

TEST(FigureData, WeakScalingCaptionExplainsTheSuperLinearPodFromTheModel) {
    // The multipod ResNet-50 preset: weak scaling runs above ideal from the 1024-chip pod on.
    const Preset preset = loadPreset("mlperf07-resnet50-tf-4096");
    const auto data = report::computeReport(preset.scenario, preset);
    const ScalingFigure weak = weakScalingFigure(data);
    const auto efficiency = scalingEfficiency(weak);
    ASSERT_EQ(efficiency.size(), weak.model.size());
    EXPECT_DOUBLE_EQ(efficiency.front(), 1);
    // Find where the model first runs above ideal; the caption must name it and its cause.
    std::size_t first = 0;
    for (std::size_t i = 1; i < efficiency.size(); ++i) {
        if (efficiency[i] > 1.005 && first == 0) {
            first = i;
        }
    }
    ASSERT_GT(first, 0u);
    // The first slice that wraps (16x32, in Y: its system description) beats the meshes.
    EXPECT_EQ(weak.model[first].x, 512);
    EXPECT_LT(weak.gradientSyncS[first], weak.gradientSyncS[first - 1]);
    const std::string text = caption(weak);
    EXPECT_NE(text.find("From 512 chips the model runs above ideal"), std::string::npos) << text;
    EXPECT_NE(text.find("16x32, wrap-around in Y"), std::string::npos) << text;
    EXPECT_NE(text.find("16x16, a mesh without wrap-around links"), std::string::npos) << text;
    EXPECT_NE(text.find("assumption"), std::string::npos) << text;
    EXPECT_EQ(title(weak), "Weak scaling: throughput against chips");
    // Weak scaling keeps the examples per chip.
    for (std::size_t i = 0; i < data.weakScaling.size(); ++i) {
        EXPECT_DOUBLE_EQ(double(data.weakScaling[i].globalBatch) /
                             double(data.weakScaling[i].chips),
                         weak.batchPerChip);
    }
}

TEST(FigureData, StrongScalingIsNamedAsSuchAndKeepsTheGlobalBatch) {
    const Preset preset = loadPreset("mlperf07-resnet50-tf-4096");
    const auto data = report::computeReport(preset.scenario, preset);
    const ScalingFigure strong = strongScalingFigure(data);
    EXPECT_EQ(title(strong), "Strong scaling: throughput against chips");
    EXPECT_NE(subtitle(strong).find("global batch 65,536"), std::string::npos);
    for (const auto& p : data.strongScaling) {
        EXPECT_EQ(p.globalBatch, preset.scenario.globalBatch);
    }
    // Ideal scaling is the first point's throughput per chip, times the chips.
    const auto ideal = idealScaling(strong);
    ASSERT_EQ(ideal.size(), strong.model.size());
    EXPECT_DOUBLE_EQ(ideal.front().y, strong.model.front().y);
    EXPECT_DOUBLE_EQ(ideal.back().y / ideal.back().x,
                     strong.model.front().y / strong.model.front().x);
}

TEST(FigureData, BatchFigureMarksTheFastestAndCurrentBatch) {
    const Preset preset = loadPreset("mlperf07-resnet50-tf2-16");
    const auto data = report::computeReport(preset.scenario, preset);
    const BatchFigure f = batchFigure(data);
    ASSERT_TRUE(f.fastest);
    for (const auto& p : f.points) {
        EXPECT_GE(p.timeToTrainS, f.points[*f.fastest].timeToTrainS);
    }
    ASSERT_TRUE(f.currentBatch);
    EXPECT_EQ(*f.currentBatch, double(preset.scenario.globalBatch));
    EXPECT_EQ(groupDigits(1048576), "1,048,576");
    EXPECT_EQ(groupDigits(512), "512");
}

// Issue 12: the report's batch figure keeps the batches refused for HBM, with what they need,
// and marks the measured range of the convergence fit.
TEST(FigureData, ReportBatchFigureKeepsRefusedBatchesAndTheMeasuredRange) {
    const Preset preset = loadPreset("mlperf07-bert-jax-4096");
    const auto data = report::computeReport(preset.scenario, preset);
    const BatchFigure f = batchFigure(data);
    ASSERT_TRUE(f.measuredRange);
    ASSERT_FALSE(f.refused.empty());
    std::size_t refusedInSweep = 0;
    for (const auto& p : data.batches) {
        refusedInSweep += p.exceedsHbm.has_value();
        if (p.exceedsHbm) {
            EXPECT_FALSE(p.result);
            EXPECT_FALSE(p.exceedsHbm->fits());
        }
    }
    EXPECT_EQ(f.refused.size(), refusedInSweep);
    for (const auto& r : f.refused) {
        EXPECT_GT(r.needsBytes, f.hbmCapacityBytes);
    }
    for (const auto& p : f.points) {
        EXPECT_EQ(p.extrapolated, outsideMeasuredRange(f, p.batch)) << p.batch;
    }
    // At the edges a batch is measured; just outside, extrapolated.
    EXPECT_FALSE(outsideMeasuredRange(f, f.measuredRange->first));
    EXPECT_FALSE(outsideMeasuredRange(f, f.measuredRange->second));
    EXPECT_TRUE(outsideMeasuredRange(f, f.measuredRange->second * 1.01));
    EXPECT_TRUE(outsideMeasuredRange(f, f.measuredRange->first * 0.99));
    EXPECT_NE(caption(f).find("does not fit in HBM"), std::string::npos) << caption(f);
}

LayerRow row(const std::string& group, double seconds) {
    LayerRow r;
    r.name = group + "-layer";
    r.group = group;
    r.forwardS = seconds / 3;
    r.backwardS = 2 * seconds / 3;
    return r;
}

// Issue 12: few groups keep the model's order, runs of numbered groups merge, and many groups
// of different kinds become the slowest and one "rest" bar; no time is lost either way.
TEST(FigureData, LayerBarsGroupConsecutiveLayersAndKeepTheTotal) {
    LayersFigure few{"m", 16, 1, {row("a", 1), row("a", 2), row("b", 5), row("c", 1)}};
    const LayerBars kept = layerBars(few, 12);
    ASSERT_EQ(kept.bars.size(), 3u);
    EXPECT_FALSE(kept.sortedBySeconds);
    EXPECT_EQ(kept.bars[0].name, "a");
    EXPECT_DOUBLE_EQ(kept.bars[0].seconds(), 3);
    EXPECT_EQ(kept.bars[0].layers, (std::vector<std::size_t>{0, 1}));

    // Up to the most bars, one per group (BERT's 24 encoder layers side by side). Past it, a
    // run of identical numbered groups is one bar, in the model's order; numbered groups that
    // differ (ResNet's stages) stay apart.
    LayersFigure runs{"m",
                      16,
                      1,
                      {row("embeddings", 1), row("layer00", 2), row("layer00", 1),
                       row("layer01", 2), row("layer01", 1), row("layer02", 2), row("layer02", 1),
                       row("head", 1), row("decoder0", 3), row("decoder1", 3), row("group1", 1),
                       row("group2", 2)}};
    const LayerBars each = layerBars(runs, 9);
    ASSERT_EQ(each.bars.size(), 9u);
    EXPECT_EQ(each.bars[1].name, "layer00");
    EXPECT_EQ(each.bars[3].name, "layer02");
    EXPECT_EQ(each.groupsPerBar, std::vector<std::size_t>(9, 1));
    const LayerBars merged = layerBars(runs, 8);
    ASSERT_EQ(merged.bars.size(), 6u);
    EXPECT_EQ(merged.bars[1].name, "layer00-02");
    EXPECT_EQ(merged.bars[3].name, "decoder0-1");
    EXPECT_EQ(merged.bars[4].name, "group1");
    EXPECT_EQ(merged.bars[5].name, "group2");
    EXPECT_EQ(merged.groupsPerBar, (std::vector<std::size_t>{1, 3, 1, 2, 1, 1}));
    EXPECT_DOUBLE_EQ(merged.bars[1].seconds(), 9);
    EXPECT_EQ(merged.bars[1].layers.size(), 6u);
    // The chart's own (kLayerBars) keeps every group of these.
    EXPECT_NE(caption(runs).find("in the model's order"), std::string::npos) << caption(runs);
    EXPECT_EQ(caption(runs).find("identical groups"), std::string::npos) << caption(runs);

    // Groups of different kinds (no run to merge): the slowest and the rest.
    LayersFigure many{"m", 16, 1, {}};
    double total = 0;
    for (int g = 0; g < 20; ++g) {
        std::string name(1, 'g'); // appended: GCC 12's false -Wrestrict for "g" + string
        name += char('a' + g);
        many.layers.push_back(row(name, 1 + g % 7));
        total += 1 + g % 7;
    }
    const LayerBars bars = layerBars(many, 5);
    ASSERT_EQ(bars.bars.size(), 5u);
    EXPECT_TRUE(bars.sortedBySeconds);
    EXPECT_EQ(bars.restGroups, 16u);
    EXPECT_EQ(bars.bars.back().name, "rest (16 groups)");
    double sum = 0;
    for (const auto& b : bars.bars) {
        sum += b.seconds();
    }
    EXPECT_NEAR(sum, total, 1e-12);
    // The four slowest: g6 and g13 (7 s), then g5 and g12 (6 s), in the model's order.
    EXPECT_EQ(bars.bars[0].name, "gg");
    EXPECT_EQ(bars.bars[1].name, "gn");
    EXPECT_EQ(bars.bars[2].name, "gf");
    EXPECT_EQ(bars.bars[3].name, "gm");
    EXPECT_EQ(bars.groupsPerBar, (std::vector<std::size_t>{1, 1, 1, 1, 16}));
    EXPECT_NE(caption(many).find("slowest"), std::string::npos);
}

} // namespace
} // namespace podscope::ui
