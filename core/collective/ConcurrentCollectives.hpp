#pragma once

#include "collective/EventEngine.hpp"
#include "common/Cancelled.hpp"
#include "common/Limits.hpp"
#include "topology/Topology.hpp"

#include <cstdint>
#include <vector>

namespace podscope {

// Which model timed collectives that share the links.
enum class NetworkModel {
    RingSteps, // the event engine: every ring step of every chunk
    Flows,     // the flow engine: every ring of every phase, links shared max-min fairly
};
const char* toString(NetworkModel model);

struct ConcurrentTimes {
    std::vector<double> timeS; // per collective, in the order given
    NetworkModel model = NetworkModel::RingSteps;
    std::int64_t ringSteps = 0; // what the event engine would simulate
};

// The ring steps (times chunks) the event engine simulates for these collectives.
std::int64_t eventEngineRingSteps(const Topology& topology,
                                  const std::vector<CollectiveLaunch>& launches);

// Times collectives that run at once (they contend for links): with the event engine where it
// takes at most `ringStepLimit` ring steps, with the flow engine beyond (docs/step-timeline.md,
// "Contention at scale"). Throws Cancelled once `stop` is set.
ConcurrentTimes timeConcurrently(const Topology& topology,
                                 const std::vector<CollectiveLaunch>& launches,
                                 const StopFlag* stop = nullptr,
                                 std::int64_t ringStepLimit = limits::kMaxEventEngineEvents);

} // namespace podscope
