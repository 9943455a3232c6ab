#include "collective/AnalyticEngine.hpp"

#include "collective/CollectiveMetrics.hpp"
#include "collective/LoadProfile.hpp"

#include <algorithm>

namespace podscope {

CollectiveResult runAnalytic(const Topology& topology, const CollectiveSpec& spec) {
    const LoadProfile& profile = cachedLoadProfile(topology, spec);
    CollectiveResult result;
    result.engine = "analytic";
    const double alpha = topology.linkLatency();
    const double chunks = spec.chunks;
    std::vector<double> phaseTimes;
    phaseTimes.reserve(profile.phases.size());
    for (const PhaseProfile& phase : profile.phases) {
        if (phase.mirrorOf >= 0) {
            phaseTimes.push_back(phaseTimes[static_cast<std::size_t>(phase.mirrorOf)]);
            continue;
        }
        const double steps = phase.ringSize - 1;
        const double bytes = spec.bytesPerChip * phase.segmentPerPayloadByte / phase.ringSize / chunks;
        double slowestHop = 0;
        for (const HopClass& hop : phase.hops) {
            slowestHop = std::max(slowestHop, hop.links * alpha + bytes / hop.bandwidthBps);
        }
        double worstLoadTime = 0;
        double transferAtWorst = 0;
        double loadAtWorst = 1;
        for (const LinkShare& share : phase.links) {
            const double transfer = bytes / share.bandwidthBps;
            if (share.load * transfer > worstLoadTime) {
                worstLoadTime = share.load * transfer;
                transferAtWorst = transfer;
                loadAtWorst = share.load;
            }
        }
        const double throughputBound = steps * chunks * worstLoadTime - transferAtWorst + slowestHop;
        const double latencyBound = steps * slowestHop + (chunks * loadAtWorst - 1) * transferAtWorst;
        phaseTimes.push_back(std::max(throughputBound, latencyBound));
    }
    for (std::size_t p = 0; p < profile.phases.size(); ++p) {
        result.phases.push_back({profile.phases[p].name, phaseTimes[p]});
        result.timeS += phaseTimes[p];
    }
    // Links of one dimension serve only that dimension's phase and its mirror.
    if (result.timeS > 0) {
        double sum = 0;
        std::size_t used = 0;
        for (std::size_t p = 0; p < profile.phases.size(); ++p) {
            const PhaseProfile& phase = profile.phases[p];
            if (phase.mirrorOf >= 0) {
                continue;
            }
            const double bytes = spec.bytesPerChip * phase.segmentPerPayloadByte / phase.ringSize / chunks;
            const double transfers = (phase.ringSize - 1) * chunks * phase.passes;
            for (const LinkShare& share : phase.links) {
                const double utilization = transfers * share.load * bytes / share.bandwidthBps / result.timeS;
                result.maxLinkUtilization = std::max(result.maxLinkUtilization, utilization);
                sum += utilization;
                ++used;
            }
        }
        result.meanLinkUtilization = used ? sum / static_cast<double>(used) : 0;
    }
    completeMetrics(topology, spec, result);
    return result;
}

} // namespace podscope
