#pragma once

#include "collective/CollectiveResult.hpp"
#include "collective/EventEngine.hpp"
#include "common/Cancelled.hpp"
#include "topology/Topology.hpp"

#include <cstdint>
#include <vector>

namespace podscope {

struct FlowSimulation {
    std::vector<CollectiveResult> results; // one per collective, in the order given
    std::int64_t flows = 0;                // rings timed, over every phase and stream
    std::int64_t rateUpdates = 0;          // times the link shares were recomputed
};

// Flow-level network model (docs/step-timeline.md, "Contention at scale"). Each ring of each
// phase is one flow: it moves its phase's (ringSize - 1) / ringSize of the segment across every
// hop of the ring at one rate. A link carries at most its bandwidth: the rates share the links
// max-min fairly by progressive filling (every unfrozen flow's rate grows alike until a link it
// crosses is full or the flow reaches the rate its chunk pipeline allows), recomputed whenever
// a flow starts or ends. A flow's ring ends when its bytes are across plus the last step's
// delivery. As in the event engine, a ring of the next phase starts once the rings of the
// previous phase holding any of its members have ended. Alone, a ring takes the larger of its
// throughput bound and its latency bound, as the analytic engine writes them. Its cost grows
// with rings and links, not with ring steps or chunks: it times what the event engine refuses.
// When `stop` is set (from another thread), throws Cancelled at the next rate update.
FlowSimulation runFlowEngine(const Topology& topology,
                             const std::vector<CollectiveLaunch>& launches,
                             const StopFlag* stop = nullptr);

} // namespace podscope
