#include "TestTopologies.hpp"
#include "common/InputError.hpp"
#include "topology/Hardware.hpp"
#include "topology/Routing.hpp"
#include "topology/TopologyPresets.hpp"

#include <gtest/gtest.h>

#include <set>

namespace podscope {
namespace {

Topology multipod() { return Topology(resolveTopology("tpu-v3-multipod", std::nullopt, loadHardware("tpu-v3"))); }

TEST(Topology, MultipodHasTheShapeOfThePaper) {
    const Topology t = multipod();
    EXPECT_EQ(t.chipCount(), 4096);
    EXPECT_EQ(t.size(0), 128);
    EXPECT_EQ(t.size(1), 32);
    EXPECT_FALSE(t.wraps(0));
    EXPECT_TRUE(t.wraps(1));
    EXPECT_EQ(t.coresPerChip(), 2);
    EXPECT_EQ(t.hostCount(), 512); // 8 chips per host
    EXPECT_EQ(t.podCount(), 4);
    // X is a mesh line: 127 links per row and direction; Y wraps: 32 per column and direction.
    EXPECT_EQ(t.linkCount(), 2 * 127 * 32 + 2 * 32 * 128);
}

TEST(Topology, LinkCountMatchesExistingSlots) {
    for (const Topology& t : {multipod(), test::grid({4, 3, 2}, {true, false, true}), test::grid({5}, {false})}) {
        std::int64_t existing = 0;
        for (LinkId l = 0; l < t.linkSlotCount(); ++l) {
            existing += t.linkExists(l);
        }
        EXPECT_EQ(existing, t.linkCount());
    }
}

TEST(Topology, NeighboursWrapOnlyWhereAsked) {
    const Topology t = multipod();
    const ChipId origin = t.chipAt(std::vector<int>{0, 0});
    EXPECT_EQ(t.neighbour(origin, 0, Direction::Minus), -1);
    EXPECT_EQ(t.neighbour(origin, 1, Direction::Minus), t.chipAt(std::vector<int>{0, 31}));
    EXPECT_EQ(t.neighbour(t.chipAt(std::vector<int>{127, 5}), 0, Direction::Plus), -1);
    EXPECT_EQ(t.degree(origin), 3);
    EXPECT_EQ(t.degree(t.chipAt(std::vector<int>{64, 0})), 4);
}

TEST(Topology, CoordinatesRoundTrip) {
    const Topology t = test::grid({3, 4, 5}, {false, true, true});
    for (ChipId chip = 0; chip < t.chipCount(); ++chip) {
        std::vector<int> coords;
        for (int d = 0; d < t.rank(); ++d) {
            coords.push_back(t.coord(chip, d));
        }
        EXPECT_EQ(t.chipAt(coords), chip);
    }
}

TEST(Topology, LinksAreSymmetricPairs) {
    const Topology t = test::grid({4, 3, 2}, {true, false, true});
    for (LinkId l = 0; l < t.linkSlotCount(); ++l) {
        if (!t.linkExists(l)) {
            continue;
        }
        const ChipId to = t.linkTarget(l);
        const Direction back = t.linkDirection(l) == Direction::Plus ? Direction::Minus : Direction::Plus;
        const LinkId reverse = t.linkId(to, t.linkDim(l), back);
        ASSERT_TRUE(t.linkExists(reverse));
        EXPECT_EQ(t.linkTarget(reverse), t.linkSource(l));
    }
}

TEST(Topology, HostsAreFourByTwoBlocksAndPodsAreThirtyTwoSquare) {
    const Topology t = multipod();
    auto at = [&](int x, int y) { return t.chipAt(std::vector<int>{x, y}); };
    EXPECT_EQ(t.hostOf(at(0, 0)), t.hostOf(at(3, 1)));
    EXPECT_NE(t.hostOf(at(0, 0)), t.hostOf(at(4, 0)));
    EXPECT_NE(t.hostOf(at(0, 0)), t.hostOf(at(0, 2)));
    std::set<int> hosts;
    for (ChipId c = 0; c < t.chipCount(); ++c) {
        hosts.insert(t.hostOf(c));
    }
    EXPECT_EQ(hosts.size(), 512u);
    EXPECT_EQ(t.podOf(at(31, 31)), 0);
    EXPECT_EQ(t.podOf(at(32, 0)), 1);
    EXPECT_EQ(t.podOf(at(127, 0)), 3);
}

TEST(Topology, CrossPodLinksTakeTheirOwnBandwidth) {
    TopologySpec spec = resolveTopology("tpu-v3-multipod", std::nullopt, loadHardware("tpu-v3"));
    spec.crossPodBandwidthBps = 20e9;
    const Topology t(spec);
    const ChipId edge = t.chipAt(std::vector<int>{31, 7});
    EXPECT_DOUBLE_EQ(t.linkBandwidth(t.linkId(edge, 0, Direction::Plus)), 20e9);
    EXPECT_DOUBLE_EQ(t.linkBandwidth(t.linkId(edge, 0, Direction::Minus)), 82e9);
    EXPECT_DOUBLE_EQ(t.linkBandwidth(t.linkId(edge, 1, Direction::Plus)), 82e9);
    // Default: cross-pod links are like the others.
    EXPECT_DOUBLE_EQ(multipod().linkBandwidth(multipod().linkId(edge, 0, Direction::Plus)), 82e9);
}

TEST(Topology, ThreeDimensionalTorusNeedsNoSpecialCase) {
    const Topology t = test::grid({16, 16, 16}, {true, true, true});
    EXPECT_EQ(t.chipCount(), 4096);
    EXPECT_EQ(t.linkCount(), 6 * 4096);
    for (ChipId c : {0, 100, 4095}) {
        EXPECT_EQ(t.degree(c), 6);
    }
}

TEST(Topology, SizeOneDimensionHasNoSelfLinks) {
    const Topology t = test::grid({4, 1}, {true, true});
    EXPECT_FALSE(t.wraps(1));
    EXPECT_EQ(t.linkCount(), 8);
}

TEST(Topology, InvalidSpecsNameTheField) {
    auto field = [](TopologySpec spec) {
        try {
            Topology t(spec);
        } catch (const InputError& e) {
            return e.field();
        }
        return std::string("accepted");
    };
    TopologySpec good;
    good.dims = {4, 4};
    good.wrap = {false, false};
    EXPECT_EQ(field(good), "accepted");
    auto bad = good;
    bad.dims = {};
    bad.wrap = {};
    EXPECT_EQ(field(bad), "topology");
    bad = good;
    bad.dims = {4096, 4096};
    EXPECT_EQ(field(bad), "topology");
    bad = good;
    bad.wrap = {true};
    EXPECT_EQ(field(bad), "wrap");
    bad = good;
    bad.linkBandwidthBps = -1;
    EXPECT_EQ(field(bad), "link-bw");
    bad = good;
    bad.linkLatencyS = std::numeric_limits<double>::quiet_NaN();
    EXPECT_EQ(field(bad), "latency-us");
    bad = good;
    bad.crossPodBandwidthBps = std::numeric_limits<double>::infinity();
    EXPECT_EQ(field(bad), "cross-pod-bw");
}

TEST(Routing, RoutesAreShortestAndConnected) {
    const Topology t = test::grid({6, 5, 3}, {true, false, true});
    for (ChipId a = 0; a < t.chipCount(); a += 7) {
        for (ChipId b = 0; b < t.chipCount(); b += 5) {
            std::vector<LinkId> path;
            const int hops = appendRoute(t, a, b, path);
            ASSERT_EQ(hops, static_cast<int>(path.size()));
            EXPECT_EQ(hops, routeLength(t, a, b));
            ChipId at = a;
            for (LinkId l : path) {
                ASSERT_TRUE(t.linkExists(l));
                ASSERT_EQ(t.linkSource(l), at);
                at = t.linkTarget(l);
            }
            EXPECT_EQ(at, b);
            // Manhattan distance with wrap-around where it exists.
            int expected = 0;
            for (int d = 0; d < t.rank(); ++d) {
                const int delta = std::abs(t.coord(a, d) - t.coord(b, d));
                expected += t.wraps(d) ? std::min(delta, t.size(d) - delta) : delta;
            }
            EXPECT_EQ(hops, expected);
        }
    }
}

} // namespace
} // namespace podscope
