#pragma once

#include "collective/CollectiveSpec.hpp"
#include "collective/EventEngine.hpp"
#include "machine/Machine.hpp"
#include "scene/Replay.hpp"
#include "topology/Topology.hpp"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace podscope::ui {

// The largest named slice of the default machine (its data says which is default): what the
// view shows before a configuration is chosen.
std::string defaultViewTopology();

// What the 3-D view shows: a topology and the collective whose traffic is replayed.
struct ViewScenario {
    std::string hardware = defaultMachineName();
    std::string topology = defaultViewTopology(); // preset name or DIMS
    std::optional<std::string> wrap;
    bool twisted = false;
    // Link overrides of the training scenario (default: the hardware's).
    std::optional<double> linkBandwidthGBps, linkLatencyUs, crossPodBandwidthGBps;
    CollectiveSpec collective = defaultCollective();
    std::vector<int> modelParallelTile{1, 1}; // chips per replica along each dimension
    int replicasPerChip = 1;                  // 2 when each core holds a replica of its own
    // Multislice: the slices and the core's DCN stage of the gradient sum. With more than one
    // slice an all-reduce is replayed as the plan runs it: reduce-scatter, the DCN stage, then
    // all-gather (collective/MultisliceSum.hpp).
    int slices = 1;
    double dcnStageS = 0;
    double dcnLinkUse = 1; // the DCN links' utilisation over the stage, 0..1

    static CollectiveSpec defaultCollective() {
        CollectiveSpec spec;
        spec.chunks = 4;
        return spec;
    }
};

// A finished simulation, immutable once built; the replay points into the record and the
// topology held here, so the object is never copied or moved (shared by pointer).
struct ScenarioRun {
    ViewScenario scenario;
    Topology topology;
    EventSimulation simulation;
    std::unique_ptr<Replay> replay;
    double wallS = 0;
    // The DCN stage in the replay's time (multislice); empty span otherwise.
    double dcnStartS = 0, dcnEndS = 0, dcnLinkUse = 1;

    ScenarioRun(ViewScenario s, Topology t)
        : scenario(std::move(s))
        , topology(std::move(t)) {}
    ScenarioRun(const ScenarioRun&) = delete;
    ScenarioRun& operator=(const ScenarioRun&) = delete;
};

// Same topology, collective and groups: the replay would be identical.
bool sameView(const ViewScenario& a, const ViewScenario& b);

// The slice the view shows: the core's scenarioTopology of the same fields. Throws InputError
// naming the field for a bad preset or link override.
Topology viewTopology(const ViewScenario& scenario);

// Runs the event engine and indexes its record. Throws InputError on bad input, Cancelled once
// `stop` is set.
std::shared_ptr<const ScenarioRun> runScenario(const ViewScenario& scenario,
                                               const StopFlag* stop = nullptr);

} // namespace podscope::ui
