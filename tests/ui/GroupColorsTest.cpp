// Group colouring (issues 15 and 23): readable with thousands of groups on the 4096-chip
// multipod, with only the legend's colours drawn.
#include "color/GroupColors.hpp"

#include "collective/EventEngine.hpp"
#include "collective/Schedule.hpp"
#include "scene/Replay.hpp"
#include "scene/SceneLayout.hpp"
#include "topology/Hardware.hpp"
#include "topology/TopologyPresets.hpp"
#include "view/FrameColoring.hpp"

#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>
#include <set>

namespace podscope::ui {
namespace {

double distance(Rgb a, Rgb b) {
    const double dr = a.r - b.r, dg = a.g - b.g, db = a.b - b.b;
    return std::sqrt(dr * dr + dg * dg + db * db);
}

// Visibly different on screen: well above the step between neighbouring entries of the map.
constexpr double kDistinct = 60;

TEST(GroupColors, FewGroupsGetDistinctCategoricalColours) {
    for (int count = 1; count <= kMaxCategoricalGroups; ++count) {
        std::set<std::tuple<int, int, int>> seen;
        for (int g = 0; g < count; ++g) {
            const Rgb c = groupColor(g, count, (g * 3) % kCycleColors); // the slot does not apply
            EXPECT_EQ(c, categoryColor(g));
            seen.insert({c.r, c.g, c.b});
        }
        EXPECT_EQ(static_cast<int>(seen.size()), count);
        const Legend legend = groupLegend("pod", count);
        EXPECT_FALSE(legend.continuous);
        EXPECT_EQ(static_cast<int>(legend.categories.size()), count);
    }
}

// Issue 23: thousands of groups were drawn on an index scale with every other block shaded, and
// on screen read as one colour the legend did not show. Now every colour drawn is a swatch of
// the legend, and the swatches are clearly different colours.
TEST(GroupColors, ManyGroupsDrawOnlyTheLegendsColours) {
    for (int count : {9, 512, 1024, 4096}) {
        std::vector<int> first(kCycleColors);
        for (int s = 0; s < kCycleColors; ++s) {
            first[static_cast<std::size_t>(s)] = s;
        }
        const Legend legend = groupLegend("replica", count, first);
        EXPECT_FALSE(legend.continuous);
        ASSERT_EQ(static_cast<int>(legend.categories.size()), kCycleColors);
        EXPECT_EQ(legend.note,
                  std::to_string(count) + " replicas; colours repeat, neighbours differ");
        EXPECT_EQ(legend.categories[3].first, "replica 3, ...");
        for (int slot = 0; slot < kCycleColors; ++slot) {
            const Rgb drawn = groupColor(slot * 37 % count, count, slot);
            EXPECT_EQ(drawn, legend.categories[static_cast<std::size_t>(slot)].second) << slot;
        }
        for (std::size_t a = 0; a < legend.categories.size(); ++a) {
            for (std::size_t b = a + 1; b < legend.categories.size(); ++b) {
                EXPECT_GT(distance(legend.categories[a].second, legend.categories[b].second),
                          kDistinct)
                    << a << " " << b;
            }
        }
    }
}

TEST(GroupColors, NeighbouringBlocksNeverShareACycleColour) {
    // Every block of a 4-D grid against its neighbour along each dimension.
    for (int x = 0; x < 9; ++x) {
        for (int y = 0; y < 9; ++y) {
            for (int z = 0; z < 3; ++z) {
                for (int w = 0; w < 3; ++w) {
                    const int here = cycleSlot({x, y, z, w});
                    EXPECT_NE(here, cycleSlot({x + 1, y, z, w}));
                    EXPECT_NE(here, cycleSlot({x, y + 1, z, w}));
                    EXPECT_NE(here, cycleSlot({x, y, z + 1, w}));
                    EXPECT_NE(here, cycleSlot({x, y, z, w + 1}));
                    EXPECT_NE(here, cycleSlot({x + 1, y + 1, z, w})); // diagonal, too
                }
            }
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

// Every chip's colour is a swatch of the legend, and more than a few distinct colours show.
void expectHonestLegend(const FrameColors& frame) {
    std::set<std::tuple<int, int, int>> drawn;
    for (const Rgb& c : frame.chips) {
        drawn.insert({c.r, c.g, c.b});
        const bool inLegend =
            std::any_of(frame.chipLegend.categories.begin(), frame.chipLegend.categories.end(),
                        [&](const auto& swatch) { return swatch.second == c; });
        ASSERT_TRUE(inLegend) << int(c.r) << "," << int(c.g) << "," << int(c.b);
    }
    EXPECT_EQ(drawn.size(), frame.chipLegend.categories.size());
    EXPECT_GE(drawn.size(), 4u);
}

TEST_F(MultipodColoring, ThousandReplicasShowTheirBoundaries) {
    FrameColoring coloring(topology, scene, replay, {2, 2});
    coloring.compute(0, 1e-6, ColorMode::Replica, frame);
    EXPECT_FALSE(frame.chipLegend.continuous);
    EXPECT_EQ(frame.chipLegend.note.rfind("1024 replicas", 0), 0u);
    expectHonestLegend(frame);
    const GroupLayout replicas{GroupLayout::Kind::WithinTile, {2, 2}};
    checkNeighbours([&](ChipId c) { return groupOf(topology, replicas, c); });
}

TEST_F(MultipodColoring, FiveHundredHostsShowTheirBoundaries) {
    FrameColoring coloring(topology, scene, replay, {1, 1});
    coloring.compute(0, 1e-6, ColorMode::Host, frame);
    EXPECT_EQ(frame.chipLegend.note.rfind("512 hosts", 0), 0u);
    expectHonestLegend(frame);
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
