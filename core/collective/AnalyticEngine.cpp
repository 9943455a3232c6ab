#include "collective/AnalyticEngine.hpp"

#include "collective/CollectiveMetrics.hpp"
#include "collective/Schedule.hpp"

#include <algorithm>

namespace podscope {
namespace {

struct LinkLoad {
    LinkId link;
    double busyS;
};

} // namespace

CollectiveResult runAnalytic(const Topology& topology, const CollectiveSpec& spec) {
    const Schedule schedule = buildSchedule(topology, spec, ScheduleScope::ThroughChipZero);
    CollectiveResult result;
    result.engine = "analytic";
    const double alpha = topology.linkLatency();
    const double chunks = spec.chunks;
    std::vector<LinkId> links;
    std::vector<LinkLoad> busy;
    for (int p = 0; p < schedule.phaseCount(); ++p) {
        const int ringSize = schedule.streams[0].phases[static_cast<std::size_t>(p)].rings.ringSize;
        const double steps = ringSize - 1;
        links.clear();
        double slowestHop = 0;
        double bytes = 0;
        for (const auto& stream : schedule.streams) {
            const Phase& phase = stream.phases[static_cast<std::size_t>(p)];
            bytes = phase.bytesPerMember / ringSize / chunks;
            const RingSet& rings = phase.rings;
            for (int r = 0; r < rings.ringCount(); ++r) {
                for (int i = 0; i < ringSize; ++i) {
                    const auto hop = rings.hop(r, i);
                    double bandwidth = topology.spec().linkBandwidthBps;
                    for (LinkId link : hop) {
                        bandwidth = std::min(bandwidth, topology.linkBandwidth(link));
                        links.push_back(link);
                    }
                    slowestHop = std::max(slowestHop, static_cast<double>(hop.size()) * alpha + bytes / bandwidth);
                }
            }
        }
        std::sort(links.begin(), links.end());
        double worstLoadTime = 0;
        double transferAtWorst = 0;
        double loadAtWorst = 1;
        for (std::size_t i = 0; i < links.size();) {
            std::size_t j = i;
            while (j < links.size() && links[j] == links[i]) {
                ++j;
            }
            const double load = static_cast<double>(j - i);
            const double transfer = bytes / topology.linkBandwidth(links[i]);
            if (load * transfer > worstLoadTime) {
                worstLoadTime = load * transfer;
                transferAtWorst = transfer;
                loadAtWorst = load;
            }
            busy.push_back({links[i], steps * chunks * load * transfer});
            i = j;
        }
        const double throughputBound = steps * chunks * worstLoadTime - transferAtWorst + slowestHop;
        const double latencyBound = steps * slowestHop + (chunks * loadAtWorst - 1) * transferAtWorst;
        const double time = std::max(throughputBound, latencyBound);
        result.phases.push_back({schedule.phaseNames[static_cast<std::size_t>(p)], time});
        result.timeS += time;
    }
    if (result.timeS > 0 && !busy.empty()) {
        std::sort(busy.begin(), busy.end(), [](const LinkLoad& a, const LinkLoad& b) { return a.link < b.link; });
        double total = 0;
        double count = 0;
        for (std::size_t i = 0; i < busy.size();) {
            double linkBusy = 0;
            std::size_t j = i;
            for (; j < busy.size() && busy[j].link == busy[i].link; ++j) {
                linkBusy += busy[j].busyS;
            }
            result.maxLinkUtilization = std::max(result.maxLinkUtilization, linkBusy / result.timeS);
            total += linkBusy / result.timeS;
            count += 1;
            i = j;
        }
        result.meanLinkUtilization = total / count;
    }
    completeMetrics(topology, spec, result);
    return result;
}

} // namespace podscope
