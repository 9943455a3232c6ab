#include "scene/ExplodedBlocks.hpp"

#include <algorithm>
#include <array>
#include <cmath>

namespace podscope::ui {
namespace {

int blockEdgeOf(int size) {
    for (int edge = std::min(size, kMaxBlockEdge); edge > 1; --edge) {
        if (size % edge == 0) {
            return edge;
        }
    }
    return 1;
}

} // namespace

ExplodedBlocks explodeIntoBlocks(const Topology& topology) {
    const int rank = topology.rank();
    ExplodedBlocks out;
    std::array<int, 4> blocksAlong{1, 1, 1, 1};
    for (int d = 0; d < rank; ++d) {
        // The fourth dimension is never cut: each of its coordinates is a layer of its own.
        const int edge = d < 3 ? blockEdgeOf(topology.size(d)) : 1;
        out.blockEdge.push_back(edge);
        blocksAlong[static_cast<std::size_t>(d)] = topology.size(d) / edge;
    }
    const int layers = blocksAlong[2] * blocksAlong[3];
    const int columns = static_cast<int>(std::ceil(std::sqrt(static_cast<double>(layers))));
    // A layer's extent: its chips one apart, its blocks kExplodedBlockGap apart.
    const double layerWidth = (topology.size(0) - 1) + (blocksAlong[0] - 1) * kExplodedBlockGap;
    const double layerDepth = (topology.size(1) - 1) + (blocksAlong[1] - 1) * kExplodedBlockGap;

    const auto chips = static_cast<std::size_t>(topology.chipCount());
    out.positions.resize(chips);
    out.block.resize(chips);
    out.layer.resize(chips);
    for (std::size_t chip = 0; chip < chips; ++chip) {
        const auto id = static_cast<ChipId>(chip);
        std::array<int, 4> c{};
        std::array<int, 4> b{};
        for (int d = 0; d < rank; ++d) {
            c[static_cast<std::size_t>(d)] = topology.coord(id, d);
            b[static_cast<std::size_t>(d)] =
                c[static_cast<std::size_t>(d)] / out.blockEdge[static_cast<std::size_t>(d)];
        }
        const int layer = b[2] + blocksAlong[2] * c[3];
        // Snake: odd rows run backwards, so layer k and k + 1 always share an edge.
        const int row = layer / columns;
        const int column = row % 2 == 0 ? layer % columns : columns - 1 - layer % columns;
        Vec3& p = out.positions[chip];
        p.x = c[0] + b[0] * kExplodedBlockGap + column * (layerWidth + kExplodedLayerGap);
        p.y = c[1] + b[1] * kExplodedBlockGap + row * (layerDepth + kExplodedLayerGap);
        p.z = c[2] % out.blockEdge[2];
        out.layer[chip] = layer;
        out.block[chip] = b[0] + blocksAlong[0] * (b[1] + blocksAlong[1] * layer);
    }
    return out;
}

} // namespace podscope::ui
