#pragma once

#include "collective/Record.hpp"
#include "topology/Topology.hpp"
#include "trace/TraceEvents.hpp"

#include <string>

namespace podscope::trace {

struct CollectiveTraceOptions {
    int pid = 1;
    std::string processName = "collective (event engine)";
    double offsetS = 0; // where the collective starts on the trace's time axis
    int timeBins = 200; // resolution of the utilisation counters and the per-group tracks
    // Per-host tracks only up to this many hosts; beyond it, per pod. Never one per chip: a
    // 4096-chip slice would give thousands of tracks and a file too large to open.
    int maxHostTracks = 64;
};

// Adds one process for an event-engine Record: a track of phases per collective, one track per
// pod (or host) showing when its links are busy and in which phase, and per-dimension
// link-utilisation counters (percent of the dimension's links busy, binned over time).
void appendCollectiveTrace(TraceEvents& events, const Topology& topology, const Record& record,
                           const CollectiveTraceOptions& options);

} // namespace podscope::trace
