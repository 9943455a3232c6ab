#pragma once

#include "topology/Topology.hpp"

namespace podscope {

// Bandwidth, one direction, of the links from the lower half of `dim` (coordinates below
// size/2) to the upper half, counted from the links as built: on a twisted torus the short
// dimensions' wrap-around links cross the long dimensions' cut too.
double halfCutBandwidth(const Topology& topology, int dim);

// The narrowest of those cuts over the dimensions of even size: the bisection bandwidth a
// coordinate plane gives (exact for a plain torus or mesh; for a twisted torus an upper bound,
// since a cut that is not a plane might be narrower).
double planeBisectionBandwidth(const Topology& topology);

} // namespace podscope
