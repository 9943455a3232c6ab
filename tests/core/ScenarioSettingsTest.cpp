// The settings a scenario may override beyond its preset: latency, bandwidth between pods,
// the reduce-scatter's dimension order, the evaluation cadence and per-stage input costs.
#include "common/InputError.hpp"
#include "training/Presets.hpp"
#include "training/ScenarioJson.hpp"
#include "training/StepModel.hpp"

#include <gtest/gtest.h>

namespace podscope {
namespace {

Scenario resnet() { return loadPreset("mlperf07-resnet50-tf-4096").scenario; }

TEST(ScenarioSettings, RoundTripThroughTheFileFormat) {
    Scenario s = resnet();
    s.linkLatencyUs = 2.5;
    s.crossPodBandwidthGBps = 40;
    s.gradient.dimOrder = "xy";
    s.evalEveryEpochs = 2;
    s.inputCost.decodeS = 0.004;
    s.inputCost.batchS = 0.0001;
    const Scenario back = parseScenario(toJson(s).dump(), "test");
    EXPECT_EQ(toJson(back), toJson(s));
    EXPECT_EQ(back.gradient.dimOrder, "xy");
    EXPECT_DOUBLE_EQ(*back.inputCost.decodeS, 0.004);
    EXPECT_FALSE(back.inputCost.readS.has_value());
}

TEST(ScenarioSettings, EachSettingMovesTheResultTheWayPhysicsSays) {
    const TrainingResult base = simulateTraining(resnet());
    Scenario slower = resnet();
    slower.linkLatencyUs = 20;
    EXPECT_GT(simulateTraining(slower).gradientSyncS, base.gradientSyncS);
    Scenario seams = resnet();
    seams.crossPodBandwidthGBps = 10;
    EXPECT_GT(simulateTraining(seams).gradientSyncS, base.gradientSyncS);
    Scenario folded = resnet();
    folded.gradient.dimOrder = "xy"; // the folded X line carries the full payload
    EXPECT_GT(simulateTraining(folded).gradientSyncS, base.gradientSyncS);
    Scenario often = resnet();
    often.evalEveryEpochs = 1;
    EXPECT_GT(simulateTraining(often).evaluations, base.evaluations);
    Scenario costly = resnet();
    costly.input.decodedCache = false;
    costly.inputCost.decodeS = 0.05;
    EXPECT_EQ(simulateTraining(costly).bottleneck, "input");
}

TEST(ScenarioSettings, BadValuesNameTheirField) {
    auto fieldOf = [](const std::string& json) {
        try {
            simulateTraining(parseScenario(json, "test"));
        } catch (const InputError& e) {
            return e.field();
        }
        return std::string("accepted");
    };
    const std::string preset = R"("preset": "mlperf07-resnet50-tf-4096")";
    EXPECT_EQ(fieldOf("{" + preset + R"(, "link_latency_us": -1})"), "link_latency_us");
    EXPECT_EQ(fieldOf("{" + preset + R"(, "cross_pod_bandwidth_GBps": 0})"), "cross_pod_bandwidth_GBps");
    EXPECT_EQ(fieldOf("{" + preset + R"(, "eval_every_epochs": 0})"), "eval_every_epochs");
    EXPECT_EQ(fieldOf("{" + preset + R"(, "eval_every_epochs": 1e-300})"), "eval_every_epochs"); // would never end
    EXPECT_EQ(fieldOf("{" + preset + R"(, "link_latency_us": 0})"), "accepted");                // no latency is valid
    EXPECT_EQ(fieldOf("{" + preset + R"(, "input": {"decode_s": 0}})"), "accepted");
    EXPECT_EQ(fieldOf("{" + preset + R"(, "gradient": {"dim_order": "xx"}})"), "gradient.dim_order");
    EXPECT_EQ(fieldOf("{" + preset + R"(, "gradient": {"dim_order": "xyz"}})"), "gradient.dim_order"); // 2-D slice
    EXPECT_EQ(fieldOf("{" + preset + R"(, "input": {"decode_s": 1000}})"), "input.decode_s");
}

} // namespace
} // namespace podscope
