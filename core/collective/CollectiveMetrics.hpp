#pragma once

#include "collective/CollectiveResult.hpp"
#include "collective/CollectiveSpec.hpp"
#include "topology/Topology.hpp"

namespace podscope {

// NCCL's bus-bandwidth factor: 2(n-1)/n for all-reduce, (n-1)/n otherwise.
double busBandwidthFactor(CollectiveOp op, int groupSize);

// A bound no algorithm can beat on this topology: every chip must send (and receive) the
// bus-bandwidth factor times the payload through its own links, and for collectives over
// all chips, the payload must cross the narrowest bisection (S per direction for
// all-reduce, S/2 for the others).
double bandwidthLowerBound(const Topology& topology, const CollectiveSpec& spec);

// Fills algbw, busbw, lower bound and efficiency from timeS.
void completeMetrics(const Topology& topology, const CollectiveSpec& spec, CollectiveResult& result);

} // namespace podscope
