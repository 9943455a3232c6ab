#pragma once

#include "collective/CollectiveResult.hpp"
#include "collective/CollectiveSpec.hpp"
#include "collective/Record.hpp"
#include "common/Cancelled.hpp"
#include "topology/Topology.hpp"

#include <vector>

namespace podscope {

// Per directed link (indexed by LinkId slot), over the whole simulation.
struct LinkUsage {
    std::vector<double> busyS;
    std::vector<double> bytes;
    double makespanS = 0;

    double utilization(LinkId link) const {
        return makespanS > 0 ? busyS[static_cast<std::size_t>(link)] / makespanS : 0.0;
    }
};

struct EventSimulation {
    std::vector<CollectiveResult> results; // one per collective, in the order given
    LinkUsage links;
    Record record;
};

struct CollectiveLaunch {
    CollectiveSpec spec;
    double startS = 0;
};

// Discrete-event simulation in which every directed link is a resource. An event is one
// ring step of one chunk: it starts when the chunk's previous step has been delivered and
// every link it needs is free (links serve in order of readiness), holds each link for
// bytes / bandwidth, and is delivered after the slowest hop (hops * latency + transfer). A
// ring of the next phase starts once every ring of the previous phase that holds one of its
// members has finished (a per-chip barrier, not a global one). Several collectives may run
// at once and then contend for links. When `stop` is set (from another thread), throws
// Cancelled within a few thousand events.
EventSimulation runEventEngine(const Topology& topology,
                               const std::vector<CollectiveLaunch>& launches,
                               const StopFlag* stop = nullptr);

// One collective on its own.
EventSimulation runEventEngine(const Topology& topology, const CollectiveSpec& spec,
                               const StopFlag* stop = nullptr);

} // namespace podscope
