#pragma once

#include <cstdint>
#include <podscope/configuration.hpp>
#include <string>
#include <vector>

namespace podscope::api {

// One machine's run of a configuration: the same workload, global batch and settings on the same
// total of chips, with its own chips, links, hosts and HBM: its standard slice of that many
// chips, or copies of its largest slice that divides them, joined over the data-centre network.
struct MachineRow {
    std::string hardware;
    std::int64_t chips = 0; // in all slices
    int slices = 1;         // slices joined over the data-centre network
    std::string slice;      // one slice's shape ("16x16x16"); empty when none was found
    std::int64_t globalBatch = 0;
    bool own = false;  // the configuration's own machine
    std::string error; // empty: the numbers below hold (no slice of that size, HBM, ...)
    double stepTimeS = 0;
    double timeToTrainS = 0;
    bool timeToTrainKnown = true;
    double chipSeconds = 0; // chips times the time to train; 0 when that is unknown
};

// One row per bundled machine, sorted by name. InputError when the configuration is refused
// before any machine runs it (a bad setting or source).
std::vector<MachineRow> compareMachines(const ConfigurationRequest& request);
std::vector<MachineRow> compareMachines(const Configuration& configuration);

} // namespace podscope::api
