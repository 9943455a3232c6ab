#include "collective/AnalyticEngine.hpp"
#include "collective/FunctionalRunner.hpp"
#include "common/InputError.hpp"
#include "machine/Machine.hpp"
#include "topology/Bisection.hpp"
#include "topology/Hardware.hpp"
#include "topology/Routing.hpp"
#include "topology/TopologyPresets.hpp"
#include "training/StepPlan.hpp"

#include <gtest/gtest.h>

namespace podscope {
namespace {

// A slice of the machine with every dimension wrapped, twisted or not.
Topology slice(const std::string& machine, std::vector<int> dims, bool twisted) {
    const std::string text =
        std::to_string(dims[0]) + "x" + std::to_string(dims[1]) + "x" + std::to_string(dims[2]);
    TopologySpec spec = resolveTopology(text, std::string("all"), loadHardware(machine));
    if (twisted) {
        twistTopology(spec, machine);
    }
    return Topology(spec);
}

ChipId at(const Topology& t, int x, int y, int z) {
    const int c[] = {x, y, z};
    return t.chipAt(c);
}

// K x K x 2K: the wrap-around of X and Y lands K further along Z; Z's own wrap is plain.
TEST(TwistedTorus, ShortDimensionsWrapHalfWayAlongTheLongOne) {
    const Topology t = slice("tpu-v4", {4, 4, 8}, true);
    EXPECT_TRUE(t.twisted(0));
    EXPECT_TRUE(t.twisted(1));
    EXPECT_FALSE(t.twisted(2));
    EXPECT_EQ(t.neighbour(at(t, 3, 1, 2), 0, Direction::Plus), at(t, 0, 1, 6));
    EXPECT_EQ(t.neighbour(at(t, 3, 1, 6), 0, Direction::Plus), at(t, 0, 1, 2));
    EXPECT_EQ(t.neighbour(at(t, 0, 1, 2), 0, Direction::Minus), at(t, 3, 1, 6));
    EXPECT_EQ(t.neighbour(at(t, 2, 0, 5), 1, Direction::Minus), at(t, 2, 3, 1));
    EXPECT_EQ(t.neighbour(at(t, 2, 1, 5), 0, Direction::Plus), at(t, 3, 1, 5)); // inside: plain
    EXPECT_EQ(t.neighbour(at(t, 2, 1, 7), 2, Direction::Plus), at(t, 2, 1, 0));
    // Going round X once lands on the other half of Z, twice comes home: X's ring is 2K long.
    EXPECT_EQ(t.offset(at(t, 1, 1, 1), 0, 4), at(t, 1, 1, 5));
    EXPECT_EQ(t.offset(at(t, 1, 1, 1), 0, 8), at(t, 1, 1, 1));
    EXPECT_EQ(t.offset(at(t, 1, 1, 1), 0, -4), at(t, 1, 1, 5));
    // Same links as the plain torus: six per chip, every link's reverse leads back.
    EXPECT_EQ(t.linkCount(), slice("tpu-v4", {4, 4, 8}, false).linkCount());
    for (LinkId link = 0; link < t.linkSlotCount(); ++link) {
        ASSERT_TRUE(t.linkExists(link));
        const Direction back =
            t.linkDirection(link) == Direction::Plus ? Direction::Minus : Direction::Plus;
        EXPECT_EQ(t.neighbour(t.linkTarget(link), t.linkDim(link), back), t.linkSource(link));
    }
}

// K x 2K x 2K: X's wrap-around lands K further along both Y and Z.
TEST(TwistedTorus, OneShortDimensionShiftsBothLongOnes) {
    const Topology t = slice("tpu-v5p", {4, 8, 8}, true);
    EXPECT_TRUE(t.twisted(0));
    EXPECT_FALSE(t.twisted(1));
    EXPECT_FALSE(t.twisted(2));
    EXPECT_EQ(t.neighbour(at(t, 3, 1, 6), 0, Direction::Plus), at(t, 0, 5, 2));
    EXPECT_EQ(t.neighbour(at(t, 3, 7, 0), 1, Direction::Plus), at(t, 3, 0, 0));
}

// The narrowest coordinate-plane cut, counted from the links as built, against the closed
// forms: a plain K x K x 2K torus is cut across Z by 2 links per Z line (2K^2 links one way);
// twisted, the Z cut is also crossed by every X and Y wrap-around (6K^2) and the narrowest
// cut is across X or Y (2 links per line, 2K^2 lines: 4K^2). K x 2K x 2K: plain 4K^2 (across Y
// or Z), twisted 8K^2. The twist doubles the bisection of every shape it applies to.
TEST(TwistedTorus, BisectionDoublesOnTheShapesThatTwist) {
    const double link = bundledMachine("tpu-v4").linkBandwidthBps;
    struct Case {
        std::vector<int> dims;
        int plainLinks;
        int twistedLinks;
    };
    const std::vector<Case> cases = {
        {{4, 4, 8}, 2 * 16, 4 * 16},
        {{4, 8, 8}, 4 * 16, 8 * 16},
        {{8, 8, 16}, 2 * 64, 4 * 64},
        {{8, 16, 16}, 4 * 64, 8 * 64},
    };
    for (const auto& c : cases) {
        const Topology plain = slice("tpu-v4", c.dims, false);
        const Topology twisted = slice("tpu-v4", c.dims, true);
        EXPECT_DOUBLE_EQ(planeBisectionBandwidth(plain), c.plainLinks * link) << plain.dimsText();
        EXPECT_DOUBLE_EQ(planeBisectionBandwidth(twisted), c.twistedLinks * link)
            << plain.dimsText();
        const int longDim = c.dims[0] == c.dims[2] ? 1 : 2;
        EXPECT_DOUBLE_EQ(halfCutBandwidth(twisted, 2),
                         (c.dims[0] == c.dims[1] ? 6 : 8) * (c.dims[0] * c.dims[0]) * link)
            << plain.dimsText() << " long dimension " << longDim;
    }
    // 4x4x8 on tpu-v4 (45 GB/s per link and direction): 1.44 TB/s plain, 2.88 TB/s twisted.
    EXPECT_NEAR(planeBisectionBandwidth(slice("tpu-v4", {4, 4, 8}, true)), 2.88e12, 1e6);
}

// Every route on the twisted torus follows existing links from source to destination, is as
// long as routeLength says, and the mean distance is below the plain torus's closed form
// (rings of 4, 4 and 8: 1 + 1 + 2 = 4 hops on average).
TEST(TwistedTorus, RoutesArriveAndAreShorterOnAverage) {
    const Topology t = slice("tpu-v4", {4, 4, 8}, true);
    const Topology plain = slice("tpu-v4", {4, 4, 8}, false);
    double twistedHops = 0;
    double plainHops = 0;
    const auto chips = static_cast<ChipId>(t.chipCount());
    for (ChipId from = 0; from < chips; ++from) {
        for (ChipId to = 0; to < chips; ++to) {
            std::vector<LinkId> path;
            const int hops = appendRoute(t, from, to, path);
            ASSERT_EQ(hops, static_cast<int>(path.size()));
            ASSERT_EQ(hops, routeLength(t, from, to));
            ChipId here = from;
            for (const LinkId link : path) {
                ASSERT_EQ(t.linkSource(link), here);
                ASSERT_TRUE(t.linkExists(link));
                here = t.linkTarget(link);
            }
            ASSERT_EQ(here, to) << from << " -> " << to;
            twistedHops += hops;
            plainHops += routeLength(plain, from, to);
        }
    }
    const double pairs = static_cast<double>(chips) * chips;
    EXPECT_DOUBLE_EQ(plainHops / pairs, 4.0);
    EXPECT_LT(twistedHops / pairs, 4.0);
}

// The dimension-by-dimension all-reduce still runs a ring per line, but a twisted dimension's
// line is no ring (its wrap-around lands on another line), so it folds as on a mesh: the
// twisted 4x4x8 all-reduce takes as long as on 4x4x8 wrapped along Z only, and is checked on
// data. Its bound counts the twisted links' cuts, so it stays below the schedule's time.
TEST(TwistedTorus, AllReduceFoldsTheTwistedDimensionsAndComputesItsSum) {
    for (const std::vector<int>& dims : {std::vector<int>{4, 4, 8}, std::vector<int>{4, 8, 8}}) {
        const Topology t = slice("tpu-v4", dims, true);
        TopologySpec unwrapped = t.spec();
        unwrapped.twisted = false;
        for (int d = 0; d < t.rank(); ++d) {
            unwrapped.wrap[static_cast<std::size_t>(d)] = !t.twisted(d);
        }
        const Topology folded(unwrapped);
        for (auto algorithm : {Algorithm::Ring, Algorithm::BidirRing, Algorithm::TwoD}) {
            for (auto op :
                 {CollectiveOp::AllReduce, CollectiveOp::ReduceScatter, CollectiveOp::AllGather}) {
                CollectiveSpec spec;
                spec.op = op;
                spec.algorithm = algorithm;
                spec.bytesPerChip = 64e6;
                const auto check = runFunctional(t, spec);
                EXPECT_TRUE(check.verified)
                    << t.dimsText() << " " << toString(algorithm) << ": " << check.problem;
                const auto twisted = runAnalytic(t, spec);
                EXPECT_DOUBLE_EQ(twisted.timeS, runAnalytic(folded, spec).timeS) << t.dimsText();
                EXPECT_LE(twisted.efficiency, 1.0);
            }
        }
    }
}

TEST(TwistedTorus, OnlyTheShapesTheMachineMarksTwist) {
    EXPECT_TRUE(isTwistableShape({4, 4, 8}, {true, true, true}));
    EXPECT_TRUE(isTwistableShape({8, 16, 16}, {true, true, true}));
    EXPECT_FALSE(isTwistableShape({4, 4, 4}, {true, true, true}));
    EXPECT_FALSE(isTwistableShape({4, 4, 12}, {true, true, true}));
    EXPECT_FALSE(isTwistableShape({4, 4, 8}, {true, true, false}));
    for (const char* machine : {"tpu-v4", "tpu-v5p"}) {
        const Machine& m = bundledMachine(machine);
        EXPECT_FALSE(m.twistSource.empty()) << machine;
        for (const std::vector<int>& dims :
             {std::vector<int>{4, 4, 8}, std::vector<int>{4, 8, 8}, std::vector<int>{8, 8, 16},
              std::vector<int>{8, 16, 16}}) {
            EXPECT_NE(m.twistableSlice(dims), nullptr) << machine;
        }
        EXPECT_EQ(m.twistableSlice({8, 8, 8}), nullptr) << machine;
    }
    TopologySpec cube = resolveTopology("4x4x4", std::string("all"), loadHardware("tpu-v4"));
    try {
        twistTopology(cube, "tpu-v4");
        ADD_FAILURE() << "a 4x4x4 cube was twisted";
    } catch (const InputError& error) {
        EXPECT_EQ(error.field(), "twisted");
        EXPECT_NE(std::string(error.what()).find("4x4x8"), std::string::npos) << error.what();
    }
    TopologySpec v3 = resolveTopology("4x4x8", std::string("all"), loadHardware("tpu-v3"));
    EXPECT_THROW(twistTopology(v3, "tpu-v3"), InputError);
    TopologySpec bad;
    bad.dims = {4, 4, 4};
    bad.wrap = {true, true, true};
    bad.twisted = true;
    EXPECT_THROW(Topology{bad}, InputError);
}

// A configuration asks for the twist with `twisted` and gets the twisted links.
TEST(TwistedTorus, AScenarioBuildsTheTwistedSlice) {
    Scenario s;
    s.hardware = "tpu-v4";
    s.topology = "4x4x8";
    s.wrap = "all";
    s.twisted = true;
    const Topology t = scenarioTopology(s);
    EXPECT_TRUE(t.spec().twisted);
    EXPECT_EQ(t.wrapText(), "xyz twisted");
    s.topology = "8x8x8";
    EXPECT_THROW(scenarioTopology(s), InputError);
}

} // namespace
} // namespace podscope
