#include "TestTopologies.hpp"
#include "collective/AnalyticEngine.hpp"
#include "collective/CollectiveMetrics.hpp"
#include "topology/Hardware.hpp"
#include "topology/TopologyPresets.hpp"

#include <gtest/gtest.h>

namespace podscope {
namespace {

constexpr double kAlpha = 1e-6;
constexpr double kBandwidth = 100e9;
constexpr double kBytes = 64.0 * 1024 * 1024;

CollectiveSpec spec(CollectiveOp op, Algorithm algorithm, int chunks = 1) {
    CollectiveSpec s;
    s.op = op;
    s.algorithm = algorithm;
    s.bytesPerChip = kBytes;
    s.chunks = chunks;
    return s;
}

double relative(double a, double b) { return std::abs(a - b) / std::max(std::abs(a), std::abs(b)); }

TEST(AnalyticEngine, UnidirectionalRingAllReduceMatchesClosedForm) {
    for (int p : {2, 3, 8, 32, 128}) {
        const Topology ring = test::grid({p}, {true}, kBandwidth, kAlpha);
        const auto result = runAnalytic(ring, spec(CollectiveOp::AllReduce, Algorithm::Ring));
        const double expected = 2.0 * (p - 1) * (kAlpha + kBytes / (p * kBandwidth));
        EXPECT_LT(relative(result.timeS, expected), 1e-12) << p;
        ASSERT_EQ(result.phases.size(), 2u);
        EXPECT_LT(relative(result.phases[0].timeS, expected / 2), 1e-12);
    }
}

TEST(AnalyticEngine, BidirectionalRingHalvesTheBandwidthTerm) {
    for (int p : {4, 16, 32}) {
        const Topology ring = test::grid({p}, {true}, kBandwidth, kAlpha);
        const auto result = runAnalytic(ring, spec(CollectiveOp::AllReduce, Algorithm::BidirRing));
        const double expected = 2.0 * (p - 1) * (kAlpha + kBytes / (2.0 * p * kBandwidth));
        EXPECT_LT(relative(result.timeS, expected), 1e-12) << p;
    }
}

TEST(AnalyticEngine, ReduceScatterAndAllGatherAreHalfAnAllReduce) {
    const Topology ring = test::grid({16}, {true}, kBandwidth, kAlpha);
    const double p = 16;
    const double half = (p - 1) * (kAlpha + kBytes / (p * kBandwidth));
    EXPECT_LT(relative(runAnalytic(ring, spec(CollectiveOp::ReduceScatter, Algorithm::Ring)).timeS, half), 1e-12);
    EXPECT_LT(relative(runAnalytic(ring, spec(CollectiveOp::AllGather, Algorithm::Ring)).timeS, half), 1e-12);
}

TEST(AnalyticEngine, FoldedLinePaysTwoHopsAndGainsNothingFromASecondRing) {
    const int p = 16;
    const Topology line = test::grid({p}, {false}, kBandwidth, kAlpha);
    const auto uni = runAnalytic(line, spec(CollectiveOp::AllReduce, Algorithm::Ring));
    // Most hops of the folded ring span two links.
    EXPECT_LT(relative(uni.timeS, 2.0 * (p - 1) * (2 * kAlpha + kBytes / (p * kBandwidth))), 1e-12);
    // Without latency the bandwidth term is the torus ring's: the fold costs hops, not bandwidth.
    const Topology noLatency = test::grid({p}, {false}, kBandwidth, 0);
    const double uniBw = runAnalytic(noLatency, spec(CollectiveOp::AllReduce, Algorithm::Ring)).timeS;
    EXPECT_LT(relative(uniBw, 2.0 * (p - 1) * kBytes / (p * kBandwidth)), 1e-12);
    // A counter-rotating ring shares the same links, so it cannot help.
    const double bidirBw = runAnalytic(noLatency, spec(CollectiveOp::AllReduce, Algorithm::BidirRing)).timeS;
    EXPECT_LT(relative(bidirBw, uniBw), 1e-12);
}

TEST(AnalyticEngine, TwoDimensionalAllReduceOnATorus) {
    const int nx = 8, ny = 4;
    const Topology torus = test::grid({nx, ny}, {true, true}, kBandwidth, kAlpha);
    const auto result = runAnalytic(torus, spec(CollectiveOp::AllReduce, Algorithm::TwoD));
    // Two counter-rotating streams of S/2; X first (both wrap, natural order), then Y on S/(2 nx).
    const double x = (nx - 1) * (kAlpha + kBytes / 2 / nx / kBandwidth);
    const double y = (ny - 1) * (kAlpha + kBytes / 2 / nx / ny / kBandwidth);
    EXPECT_LT(relative(result.timeS, 2 * (x + y)), 1e-12);
    ASSERT_EQ(result.phases.size(), 4u);
    EXPECT_EQ(result.phases[0].name, "reduce-scatter along X");
}

TEST(AnalyticEngine, ChunksHideLatencyOnlyInTheBandwidthBound) {
    const Topology ring = test::grid({8}, {true}, kBandwidth, 0);
    const double one = runAnalytic(ring, spec(CollectiveOp::AllReduce, Algorithm::Ring, 1)).timeS;
    const double four = runAnalytic(ring, spec(CollectiveOp::AllReduce, Algorithm::Ring, 4)).timeS;
    EXPECT_LT(relative(one, four), 1e-12); // no latency: chunking changes nothing
    // Latency-bound tiny payload: each extra chunk adds one transfer per link to the pipeline.
    const Topology slow = test::grid({8}, {true}, kBandwidth, 1e-3);
    CollectiveSpec tiny = spec(CollectiveOp::AllReduce, Algorithm::Ring, 4);
    tiny.bytesPerChip = 8e3;
    const double b = 8e3 / 8 / 4 / kBandwidth;
    const double expected = 2 * (7 * (1e-3 + b) + 3 * b);
    EXPECT_LT(relative(runAnalytic(slow, tiny).timeS, expected), 1e-12);
}

TEST(AnalyticEngine, MetricsFollowNcclConventions) {
    const Topology ring = test::grid({8}, {true}, kBandwidth, kAlpha);
    const auto result = runAnalytic(ring, spec(CollectiveOp::AllReduce, Algorithm::Ring));
    EXPECT_DOUBLE_EQ(result.algbwBps, kBytes / result.timeS);
    EXPECT_DOUBLE_EQ(result.busbwBps, result.algbwBps * 2 * 7 / 8);
    EXPECT_EQ(result.groupSize, 8);
    // Lower bound: each chip sends 2(n-1)/n S through two links.
    EXPECT_DOUBLE_EQ(result.lowerBoundS, 2.0 * 7 / 8 * kBytes / (2 * kBandwidth));
    EXPECT_NEAR(result.efficiency, result.lowerBoundS / result.timeS, 1e-15);
    // A unidirectional ring keeps its links busy except for the hop latency of each step.
    const double transfer = kBytes / 8 / kBandwidth;
    EXPECT_NEAR(result.maxLinkUtilization, transfer / (transfer + kAlpha), 1e-12);
}

TEST(AnalyticEngine, NothingBeatsTheLowerBound) {
    const Topology shapes[] = {test::grid({16}, {false}), test::grid({8, 4}, {true, false}),
                               test::grid({4, 4, 4}, {true, true, true}), test::grid({16, 8}, {false, true})};
    for (const auto& t : shapes) {
        for (auto a : {Algorithm::Ring, Algorithm::BidirRing, Algorithm::TwoD, Algorithm::FlatRing}) {
            for (auto op : {CollectiveOp::AllReduce, CollectiveOp::ReduceScatter, CollectiveOp::AllGather}) {
                const auto r = runAnalytic(t, spec(op, a));
                EXPECT_GE(r.timeS, r.lowerBoundS) << toString(a) << " " << toString(op) << " " << t.dimsText();
                EXPECT_GT(r.lowerBoundS, 0);
            }
        }
    }
}

TEST(AnalyticEngine, MultipodLowerBoundUsesTheWeakestChip) {
    const Topology t(resolveTopology("tpu-v3-multipod", std::nullopt, loadHardware("tpu-v3")));
    CollectiveSpec s = spec(CollectiveOp::AllReduce, Algorithm::TwoD);
    // Chips on the X edges have three links; injection dominates the bisection here.
    EXPECT_DOUBLE_EQ(bandwidthLowerBound(t, s), 2.0 * 4095 / 4096 * kBytes / (3 * 82e9));
}

TEST(AnalyticEngine, TwoDBeatsTheFlatRingOnTheMultipod) {
    const Topology t(resolveTopology("tpu-v3-multipod", std::nullopt, loadHardware("tpu-v3")));
    const double twoD = runAnalytic(t, spec(CollectiveOp::AllReduce, Algorithm::TwoD)).timeS;
    const double flat = runAnalytic(t, spec(CollectiveOp::AllReduce, Algorithm::FlatRing)).timeS;
    EXPECT_LT(twoD * 1.5, flat); // 2 x 4095 latency hops and no second direction
}

TEST(AnalyticEngine, SlowCrossPodLinksSlowTheXPhaseOnly) {
    TopologySpec base = resolveTopology("tpu-v3-2pod", std::nullopt, loadHardware("tpu-v3"));
    base.linkLatencyS = 0;
    TopologySpec slow = base;
    slow.crossPodBandwidthBps = base.linkBandwidthBps / 4;
    const auto fast = runAnalytic(Topology(base), spec(CollectiveOp::AllReduce, Algorithm::TwoD));
    const auto slowed = runAnalytic(Topology(slow), spec(CollectiveOp::AllReduce, Algorithm::TwoD));
    EXPECT_DOUBLE_EQ(slowed.phases[0].timeS, fast.phases[0].timeS); // along Y: no pod boundary
    EXPECT_NEAR(slowed.phases[1].timeS / fast.phases[1].timeS, 4.0, 1e-9);
}

} // namespace
} // namespace podscope
