#include "training/ExchangeTimer.hpp"

#include "collective/AnalyticEngine.hpp"
#include "collective/ConcurrentCollectives.hpp"
#include "collective/Schedule.hpp"

#include <algorithm>

namespace podscope {

double ExchangeTimer::seconds(const Exchange& e) {
    const CoreModel& core = plan_.core;
    const double onChip = e.onChipBytes / (core.hbmBps * core.hbmEfficiency);
    double offChip = e.collective ? collectiveSeconds(*e.collective) : 0.0;
    if (e.iciBytes > 0) {
        offChip = std::max(offChip, plan_.topology.linkLatency() +
                                        e.iciBytes / plan_.topology.spec().linkBandwidthBps);
    }
    // Halo swaps between a chip's cores and over its links run at once; a sum across a chip's
    // cores comes before the sum across chips.
    const double transfer =
        e.kind == ExchangeKind::Halo ? std::max(onChip, offChip) : onChip + offChip;
    return transfer + core.kernelOverheadS;
}

double ExchangeTimer::collectiveSeconds(const CollectiveSpec& spec) {
    for (const auto& [known, t] : cache_) {
        if (known.op == spec.op && known.bytesPerChip == spec.bytesPerChip &&
            known.element == spec.element && known.groups.kind == spec.groups.kind &&
            known.groups.tile == spec.groups.tile && known.algorithm == spec.algorithm &&
            known.chunks == spec.chunks && known.dimOrder == spec.dimOrder) {
            return t;
        }
    }
    validateCollective(plan_.topology, spec);
    double t = 0;
    if (engine_ == Engine::Analytic) {
        t = runAnalytic(plan_.topology, spec).timeS;
    } else {
        // Ring step by ring step, or as flows where the ring steps would be too many.
        const ConcurrentTimes run = timeConcurrently(plan_.topology, {{spec, 0.0}}, stop_);
        t = run.timeS.front();
        usedFlows_ = usedFlows_ || run.model == NetworkModel::Flows;
    }
    cache_.emplace_back(spec, t);
    return t;
}

} // namespace podscope
