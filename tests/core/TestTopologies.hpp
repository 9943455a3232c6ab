#pragma once

#include "topology/Topology.hpp"

#include <vector>

namespace podscope::test {

// A plain topology with round numbers: 100 GB/s links, 1 us per hop, one pod, no hosts.
inline Topology grid(std::vector<int> dims, std::vector<bool> wrap, double bandwidth = 100e9, double latency = 1e-6) {
    TopologySpec spec;
    spec.name = "test";
    spec.dims = std::move(dims);
    spec.wrap = std::move(wrap);
    spec.linkBandwidthBps = bandwidth;
    spec.linkLatencyS = latency;
    return Topology(spec);
}

} // namespace podscope::test
