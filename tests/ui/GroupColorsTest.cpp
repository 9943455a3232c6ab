// Group colouring (issue 15): readable with thousands of groups, on the colour bar and on the
// 4096-chip multipod.
#include "color/GroupColors.hpp"

#include "collective/EventEngine.hpp"
#include "collective/Schedule.hpp"
#include "scene/Replay.hpp"
#include "scene/SceneLayout.hpp"
#include "topology/Hardware.hpp"
#include "topology/TopologyPresets.hpp"
#include "view/FrameColoring.hpp"

#include <cmath>
#include <gtest/gtest.h>
#include <set>

namespace podscope::ui {
namespace {

double distance(Rgb a, Rgb b) {
    const double dr = a.r - b.r, dg = a.g - b.g, db = a.b - b.b;
    return std::sqrt(dr * dr + dg * dg + db * db);
}

// Luma as a grey printer or a projector washing out the colours would show it.
double luma(Rgb c) {
    return 0.2126 * c.r + 0.7152 * c.g + 0.0722 * c.b;
}

// Visibly different on screen: well above the step between neighbouring entries of the map.
constexpr double kDistinct = 60;

TEST(GroupColors, FewGroupsGetDistinctCategoricalColours) {
    for (int count = 1; count <= kMaxCategoricalGroups; ++count) {
        std::set<std::tuple<int, int, int>> seen;
        for (int g = 0; g < count; ++g) {
            const Rgb c =
                groupColor(g, count, g % 2 == 1); // alternation does not apply to swatches
            EXPECT_EQ(c, categoryColor(g));
            seen.insert({c.r, c.g, c.b});
        }
        EXPECT_EQ(static_cast<int>(seen.size()), count);
        const Legend legend = groupLegend("pod", count);
        EXPECT_FALSE(legend.continuous);
        EXPECT_EQ(static_cast<int>(legend.categories.size()), count);
    }
}

TEST(GroupColors, ManyGroupsFollowTheColourBarInIndexOrder) {
    const int count = 1024;
    double previous = 1e9;
    for (int g = 0; g < count; ++g) {
        const Rgb c = groupColor(g, count, false);
        EXPECT_EQ(c,
                  colorMapAt(ColorMap::GroupIndex, (g + 0.5f) / count)); // where the bar shows it
        EXPECT_LE(luma(c), previous + 1.0) << g; // light to dark, even in grey (to 8-bit rounding)
        previous = luma(c);
    }
    EXPECT_GT(luma(groupColor(0, count, false)) - luma(groupColor(count - 1, count, false)), 150);
    const Legend legend = groupLegend("replica", count);
    EXPECT_TRUE(legend.continuous);
    EXPECT_EQ(legend.map, ColorMap::GroupIndex);
    EXPECT_EQ(legend.minimum, 0);
    EXPECT_EQ(legend.maximum, count);
    EXPECT_EQ(legend.title, "Replica index");
    EXPECT_EQ(legend.note.rfind("1024 replicas; ", 0), 0u); // and how neighbours are told apart
}

TEST(GroupColors, GroupsNeverTakeTheColoursOfLinkLoad) {
    // Chips coloured by group sit beside links coloured by utilisation: no colour of one map
    // comes near a colour of the other.
    double nearest = 1e9;
    for (int i = 0; i <= 200; ++i) {
        for (int j = 0; j <= 200; ++j) {
            nearest = std::min(nearest, distance(colorMapAt(ColorMap::GroupIndex, i / 200.0f),
                                                 colorMapAt(ColorMap::Utilization, j / 200.0f)));
        }
    }
    EXPECT_GT(nearest, 40);
}

TEST(GroupColors, NeighbouringGroupsStayApartWhereTheirIndicesAreClose) {
    for (int count : {9, 64, 512, 1024, 2048, 4096}) {
        for (int g = 0; g + 1 < count; ++g) {
            // Consecutive indices are nearly the same colour on the bar; a block and its
            // neighbour (always of the other parity) still differ clearly.
            EXPECT_GT(distance(groupColor(g, count, false), groupColor(g + 1, count, true)),
                      kDistinct)
                << count << " " << g;
            EXPECT_GT(distance(groupColor(g, count, true), groupColor(g + 1, count, false)),
                      kDistinct)
                << count << " " << g;
        }
    }
}

// The multipod with 8-core replicas (2x2 chips): 1024 replicas on 4096 chips.
class MultipodColoring : public ::testing::Test {
protected:
    static Topology multipod() {
        return Topology(resolveTopology("tpu-v3-multipod", std::nullopt, loadHardware("tpu-v3")));
    }
    static CollectiveSpec small() {
        CollectiveSpec spec;
        spec.bytesPerChip = 1 << 20;
        spec.chunks = 1;
        return spec;
    }
    Topology topology = multipod();
    EventSimulation run = runEventEngine(topology, small());
    Replay replay{topology, run.record};
    SceneGeometry scene = buildScene(topology, LayoutKind::Grid);
    FrameColors frame;

