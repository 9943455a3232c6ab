#pragma once

#include "collective/CollectiveSpec.hpp"
#include "topology/Topology.hpp"

#include <string>
#include <vector>

namespace podscope {

// Hops of a phase that share a length and a bottleneck bandwidth.
struct HopClass {
    double links = 0;
    double bandwidthBps = 0;
};

// A directed link of the representative lines and how many transfers cross it per ring step
// and chunk, over all rings and streams of the phase.
struct LinkShare {
    LinkId link = 0;
    double load = 0;
    double bandwidthBps = 0;
};

struct PhaseProfile {
    std::string name;
    int dim = -1;
    int ringSize = 1;
    double segmentPerPayloadByte = 0; // segment per member, per stream, as a fraction of the payload
    std::vector<LinkShare> links;
    std::vector<HopClass> hops;
    int mirrorOf = -1; // an earlier phase with the same rings and bytes (all-gather of a reduce-scatter)
    int passes = 1;    // this phase plus the phases that mirror it
};

// What the analytic engine needs of a schedule, independent of payload, chunks and latency:
// the link loads on the physical lines through chip 0 (which stand for all lines by symmetry).
struct LoadProfile {
    std::vector<PhaseProfile> phases;
};

LoadProfile buildLoadProfile(const Topology& topology, const CollectiveSpec& spec);

// The same, from a small per-thread cache keyed by everything the profile depends on, so
// that sweeps over payload, chunks or latency do not rebuild rings.
const LoadProfile& cachedLoadProfile(const Topology& topology, const CollectiveSpec& spec);

} // namespace podscope
