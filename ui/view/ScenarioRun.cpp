#include "view/ScenarioRun.hpp"

#include "topology/Hardware.hpp"
#include "topology/TopologyPresets.hpp"

#include <chrono>

namespace podscope::ui {

bool sameView(const ViewScenario& a, const ViewScenario& b) {
    const auto& x = a.collective;
    const auto& y = b.collective;
    return a.topology == b.topology && a.wrap == b.wrap &&
           a.modelParallelTile == b.modelParallelTile && a.replicasPerChip == b.replicasPerChip &&
           a.linkBandwidthGBps == b.linkBandwidthGBps && a.linkLatencyUs == b.linkLatencyUs &&
           a.crossPodBandwidthGBps == b.crossPodBandwidthGBps && x.op == y.op &&
           x.algorithm == y.algorithm && x.bytesPerChip == y.bytesPerChip &&
           x.element == y.element && x.chunks == y.chunks && x.dimOrder == y.dimOrder &&
           x.groups.kind == y.groups.kind && x.groups.tile == y.groups.tile;
}

Topology resolveViewTopology(const ViewScenario& scenario) {
    TopologySpec spec = resolveTopology(scenario.topology, scenario.wrap, loadHardware(scenario.hardware));
    if (scenario.linkBandwidthGBps) {
        spec.linkBandwidthBps = *scenario.linkBandwidthGBps * 1e9;
    }
    if (scenario.linkLatencyUs) {
        spec.linkLatencyS = *scenario.linkLatencyUs * 1e-6;
    }
    if (scenario.crossPodBandwidthGBps) {
        spec.crossPodBandwidthBps = *scenario.crossPodBandwidthGBps * 1e9;
    }
    return Topology(std::move(spec));
}

std::shared_ptr<const ScenarioRun> runScenario(const ViewScenario& scenario, const StopFlag* stop) {
    const auto began = std::chrono::steady_clock::now();
    auto run = std::make_shared<ScenarioRun>(scenario, resolveViewTopology(scenario));
    run->simulation = runEventEngine(run->topology, scenario.collective, stop);
    run->replay = std::make_unique<Replay>(run->topology, run->simulation.record);
    run->wallS = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
    return run;
}

} // namespace podscope::ui
