// The multislice gradient sum (the ICI reduce-scatter, the DCN stage, the ICI all-gather) as
// the core composes it for the replay, and its stage named as the step timeline names it.
#include "collective/MultisliceSum.hpp"

#include "TestTopologies.hpp"
#include "timeline/StepTimeline.hpp"
#include "training/Presets.hpp"
#include "training/StepModel.hpp"
#include "training/StepPlan.hpp"

#include <gtest/gtest.h>

namespace podscope {
namespace {

// Joining two records keeps each one's transfers on its own rings and links, shifted after the
// gap, and the phases in order with the gap between them.
TEST(MultisliceSum, JoinedRecordsKeepTheirRingsAndShiftTheSecond) {
    Record a;
    a.rings.push_back({0, 0, 0, 0, 2, 100});
    a.linkIds = {3, 4};
    a.linkDurationS = {1.0, 1.5};
    a.transfers.push_back({0.0, 2.0, 0, 0, 0});
    a.phases.push_back({0, "reduce-scatter along X", 0.0, 2.0});
    Record b;
    b.rings.push_back({0, 0, 0, 0, 1, 50});
    b.linkIds = {7};
    b.linkDurationS = {0.5};
    b.transfers.push_back({0.0, 0.5, 0, 0, 0});
    b.phases.push_back({0, "all-gather along X", 0.0, 0.5});
    const Record j = joinRecords(a, 3.0, "across", b);
    ASSERT_EQ(j.phases.size(), 3u);
    EXPECT_EQ(j.phases[1].name, "across");
    EXPECT_DOUBLE_EQ(j.phases[1].startS, 2.0);
    EXPECT_DOUBLE_EQ(j.phases[1].endS, 5.0);
    EXPECT_DOUBLE_EQ(j.phases[2].startS, 5.0);
    EXPECT_DOUBLE_EQ(j.phases[2].endS, 5.5);
    ASSERT_EQ(j.transfers.size(), 2u);
    EXPECT_DOUBLE_EQ(j.transfers[1].startS, 5.0);
    EXPECT_EQ(j.transfers[1].ring, 1);
    const auto& ring = j.rings[1];
    EXPECT_EQ(ring.phase, 2); // the all-gather phase's index in the joined record
    ASSERT_EQ(ring.linkEnd - ring.linkBegin, 1);
    EXPECT_EQ(j.linkIds[static_cast<std::size_t>(ring.linkBegin)], 7);
    EXPECT_DOUBLE_EQ(j.linkDurationS[static_cast<std::size_t>(ring.linkBegin)], 0.5);
}

// The three parts add up: the sum's time is the two event-engine runs and the DCN stage, its
// phases list them in order, and its lower bound is the parts' lower bounds.
TEST(MultisliceSum, TheSumIsTheScatterTheDcnStageAndTheGather) {
    const Topology ring = test::grid({8}, {true}, 100e9, 1e-6);
    CollectiveSpec allReduce;
    allReduce.op = CollectiveOp::AllReduce;
    allReduce.bytesPerChip = 8e6;
    CollectiveSpec scatter = allReduce, gather = allReduce;
    scatter.op = CollectiveOp::ReduceScatter;
    gather.op = CollectiveOp::AllGather;
    const EventSimulation scattered = runEventEngine(ring, scatter);
    const EventSimulation gathered = runEventEngine(ring, gather);
    const CollectiveResult& rs = scattered.results.front();
    const CollectiveResult& ag = gathered.results.front();
    const double dcnS = 250e-6;

    const EventSimulation sum = multisliceGradientSum(ring, allReduce, 4, dcnS);
    const CollectiveResult& r = sum.results.front();
    EXPECT_NEAR(r.timeS, rs.timeS + dcnS + ag.timeS, 1e-15);
    EXPECT_NEAR(r.lowerBoundS, rs.lowerBoundS + dcnS + ag.lowerBoundS, 1e-15);
    ASSERT_EQ(r.phases.size(), rs.phases.size() + 1 + ag.phases.size());
    EXPECT_EQ(r.phases[rs.phases.size()].name, dcnStageName(4));
    EXPECT_DOUBLE_EQ(r.phases[rs.phases.size()].timeS, dcnS);
    EXPECT_EQ(sum.record.transfers.size(),
              scattered.record.transfers.size() + gathered.record.transfers.size());
    EXPECT_DOUBLE_EQ(sum.links.makespanS, r.timeS);
    EXPECT_LE(r.maxLinkUtilization, 1.0);
}

// The replay finds the DCN stage by the name the step timeline gives its item.
TEST(MultisliceSum, TheStepTimelinesDcnItemHasTheStagesName) {
    Scenario s = loadPreset("mlperf07-resnet50-tf2-16").scenario;
    s.hardware = "tpu-v5e";
    s.topology = "4x4";
    s.globalBatch = 4096;
    s.slices = 4;
    const StepPlan plan = buildStepPlan(s);
    int named = 0;
    for (const TimelineItem& item : simulateStepTimeline(s, plan).items) {
        if (item.group == "dcn") {
            EXPECT_EQ(item.name, dcnStageName(4));
            ++named;
        }
    }
    EXPECT_EQ(named, 1);
}

} // namespace
} // namespace podscope
