// The torus layout of 3-D topologies (issue 20): blocks drawn apart so that every chip is in
// sight, wrap-around links told apart from the links inside and between blocks.
#include "TestGrid.hpp"
#include "scene/SceneLayout.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <gtest/gtest.h>
#include <vector>

namespace podscope::ui {
namespace {

using test::grid;

bool crossesWrap(const Topology& topology, LinkId link) {
    const int dim = topology.linkDim(link);
    const int c = topology.coord(topology.linkSource(link), dim);
    return topology.linkDirection(link) == Direction::Plus ? c == topology.size(dim) - 1 : c == 0;
}

// The default (isometric) camera's direction from the scene's centre, as ui/vtk/VtkView.cpp's
// setCamera sets it. The camera is far away compared with the scene, so rays to it are taken
// as parallel.
constexpr std::array<double, 3> kToCamera{0.55, -1.0, 0.9};

// Does the ray from `from` towards the camera pass through the cube of edge `size` at `centre`?
bool rayHits(const Vec3& from, const Vec3& centre, double size) {
    const double length = std::hypot(kToCamera[0], kToCamera[1], kToCamera[2]);
    const std::array<double, 3> q{centre.x - from.x, centre.y - from.y, centre.z - from.z};
    double lo = 0;
    double hi = 1e300;
    for (std::size_t k = 0; k < 3; ++k) {
        const double d = kToCamera[k] / length;
        const double t1 = (q[k] - size / 2) / d;
        const double t2 = (q[k] + size / 2) / d;
        lo = std::max(lo, std::min(t1, t2));
        hi = std::min(hi, std::max(t1, t2));
    }
    return lo <= hi;
}

// A chip is in sight when the ray to the camera from its centre, or from a point near one of
// its corners, meets no other chip's cube.
bool inSight(const SceneGeometry& scene, std::size_t chip) {
    const Vec3 c = scene.chipPositions[chip];
    const double r = scene.chipSize / 2 * 0.8;
    for (int s = 0; s < 9; ++s) {
        Vec3 from = c;
        if (s > 0) {
            from.x += (s & 1) != 0 ? r : -r;
            from.y += (s & 2) != 0 ? r : -r;
            from.z += (s & 4) != 0 ? r : -r;
        }
        bool hidden = false;
        for (std::size_t other = 0; other < scene.chipPositions.size() && !hidden; ++other) {
            hidden = other != chip && rayHits(from, scene.chipPositions[other], scene.chipSize);
        }
        if (!hidden) {
            return true;
        }
    }
    return false;
}

TEST(ExplodedLayout, EveryChipOfA4096ChipTorusIsInSightOfTheDefaultCamera) {
    const Topology slice = grid({16, 16, 16}, {true, true, true});
    const SceneGeometry scene = buildScene(slice, LayoutKind::Torus);
    int hidden = 0;
    for (std::size_t chip = 0; chip < scene.chipPositions.size(); ++chip) {
        hidden += inSight(scene, chip) ? 0 : 1;
    }
    EXPECT_EQ(hidden, 0);
    // The grid layout, one solid cube, hides most of them: the check can fail.
    const SceneGeometry solid = buildScene(slice, LayoutKind::Grid);
    int solidHidden = 0;
    for (std::size_t chip = 0; chip < solid.chipPositions.size(); chip += 7) {
        solidHidden += inSight(solid, chip) ? 0 : 1;
    }
    EXPECT_GT(solidHidden, 100);
}

double faceGap(const SceneGeometry& scene, const Topology& topology, LinkId link) {
    const Vec3 a = scene.chipPositions[static_cast<std::size_t>(topology.linkSource(link))];
    const Vec3 b = scene.chipPositions[static_cast<std::size_t>(topology.linkTarget(link))];
    return std::max({std::abs(a.x - b.x), std::abs(a.y - b.y), std::abs(a.z - b.z)}) -
           scene.chipSize;
}

// Neighbours in one block sit a chip's spacing apart; neighbours in two blocks are further
// apart than a chip is wide, so the blocks read as blocks, 4x4x4 chips each at 16x16x16.
TEST(ExplodedLayout, BlocksOfFourCubedChipsAreSeparatedByMoreThanAChip) {
    const Topology slice = grid({16, 16, 16}, {true, true, true});
    const SceneGeometry scene = buildScene(slice, LayoutKind::Torus);
    double widestInBlock = 0;
    double narrowestBetween = 1e300;
    int between = 0;
    for (std::size_t i = 0; i < scene.links.size(); ++i) {
        const LinkId link = scene.links[i];
        const int dim = slice.linkDim(link);
        const int c = slice.coord(slice.linkSource(link), dim);
        const int next = slice.coord(slice.linkTarget(link), dim);
        const bool sameCube = c / 4 == next / 4;
        EXPECT_EQ(scene.linkKinds[i] == LinkKind::InBlock, sameCube) << "link " << link;
        if (scene.linkKinds[i] == LinkKind::InBlock) {
            widestInBlock = std::max(widestInBlock, faceGap(scene, slice, link));
        } else if (scene.linkKinds[i] == LinkKind::BetweenBlocks) {
            ++between;
            narrowestBetween = std::min(narrowestBetween, faceGap(scene, slice, link));
        }
    }
    EXPECT_GT(narrowestBetween, scene.chipSize);
    EXPECT_GT(narrowestBetween, 2 * widestInBlock);
    // Across each of the 3 inner boundaries of each dimension: 16x16 chips, both directions.
    EXPECT_EQ(between, 3 * 3 * 16 * 16 * 2);
}

// The wrap-around links are exactly the links that close a wrapped dimension, in every layout
// and shape, and the torus layout draws them as arcs.
TEST(ExplodedLayout, WrapAroundLinksAreExactlyThoseOfWrappedDimensions) {
    for (const Topology& topology :
         {grid({16, 16, 16}, {true, true, true}), grid({4, 4, 8}, {false, false, true}),
          grid({2, 4, 4}, {false, false, false}), grid({8, 8}, {true, true}),
          grid({3, 2, 2, 2}, {true, true, false, true})}) {
        for (LayoutKind layout : allLayouts()) {
            SCOPED_TRACE(topology.dimsText() + " " + toString(layout));
            const SceneGeometry scene = buildScene(topology, layout);
            ASSERT_EQ(scene.linkKinds.size(), scene.links.size());
            for (std::size_t i = 0; i < scene.links.size(); ++i) {
                const LinkId link = scene.links[i];
                const bool wrap =
                    topology.wraps(topology.linkDim(link)) && crossesWrap(topology, link);
                ASSERT_EQ(scene.linkKinds[i] == LinkKind::WrapAround, wrap) << "link " << link;
                const auto points = scene.linkPointBegin[i + 1] - scene.linkPointBegin[i];
                if (wrap && layout == LayoutKind::Torus && topology.rank() >= 3) {
                    EXPECT_GT(points, 2) << "link " << link;
                }
            }
        }
    }
}

// Every link of each kind is drawn, counted against the closed forms of the shape: along a
// dimension of n chips cut into blocks of e, each of the N / n lines has n / e * (e - 1) links
// inside blocks, n / e - 1 between blocks and, wrapped, one wrap-around; both directions drawn.
// At 16x16x16 the links leaving a 4x4x4 cube are 64 cubes x 6 faces x 16 = 6144 directed links,
// the pod's 6,144 optical links (arXiv 2304.01433, one per cube-face port).
TEST(ExplodedLayout, LinksOfEachKindMatchTheShapesClosedForms) {
    struct Shape {
        std::vector<int> dims;
        std::vector<bool> wraps;
        std::vector<int> blockEdges;
    };
    for (const Shape& shape : {Shape{{16, 16, 16}, {true, true, true}, {4, 4, 4}},
                               Shape{{8, 12, 16}, {true, false, true}, {4, 4, 4}},
                               Shape{{4, 4, 8}, {false, false, true}, {4, 4, 4}},
                               Shape{{6, 4, 9}, {false, true, false}, {3, 4, 3}}}) {
        const Topology topology = grid(shape.dims, shape.wraps);
        SCOPED_TRACE(topology.dimsText());
        const SceneGeometry scene = buildScene(topology, LayoutKind::Torus);
        std::array<std::int64_t, 3> counted{};
        for (LinkKind kind : scene.linkKinds) {
            ++counted[static_cast<std::size_t>(kind)];
        }
        std::int64_t inBlock = 0;
        std::int64_t between = 0;
        std::int64_t wrap = 0;
        const std::int64_t chips = topology.chipCount();
        for (std::size_t d = 0; d < shape.dims.size(); ++d) {
            const std::int64_t lines = chips / shape.dims[d];
            const std::int64_t blocks = shape.dims[d] / shape.blockEdges[d];
            inBlock += 2 * lines * blocks * (shape.blockEdges[d] - 1);
            between += 2 * lines * (blocks - 1);
            wrap += shape.wraps[d] ? 2 * lines : 0;
        }
        EXPECT_EQ(counted[static_cast<std::size_t>(LinkKind::InBlock)], inBlock);
        EXPECT_EQ(counted[static_cast<std::size_t>(LinkKind::BetweenBlocks)], between);
        EXPECT_EQ(counted[static_cast<std::size_t>(LinkKind::WrapAround)], wrap);
        if (topology.chipCount() == 4096) {
            EXPECT_EQ(between + wrap, 64 * 6 * 16);
        }
    }
}

// Nothing is stacked more than a block high: the exploded torus is as low as one block.
TEST(ExplodedLayout, NoChipSitsAboveAnotherBlock) {
    const Topology slice = grid({8, 16, 16}, {true, true, true});
    const SceneGeometry scene = buildScene(slice, LayoutKind::Torus);
    double lowest = 1e300;
    double highest = -1e300;
    for (const Vec3& p : scene.chipPositions) {
        lowest = std::min(lowest, p.z);
        highest = std::max(highest, p.z);
    }
    EXPECT_NEAR(highest - lowest, 3.0, 1e-9);
}

} // namespace
} // namespace podscope::ui
