// 2d-dual: the 2d algorithm in two dimension orders at once, each on its share of the payload.
#include "TestTopologies.hpp"
#include "collective/AnalyticEngine.hpp"
#include "collective/BlockTimeline.hpp"
#include "collective/EventEngine.hpp"
#include "collective/FunctionalRunner.hpp"
#include "collective/Schedule.hpp"
#include "topology/Hardware.hpp"
#include "topology/TopologyPresets.hpp"

#include <gtest/gtest.h>
#include <set>

namespace podscope {
namespace {

struct Shape {
    std::vector<int> dims;
    std::vector<bool> wrap;
};

std::string describe(const Topology& t) {
    return t.dimsText() + " wrap " + t.wrapText();
}

CollectiveSpec dual(double bytes = 1 << 20, CollectiveOp op = CollectiveOp::AllReduce,
                    int chunks = 1) {
    CollectiveSpec spec;
    spec.algorithm = Algorithm::TwoDDual;
    spec.op = op;
    spec.bytesPerChip = bytes;
    spec.chunks = chunks;
    return spec;
}

// Directed links that some ring of some stream uses in phase p.
std::set<LinkId> linksUsed(const Schedule& schedule, int p) {
    std::set<LinkId> used;
    for (const auto& stream : schedule.streams) {
        const auto& links = stream.phases[static_cast<std::size_t>(p)].rings.hopLinks;
        used.insert(links.begin(), links.end());
    }
    return used;
}

TEST(TwoDDual, HalvesRunTheOrderAndItsReverse) {
    const Topology t = test::grid({8, 4}, {false, true}, 100e9);
    const Schedule s = buildSchedule(t, dual());
    // Y wraps: each half runs a counter-rotating pair there, so four streams.
    ASSERT_EQ(s.streams.size(), 4u);
    const std::vector<int> yFirst{1, 0, 0, 1};
    const std::vector<int> xFirst{0, 1, 1, 0};
    for (std::size_t k = 0; k < 4; ++k) {
        EXPECT_EQ(s.streams[0].phases[k].dim, yFirst[k]);
        EXPECT_EQ(s.streams[1].phases[k].dim, yFirst[k]);
        EXPECT_EQ(s.streams[2].phases[k].dim, xFirst[k]);
        EXPECT_EQ(s.streams[3].phases[k].dim, xFirst[k]);
        EXPECT_TRUE(s.streams[1].phases[k].reversed == (yFirst[k] == 1)) << k;
        EXPECT_TRUE(s.streams[3].phases[k].reversed == (xFirst[k] == 1)) << k;
    }
    ASSERT_EQ(s.phaseNames.size(), 4u);
    EXPECT_EQ(s.phaseNames[0], "reduce-scatter along Y and X");
    EXPECT_EQ(s.phaseNames[1], "reduce-scatter along X and Y");
    EXPECT_EQ(s.phaseNames[2], "all-gather along X and Y");
    EXPECT_EQ(s.phaseNames[3], "all-gather along Y and X");
    // The shares balance the first phase. Per payload byte a reduce-scatter along the folded
    // 8-chip X line keeps every link busy 7/8 / B; along the 4-chip Y torus, split over two
    // directions, 3/4 / (2B). Y first therefore takes 0.875 / (0.875 + 0.375) = 0.7.
    EXPECT_NEAR(s.streams[0].payloadFraction, 0.35, 1e-12);
    EXPECT_NEAR(s.streams[1].payloadFraction, 0.35, 1e-12);
    EXPECT_NEAR(s.streams[2].payloadFraction, 0.15, 1e-12);
    EXPECT_NEAR(s.streams[3].payloadFraction, 0.15, 1e-12);
    EXPECT_DOUBLE_EQ(s.streams[0].phases[1].bytesPerMember, 0.35 * (1 << 20) / 4);
    EXPECT_DOUBLE_EQ(s.streams[2].phases[1].bytesPerMember, 0.15 * (1 << 20) / 8);
}

TEST(TwoDDual, EveryLinkCarriesTrafficInEveryPhase) {
    const std::vector<Shape> shapes = {
        {{4, 4}, {true, true}}, {{4, 4}, {false, false}}, {{8, 4}, {false, true}}};
    for (const auto& shape : shapes) {
        const Topology t = test::grid(shape.dims, shape.wrap);
        const Schedule s = buildSchedule(t, dual());
        for (int p = 0; p < s.phaseCount(); ++p) {
            EXPECT_EQ(static_cast<std::int64_t>(linksUsed(s, p).size()), t.linkCount())
                << describe(t) << " phase " << p;
        }
        // 2d leaves one dimension idle in every phase.
        CollectiveSpec twoD = dual();
        twoD.algorithm = Algorithm::TwoD;
        EXPECT_LT(static_cast<std::int64_t>(linksUsed(buildSchedule(t, twoD), 0).size()),
                  t.linkCount())
            << describe(t);
    }
}

TEST(TwoDDual, OneDimensionIsPlain2d) {
    const Topology t = test::grid({8}, {true});
    CollectiveSpec twoD = dual();
    twoD.algorithm = Algorithm::TwoD;
    const Schedule a = buildSchedule(t, dual());
    const Schedule b = buildSchedule(t, twoD);
    EXPECT_EQ(a.phaseNames, b.phaseNames);
    ASSERT_EQ(a.streams.size(), b.streams.size());
    for (std::size_t s = 0; s < a.streams.size(); ++s) {
        EXPECT_EQ(a.streams[s].payloadFraction, b.streams[s].payloadFraction);
        EXPECT_EQ(a.streams[s].phases[0].rings.members, b.streams[s].phases[0].rings.members);
    }
}

TEST(TwoDDual, ThreeDimensionsShareTheMiddleOne) {
    const Topology t = test::grid({2, 2, 2}, {false, false, false});
    const Schedule s = buildSchedule(t, dual());
    ASSERT_EQ(s.phaseNames.size(), 6u);
    EXPECT_EQ(s.phaseNames[0], "reduce-scatter along X and Z");
    EXPECT_EQ(s.phaseNames[1], "reduce-scatter along Y");
    EXPECT_EQ(s.phaseNames[5], "all-gather along X and Z");
}

// The functional check runs each half's own order on its own part of the buffer and must find
// the sums (all-reduce), owned shards (reduce-scatter) and gathered data (all-gather).
TEST(TwoDDual, ComputesEveryCollective) {
    const std::vector<Shape> shapes = {
        {{4, 4}, {true, true}},
        {{4, 4}, {false, false}},
        {{8, 4}, {false, true}},
        {{2, 2, 2}, {false, false, false}},
        {{4, 3, 2}, {false, true, false}},
    };
    for (const auto& shape : shapes) {
        const Topology t = test::grid(shape.dims, shape.wrap);
        for (auto op :
             {CollectiveOp::AllReduce, CollectiveOp::ReduceScatter, CollectiveOp::AllGather}) {
            for (int chunks : {1, 3}) {
                const auto check = runFunctional(t, dual(1e6, op, chunks));
                EXPECT_TRUE(check.verified) << describe(t) << " " << toString(op) << " chunks "
                                            << chunks << ": " << check.problem;
            }
        }
    }
    const Topology t = test::grid({8, 4}, {false, true});
    for (auto kind : {GroupLayout::Kind::WithinTile, GroupLayout::Kind::AcrossTiles}) {
        CollectiveSpec spec = dual(1e5, CollectiveOp::AllReduce, 2);
        spec.groups = {kind, {2, 2}};
        const auto check = runFunctional(t, spec);
        EXPECT_TRUE(check.verified) << toString(spec.groups) << ": " << check.problem;
    }
}

// The second half's order is checked too: breaking one of its rings is caught.
TEST(TwoDDual, TheCheckCatchesABrokenSecondHalf) {
    const Topology t = test::grid({4, 4}, {true, true});
    for (auto op :
         {CollectiveOp::AllReduce, CollectiveOp::ReduceScatter, CollectiveOp::AllGather}) {
        Schedule schedule = buildSchedule(t, dual(1e4, op));
        auto& members = schedule.streams.back().phases.front().rings.members;
        members[1] = members[0];
        const auto check = runFunctional(t, schedule);
        EXPECT_FALSE(check.verified) << toString(op);
    }
}

TEST(TwoDDual, EnginesAgree) {
    const std::vector<Shape> shapes = {
        {{4, 4}, {true, true}},          {{4, 4}, {false, false}},
        {{8, 4}, {false, true}},         {{2, 2, 2}, {false, false, false}},
        {{4, 4, 4}, {true, true, true}}, {{128, 32}, {false, true}},
    };
    for (const auto& shape : shapes) {
        const Topology t = test::grid(shape.dims, shape.wrap, 82e9, 1e-6);
        for (auto op : {CollectiveOp::AllReduce, CollectiveOp::AllGather}) {
            for (int chunks : {1, 4}) {
                const CollectiveSpec spec = dual(16e6, op, chunks);
                const auto analytic = runAnalytic(t, spec);
                const auto event = runEventEngine(t, spec).results.front();
                const std::string what =
                    describe(t) + " " + toString(op) + " chunks " + std::to_string(chunks);
                EXPECT_NEAR(event.timeS / analytic.timeS, 1.0, 0.01) << what;
                ASSERT_EQ(event.phases.size(), analytic.phases.size()) << what;
                for (std::size_t p = 0; p < event.phases.size(); ++p) {
                    EXPECT_EQ(event.phases[p].name, analytic.phases[p].name);
                    EXPECT_NEAR(event.phases[p].timeS / analytic.phases[p].timeS, 1.0, 0.01)
                        << what << " phase " << event.phases[p].name;
                }
                EXPECT_NEAR(event.maxLinkUtilization, analytic.maxLinkUtilization, 0.01) << what;
            }
        }
    }
}

// On an n x n torus with one chunk every ring step is latency-bound in the analytic model, so
// a phase of ring size n costs (n-1)(alpha + b/B) with b the bytes per step. 2d: each of two
// streams carries S/2, b = S/(2n) along the first dimension and S/(2n^2) along the second.
// 2d-dual: four streams of S/4, b = S/(4n) and S/(4n^2), on disjoint links. Hence
//   T_dual = 2(n-1)(2 alpha + S(n+1)/(4 n^2 B)),
//   T_2d - T_dual = (n^2 - 1) S / (2 n^2 B):
// the bandwidth term halves and the latency term stays.
TEST(TwoDDual, SquareTorusGainHasAClosedForm) {
    const int n = 8;
    const double bandwidth = 100e9;
    const double alpha = 1e-6;
    const double bytes = 64e6;
    const Topology t = test::grid({n, n}, {true, true}, bandwidth, alpha);
    CollectiveSpec twoD = dual(bytes);
    twoD.algorithm = Algorithm::TwoD;
    const double nn = static_cast<double>(n) * n;
    const double dualClosed = 2 * (n - 1) * (2 * alpha + bytes * (n + 1) / (4 * nn * bandwidth));
    const double gainClosed = (nn - 1) * bytes / (2 * nn * bandwidth);
    const double dualAnalytic = runAnalytic(t, dual(bytes)).timeS;
    EXPECT_NEAR(dualAnalytic / dualClosed, 1.0, 1e-12);
    EXPECT_NEAR((runAnalytic(t, twoD).timeS - dualAnalytic) / gainClosed, 1.0, 1e-12);
    const double dualEvent = runEventEngine(t, dual(bytes)).results.front().timeS;
    const double twoDEvent = runEventEngine(t, twoD).results.front().timeS;
    EXPECT_NEAR((twoDEvent - dualEvent) / gainClosed, 1.0, 0.01);
}

// Busy time of the links of each dimension during phase 0, as a fraction of what they could
// carry in that time, from the event engine's record.
std::vector<double> phaseZeroUtilizationByDimension(const Topology& t, const EventSimulation& run) {
    std::vector<double> busy(static_cast<std::size_t>(t.rank()), 0.0);
    std::vector<double> links(static_cast<std::size_t>(t.rank()), 0.0);
    for (LinkId l = 0; l < t.linkSlotCount(); ++l) {
        if (t.linkExists(l)) {
            links[static_cast<std::size_t>(t.linkDim(l))] += 1;
        }
    }
    const auto& span = run.record.phases.front();
    for (const auto& transfer : run.record.transfers) {
        if (run.record.rings[static_cast<std::size_t>(transfer.ring)].phase != 0) {
            continue;
        }
        run.record.forEachOccupancy(transfer, [&](LinkId link, double start, double end, double) {
            busy[static_cast<std::size_t>(t.linkDim(link))] += end - start;
        });
    }
    for (std::size_t d = 0; d < busy.size(); ++d) {
        busy[d] /= links[d] * (span.endS - span.startS);
    }
    return busy;
}

// The multipod's X is a 128-chip line: its folded ring moves a chip's data at one link's
// bandwidth B, Y's counter-rotating rings at 2B. 2d spends about S/(2B) reducing along Y with X
// idle. Equal halves would put S/2 on the X line first, again about S/(2B), and gain about 1%;
// the balanced shares (0.672 Y-first) bring the first phase to about S/(3B), and with the
// latency unchanged the all-reduce to under 80% of 2d's time.
TEST(TwoDDual, FasterOnTheMultipodWithBothDimensionsBusy) {
    const Topology t(resolveTopology("tpu-v3-multipod", std::nullopt, loadHardware("tpu-v3")));
    CollectiveSpec spec = dual(64.0 * (1 << 20));
    CollectiveSpec twoD = spec;
    twoD.algorithm = Algorithm::TwoD;
    EXPECT_LT(runAnalytic(t, spec).timeS, 0.8 * runAnalytic(t, twoD).timeS);
    const EventSimulation dualRun = runEventEngine(t, spec);
    const EventSimulation twoDRun = runEventEngine(t, twoD);
    EXPECT_LT(dualRun.results.front().timeS, 0.8 * twoDRun.results.front().timeS);
    EXPECT_EQ(dualRun.record.phases.front().name, "reduce-scatter along Y and X");
    const auto dualUse = phaseZeroUtilizationByDimension(t, dualRun);
    EXPECT_GT(dualUse[0], 0.5);
    EXPECT_GT(dualUse[1], 0.5);
    const auto twoDUse = phaseZeroUtilizationByDimension(t, twoDRun);
    EXPECT_EQ(twoDUse[0], 0.0); // 2d: X idle while Y reduces
    EXPECT_GT(twoDUse[1], 0.5);
}

// Where the halves' first rings differ in length (8-chip folded X, 4-chip Y torus), the
// shorter finishes early and its blocks stay as they are in the phase's remaining frames:
// during the reduce-scatter a block only ever gains contributors.
TEST(TwoDDual, BlockTimelineKeepsTheShorterHalfsBlocks) {
    const Topology t = test::grid({8, 4}, {false, true});
    const BlockTimeline timeline = blockTimeline(t, dual(1 << 20));
    EXPECT_TRUE(timeline.check.verified) << timeline.check.problem;
    EXPECT_EQ(timeline.streams, 4);
    EXPECT_EQ(timeline.orders, (std::vector<std::string>{"YX", "XY"}));
    ASSERT_EQ(timeline.frames.size(), 1u + 4 * 7);
    EXPECT_NE(timeline.frames[1].label.find("reduce-scatter along Y and X"), std::string::npos);
    EXPECT_NE(timeline.frames[1].label.find("each half on its own dimension"), std::string::npos);
    for (std::size_t f = 1; f < timeline.frames.size(); ++f) {
        if (timeline.frames[f].phase > 1) {
            break; // the all-gather overwrites partial sums
        }
        for (std::size_t m = 0; m < timeline.chips.size(); ++m) {
            for (std::size_t b = 0; b < timeline.frames[f].chips[m].size(); ++b) {
                const auto before = timeline.frames[f - 1].chips[m][b].contributors;
                const auto now = timeline.frames[f].chips[m][b].contributors;
                ASSERT_EQ(now & before, before) << "frame " << f << " chip " << m << " block " << b;
            }
        }
    }
    const std::uint64_t everyone = (std::uint64_t{1} << 32) - 1;
    for (const auto& row : timeline.frames.back().chips) {
        for (const auto& block : row) {
            EXPECT_EQ(block.contributors, everyone);
        }
    }
}

} // namespace
} // namespace podscope
