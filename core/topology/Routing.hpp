#pragma once

#include "topology/Topology.hpp"

#include <vector>

namespace podscope {

// Appends to `path` the directed links of the dimension-ordered shortest route from `from`
// to `to` (dimension 0 first). Where a dimension wraps, the shorter way round is taken;
// a tie goes in the plus direction. Returns the number of links appended.
int appendRoute(const Topology& topology, ChipId from, ChipId to, std::vector<LinkId>& path);

// The same route for two chips on one line along `dim`, given the line's first chip and the
// two coordinates along it: no coordinate arithmetic, for building rings quickly.
int appendLineRoute(const Topology& topology, ChipId lineStart, int dim, int fromCoord, int toCoord,
                    std::vector<LinkId>& path);

// Hops of that route, without building it.
int routeLength(const Topology& topology, ChipId from, ChipId to);

} // namespace podscope
