#pragma once

#include "scene/SceneLayout.hpp"
#include "topology/Topology.hpp"

#include <cstdint>
#include <vector>

namespace podscope::ui {

// The torus layout of a 3-D or 4-D topology, exploded: the chips are cut into blocks and the
// blocks drawn apart, so that no chip hides inside a solid cube (a 16x16x16 slice drawn as a
// grid showed only its 1352 outer chips).
//
// Block edge along a dimension: the largest divisor of its size no larger than kMaxBlockEdge.
// The topology carries no cube size of its own, so the rule is one of legibility: a block of
// 4x4x4 chips drawn at chip size kExplodedChipSize leaves every chip of it in sight from the
// default camera (the scene tests check this at 16x16x16). Where a machine's slices are built
// of such cubes (full cubes joined by optical switches) the blocks are those cubes.
//
// Blocks sharing a Z-block (and W coordinate) form a layer: its blocks lie side by side in X
// and Y, kExplodedBlockGap apart. Layers lie side by side too, kExplodedLayerGap apart, in a snake
// over a near-square grid so that consecutive layers (and the first and last, for two or four
// layers) are neighbours; Z is height only inside a block. Nothing stacks more than one block high,
// so the camera sees every layer from above.
struct ExplodedBlocks {
    std::vector<Vec3> positions;     // indexed by ChipId
    std::vector<std::int32_t> block; // index of each chip's block
    std::vector<std::int32_t> layer; // index of each chip's layer
    std::vector<int> blockEdge;      // chips per block along each dimension
};

constexpr int kMaxBlockEdge = 4;
constexpr double kExplodedChipSize = 0.4;
constexpr double kExplodedBlockGap = 2.5; // more than a chip's spacing, so blocks read as blocks
constexpr double kExplodedLayerGap = 6.0; // more than a block gap, so layers read as layers

// Only for rank >= 3.
ExplodedBlocks explodeIntoBlocks(const Topology& topology);

} // namespace podscope::ui
