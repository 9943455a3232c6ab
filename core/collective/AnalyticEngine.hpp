#pragma once

#include "collective/CollectiveResult.hpp"
#include "collective/CollectiveSpec.hpp"
#include "topology/Topology.hpp"

namespace podscope {

// Closed-form alpha-beta timing. Each phase is a pipelined ring pass over its steps and
// chunks; link sharing (interleaved or folded rings, both directions of a pair) is counted
// on the physical lines through chip 0, which by symmetry stand for all lines:
//   per step and chunk, b = segment / ringSize / chunks bytes cross every hop;
//   throughput bound: steps * chunks * max_l(load_l * b / bw_l) - b/bw + slowest hop;
//   latency bound:    steps * slowest hop + (chunks * load - 1) * b/bw;
// where the slowest hop takes hops * latency + b / bandwidth. Phase time is the larger bound;
// phases run one after another.
CollectiveResult runAnalytic(const Topology& topology, const CollectiveSpec& spec);

} // namespace podscope
