#pragma once

#include "view/ScenarioRun.hpp"

#include <vector>

namespace podscope::ui {

// What the details pane says about the chip or link the user picked in a collective replay:
// plain numbers from the run, worded by the window.

struct ChipDetails {
    ChipId chip = -1;
    std::vector<int> coords;
    int firstCore = 0, lastCore = 0;
    int host = 0, pod = 0;
    // Terms as docs/user-guide.md defines them: a replica is one copy of the model on its
    // cores; a data-parallel group, the chips at the same place in every replica.
    int firstReplica = 0, replicasOnChip = 1;
    int dataParallelGroup = 0;
    double sentBytes = 0, receivedBytes = 0;
    double busiestOutgoingUtilization = 0; // over the whole collective
};

struct LinkDetails {
    ChipId from = -1, to = -1;
    int dim = 0;
    Direction direction = Direction::Plus;
    bool crossesPods = false;
    double carriedBytes = 0;
    double utilization = 0;        // over the whole collective
    double currentUtilization = 0; // in the replay's window around timeS
    double bandwidthBps = 0;       // per direction
};

ChipDetails chipDetails(const ScenarioRun& run, ChipId chip);
// `windowS`: the span the current utilisation averages over (the replay's colouring window).
LinkDetails linkDetails(const ScenarioRun& run, LinkId link, double timeS, double windowS);
// The chips of the ring that sends from `chip` in the phase of collective 0 playing at
// `timeS` (stream 0), sorted; just `chip` where no ring sends from it.
std::vector<ChipId> ringMembers(const ScenarioRun& run, ChipId chip, double timeS);

} // namespace podscope::ui
