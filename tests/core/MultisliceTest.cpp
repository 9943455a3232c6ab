#include "collective/DcnAllReduce.hpp"
#include "common/InputError.hpp"
#include "timeline/StepTimeline.hpp"
#include "training/Presets.hpp"
#include "training/StepModel.hpp"
#include "training/StepPlan.hpp"
#include "training/TrainingJson.hpp"

#include <gtest/gtest.h>

namespace podscope {
namespace {

// ResNet-50 (fp32 gradients, weight-update sharding) on a 16-chip v5e slice: two hosts of 8.
Scenario v5eSlice() {
    Scenario s = loadPreset("mlperf07-resnet50-tf2-16").scenario;
    s.hardware = "tpu-v5e";
    s.topology = "4x4";
    s.globalBatch = 2048;
    return s;
}

TEST(DcnAllReduce, RingAcrossSlicesHasItsClosedForm) {
    // 4 slices, 1 MB shard per chip, 8 chips per host, 25 GB/s, 10 us per step:
    // 2 x 3/4 x 8 MB / 25 GB/s = 480 us, plus 2 x 3 x 10 us = 60 us.
    const DcnAllReduce d = dcnAllReduce(4, 1e6, 8, 25e9, 10e-6, "f");
    EXPECT_DOUBLE_EQ(d.bytesPerHost, 8e6);
    EXPECT_NEAR(d.seconds(), 540e-6, 1e-12);
    // Two slices: each host sends and receives half its bytes twice (1 x bytes / bandwidth).
    EXPECT_NEAR(dcnAllReduce(2, 1e6, 8, 25e9, 0, "f").seconds(), 320e-6, 1e-12);
    EXPECT_EQ(dcnAllReduce(1, 1e6, 8, 0, 10e-6, "f").seconds(), 0);
    EXPECT_THROW(dcnAllReduce(2, 1e6, 8, 0, 0, "f"), InputError);
}

TEST(Multislice, OneSliceIsTodaysResultExactly) {
    const Scenario base = v5eSlice();
    Scenario one = base;
    one.slices = 1;
    one.dcnBandwidthGBps = 1; // ignored with one slice
    const TrainingResult a = simulateTraining(base);
    const TrainingResult b = simulateTraining(one);
    EXPECT_EQ(a.stepTimeS, b.stepTimeS);
    EXPECT_EQ(a.gradientSyncS, b.gradientSyncS);
    EXPECT_EQ(b.dcnSyncS, 0);
    EXPECT_EQ(b.chips, 16);
    EXPECT_EQ(toJson(a).dump(), toJson(b).dump());
    EXPECT_FALSE(toJson(b).contains("multislice"));
    EXPECT_FALSE(toJson(b).contains("dcn_sync_s"));
}

TEST(Multislice, TwoSlicesHalveThePerSliceBatchAtAFixedGlobalBatch) {
    Scenario two = v5eSlice();
    two.slices = 2;
    Scenario half = v5eSlice();
    half.globalBatch /= 2;
    const TrainingResult r2 = simulateTraining(two);
    const TrainingResult r1 = simulateTraining(v5eSlice());
    const TrainingResult rh = simulateTraining(half);
    EXPECT_EQ(r2.slices, 2);
    EXPECT_EQ(r2.chips, 32);
    EXPECT_EQ(r2.replicasPerSlice, r1.plan.replicas);
    EXPECT_DOUBLE_EQ(r2.plan.perReplicaBatch, r1.plan.perReplicaBatch / 2);
    // Each slice computes what one slice does with half the batch; the ICI part of the
    // gradient sum is the same, and the DCN stage comes on top.
    EXPECT_DOUBLE_EQ(r2.breakdown.compute, rh.breakdown.compute);
    EXPECT_GT(r2.dcnSyncS, 0);
    EXPECT_NEAR(r2.gradientSyncS, rh.gradientSyncS + r2.dcnSyncS, 1e-12);
    // Twice the chips read twice the input hosts.
    EXPECT_EQ(r2.input.hosts, 2 * r1.input.hosts);
    const auto j = toJson(r2);
    EXPECT_EQ(j.at("multislice").at("slices"), 2);
    EXPECT_EQ(j.at("multislice").at("replicas"), 2 * r1.plan.replicas);
    EXPECT_DOUBLE_EQ(j.at("dcn_sync_s").get<double>(), r2.dcnSyncS);
}

TEST(Multislice, EachHostCarriesItsChipsShardsOfTheGradients) {
    Scenario two = v5eSlice();
    two.slices = 2;
    const StepPlan p = buildStepPlan(two);
    // fp32 gradients of ResNet-50's parameters, reduce-scattered over 16 chips, 8 per host.
    const double gradientBytes = 4 * simulateTraining(two).parameters;
    EXPECT_NEAR(p.dcn.bytesPerHost / (gradientBytes / 16 * 8), 1.0, 0.02);
    EXPECT_DOUBLE_EQ(p.dcn.hostBps, 25e9); // the v5e file's dcn_GBps_per_host
}

TEST(Multislice, DcnTimeGrowsAsItsBandwidthFalls) {
    Scenario s = v5eSlice();
    s.slices = 4;
    double previous = 0;
    for (const double gbps : {400.0, 100.0, 25.0, 5.0, 1.0}) {
        s.dcnBandwidthGBps = gbps;
        const TrainingResult r = simulateTraining(s);
        EXPECT_GT(r.dcnSyncS, previous) << gbps;
        EXPECT_GE(r.breakdown.gradientSyncExposed, r.dcnSyncS) << gbps;
        previous = r.dcnSyncS;
    }
    // More slices, more ring steps: 2(S-1)/S grows with S.
    Scenario eight = s;
    eight.slices = 8;
    EXPECT_GT(simulateTraining(eight).dcnSyncS, previous);
}

TEST(Multislice, V3WithoutADcnBandwidthIsRefusedNamingTheMissingFact) {
    Scenario s = loadPreset("mlperf07-resnet50-tf2-16").scenario;
    s.hardware = "tpu-v3";
    s.slices = 2;
    try {
        simulateTraining(s);
        FAIL() << "two v3 slices without a DCN bandwidth were accepted";
    } catch (const InputError& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("dcn_GBps_per_host"), std::string::npos) << what;
        EXPECT_NE(what.find("--dcn-bw"), std::string::npos) << what;
    }
    s.dcnBandwidthGBps = 12.5;
    EXPECT_GT(simulateTraining(s).dcnSyncS, 0);
}

// The step timeline of a multislice step agrees with the analytic model as one slice's does:
// every slice's hosts share the input (each host prepares global batch / (hosts x slices)
// examples; with one slice's hosts the step would wait for input), and the DCN stage is one
// item as long as the plan's.
TEST(Multislice, TheStepTimelineAgreesWithTheAnalyticModel) {
    for (const int slices : {1, 2, 4}) {
        Scenario s = v5eSlice();
        s.globalBatch = 4096;
        s.slices = slices;
        const StepPlan plan = buildStepPlan(s);
        const TrainingResult analytic = simulateTraining(s);
        const StepTimeline t = simulateStepTimeline(s, plan);
        EXPECT_NEAR(t.stepS / analytic.trainStepS, 1, 0.02) << slices << " slices";
        EXPECT_EQ(t.secondsByActivity[static_cast<std::size_t>(ChipActivity::WaitingForInput)] >
                      0.01 * t.stepS,
                  analytic.input.inputBound)
            << slices << " slices";
        int dcnItems = 0;
        for (const TimelineItem& item : t.items) {
            if (item.group == "dcn") {
                ++dcnItems;
                EXPECT_NEAR(item.spanOf(0).endS - item.spanOf(0).startS, plan.dcn.seconds(), 1e-9);
            }
        }
        EXPECT_EQ(dcnItems, slices > 1 ? 1 : 0);
    }
}

TEST(Multislice, GlobalBatchMustDivideOverTheSlices) {
    Scenario s = v5eSlice();
    s.slices = 3;
    EXPECT_THROW(simulateTraining(s), InputError);
}

} // namespace
} // namespace podscope
