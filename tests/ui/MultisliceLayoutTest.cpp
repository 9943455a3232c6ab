// Multislice in the 3-D view (issue 20): the slices drawn apart, DCN links between the slices
// the DCN stage's ring joins (docs/multislice.md: a ring across the slices, host to host).
#include "scene/SceneLayout.hpp"

#include <algorithm>
#include <gtest/gtest.h>
#include <limits>
#include <set>
#include <utility>

namespace podscope::ui {
namespace {

Topology slice256() {
    TopologySpec spec;
    spec.name = "test";
    spec.dims = {16, 16};
    spec.wrap = {true, true};
    spec.hostBlock = {2, 4};
    return Topology(spec);
}

struct Box {
    Vec3 lo{std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity(),
            std::numeric_limits<double>::infinity()};
    Vec3 hi{-std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(),
            -std::numeric_limits<double>::infinity()};
    void add(Vec3 p, double r) {
        lo = {std::min(lo.x, p.x - r), std::min(lo.y, p.y - r), std::min(lo.z, p.z - r)};
        hi = {std::max(hi.x, p.x + r), std::max(hi.y, p.y + r), std::max(hi.z, p.z + r)};
    }
    bool overlaps(const Box& o) const {
        return lo.x < o.hi.x && o.lo.x < hi.x && lo.y < o.hi.y && o.lo.y < hi.y && lo.z < o.hi.z &&
               o.lo.z < hi.z;
    }
};

std::vector<Box> sliceBoxes(const SceneGeometry& scene, const Topology& topology) {
    std::vector<Box> boxes(static_cast<std::size_t>(scene.slices));
    const auto n = static_cast<std::size_t>(topology.chipCount());
    for (std::size_t i = 0; i < scene.chipPositions.size(); ++i) {
        boxes[i / n].add(scene.chipPositions[i], scene.chipSize / 2);
    }
    // Each slice's links too (the wrap-around arcs reach beyond the chips).
    const std::size_t perSlice = scene.links.size() / static_cast<std::size_t>(scene.slices);
    for (std::size_t l = 0; l < scene.links.size(); ++l) {
        for (auto p = scene.linkPointBegin[l]; p < scene.linkPointBegin[l + 1]; ++p) {
            boxes[l / perSlice].add(scene.linkPoints[static_cast<std::size_t>(p)], 0);
        }
    }
    return boxes;
}

TEST(MultisliceLayout, SlicesLieApartAndRepeatTheSlicesLinks) {
    const Topology topology = slice256();
    for (LayoutKind layout : allLayouts()) {
        SCOPED_TRACE(toString(layout));
        SceneOptions options;
        options.slices = 4;
        const SceneGeometry scene = buildScene(topology, layout, options);
        const SceneGeometry one = buildScene(topology, layout);
        ASSERT_EQ(scene.slices, 4);
        ASSERT_EQ(scene.chipPositions.size(), 4 * one.chipPositions.size());
        ASSERT_EQ(scene.links.size(), 4 * one.links.size());
        ASSERT_EQ(scene.linkKinds.size(), scene.links.size());
        ASSERT_EQ(scene.linkPointBegin.size(), scene.links.size() + 1);
        for (std::size_t l = 0; l < scene.links.size(); ++l) {
            ASSERT_EQ(scene.links[l], one.links[l % one.links.size()]);
        }
        // Replay colours map link slots to the first slice's links.
        EXPECT_EQ(scene.linkIndexOfSlot, one.linkIndexOfSlot);
        const std::vector<Box> boxes = sliceBoxes(scene, topology);
        for (std::size_t a = 0; a < boxes.size(); ++a) {
            for (std::size_t b = a + 1; b < boxes.size(); ++b) {
                EXPECT_FALSE(boxes[a].overlaps(boxes[b])) << "slices " << a << " and " << b;
            }
        }
    }
    EXPECT_TRUE(buildScene(topology, LayoutKind::Torus).dcnLinks.empty());
}

// The DCN stage is a ring across the slices: every host of a slice is joined to the same host
// of the next slice, the last to the first; slices two apart in the ring are not joined.
TEST(MultisliceLayout, DcnLinksJoinEveryHostOfEachRingPairOfSlices) {
    const Topology topology = slice256();
    for (int slices : {2, 3, 4}) {
        SCOPED_TRACE(slices);
        SceneOptions options;
        options.slices = slices;
        const SceneGeometry scene = buildScene(topology, LayoutKind::Torus, options);
        std::set<std::pair<int, int>> pairs;
        std::set<std::tuple<int, int, int>> hostLinks;
        ASSERT_EQ(scene.dcnPointBegin.size(), scene.dcnLinks.size() + 1);
        for (std::size_t i = 0; i < scene.dcnLinks.size(); ++i) {
            const DcnLink& link = scene.dcnLinks[i];
            const auto pair = std::minmax(link.fromSlice, link.toSlice);
            pairs.insert(pair);
            hostLinks.insert({pair.first, pair.second, link.host});
            // It starts over the host's chips in one slice and ends over them in the other.
            const Vec3 start = scene.dcnPoints[static_cast<std::size_t>(scene.dcnPointBegin[i])];
            const Vec3 end =
                scene.dcnPoints[static_cast<std::size_t>(scene.dcnPointBegin[i + 1] - 1)];
            for (const auto& [point, slice] :
                 {std::pair{start, link.fromSlice}, {end, link.toSlice}}) {
                Box host;
                for (ChipId chip = 0; chip < topology.chipCount(); ++chip) {
                    if (topology.hostOf(chip) == link.host) {
                        host.add(scene.chipPositions[static_cast<std::size_t>(
                                     slice * topology.chipCount() + chip)],
                                 scene.chipSize);
                    }
                }
                EXPECT_TRUE(point.x >= host.lo.x && point.x <= host.hi.x && point.y >= host.lo.y &&
                            point.y <= host.hi.y)
                    << "DCN link " << i;
            }
        }
        std::set<std::pair<int, int>> ring;
        for (int s = 0; s < slices; ++s) {
            ring.insert(std::minmax(s, (s + 1) % slices));
        }
        EXPECT_EQ(pairs, ring);
        EXPECT_EQ(hostLinks.size(), ring.size() * static_cast<std::size_t>(topology.hostCount()));
        EXPECT_EQ(scene.dcnLinks.size(), hostLinks.size());
    }
}

} // namespace
} // namespace podscope::ui
