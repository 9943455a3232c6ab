#include "scene/SceneLayout.hpp"

#include "TestGrid.hpp"
#include "common/InputError.hpp"
#include "topology/Hardware.hpp"
#include "topology/TopologyPresets.hpp"

#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>
#include <optional>

namespace podscope::ui {
namespace {

Topology preset(const std::string& name) {
    return Topology(resolveTopology(name, std::nullopt, loadHardware("tpu-v3")));
}

using test::grid;

double distance(Vec3 a, Vec3 b) {
    return std::hypot(a.x - b.x, a.y - b.y, a.z - b.z);
}
Vec3 midpoint(Vec3 a, Vec3 b) {
    return {(a.x + b.x) / 2, (a.y + b.y) / 2, (a.z + b.z) / 2};
}

struct Polyline {
    const Vec3* begin;
    const Vec3* end;
    std::size_t size() const { return static_cast<std::size_t>(end - begin); }
    Vec3 front() const { return *begin; }
    Vec3 back() const { return *(end - 1); }
    double length() const {
        double sum = 0;
        for (const Vec3* p = begin + 1; p < end; ++p) {
            sum += distance(*(p - 1), *p);
        }
        return sum;
    }
};

Polyline polylineOf(const SceneGeometry& scene, LinkId link) {
    const auto index =
        static_cast<std::size_t>(scene.linkIndexOfSlot[static_cast<std::size_t>(link)]);
    const auto begin = static_cast<std::size_t>(scene.linkPointBegin[index]);
    const auto end = static_cast<std::size_t>(scene.linkPointBegin[index + 1]);
    return {scene.linkPoints.data() + begin, scene.linkPoints.data() + end};
}

Vec3 chipAt(const SceneGeometry& scene, const Topology& topology, std::vector<int> coords) {
    return scene.chipPositions[static_cast<std::size_t>(topology.chipAt(coords))];
}

bool crossesWrap(const Topology& topology, LinkId link) {
    const int dim = topology.linkDim(link);
    const int c = topology.coord(topology.linkSource(link), dim);
    return topology.linkDirection(link) == Direction::Plus ? c == topology.size(dim) - 1 : c == 0;
}

// Invariants every layout of every topology must satisfy.
void expectWellFormed(const Topology& topology, LayoutKind layout) {
    SCOPED_TRACE(topology.dimsText() + " wrap " + topology.wrapText() + " " + toString(layout));
    const SceneGeometry scene = buildScene(topology, layout);
    ASSERT_EQ(static_cast<std::int64_t>(scene.chipPositions.size()), topology.chipCount());
    ASSERT_EQ(static_cast<std::int64_t>(scene.links.size()), topology.linkCount());
    ASSERT_EQ(scene.linkPointBegin.size(), scene.links.size() + 1);
    ASSERT_EQ(scene.linkPointBegin.front(), 0);
    ASSERT_EQ(static_cast<std::size_t>(scene.linkPointBegin.back()), scene.linkPoints.size());
    ASSERT_EQ(static_cast<LinkId>(scene.linkIndexOfSlot.size()), topology.linkSlotCount());
    EXPECT_GT(scene.chipSize, 0.2);
    EXPECT_LE(scene.chipSize, 0.6);

    // Chips are distinct: no two closer than a cube's edge.
    double closestSquared = 1e30;
    const auto& chips = scene.chipPositions;
    for (std::size_t a = 0; a < chips.size(); ++a) {
        for (std::size_t b = a + 1; b < chips.size(); ++b) {
            const double dx = chips[a].x - chips[b].x;
            const double dy = chips[a].y - chips[b].y;
            const double dz = chips[a].z - chips[b].z;
            closestSquared = std::min(closestSquared, dx * dx + dy * dy + dz * dz);
        }
    }
    EXPECT_GE(std::sqrt(closestSquared), scene.chipSize);

    for (LinkId slot = 0; slot < topology.linkSlotCount(); ++slot) {
        const std::int32_t index = scene.linkIndexOfSlot[static_cast<std::size_t>(slot)];
        ASSERT_EQ(index >= 0, topology.linkExists(slot)) << "slot " << slot;
        if (index < 0) {
            continue;
        }
        ASSERT_EQ(scene.links[static_cast<std::size_t>(index)], slot);
        const Polyline line = polylineOf(scene, slot);
        ASSERT_GE(line.size(), 2u);
        const Vec3 source =
            scene.chipPositions[static_cast<std::size_t>(topology.linkSource(slot))];
        const Vec3 target =
            scene.chipPositions[static_cast<std::size_t>(topology.linkTarget(slot))];
        // Links start at or just above the chips' faces (never inside a cube), offset sideways.
        const double nearFace = scene.chipSize * std::sqrt(3.0) / 2 + 0.2; // a cube's corner
        EXPECT_LT(distance(line.front(), source), nearFace) << "link " << slot;
        EXPECT_LT(distance(line.back(), target), nearFace) << "link " << slot;
        EXPECT_GT(distance(line.front(), source), scene.chipSize / 2) << "link inside its chip";
    }

    const auto inside = [&](Vec3 p) {
        return p.x >= scene.boundsMin.x - 1e-9 && p.y >= scene.boundsMin.y - 1e-9 &&
               p.z >= scene.boundsMin.z - 1e-9 && p.x <= scene.boundsMax.x + 1e-9 &&
               p.y <= scene.boundsMax.y + 1e-9 && p.z <= scene.boundsMax.z + 1e-9;
    };
    EXPECT_TRUE(std::all_of(scene.chipPositions.begin(), scene.chipPositions.end(), inside));
    EXPECT_TRUE(std::all_of(scene.linkPoints.begin(), scene.linkPoints.end(), inside));
}

TEST(SceneLayout, EveryLayoutOfEveryShapeIsWellFormed) {
    const std::vector<Topology> topologies = {grid({8}, {true}),
                                              grid({8}, {false}),
                                              grid({2}, {true}),
                                              grid({4, 4}, {false, false}),
                                              grid({6, 4}, {true, false}),
                                              grid({16, 8}, {false, true}),
                                              grid({8, 8}, {true, true}),
                                              grid({4, 4, 4}, {true, true, true}),
                                              grid({3, 2, 2, 2}, {true, true, false, true}),
                                              preset("tpu-v3-pod"),
                                              preset("tpu-v3-2pod")};
    for (const Topology& topology : topologies) {
        for (LayoutKind layout : {LayoutKind::Torus, LayoutKind::Grid, LayoutKind::Physical}) {
            expectWellFormed(topology, layout);
        }
    }
}

TEST(SceneLayout, MultipodLayoutsAreWellFormed) {
    const Topology multipod = preset("tpu-v3-multipod");
    for (LayoutKind layout : {LayoutKind::Torus, LayoutKind::Grid, LayoutKind::Physical}) {
        expectWellFormed(multipod, layout);
    }
}

TEST(SceneLayout, TorusOfAPodIsADonutWithOnlyShortLinks) {
    const Topology pod = preset("tpu-v3-pod");
    const SceneGeometry scene = buildScene(pod, LayoutKind::Torus);
    double longest = 0;
    for (LinkId link : scene.links) {
        const Polyline line = polylineOf(scene, link);
        EXPECT_EQ(line.size(), 2u);
        longest = std::max(longest, line.length());
    }
    EXPECT_LT(longest, 2.0); // wrap-around links too: the donut closes both rings
    // A donut, not a sheet: it has thickness, and its hole is empty.
    EXPECT_GT(scene.boundsMax.z - scene.boundsMin.z, 3.0);
    double nearestToAxis = 1e30;
    for (const Vec3& p : scene.chipPositions) {
        nearestToAxis = std::min(nearestToAxis, std::hypot(p.x, p.y));
    }
    EXPECT_GT(nearestToAxis, 2.0);
    // Going around Y returns to the same distance from the axis; X goes around the major circle.
    const Vec3 a = chipAt(scene, pod, {0, 0});
    const Vec3 b = chipAt(scene, pod, {16, 0});
    EXPECT_NEAR(std::hypot(a.x, a.y), std::hypot(b.x, b.y), 1e-9);
    EXPECT_NEAR(a.z, b.z, 1e-9);
}

TEST(SceneLayout, GridDrawsWrapAroundLinksAsArcsOutOfThePlane) {
    const Topology pod = preset("tpu-v3-pod");
    const SceneGeometry scene = buildScene(pod, LayoutKind::Grid);
    const double plane = scene.chipPositions.front().z;
    for (const Vec3& chip : scene.chipPositions) {
        ASSERT_NEAR(chip.z, plane, 1e-9);
    }
    int arcs = 0;
    for (LinkId link : scene.links) {
        const Polyline line = polylineOf(scene, link);
        double highest = 0;
        for (const Vec3* p = line.begin; p < line.end; ++p) {
            highest = std::max(highest, std::abs(p->z - plane));
        }
        if (crossesWrap(pod, link)) {
            ++arcs;
            EXPECT_GE(line.size(), 8u);
            EXPECT_LE(line.size(), 12u);
            EXPECT_GT(highest, 1.0);
            // Under the chips, which hide them from above (over them, arcs covered the slab).
            for (const Vec3* p = line.begin; p < line.end; ++p) {
                EXPECT_LT(p->z, plane);
            }
        } else {
            EXPECT_EQ(line.size(), 2u);
            // In the chips' plane, in the gap between the two cubes: it covers neither chip
            // and neither hides it.
            EXPECT_LT(highest, 1e-9);
            EXPECT_LT(line.length(), 1.0 - scene.chipSize);
            EXPECT_GT(line.length(), 0.2);
        }
    }
    EXPECT_EQ(arcs, 2 * 32 * 2); // both directions, both dimensions, 32 lines each
}

TEST(SceneLayout, BothDirectionsOfALinkAreSideBySide) {
    const Topology t = grid({6, 4}, {true, true});
    for (LayoutKind layout : {LayoutKind::Torus, LayoutKind::Grid, LayoutKind::Physical}) {
        const SceneGeometry scene = buildScene(t, layout);
        for (LinkId link : scene.links) {
            if (t.linkDirection(link) != Direction::Plus) {
                continue;
            }
            const LinkId back = t.linkId(t.linkTarget(link), t.linkDim(link), Direction::Minus);
            const Polyline forward = polylineOf(scene, link);
            const Polyline backward = polylineOf(scene, back);
            const Vec3 f = midpoint(forward.front(), forward.back());
            const Vec3 b = midpoint(backward.front(), backward.back());
            EXPECT_NEAR(distance(f, b), 0.24, 0.02) << toString(layout) << " link " << link;
        }
    }
}

TEST(SceneLayout, PhysicalLayoutSeparatesPodsMoreThanHostsMoreThanTrays) {
    const Topology multipod = preset("tpu-v3-multipod");
    const SceneGeometry scene = buildScene(multipod, LayoutKind::Physical);
    const auto stepX = [&](int x) {
        return distance(chipAt(scene, multipod, {x - 1, 5}), chipAt(scene, multipod, {x, 5}));
    };
    const auto stepY = [&](int y) {
        return distance(chipAt(scene, multipod, {7, y - 1}), chipAt(scene, multipod, {7, y}));
    };
    const double insideTray = stepX(1);
    const double trayGap = stepX(2);
    const double hostGap = stepX(4);
    const double podGap = stepX(32);
    EXPECT_NEAR(insideTray, 1.0, 1e-9);
    EXPECT_GT(trayGap, insideTray + 0.2);
    EXPECT_GT(hostGap, trayGap + 0.5);
    EXPECT_GT(podGap, hostGap + 2.0);
    EXPECT_NEAR(stepX(33), insideTray, 1e-9);
    EXPECT_NEAR(stepX(96), podGap, 1e-9);
    // A host is 4x2 chips: along Y every second boundary is a host's.
    EXPECT_NEAR(stepY(1), insideTray, 1e-9);
    EXPECT_NEAR(stepY(2), hostGap, 1e-9);
    // The four pods do not overlap along X.
    for (int pod = 1; pod < 4; ++pod) {
        EXPECT_GT(chipAt(scene, multipod, {32 * pod, 0}).x,
                  chipAt(scene, multipod, {32 * pod - 1, 31}).x + 4.0);
    }
}

TEST(SceneLayout, MultipodTorusIsACylinderAroundX) {
    const Topology multipod = preset("tpu-v3-multipod");
    const SceneGeometry scene = buildScene(multipod, LayoutKind::Torus);
    // Every column of equal x is a circle of 32 chips around one common axis parallel to X.
    double axisY = 0, axisZ = 0;
    for (int y = 0; y < 32; ++y) {
        axisY += chipAt(scene, multipod, {0, y}).y / 32;
        axisZ += chipAt(scene, multipod, {0, y}).z / 32;
    }
    const double radius = std::hypot(chipAt(scene, multipod, {0, 0}).y - axisY,
                                     chipAt(scene, multipod, {0, 0}).z - axisZ);
    EXPECT_NEAR(radius, 32 / (2 * 3.14159265), 0.1); // neighbours about 1 apart around
    for (int x = 0; x < 128; ++x) {
        const double column = chipAt(scene, multipod, {x, 0}).x;
        for (int y = 0; y < 32; ++y) {
            const Vec3 p = chipAt(scene, multipod, {x, y});
            EXPECT_NEAR(p.x, column, 1e-9);
            EXPECT_NEAR(std::hypot(p.y - axisY, p.z - axisZ), radius, 1e-9);
        }
        if (x > 0) {
            EXPECT_NEAR(column - chipAt(scene, multipod, {x - 1, 0}).x, 1.0, 1e-9);
        }
    }
    // The wrap-around in Y closes the circle with an ordinary short link.
    const Polyline wrap =
        polylineOf(scene, multipod.linkId(multipod.chipAt(std::vector{5, 31}), 1, Direction::Plus));
    const Polyline ordinary =
        polylineOf(scene, multipod.linkId(multipod.chipAt(std::vector{5, 7}), 1, Direction::Plus));
    EXPECT_EQ(wrap.size(), 2u);
    EXPECT_NEAR(wrap.length(), ordinary.length(), 0.05); // as long as any link around
    EXPECT_LT(wrap.length(), 1.0);                       // between the cubes' faces
    EXPECT_NEAR(scene.boundsMax.x - scene.boundsMin.x, 127 + scene.chipSize, 1e-9);
}

TEST(SceneLayout, OneDimensionalRingIsACircle) {
    const Topology ring = grid({12}, {true});
    const SceneGeometry scene = buildScene(ring, LayoutKind::Torus);
    const double radius = std::hypot(scene.chipPositions[0].x, scene.chipPositions[0].y);
    for (ChipId c = 0; c < 12; ++c) {
        const Vec3 p = scene.chipPositions[static_cast<std::size_t>(c)];
        EXPECT_NEAR(std::hypot(p.x, p.y), radius, 1e-9);
        EXPECT_NEAR(distance(p, scene.chipPositions[static_cast<std::size_t>((c + 1) % 12)]), 1.0,
                    1e-9);
    }
}

TEST(SceneLayout, ThreeDimensionalTorusStacksLayersWithArcs) {
    const Topology cube = grid({4, 4, 4}, {true, true, true});
    const SceneGeometry scene = buildScene(cube, LayoutKind::Torus);
    // Z is height.
    EXPECT_NEAR(chipAt(scene, cube, {1, 2, 3}).z - chipAt(scene, cube, {1, 2, 0}).z, 3.0, 1e-9);
    for (LinkId link : scene.links) {
        EXPECT_EQ(polylineOf(scene, link).size() > 2, crossesWrap(cube, link)) << "link " << link;
    }
}

TEST(SceneLayout, UnwrappedTopologiesHaveOnlyStraightLinks) {
    const Topology mesh = grid({8, 4}, {false, false});
    for (LayoutKind layout : {LayoutKind::Torus, LayoutKind::Grid, LayoutKind::Physical}) {
        const SceneGeometry scene = buildScene(mesh, layout);
        EXPECT_EQ(scene.linkPoints.size(), 2 * scene.links.size()) << toString(layout);
    }
}

TEST(SceneLayout, ParsesLayoutNames) {
    for (LayoutKind layout : {LayoutKind::Torus, LayoutKind::Grid, LayoutKind::Physical}) {
        EXPECT_EQ(parseLayout(toString(layout)), layout);
    }
    EXPECT_EQ(toString(LayoutKind::Physical), "physical");
    try {
        parseLayout("donut");
        FAIL() << "an unknown layout must be refused";
    } catch (const InputError& error) {
        EXPECT_EQ(error.field(), "layout");
        EXPECT_NE(std::string(error.what()).find("layout"), std::string::npos);
        EXPECT_NE(std::string(error.what()).find("donut"), std::string::npos);
    }
}

} // namespace
} // namespace podscope::ui

