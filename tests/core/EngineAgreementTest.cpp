#include "TestTopologies.hpp"
#include "collective/AnalyticEngine.hpp"
#include "collective/EventEngine.hpp"
#include "topology/Hardware.hpp"
#include "topology/TopologyPresets.hpp"

#include <gtest/gtest.h>

namespace podscope {
namespace {

struct Case {
    std::vector<int> dims;
    std::vector<bool> wrap;
    Algorithm algorithm;
    CollectiveOp op;
    int chunks;
    double bytes;
    GroupLayout groups;
};

std::string describe(const Case& c) {
    std::string wrap;
    for (bool w : c.wrap) {
        wrap += w ? "1" : "0";
    }
    std::string dims;
    for (int d : c.dims) {
        dims += std::to_string(d) + "x";
    }
    return dims + " wrap " + wrap + " " + toString(c.algorithm) + " " + toString(c.op) + " chunks " +
           std::to_string(c.chunks) + " bytes " + std::to_string(c.bytes) + " groups " + toString(c.groups);
}

// Without contention from elsewhere the two engines model the same thing and must agree.
TEST(EngineAgreement, WithinOnePercentWithoutForeignTraffic) {
    const GroupLayout all{};
    const GroupLayout within{GroupLayout::Kind::WithinTile, {2, 2}};
    const std::vector<Case> cases = {
        {{16}, {true}, Algorithm::Ring, CollectiveOp::AllReduce, 1, 64e6, all},
        {{16}, {true}, Algorithm::BidirRing, CollectiveOp::AllReduce, 4, 64e6, all},
        {{16}, {false}, Algorithm::Ring, CollectiveOp::AllReduce, 1, 64e6, all},
        {{16}, {false}, Algorithm::BidirRing, CollectiveOp::AllReduce, 4, 64e6, all},
        {{9}, {false}, Algorithm::Ring, CollectiveOp::ReduceScatter, 3, 1e6, all},
        {{8, 4}, {true, true}, Algorithm::TwoD, CollectiveOp::AllReduce, 1, 64e6, all},
        {{8, 4}, {true, true}, Algorithm::TwoD, CollectiveOp::AllReduce, 8, 1e4, all}, // latency-bound
        {{8, 4}, {false, true}, Algorithm::TwoD, CollectiveOp::AllGather, 2, 16e6, all},
        {{8, 4}, {false, false}, Algorithm::Ring, CollectiveOp::AllReduce, 4, 16e6, all},
        {{8, 8}, {false, true}, Algorithm::FlatRing, CollectiveOp::AllReduce, 2, 16e6, all},
        {{4, 4, 4}, {true, true, true}, Algorithm::Ring, CollectiveOp::AllReduce, 2, 32e6, all},
        {{4, 4, 4}, {true, true, true}, Algorithm::TwoD, CollectiveOp::AllReduce, 1, 32e6, all},
        {{4, 3, 2}, {false, true, false}, Algorithm::BidirRing, CollectiveOp::AllReduce, 1, 8e6, all},
        {{8, 4}, {false, true}, Algorithm::TwoD, CollectiveOp::AllReduce, 4, 16e6, within},
        {{128, 32}, {false, true}, Algorithm::TwoD, CollectiveOp::AllReduce, 1, 64.0 * (1 << 20), all},
    };
    for (const auto& c : cases) {
        const Topology t = test::grid(c.dims, c.wrap, 82e9, 1e-6);
        CollectiveSpec spec;
        spec.op = c.op;
        spec.algorithm = c.algorithm;
        spec.chunks = c.chunks;
        spec.bytesPerChip = c.bytes;
        spec.groups = c.groups;
        const auto analytic = runAnalytic(t, spec);
        const auto event = runEventEngine(t, spec).results.front();
        EXPECT_NEAR(event.timeS / analytic.timeS, 1.0, 0.01) << describe(c);
        ASSERT_EQ(event.phases.size(), analytic.phases.size());
        for (std::size_t p = 0; p < event.phases.size(); ++p) {
            EXPECT_EQ(event.phases[p].name, analytic.phases[p].name);
            EXPECT_NEAR(event.phases[p].timeS / analytic.phases[p].timeS, 1.0, 0.01)
                << describe(c) << " phase " << event.phases[p].name;
        }
        EXPECT_NEAR(event.maxLinkUtilization, analytic.maxLinkUtilization, 0.01) << describe(c);
    }
}

// Data-parallel groups across tiles interleave on the same links. The analytic engine charges the
// sharing as if every group moved in lockstep; in the event engine independent groups drift
// apart and overlap one phase with another, so it may be faster, never slower, and never
// below the bound.
TEST(EngineAgreement, InterleavedGroupsContendAndTheAnalyticEngineIsTheCeiling) {
    const Topology t = test::grid({8, 4}, {false, true}, 82e9, 1e-6);
    CollectiveSpec spec;
    spec.chunks = 4;
    spec.bytesPerChip = 16e6;
    spec.groups = {GroupLayout::Kind::AcrossTiles, {2, 2}};
    const auto analytic = runAnalytic(t, spec);
    const auto event = runEventEngine(t, spec).results.front();
    EXPECT_LE(event.timeS, analytic.timeS * 1.01);
    EXPECT_GE(event.timeS, event.lowerBoundS);
    // The sharing is real: the same groups' traffic on a topology twice as long in each
    // dimension (no interleaving, same ring sizes) would be faster per byte.
    spec.groups = {};
    const auto alone = runAnalytic(test::grid({4, 2}, {false, true}, 82e9, 1e-6), spec);
    EXPECT_GT(event.timeS, alone.timeS);
}

TEST(EngineAgreement, MultipodWithSlowCrossPodLinks) {
    TopologySpec spec = resolveTopology("tpu-v3-multipod", std::nullopt, loadHardware("tpu-v3"));
    spec.crossPodBandwidthBps = 20e9;
    const Topology t(spec);
    CollectiveSpec collective;
    collective.chunks = 2;
    const double analytic = runAnalytic(t, collective).timeS;
    const double event = runEventEngine(t, collective).results.front().timeS;
    EXPECT_NEAR(event / analytic, 1.0, 0.01);
}

} // namespace
} // namespace podscope
