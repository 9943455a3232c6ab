// The 3-D view's gradient-sum replay is the scenario's own: its machine's links and its slice,
// and the event engine's length of the collective agrees with the analytic engine's that the
// step model charges (two engines, one plan).
#include "view/ScenarioRun.hpp"
#include "view/TrainingAnalysis.hpp"

#include "collective/AnalyticEngine.hpp"
#include "training/Presets.hpp"
#include "training/StepModel.hpp"
#include "training/StepPlan.hpp"

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

} // namespace
} // namespace podscope::ui
