#pragma once

#include "analysis/SweepPoint.hpp"
#include "training/Scenario.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace podscope::analysis {

// One machine's run of the configuration: the same workload, global batch and settings on the
// same total of chips, with the machine's own chips, links, hosts and HBM. The machine runs its
// standard slice of that many chips; a machine whose pods are smaller runs copies of its largest
// slice that divides the total, joined over the data-centre network (as multislice jobs run). A
// machine that offers neither, or on which the configuration does not fit, keeps its refusal.
struct MachinePoint {
    std::string machine;
    SweepPoint point;
    int slices = 1;    // slices joined over the data-centre network
    std::string slice; // the shape of one slice ("16x16x16"); empty when no slice was found
    // Chips times the time to train: what the run costs in chip time; 0 when either is unknown.
    double chipSeconds() const;
};

// The chips of the largest standard slice of `hardware` whose copies make `chips` exactly, or 0
// when none divides it.
std::int64_t multisliceSliceChips(const std::string& hardware, std::int64_t chips);

// Every bundled machine (machineNames(), sorted), the scenario's own included, on the scenario's
// total chips (one slice's chips times its slices).
std::vector<MachinePoint> compareMachines(const Scenario& base);

} // namespace podscope::analysis
