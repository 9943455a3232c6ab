#include "view/ScenarioRun.hpp"

#include "collective/MultisliceSum.hpp"
#include "training/Scenario.hpp"
#include "training/StepPlan.hpp"

#include <chrono>

namespace podscope::ui {

std::string defaultViewTopology() {
    // Every ViewScenario starts from it: found once.
    static const std::string name = [] {
        const Machine& machine = bundledMachine(defaultMachineName());
        const MachineSlice* largest = nullptr;
        for (const MachineSlice& slice : machine.named) {
            if (largest == nullptr || slice.chips > largest->chips) {
                largest = &slice;
            }
        }
        if (largest != nullptr) {
            return largest->name;
        }
        // A machine with no named slice: its largest slice by count, as DIMS.
        std::string dims;
        for (const int d : machine.slices.back().dims) {
            dims += (dims.empty() ? "" : "x") + std::to_string(d);
        }
        return dims;
    }();
    return name;
}

bool sameView(const ViewScenario& a, const ViewScenario& b) {
    const auto& x = a.collective;
    const auto& y = b.collective;
    return a.hardware == b.hardware && a.topology == b.topology && a.wrap == b.wrap &&
           a.twisted == b.twisted && a.slices == b.slices && a.dcnStageS == b.dcnStageS &&
           a.dcnLinkUse == b.dcnLinkUse &&
           a.modelParallelTile == b.modelParallelTile && a.replicasPerChip == b.replicasPerChip &&
           a.linkBandwidthGBps == b.linkBandwidthGBps && a.linkLatencyUs == b.linkLatencyUs &&
           a.crossPodBandwidthGBps == b.crossPodBandwidthGBps && x.op == y.op &&
           x.algorithm == y.algorithm && x.bytesPerChip == y.bytesPerChip &&
           x.element == y.element && x.chunks == y.chunks && x.dimOrder == y.dimOrder &&
           x.groups.kind == y.groups.kind && x.groups.tile == y.groups.tile;
}

Topology viewTopology(const ViewScenario& view) {
    // The training scenario's slice, so the view's links are the model's (and checked alike).
    Scenario slice;
    slice.hardware = view.hardware;
    slice.topology = view.topology;
    slice.wrap = view.wrap;
    slice.twisted = view.twisted;
    slice.linkBandwidthGBps = view.linkBandwidthGBps;
    slice.linkLatencyUs = view.linkLatencyUs;
    slice.crossPodBandwidthGBps = view.crossPodBandwidthGBps;
    return scenarioTopology(slice);
}

std::shared_ptr<const ScenarioRun> runScenario(const ViewScenario& scenario, const StopFlag* stop) {
    const auto began = std::chrono::steady_clock::now();
    auto run = std::make_shared<ScenarioRun>(scenario, viewTopology(scenario));
    if (scenario.slices > 1 && scenario.collective.op == CollectiveOp::AllReduce) {
        run->simulation = multisliceGradientSum(run->topology, scenario.collective,
                                                scenario.slices, scenario.dcnStageS, stop);
        for (const auto& phase : run->simulation.record.phases) {
            if (phase.name == dcnStageName(scenario.slices)) {
                run->dcnStartS = phase.startS;
                run->dcnEndS = phase.endS;
                run->dcnLinkUse = scenario.dcnLinkUse;
            }
        }
    } else {
        run->simulation = runEventEngine(run->topology, scenario.collective, stop);
    }
    run->replay = std::make_unique<Replay>(run->topology, run->simulation.record);
    run->wallS = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
    return run;
}

} // namespace podscope::ui