    // Every pair of chips joined by a link: same group, same colour; different groups,
    // clearly different colours (when `blocks`: groups are blocks of neighbouring chips).
    void checkNeighbours(const std::function<int(ChipId)>& groupOfChip) {
        int boundaries = 0;
        for (ChipId chip = 0; chip < topology.chipCount(); ++chip) {
            for (int d = 0; d < topology.rank(); ++d) {
                const LinkId link = topology.linkId(chip, d, Direction::Plus);
                if (!topology.linkExists(link)) {
                    continue;
                }
                const ChipId next = topology.linkTarget(link);
                const Rgb a = frame.chips[static_cast<std::size_t>(chip)];
                const Rgb b = frame.chips[static_cast<std::size_t>(next)];
                if (groupOfChip(chip) == groupOfChip(next)) {
                    ASSERT_EQ(a, b) << chip << " " << next;
                } else if (topology.coord(next, d) !=
                           0) { // the wrap-around joins the ends of a row
                    ASSERT_GT(distance(a, b), kDistinct) << chip << " " << next;
                    ++boundaries;
                }
            }
        }
        EXPECT_GT(boundaries, 1000);
    }
};

TEST_F(MultipodColoring, ThousandReplicasShowTheirBoundaries) {
    FrameColoring coloring(topology, scene, replay, {2, 2});
    coloring.compute(0, 1e-6, ColorMode::Replica, frame);
    EXPECT_TRUE(frame.chipLegend.continuous);
    EXPECT_EQ(frame.chipLegend.maximum, 1024);
    const GroupLayout replicas{GroupLayout::Kind::WithinTile, {2, 2}};
    checkNeighbours([&](ChipId c) { return groupOf(topology, replicas, c); });
}

TEST_F(MultipodColoring, FiveHundredHostsShowTheirBoundaries) {
    FrameColoring coloring(topology, scene, replay, {1, 1});
    coloring.compute(0, 1e-6, ColorMode::Host, frame);
    EXPECT_EQ(frame.chipLegend.maximum, 512);
    checkNeighbours([&](ChipId c) { return topology.hostOf(c); });
}

TEST_F(MultipodColoring, DataParallelGroupsAndPodsAreFewAndCategorical) {
    FrameColoring coloring(topology, scene, replay, {2, 2});
    coloring.compute(0, 1e-6, ColorMode::DataParallelGroup, frame);
    EXPECT_FALSE(frame.chipLegend.continuous);
    EXPECT_EQ(frame.chipLegend.categories.size(), 4u); // the 4 places in a 2x2 replica
    coloring.compute(0, 1e-6, ColorMode::Pod, frame);
    EXPECT_EQ(frame.chipLegend.categories.size(), 4u);
}

TEST(ColorModeNames, FormerNamesStillRead) {
    EXPECT_EQ(parseColorMode("replica"), ColorMode::Replica);
    EXPECT_EQ(parseColorMode("model-parallel-group"), ColorMode::Replica);
    EXPECT_EQ(parseColorMode("data-parallel-group"), ColorMode::DataParallelGroup);
    EXPECT_EQ(parseColorMode("replica-group"), ColorMode::DataParallelGroup);
    for (ColorMode mode : allColorModes()) {
        EXPECT_EQ(parseColorMode(toString(mode)), mode);
    }
}

} // namespace
} // namespace podscope::ui
