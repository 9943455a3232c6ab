// The 3-D view's key of link kinds (issue 20): it lists the kinds the scene draws and no others,
// names the links optical only where the machine's cubes are the blocks drawn, and gives each
// kind its own stroke.
#include "TestGrid.hpp"
#include "machine/Machine.hpp"
#include "scene/LinkKey.hpp"

#include <gtest/gtest.h>
#include <set>
#include <string>
#include <vector>

namespace podscope::ui {
namespace {

using test::grid;

std::vector<std::string> labels(const std::vector<LinkKeyEntry>& key) {
    std::vector<std::string> out;
    for (const LinkKeyEntry& entry : key) {
        out.push_back(entry.label);
    }
    return out;
}

TEST(LinkKey, TheV4PodNamesItsCubesAndOpticalLinks) {
    const std::vector<int>& cube = bundledMachine("tpu-v4").opticalCube;
    const SceneGeometry scene =
        buildScene(grid({16, 16, 16}, {true, true, true}), LayoutKind::Torus);
    const auto key = linkKey(scene, cube);
    EXPECT_EQ(labels(key),
              (std::vector<std::string>{"in a 4x4x4 cube (electrical)", "between cubes (optical)",
                                        "wrap-around (optical)"}));
    ASSERT_EQ(key.size(), 3u);
    EXPECT_EQ(key[0].stroke, LinkStroke::Solid);
    EXPECT_EQ(key[1].stroke, LinkStroke::Dashed);
    EXPECT_EQ(key[2].stroke, LinkStroke::Dotted);
    EXPECT_FALSE(key[0].optical);
    EXPECT_TRUE(key[1].optical && key[2].optical);
}

TEST(LinkKey, BlocksThatAreNotTheMachinesCubesAreNotCalledOptical) {
    // A machine with no optical cubes, and one whose cubes differ from the blocks drawn
    // (6x6x6: blocks of 3 chips a side).
    const SceneGeometry pod = buildScene(grid({16, 16, 16}, {true, true, true}), LayoutKind::Torus);
    EXPECT_EQ(labels(linkKey(pod, {})),
              (std::vector<std::string>{"in a 4x4x4 block", "between blocks", "wrap-around"}));
    const SceneGeometry odd = buildScene(grid({6, 6, 6}, {true, true, true}), LayoutKind::Torus);
    EXPECT_EQ(labels(linkKey(odd, {4, 4, 4})),
              (std::vector<std::string>{"in a 3x3x3 block", "between blocks", "wrap-around"}));
}

TEST(LinkKey, ListsOnlyTheKindsTheSceneDraws) {
    // The v3 multipod on a grid: links and wrap-around arcs, no blocks.
    const Topology multipod = grid({128, 32}, {false, true});
    EXPECT_EQ(labels(linkKey(buildScene(multipod, LayoutKind::Grid), {})),
              (std::vector<std::string>{"ICI link", "wrap-around"}));
    // Without its arcs (the unrolled layout) there is one kind left.
    EXPECT_EQ(labels(linkKey(buildScene(multipod, LayoutKind::Unrolled), {})),
              (std::vector<std::string>{"ICI link"}));
    // A mesh (a small v4 slice): one block, no wrap-around, nothing optical.
    EXPECT_EQ(labels(linkKey(buildScene(grid({2, 2, 4}, {false, false, false}), LayoutKind::Torus),
                             bundledMachine("tpu-v4").opticalCube)),
              (std::vector<std::string>{"in a 2x2x4 block"}));
}

TEST(LinkKey, MultisliceAddsTheDcnLast) {
    SceneOptions options;
    options.slices = 4;
    const SceneGeometry scene =
        buildScene(grid({16, 16}, {true, true}), LayoutKind::Torus, options);
    ASSERT_FALSE(scene.dcnLinks.empty());
    const auto key = linkKey(scene, {});
    ASSERT_FALSE(key.empty());
    EXPECT_EQ(key.back().label, "DCN, one per host");
    EXPECT_EQ(key.back().stroke, LinkStroke::Curve);
}

TEST(LinkKey, APlainTorusGoesWithoutAKey) {
    const auto keyOf = [](const Topology& t, LayoutKind layout, const std::vector<int>& cube,
                          const SceneOptions& options = {}) {
        return linkKey(buildScene(t, layout, options), cube);
    };
    EXPECT_FALSE(keyIsWorthShowing(keyOf(grid({128, 32}, {false, true}), LayoutKind::Grid, {})));
    EXPECT_TRUE(
        keyIsWorthShowing(keyOf(grid({16, 16, 16}, {true, true, true}), LayoutKind::Torus, {})));
    // One optically switched cube: no block boundary drawn, but its wrap-around is optical.
    EXPECT_TRUE(keyIsWorthShowing(keyOf(grid({4, 4, 4}, {true, true, true}), LayoutKind::Torus,
                                        bundledMachine("tpu-v4").opticalCube)));
    SceneOptions options;
    options.slices = 2;
    EXPECT_TRUE(
        keyIsWorthShowing(keyOf(grid({4, 4}, {false, false}), LayoutKind::Grid, {}, options)));
}

TEST(LinkKey, EveryKindHasItsOwnStroke) {
    const std::set<LinkStroke> strokes{strokeOf(LinkKind::InBlock),
                                       strokeOf(LinkKind::BetweenBlocks),
                                       strokeOf(LinkKind::WrapAround), LinkStroke::Curve};
    EXPECT_EQ(strokes.size(), 4u);
}

} // namespace
} // namespace podscope::ui
