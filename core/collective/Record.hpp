#pragma once

#include "topology/Topology.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace podscope {

// What the event engine did, compact enough to keep for a 4096-chip collective many times
// over: rings and their links are stored once; each transfer is one ring step of one chunk
// (every member sending to its successor at once). Expanding a transfer gives the
// occupancy of each link it used.
struct Record {
    struct RingEntry {
        std::int32_t collective = 0;
        std::int32_t stream = 0;
        std::int32_t phase = 0;
        std::int32_t linkBegin = 0; // into linkIds / linkDurationS
        std::int32_t linkEnd = 0;
        double bytesPerHop = 0;     // per transfer
    };
    struct Transfer {
        double startS = 0;
        double endS = 0;      // when the slowest hop of the step has delivered
        std::int32_t ring = 0;
        std::int32_t chunk = 0;
        std::int32_t step = 0;
    };
    struct PhaseSpan {
        std::int32_t collective = 0;
        std::string name;
        double startS = 0; // end of the previous phase (or the collective's start)
        double endS = 0;
    };

    std::vector<RingEntry> rings;
    std::vector<LinkId> linkIds;
    std::vector<double> linkDurationS; // occupancy of the link per transfer
    std::vector<Transfer> transfers;   // in the order the engine started them (by start time)
    std::vector<PhaseSpan> phases;

    template <typename Visit> // Visit(LinkId link, double startS, double endS, double bytes)
    void forEachOccupancy(const Transfer& transfer, Visit&& visit) const {
        const RingEntry& ring = rings[static_cast<std::size_t>(transfer.ring)];
        for (auto k = ring.linkBegin; k < ring.linkEnd; ++k) {
            visit(linkIds[static_cast<std::size_t>(k)], transfer.startS,
                  transfer.startS + linkDurationS[static_cast<std::size_t>(k)], ring.bytesPerHop);
        }
    }

    std::size_t memoryBytes() const;
};

} // namespace podscope
