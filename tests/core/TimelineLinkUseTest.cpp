// Link traffic during a simulated step (issue 13): what the 3-D replay colours links by and the
// trace's link counters show.
#include "timeline/TimelineLinkUse.hpp"

#include "collective/Schedule.hpp"
#include "training/Presets.hpp"
#include "training/StepPlan.hpp"

#include <algorithm>
#include <gtest/gtest.h>

namespace podscope {
namespace {

struct Simulated {
    StepPlan plan;
    StepTimeline timeline;
};

Simulated simulate(const Scenario& s) {
    Simulated out{buildStepPlan(s), {}};
    out.timeline = simulateStepTimeline(s, out.plan);
    return out;
}

// Bytes that crossed the links over the whole step: utilisation x bandwidth x time, summed over
// consecutive windows.
double linkBytesOverTheStep(const Topology& topology, const TimelineLinkUse& use, double stepS) {
    const int windows = 4000;
    const double w = stepS / windows;
    std::vector<float> u;
    double bytes = 0;
    for (int k = 1; k <= windows; ++k) {
        use.utilisation(k * w, w, u);
        for (LinkId l = 0; l < topology.linkSlotCount(); ++l) {
            if (u[static_cast<std::size_t>(l)] > 0) {
                bytes += u[static_cast<std::size_t>(l)] * topology.linkBandwidth(l) * w;
            }
        }
    }
    return bytes;
}

// On a pod (32 x 32, wrapped both ways) every hop of every ring is one link, so an all-reduce of
// P bytes per chip over N chips puts 2 P (N - 1) bytes on the links, whatever the algorithm.
TEST(TimelineLinkUse, AGradientAllReduceMovesTwoPTimesNMinusOneBytes) {
    Scenario s = loadPreset("mlperf07-resnet50-tf-4096").scenario;
    s.topology = "tpu-v3-pod";
    s.globalBatch = 16384;
    s.weightUpdateSharding = false;
    s.batchNormGroup = 1; // batch statistics on one core: no other traffic on the links
    for (const Algorithm algorithm : {Algorithm::TwoD, Algorithm::BidirRing, Algorithm::TwoDDual}) {
        s.gradient.algorithm = algorithm;
        const Simulated r = simulate(s);
        const Topology& topology = r.plan.topology;
        const TimelineLinkUse use(topology, r.plan, r.timeline);
        double expected = 0;
        for (const TimelineItem& item : r.timeline.items) {
            if (item.exchange < 0) {
                continue;
            }
            const Exchange& e = r.plan.exchanges[static_cast<std::size_t>(item.exchange)];
            ASSERT_TRUE(e.collective.has_value()) << item.name;
            ASSERT_EQ(e.collective->op, CollectiveOp::AllReduce) << item.name;
            ASSERT_EQ(groupSizeOf(topology, e.collective->groups), topology.chipCount());
            expected +=
                2 * e.collective->bytesPerChip * static_cast<double>(topology.chipCount() - 1);
        }
        ASSERT_GT(expected, 0);
        EXPECT_NEAR(linkBytesOverTheStep(topology, use, r.timeline.stepS) / expected, 1.0, 0.01)
            << toString(algorithm);
    }
}

TEST(TimelineLinkUse, LinksAreIdleDuringComputeAndBusyDuringTheGradientSum) {
    Scenario s = loadPreset("mlperf07-resnet50-tf-4096").scenario;
    s.batchNormGroup = 1;
    const Simulated r = simulate(s);
    const TimelineLinkUse use(r.plan.topology, r.plan, r.timeline);
    std::vector<float> u;
    std::vector<ChipActivity> kinds;
    bool sawCompute = false, sawGradient = false;
    for (std::size_t i = 0; i < r.timeline.items.size(); ++i) {
        const TimelineItem& item = r.timeline.items[i];
        const double mid = 0.5 * (item.common.startS + item.common.endS);
        if (item.common.endS <= item.common.startS || !use.exchangesAt(mid).empty()) {
            continue;
        }
        if (item.activity == ChipActivity::Forward && !sawCompute) {
            sawCompute = true;
            use.utilisation(mid, 0, u);
            use.kind(mid, kinds);
            for (std::size_t l = 0; l < u.size(); ++l) {
                ASSERT_EQ(u[l], 0.0f) << item.name;
                ASSERT_EQ(kinds[l], ChipActivity::Idle);
            }
        }
    }
    for (std::size_t i = 0; i < r.timeline.items.size(); ++i) {
        const TimelineItem& item = r.timeline.items[i];
        if (item.activity != ChipActivity::GradientSync ||
            use.linksOf(static_cast<int>(i)).empty()) {
            continue;
        }
        sawGradient = true;
        const double mid = 0.5 * (item.common.startS + item.common.endS);
        const std::vector<int> active = use.exchangesAt(mid);
        EXPECT_NE(std::find(active.begin(), active.end(), static_cast<int>(i)), active.end());
        use.utilisation(mid, 0, u);
        use.kind(mid, kinds);
        int busy = 0;
        for (const LinkId l : use.linksOf(static_cast<int>(i))) {
            busy += u[static_cast<std::size_t>(l)] > 0 ? 1 : 0;
            EXPECT_LE(u[static_cast<std::size_t>(l)], 1.0f);
        }
        EXPECT_GT(busy, 0) << item.name;
        const auto gradientLinks =
            std::count(kinds.begin(), kinds.end(), ChipActivity::GradientSync);
        EXPECT_EQ(gradientLinks, busy) << item.name;
        break;
    }
    EXPECT_TRUE(sawCompute && sawGradient);
}

// Spatial partitioning's halos stay inside a replica's tile of chips.
TEST(TimelineLinkUse, HaloSwapsStayInsideTheReplicaTile) {
    const Scenario s = loadPreset("mlperf07-maskrcnn-tf-512").scenario;
    const Simulated r = simulate(s);
    const Topology& topology = r.plan.topology;
    const TimelineLinkUse use(topology, r.plan, r.timeline);
    GroupLayout tile;
    tile.kind = GroupLayout::Kind::WithinTile;
    tile.tile = r.plan.parallelism.replicaTile;
    int halos = 0;
    for (std::size_t i = 0; i < r.timeline.items.size(); ++i) {
        const TimelineItem& item = r.timeline.items[i];
        if (item.exchange < 0 ||
            r.plan.exchanges[static_cast<std::size_t>(item.exchange)].kind != ExchangeKind::Halo) {
            continue;
        }
        const auto& links = use.linksOf(static_cast<int>(i));
        if (links.empty()) {
            continue;
        }
        ++halos;
        for (const LinkId l : links) {
            ASSERT_EQ(groupOf(topology, tile, topology.linkSource(l)),
                      groupOf(topology, tile, topology.linkTarget(l)));
        }
    }
    EXPECT_GT(halos, 0);
}

TEST(TimelineLinkUse, NoLinksOutsideTheItems) {
    const Scenario s = loadPreset("mlperf07-resnet50-tf2-16").scenario;
    const Simulated r = simulate(s);
    const TimelineLinkUse use(r.plan.topology, r.plan, r.timeline);
    EXPECT_TRUE(use.linksOf(-1).empty());
    EXPECT_TRUE(use.linksOf(static_cast<int>(r.timeline.items.size())).empty());
    std::vector<float> u;
    use.utilisation(r.timeline.stepS * 2 + 1, 0, u);
    EXPECT_EQ(u.size(), static_cast<std::size_t>(r.plan.topology.linkSlotCount()));
    for (const float x : u) {
        EXPECT_EQ(x, 0.0f);
    }
}

} // namespace
} // namespace podscope
