// The 3-D view's gradient-sum replay is the scenario's own: its machine's links and its slice,
// and the event engine's length of the collective agrees with the analytic engine's that the
// step model charges (two engines, one plan).
#include "view/ScenarioRun.hpp"
#include "view/FrameColoring.hpp"
#include "view/TrainingAnalysis.hpp"

#include "collective/AnalyticEngine.hpp"
#include "training/Presets.hpp"
#include "training/StepModel.hpp"
#include "training/StepPlan.hpp"

#include <algorithm>
#include <gtest/gtest.h>

namespace podscope::ui {
namespace {

TEST(GradientSyncView, TheReplayRunsOnTheScenariosMachineAndAgreesWithTheStepModel) {
    for (const char* hardware : {"tpu-v3", "tpu-v4"}) {
        SCOPED_TRACE(hardware);
        Scenario scenario = loadPreset("mlperf07-resnet50-tf-4096").scenario;
        scenario.hardware = hardware;
        scenario.topology = "8x8";
        scenario.wrap = "xy";
        scenario.globalBatch = 1024;
        const TrainingResult result = simulateTraining(scenario);
        const ViewScenario view = gradientSyncView(scenario, result);
        EXPECT_EQ(view.hardware, hardware);
        const auto run = runScenario(view);
        const Topology slice = scenarioTopology(scenario);
        EXPECT_EQ(run->topology.linkBandwidth(0), slice.linkBandwidth(0));
        EXPECT_EQ(run->topology.linkLatency(), slice.linkLatency());
        ASSERT_EQ(run->simulation.results.size(), 1u);
        // The links' part of the step's gradient sum (the step adds the sum across a chip's
        // cores in HBM and a kernel launch per bucket): with weight-update sharding its
        // reduce-scatter and all-gather, which the view replays as one all-reduce.
        double onTheLinks = 0;
        for (const CollectiveSpec& spec : gradientCollectives(scenario)) {
            onTheLinks += runAnalytic(slice, spec).timeS;
        }
        EXPECT_NEAR(run->simulation.results.front().timeS / onTheLinks, 1.0, 0.05);
        EXPECT_LT(run->simulation.results.front().timeS, result.gradientSyncS);
    }
}

TEST(GradientSyncView, ATwistedTorusIsReplayedTwisted) {
    Scenario scenario = loadPreset("mlperf07-resnet50-tf-4096").scenario;
    scenario.hardware = "tpu-v4";
    scenario.topology = "4x4x8";
    scenario.wrap = "xyz";
    scenario.twisted = true;
    scenario.globalBatch = 1024;
    const auto run = runScenario(gradientSyncView(scenario, simulateTraining(scenario)));
    EXPECT_TRUE(run->topology.twisted(0) || run->topology.twisted(1));
}

// Four v5e pods over the DCN: the replay is the plan's hierarchical sum, reduce-scatter over the
// ICI, the core's DCN stage, all-gather over the ICI, in that order.
TEST(GradientSyncView, AMultisliceSumReplaysTheDcnStageBetweenTheIciParts) {
    Scenario scenario = loadPreset("mlperf07-resnet50-tf-4096").scenario;
    scenario.hardware = "tpu-v5e";
    scenario.topology = "16x16";
    scenario.wrap = "xy";
    scenario.slices = 4;
    scenario.globalBatch = 4096;
    const TrainingResult result = simulateTraining(scenario);
    ASSERT_GT(result.dcnSyncS, 0);
    const ViewScenario view = gradientSyncView(scenario, result);
    EXPECT_EQ(view.slices, 4);
    EXPECT_EQ(view.dcnStageS, result.dcnSyncS);
    // The DCN links' use over the stage: what podscope-cli prints as the rate in use (19 GB/s)
    // over the machine's 25 GB/s per host; the per-step latency takes the rest.
    EXPECT_GT(view.dcnLinkUse, 0.5);
    EXPECT_LT(view.dcnLinkUse, 1.0);
    const auto run = runScenario(view);

    // The DCN stage lasts what the core charges, after the last reduce-scatter transfer and
    // before the first all-gather one; no ICI transfer runs during it.
    EXPECT_DOUBLE_EQ(run->dcnEndS - run->dcnStartS, result.dcnSyncS);
    const Record& record = run->simulation.record;
    int before = 0, after = 0;
    for (const auto& transfer : record.transfers) {
        EXPECT_TRUE(transfer.endS <= run->dcnStartS + 1e-15 || transfer.startS >= run->dcnEndS);
        (transfer.startS < run->dcnStartS ? before : after) += 1;
    }
    EXPECT_GT(before, 0);
    EXPECT_EQ(before, after); // a reduce-scatter and an all-gather step alike on the same rings
    EXPECT_EQ(run->replay->caption((run->dcnStartS + run->dcnEndS) / 2),
              "gradient all-reduce across 4 slices (DCN)");
    EXPECT_NE(run->replay->caption(run->dcnStartS / 2).find("reduce-scatter"), std::string::npos);
    EXPECT_NE(run->replay->caption((run->dcnEndS + run->replay->durationS()) / 2).find("all-gather"),
              std::string::npos);

    // The whole replay: the ICI parts as the analytic engine times them for one slice, plus the
    // DCN stage, within 5%; and no more than the step's gradient sync.
    const Topology slice = scenarioTopology(scenario);
    double ici = 0;
    for (const CollectiveSpec& spec : gradientCollectives(scenario)) {
        ici += runAnalytic(slice, spec).timeS;
    }
    EXPECT_NEAR(run->simulation.results.front().timeS / (ici + result.dcnSyncS), 1.0, 0.05);
    EXPECT_NEAR(run->replay->durationS(), run->simulation.results.front().timeS,
                1e-9 * run->replay->durationS());
    EXPECT_LE(run->simulation.results.front().timeS, result.gradientSyncS * 1.05);
}

TEST(GradientSyncView, TheDcnLinksAndChipsAreBusyOnlyDuringTheDcnStage) {
    Scenario scenario = loadPreset("mlperf07-resnet50-tf-4096").scenario;
    scenario.hardware = "tpu-v5e";
    scenario.topology = "4x4";
    scenario.wrap.reset(); // the slice's own (a 4x4 v5e slice wraps in neither dimension)
    scenario.slices = 2;
    scenario.globalBatch = 1024;
    const auto run = runScenario(gradientSyncView(scenario, simulateTraining(scenario)));
    SceneOptions options;
    options.slices = 2;
    const SceneGeometry scene = buildScene(run->topology, LayoutKind::Grid, options);
    FrameColoring coloring(run->topology, scene, *run->replay, {1, 1});
    coloring.setDcnStage(run->dcnStartS, run->dcnEndS, run->dcnLinkUse);
    FrameColors during, before;
    coloring.compute((run->dcnStartS + run->dcnEndS) / 2, 1e-6, ColorMode::ChipState, during);
    coloring.compute(run->dcnStartS / 2, 1e-6, ColorMode::ChipState, before);
    EXPECT_FALSE(during.dcnLink == FrameColors{}.dcnLink);
    EXPECT_TRUE(during.dcnLink == utilizationColor(static_cast<float>(run->dcnLinkUse)));
    EXPECT_TRUE(before.dcnLink == FrameColors{}.dcnLink);
    EXPECT_TRUE(std::all_of(during.chips.begin(), during.chips.end(),
                            [&](const Rgb& c) { return c == during.chips.front(); }));
    ASSERT_FALSE(during.chipLegend.categories.empty());
    EXPECT_EQ(during.chipLegend.categories.front().first, "communicating");
    EXPECT_TRUE(during.chips.front() == during.chipLegend.categories.front().second);
}

} // namespace
} // namespace podscope::ui