namespace podscope::ui {
namespace {

// Issue 23: at 4096 chips the view showed link lines, not chips. Straight links now run in the
// gaps between the cubes: no point of one lies inside either of its chips' cubes (in the flat
// layouts links lie in the chips' plane, so none is drawn over a chip), in any layout, and the
// cubes keep their size at any chip count.
TEST(SceneLayout, NoLinkIsDrawnOverAChipAtAnyScale) {
    const Topology multipod = preset("tpu-v3-multipod");
    const double small = buildScene(grid({8, 8}, {false, false}), LayoutKind::Grid).chipSize;
    for (LayoutKind layout : allLayouts()) {
        SCOPED_TRACE(toString(layout));
        const SceneGeometry scene = buildScene(multipod, layout);
        // As large as a few chips' (the unrolled layout's a little smaller, for longer links).
        EXPECT_GE(scene.chipSize, layout == LayoutKind::Unrolled ? 0.4 : small - 1e-9);
        const double half = scene.chipSize / 2;
        int straight = 0;
        for (LinkId slot = 0; slot < multipod.linkSlotCount(); ++slot) {
            const std::int32_t index = scene.linkIndexOfSlot[static_cast<std::size_t>(slot)];
            if (index < 0 || polylineOf(scene, slot).size() != 2) {
                continue;
            }
            ++straight;
            const Polyline line = polylineOf(scene, slot);
            for (ChipId chip : {multipod.linkSource(slot), multipod.linkTarget(slot)}) {
                const Vec3 c = scene.chipPositions[static_cast<std::size_t>(chip)];
                for (int k = 0; k <= 10; ++k) {
                    const double t = k / 10.0;
                    const Vec3 p{line.begin[0].x + (line.begin[1].x - line.begin[0].x) * t,
                                 line.begin[0].y + (line.begin[1].y - line.begin[0].y) * t,
                                 line.begin[0].z + (line.begin[1].z - line.begin[0].z) * t};
                    const bool inside = std::abs(p.x - c.x) < half && std::abs(p.y - c.y) < half &&
                                        std::abs(p.z - c.z) < half;
                    ASSERT_FALSE(inside) << "link " << slot << " crosses chip " << chip;
                }
            }
        }
        EXPECT_GT(straight, 16000);
    }
    EXPECT_NEAR(buildScene(multipod, LayoutKind::Grid).chipSize, small, 1e-9);
}

// Without wrap arcs (and always in the unrolled layout) the wrap-around links are left out and
// everything else stays.
TEST(SceneLayout, WrapArcsCanBeLeftOutAndTheUnrolledLayoutHasNone) {
    const Topology pod = preset("tpu-v3-pod");
    const SceneGeometry withArcs = buildScene(pod, LayoutKind::Grid);
    SceneOptions noArcs;
    noArcs.wrapArcs = false;
    for (const SceneGeometry& scene :
         {buildScene(pod, LayoutKind::Grid, noArcs), buildScene(pod, LayoutKind::Unrolled)}) {
        EXPECT_EQ(scene.links.size(), withArcs.links.size() - 2 * 32 * 2);
        EXPECT_EQ(scene.linkPoints.size(), 2 * scene.links.size());
        for (LinkId slot = 0; slot < pod.linkSlotCount(); ++slot) {
            const bool drawn = scene.linkIndexOfSlot[static_cast<std::size_t>(slot)] >= 0;
            EXPECT_EQ(drawn, pod.linkExists(slot) && !crossesWrap(pod, slot)) << slot;
        }
    }
    // Unrolled: flat, seen from above, smaller chips than the grid's.
    const SceneGeometry unrolled = buildScene(pod, LayoutKind::Unrolled);
    EXPECT_LT(unrolled.chipSize, withArcs.chipSize);
    for (const Vec3& chip : unrolled.chipPositions) {
        ASSERT_NEAR(chip.z, unrolled.chipPositions.front().z, 1e-9);
    }
    EXPECT_EQ(parseLayout("unrolled"), LayoutKind::Unrolled);
    EXPECT_EQ(toString(LayoutKind::Unrolled), "unrolled");
}

} // namespace
} // namespace podscope::ui
