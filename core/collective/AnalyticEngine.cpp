#include "collective/AnalyticEngine.hpp"

#include "collective/CollectiveMetrics.hpp"
#include "collective/LoadProfile.hpp"

#include <algorithm>
#include <vector>

namespace podscope {

namespace {

// One part's pipelined ring pass: the larger of the throughput and latency bounds.
double partTime(const PhasePart& part, const CollectiveSpec& spec, double alpha) {
    const double chunks = spec.chunks;
    const double steps = part.ringSize - 1;
    const double bytes = spec.bytesPerChip * part.segmentPerPayloadByte / part.ringSize / chunks;
    double slowestHop = 0;
    for (const HopClass& hop : part.hops) {
        slowestHop =
            std::max(slowestHop, hop.links * alpha + bytes * hop.bytesShare / hop.bandwidthBps);
    }
    double worstLoadTime = 0;
    double transferAtWorst = 0;
    double loadAtWorst = 1;
    for (const LinkShare& share : part.links) {
        const double transfer = bytes / share.bandwidthBps;
        if (share.load * transfer > worstLoadTime) {
            worstLoadTime = share.load * transfer;
            transferAtWorst = transfer;
            loadAtWorst = share.load;
        }
    }
    const double throughputBound = steps * chunks * worstLoadTime - transferAtWorst + slowestHop;
    const double latencyBound = steps * slowestHop + (chunks * loadAtWorst - 1) * transferAtWorst;
    return std::max(throughputBound, latencyBound);
}

} // namespace

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
        // Parts run at once on disjoint links and every chip waits for all of them.
        double slowest = 0;
        for (const PhasePart& part : phase.parts) {
            slowest = std::max(slowest, partTime(part, spec, alpha));
        }
        phaseTimes.push_back(slowest);
    }
    for (std::size_t p = 0; p < profile.phases.size(); ++p) {
        result.phases.push_back({profile.phases[p].name, phaseTimes[p]});
        result.timeS += phaseTimes[p];
    }
    // A link serves every phase that runs rings over it (2d-dual uses each dimension twice
    // before the all-gather), and each phase as many times as it has passes.
    if (result.timeS > 0) {
        std::vector<double> utilization(static_cast<std::size_t>(profile.distinctLinks), 0.0);
        for (const PhaseProfile& phase : profile.phases) {
            if (phase.mirrorOf >= 0) {
                continue;
            }
            for (const PhasePart& part : phase.parts) {
                const double bytes =
                    spec.bytesPerChip * part.segmentPerPayloadByte / part.ringSize / chunks;
                const double transfers = (part.ringSize - 1) * chunks * phase.passes;
                for (const LinkShare& share : part.links) {
                    utilization[static_cast<std::size_t>(share.slot)] +=
                        transfers * share.load * bytes / share.bandwidthBps / result.timeS;
                }
            }
        }
        double sum = 0;
        for (const double u : utilization) {
            result.maxLinkUtilization = std::max(result.maxLinkUtilization, u);
            sum += u;
        }
        result.meanLinkUtilization =
            utilization.empty() ? 0 : sum / static_cast<double>(utilization.size());
    }
    completeMetrics(topology, spec, result);
    return result;
}

} // namespace podscope
