#include "collective/CollectiveJson.hpp"

#include "common/Units.hpp"

namespace podscope {

nlohmann::json toJson(const CollectiveResult& result) {
    nlohmann::json phases = nlohmann::json::array();
    for (const auto& phase : result.phases) {
        phases.push_back({{"name", phase.name}, {"time_s", phase.timeS}});
    }
    nlohmann::json json = {
        {"engine", result.engine},
        {"time_s", result.timeS},
        {"phases", phases},
        {"algbw_GBps", result.algbwBps / units::kGB},
        {"busbw_GBps", result.busbwBps / units::kGB},
        {"lower_bound_s", result.lowerBoundS},
        {"efficiency", result.efficiency},
        {"max_link_utilization", result.maxLinkUtilization},
        {"mean_link_utilization", result.meanLinkUtilization},
        {"group_size", result.groupSize},
        {"group_count", result.groupCount},
    };
    if (result.engine == "event") {
        json["events"] = result.events;
        json["link_occupancies"] = result.linkOccupancies;
    }
    return json;
}

nlohmann::json toJson(const CollectiveSpec& spec) {
    return {{"op", toString(spec.op)},
            {"algorithm", toString(spec.algorithm)},
            {"bytes", spec.bytesPerChip},
            {"element", toString(spec.element)},
            {"chunks", spec.chunks},
            {"groups", toString(spec.groups)}};
}

nlohmann::json toJson(const Topology& topology) {
    return {{"name", topology.spec().name},
            {"dims", topology.spec().dims},
            {"wrap", topology.wrapText()},
            {"chips", topology.chipCount()},
            {"cores", topology.chipCount() * topology.coresPerChip()},
            {"hosts", topology.hostCount()},
            {"pods", topology.podCount()},
            {"links", topology.linkCount()},
            {"link_bw_GBps", topology.spec().linkBandwidthBps / units::kGB},
            {"cross_pod_bw_GBps", topology.spec().crossPodBandwidthBps / units::kGB},
            {"latency_us", topology.linkLatency() / units::kMicrosecond}};
}

} // namespace podscope
