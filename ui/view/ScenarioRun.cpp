#include "view/ScenarioRun.hpp"

#include "topology/Hardware.hpp"
#include "topology/TopologyPresets.hpp"

#include <chrono>

namespace podscope::ui {

Topology resolveViewTopology(const ViewScenario& scenario) {
    return Topology(resolveTopology(scenario.topology, scenario.wrap, loadHardware("tpu-v3")));
}

std::shared_ptr<const ScenarioRun> runScenario(const ViewScenario& scenario) {
    const auto began = std::chrono::steady_clock::now();
    auto run = std::make_shared<ScenarioRun>(scenario, resolveViewTopology(scenario));
    run->simulation = runEventEngine(run->topology, scenario.collective);
    run->replay = std::make_unique<Replay>(run->topology, run->simulation.record);
    run->wallS = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
    return run;
}

} // namespace podscope::ui
