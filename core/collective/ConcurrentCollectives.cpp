#include "collective/ConcurrentCollectives.hpp"

#include "collective/FlowEngine.hpp"
#include "collective/Schedule.hpp"

namespace podscope {

const char* toString(NetworkModel model) {
    return model == NetworkModel::RingSteps ? "ring steps" : "flows";
}

std::int64_t eventEngineRingSteps(const Topology& topology,
                                  const std::vector<CollectiveLaunch>& launches) {
    std::int64_t steps = 0;
    for (const CollectiveLaunch& launch : launches) {
        const Schedule schedule = buildSchedule(topology, launch.spec, ScheduleScope::Full);
        for (const Stream& stream : schedule.streams) {
            for (const Phase& phase : stream.phases) {
                steps += static_cast<std::int64_t>(phase.rings.ringCount()) *
                         (phase.rings.ringSize - 1) * launch.spec.chunks;
            }
        }
    }
    return steps;
}

ConcurrentTimes timeConcurrently(const Topology& topology,
                                 const std::vector<CollectiveLaunch>& launches,
                                 const StopFlag* stop, std::int64_t ringStepLimit) {
    ConcurrentTimes out;
    out.ringSteps = eventEngineRingSteps(topology, launches);
    if (out.ringSteps <= ringStepLimit) {
        for (const CollectiveResult& r : runEventEngine(topology, launches, stop).results) {
            out.timeS.push_back(r.timeS);
        }
        return out;
    }
    out.model = NetworkModel::Flows;
    for (const CollectiveResult& r : runFlowEngine(topology, launches, stop).results) {
        out.timeS.push_back(r.timeS);
    }
    return out;
}

} // namespace podscope
