#pragma once

#include "color/ColorScale.hpp"
#include "topology/Topology.hpp"
#include "view/FrameColoring.hpp"

#include <vector>

namespace podscope::ui {

// How the parallelism plan groups chips, for colouring them by group.
struct ChipGrouping {
    std::vector<int> replicaTile{1, 1}; // chips per replica along each dimension
    int replicasPerChip = 1;            // 2 when each core of a chip holds a replica of its own
};

// Chips coloured by the group they belong to (every ColorMode but ChipState), the same in the
// collective and the step replay; `chips` is resized to the topology's chip count.
void colorChipsByGroup(const Topology& topology, const ChipGrouping& grouping, ColorMode mode,
                       std::vector<Rgb>& chips, Legend& legend);

} // namespace podscope::ui
