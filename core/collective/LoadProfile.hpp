#pragma once

#include "collective/CollectiveSpec.hpp"
#include "topology/Topology.hpp"

#include <string>
#include <vector>

namespace podscope {

// Hops of a phase part that share a length, a bottleneck bandwidth and the bytes they carry
// (relative to the part's largest transfer).
struct HopClass {
    double links = 0;
    double bandwidthBps = 0;
    double bytesShare = 1;
};

// A directed link of the representative lines and how many transfers cross it per ring step
// and chunk, over all rings and streams of the phase part, each counted by its bytes relative
// to the part's largest transfer (1 where the streams carry equal segments).
struct LinkShare {
    LinkId link = 0;
    double load = 0;
    double bandwidthBps = 0;
    int slot =
        0; // the link's index among the profile's distinct links (it may serve several phases)
};

// The rings of one dimension in a phase, over every stream that runs them.
struct PhasePart {
    int dim = -1;
    int ringSize = 1;
    double segmentPerPayloadByte = 0; // the largest segment per member among those streams
    std::vector<LinkShare> links;
    std::vector<HopClass> hops;
};

// Parts use disjoint links (routes are dimension-ordered), so a phase lasts as long as its
// slowest part.
struct PhaseProfile {
    std::string name;
    std::vector<PhasePart> parts;
    int mirrorOf = -1; // an earlier phase with the same rings and bytes (all-gather of a reduce-scatter)
    int passes = 1;    // this phase plus the phases that mirror it
};

// What the analytic engine needs of a schedule, independent of payload, chunks and latency:
// the link loads on the physical lines through chip 0 (which stand for all lines by symmetry).
struct LoadProfile {
    std::vector<PhaseProfile> phases;
    int distinctLinks = 0;
};

LoadProfile buildLoadProfile(const Topology& topology, const CollectiveSpec& spec);

// The same, from a small per-thread cache keyed by everything the profile depends on, so
// that sweeps over payload, chunks or latency do not rebuild rings.
const LoadProfile& cachedLoadProfile(const Topology& topology, const CollectiveSpec& spec);

} // namespace podscope
