#pragma once

#include "scene/SceneLayout.hpp"
#include "topology/Topology.hpp"

namespace podscope::ui {

// Multislice (docs/multislice.md): copies of one slice, joined by the hosts' data-centre
// network. The step timeline simulates one slice, every slice stepping alike, so the scene
// repeats the slice's chips and links once per slice, the copies side by side in a snake over a
// near-square grid, kSliceGap slice widths apart, so that slices next in the ring are
// neighbours. The DCN stage is a ring across the slices in slice order, each host's NIC sending
// to the same host of the next slice: one DCN link per host and ring pair of slices (a pair
// once, both directions sharing it), an arc over the gap from the host's chips to theirs.
constexpr double kSliceGap = 0.35;

// Appends slices 1 .. slices-1 to a one-slice geometry (before it is centred).
void arrangeSlices(SceneGeometry& geometry, const Topology& topology, int slices);

} // namespace podscope::ui
