#pragma once

#include "analysis/SweepPoint.hpp"
#include "training/Scenario.hpp"

#include <string>
#include <vector>

namespace podscope::analysis {

// One machine's run of the configuration: the same workload, global batch and settings on the
// machine's standard slice of the same chip count, with the machine's own chips, links, hosts
// and HBM. A machine that offers no such slice, or on which the configuration does not fit,
// keeps its refusal.
struct MachinePoint {
    std::string machine;
    SweepPoint point;
    // Chips times the time to train: what the run costs in chip time; 0 when either is unknown.
    double chipSeconds() const;
};

// Every bundled machine (machineNames(), sorted), the scenario's own included.
std::vector<MachinePoint> compareMachines(const Scenario& base);

} // namespace podscope::analysis
