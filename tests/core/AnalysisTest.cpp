// The one home of sweeps (core/analysis): the app's charts, the report and `podscope-cli sweep`
// read the same points, refused ones keep their reason, and numbers are written one way.
#include "analysis/MeasuredPoints.hpp"
#include "analysis/ScalingSweeps.hpp"
#include "analysis/SweepGrid.hpp"
#include "common/InputError.hpp"
#include "common/NumberFormat.hpp"
#include "machine/Machine.hpp"
#include "report/Report.hpp"
#include "training/Presets.hpp"
#include "training/StepPlan.hpp"

#include <gtest/gtest.h>
#include <limits>
#include <podscope/sweep.hpp>

namespace podscope {
namespace {

const Preset& bert() {
    static const Preset preset = loadPreset("mlperf07-bert-jax-4096");
    return preset;
}

TEST(Analysis, StrongScalingVisitsEveryStandardSliceAtOneBatch) {
    const auto points = analysis::strongScaling(bert().scenario);
    const auto chips = analysis::sweepSliceChips(bert().scenario.hardware);
    ASSERT_EQ(points.size(), chips.size());
    for (std::size_t i = 0; i < points.size(); ++i) {
        EXPECT_EQ(points[i].chips, chips[i]);
        EXPECT_EQ(points[i].globalBatch, bert().scenario.globalBatch);
        ASSERT_EQ(points[i].result.has_value(), points[i].error.empty()) << points[i].error;
        if (points[i].result) {
            EXPECT_EQ(points[i].result->chips, chips[i]);
        }
    }
}

// The sweep of the CLI and Python and the report's strong scaling are the same computation: the
// same configuration gives the same step, bit for bit.
TEST(Analysis, CliSweepAndReportAgreePointByPoint) {
    const report::ReportData report = report::computeReport(bert().scenario, bert());
    api::SweepRequest request;
    request.base.preset = bert().name;
    for (const auto& p : report.strongScaling) {
        request.chips.push_back(p.chips);
    }
    const auto rows = api::sweep(request);
    ASSERT_EQ(rows.size(), report.strongScaling.size());
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const auto& p = report.strongScaling[i];
        EXPECT_EQ(rows[i].chips, p.chips);
        ASSERT_EQ(rows[i].error.empty(), p.result.has_value());
        if (p.result) {
            EXPECT_EQ(rows[i].stepTimeS, p.result->stepTimeS) << p.chips << " chips";
            EXPECT_EQ(rows[i].timeToTrainS, p.result->timeToTrainS) << p.chips << " chips";
        }
    }
}

TEST(Analysis, ABatchBeyondHbmKeepsWhatACoreWouldNeed) {
    Scenario s = bert().scenario;
    const auto base = analysis::evaluatePoint(s);
    ASSERT_TRUE(base.result) << base.error;
    // Far beyond what recompute can save: every core holds 2^20 sequences.
    s.globalBatch = base.result->plan.replicas * (std::int64_t{1} << 20);
    const auto p = analysis::evaluatePoint(s);
    EXPECT_FALSE(p.result);
    EXPECT_NE(p.error.find("HBM"), std::string::npos) << p.error;
    ASSERT_TRUE(p.exceedsHbm);
    EXPECT_GT(p.exceedsHbm->total(), p.exceedsHbm->capacity);
    EXPECT_EQ(p.chips, base.chips);
}

TEST(Analysis, AChipCountThatIsNoStandardSliceFailsTheGrid) {
    EXPECT_THROW(analysis::sweepGrid(bert().scenario, {1000}, {bert().scenario.globalBatch}),
                 InputError);
}

TEST(Analysis, WeakScalingKeepsTheExamplesPerChip) {
    const auto base = analysis::evaluatePoint(bert().scenario);
    ASSERT_TRUE(base.result);
    for (const auto& p : analysis::weakScaling(bert().scenario, *base.result)) {
        EXPECT_NEAR(double(p.globalBatch) / double(p.chips),
                    double(bert().scenario.globalBatch) / double(base.result->chips), 0.5);
    }
}

TEST(Analysis, MeasuredPointsAreThePresetsOfTheModelOnTheirSlices) {
    const auto points = analysis::measuredPoints("bert", bert().scenario.hardware);
    ASSERT_FALSE(points.empty());
    bool found = false;
    for (const auto& m : points) {
        const Preset preset = loadPreset(m.preset);
        EXPECT_EQ(preset.scenario.workload, "bert");
        EXPECT_EQ(m.chips, scenarioTopology(preset.scenario).chipCount());
        found = found || m.preset == bert().name;
    }
    EXPECT_TRUE(found);
    EXPECT_TRUE(analysis::measuredPoints("no-such-model", bert().scenario.hardware).empty());
}

// A run measured on one machine is not set beside the model of another (the v0.7 presets ran
// on one machine; a chart of BERT on any other shows no measured points).
TEST(Analysis, MeasuredPointsBelongToTheMachineTheyRanOn) {
    const std::string measuredOn = bert().scenario.hardware;
    for (const std::string& machine : machineNames()) {
        const auto points = analysis::measuredPoints("bert", machine);
        for (const auto& m : points) {
            EXPECT_EQ(loadPreset(m.preset).scenario.hardware, machine) << m.preset;
        }
        if (machine != measuredOn) {
            EXPECT_TRUE(points.empty()) << machine;
        }
    }
}

TEST(NumberFormat, WritesNumbersAsPeopleDo) {
    EXPECT_EQ(groupDigits(1048576), "1,048,576");
    EXPECT_EQ(groupDigits(999.6), "1,000");
    EXPECT_EQ(groupDigits(-4096), "-4,096");
    EXPECT_EQ(groupDigits(-0.3), "0"); // rounds to zero: no sign
    EXPECT_EQ(fixedDecimals(0.6994, 2), "0.70");
    EXPECT_EQ(fixedDecimals(-0.001, 2), "0.00");
    EXPECT_EQ(fixedDecimals(-1.5, 1), "-1.5");
    EXPECT_EQ(significantDigits(0.69949), "0.699");
    EXPECT_EQ(significantDigits(43.14), "43.1");
    EXPECT_EQ(significantDigits(102.4), "102");
    EXPECT_EQ(std::stod(roundTripDigits(0.1 + 0.2, 17)), 0.1 + 0.2);
}

TEST(NumberFormat, LargeNumbersAreGroupedNotExponents) {
    // Running text groups from five digits on; four-digit counts (4096 chips) stay whole.
    EXPECT_EQ(groupedDecimals(90788.2, 0), "90,788");
    EXPECT_EQ(groupedDecimals(4096, 0), "4096");
    EXPECT_EQ(groupedDecimals(-1048576.54, 1), "-1,048,576.5");
    EXPECT_EQ(groupedDecimals(12345.678, 2), "12,345.68");
    EXPECT_EQ(groupedDecimals(std::numeric_limits<double>::infinity(), 0), "inf");
    // Significant digits round, they do not switch to 9.08e+04.
    EXPECT_EQ(significantDigits(90788.2), "90,800");
    EXPECT_EQ(significantDigits(99950), "100,000");
    EXPECT_EQ(significantDigits(3404.4), "3400");
    EXPECT_EQ(significantDigits(-1.2345e6, 2), "-1,200,000");
    EXPECT_EQ(significantDigits(999.4), "999");
    EXPECT_EQ(significantDigits(999.6), "1000");
    EXPECT_EQ(roundTripDigits(1.5e12, 9), "1.5e+12"); // files for machines: no commas
}

} // namespace
} // namespace podscope
