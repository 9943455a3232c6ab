#include "trace/StepTrace.hpp"

#include "collective/EventEngine.hpp"
#include "collective/Schedule.hpp"
#include "common/Units.hpp"
#include "topology/Hardware.hpp"
#include "topology/TopologyPresets.hpp"
#include "trace/CollectiveTrace.hpp"
#include "training/ScenarioJson.hpp"
#include "workload/Workload.hpp"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

namespace podscope::trace {
namespace {

constexpr int kStepPid = 1;
constexpr int kCollectivePid = 2;

} // namespace

nlohmann::json buildStepTrace(const Scenario& s, const TrainingResult& r,
                              const StepTraceOptions& o) {
    TraceEvents events;
    events.processName(kStepPid, "training step (" + std::to_string(r.chips) + " chips)", kStepPid);
    const auto& b = r.breakdown;
    std::vector<std::pair<std::string, double>> parts;
    for (const BreakdownPart& part : kBreakdownParts) {
        parts.emplace_back(part.label, b.*part.seconds);
    }
    double at = 0;
    for (std::size_t i = 0; i < parts.size(); ++i) {
        const int tid = static_cast<int>(i) + 1;
        events.threadName(kStepPid, tid, parts[i].first, tid);
        if (parts[i].second > 0) {
            events.span(
                kStepPid, tid, parts[i].first, at, parts[i].second,
                {{"seconds", parts[i].second}, {"share of step", parts[i].second / r.stepTimeS}});
        }
        at += parts[i].second;
    }

    nlohmann::json other = {{"scenario", toJson(s)},
                            {"step_time_s", r.stepTimeS},
                            {"bottleneck", r.bottleneck},
                            {"generator", "podscope"}};
    const bool hasCollective = r.gradientSyncS > 0;
    if (o.withGradientCollective && hasCollective) {
        const Topology topology = scenarioTopology(s);
        // The overlapped part of the summation runs under the end of the backward pass, so the
        // collective starts that long before compute ends (never before the step starts).
        const double overlappedS = std::max(0.0, r.gradientSyncS - b.gradientSyncExposed);
        double startS = std::max(0.0, b.compute - overlappedS);
        double engineS = 0;
        std::vector<CollectiveLaunch> launches;
        for (const auto& spec : gradientCollectives(s)) {
            validateCollective(topology, spec);
            // Reduce-scatter then all-gather: simulated one after the other, not contending.
            const EventSimulation run = runEventEngine(topology, spec);
            CollectiveTraceOptions co;
            co.pid = kCollectivePid + static_cast<int>(launches.size());
            co.processName = "gradient " + toString(spec.op) + " (event engine, " +
                             toString(spec.algorithm) + ")";
            co.offsetS = startS;
            co.timeBins = o.timeBins;
            appendCollectiveTrace(events, topology, run.record, co);
            const double t = run.results.front().timeS;
            startS += t;
            engineS += t;
            launches.push_back({spec, 0.0});
        }
        other["gradient_sync_event_engine_s"] = engineS;
        other["gradient_sync_analytic_s"] = r.gradientSyncS;
    }
    return events.toJson(std::move(other));
}

} // namespace podscope::trace
