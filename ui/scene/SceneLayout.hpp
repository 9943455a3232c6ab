#pragma once

#include "topology/Topology.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace podscope::ui {

// How chips are placed in 3-D. Torus: wrapped dimensions bent into circles (the multipod is a
// cylinder 32 around and 128 long; a 32x32 pod a donut). Grid: flat, wrap-around links drawn
// as arcs under the chips. Physical: chips grouped by tray (2x2), host (4x2) and pod with visible
// gaps. Unrolled: the grid seen from above with smaller chips and no wrap-around arcs, so that the
// links between them read as a heat map (the multipod as 128x32). The layout chooses where
// chips go, never how chips or links are coloured.
enum class LayoutKind { Torus, Grid, Physical, Unrolled };

LayoutKind parseLayout(const std::string& text); // InputError("layout", ...) when unknown
std::string toString(LayoutKind layout);

struct Vec3 {
    double x = 0, y = 0, z = 0;
};

// What a drawn link joins, so the view can draw the kinds apart: links inside a block (one
// board or cube, electrical), links between the blocks of an exploded layout, and wrap-around
// links (the optical ones where a machine closes full cubes into a torus), always drawn as arcs
// where the layout draws them.
enum class LinkKind : std::uint8_t { InBlock, BetweenBlocks, WrapAround };

// A data-centre-network link between two slices of a multislice run: one host's NIC in one
// slice to the same host in the next slice of the ring the DCN stage runs (scene/Multislice.hpp).
struct DcnLink {
    int fromSlice = 0;
    int toSlice = 0;
    int host = 0;
};

// Everything the view draws, in scene units (neighbouring chips about 1 apart).
struct SceneGeometry {
    // `slices` copies of the slice, drawn apart (multislice; every slice steps alike, so each
    // copy shows the same chip and link colours): chip c of slice s at chipPositions[s *
    // chipCount + c], and `links` repeats the slice's link slots once per slice.
    int slices = 1;
    std::vector<Vec3> chipPositions; // indexed by ChipId, then by slice
    double chipSize = 0.6;           // edge of a chip's cube
    // Existing directed links, each a polyline: links[i] runs through
    // linkPoints[linkPointBegin[i] .. linkPointBegin[i+1]). The two directions of a link are
    // drawn side by side, offset from the line between the chips, so both can be coloured.
    std::vector<LinkId> links;
    std::vector<std::int32_t> linkPointBegin{0};
    std::vector<Vec3> linkPoints;
    // Index into `links` (the first slice's) for every link slot of the topology, -1 where
    // there is no link.
    std::vector<std::int32_t> linkIndexOfSlot;
    std::vector<LinkKind> linkKinds; // indexed like `links`
    std::vector<int> blockEdge;      // chips per block along each dimension; empty: no blocks
    // Multislice: the DCN links, each a polyline through dcnPoints[dcnPointBegin[i] ..
    // dcnPointBegin[i+1]).
    std::vector<DcnLink> dcnLinks;
    std::vector<std::int32_t> dcnPointBegin{0};
    std::vector<Vec3> dcnPoints;
    Vec3 boundsMin, boundsMax;
};

struct SceneOptions {
    // Wrap-around links drawn as arcs (grid and physical layouts); off, they are left out, as
    // they always are in the unrolled layout.
    bool wrapArcs = true;
    // Slices of a multislice run (the scenario's `slices`): drawn apart, joined by DCN links.
    int slices = 1;
};

// Straight links run in the gaps between the chips' cubes, from face to face, so that no link is
// drawn over a chip at any chip count; wrap-around arcs rise from just above the chips.
SceneGeometry buildScene(const Topology& topology, LayoutKind layout,
                         const SceneOptions& options = {});

// Every layout, in menu order.
std::vector<LayoutKind> allLayouts();

} // namespace podscope::ui
