#include "view/GroupColoring.hpp"

#include "collective/Schedule.hpp"
#include "color/GroupColors.hpp"

#include <algorithm>
#include <functional>

namespace podscope::ui {
namespace {

// `blockOf(chip, d)`: the chip's block coordinate along d (which block of a tiling it is in,
// or where in its block it sits for groups spread over every block).
void colorByGroup(const Topology& topology, const std::string& noun, int count,
                  const std::function<int(ChipId)>& groupOfChip,
                  const std::function<int(ChipId, int)>& blockOf, std::vector<Rgb>& chips,
                  Legend& legend) {
    chips.resize(static_cast<std::size_t>(topology.chipCount()));
    std::vector<int> firstGroupOfSlot(kCycleColors, -1);
    std::vector<int> block(static_cast<std::size_t>(topology.rank()));
    for (ChipId chip = 0; chip < topology.chipCount(); ++chip) {
        for (int d = 0; d < topology.rank(); ++d) {
            block[static_cast<std::size_t>(d)] = blockOf(chip, d);
        }
        const int slot = cycleSlot(block);
        const int group = groupOfChip(chip);
        int& first = firstGroupOfSlot[static_cast<std::size_t>(slot)];
        first = first < 0 ? group : std::min(first, group);
        chips[static_cast<std::size_t>(chip)] = groupColor(group, count, slot);
    }
    legend = groupLegend(noun, count, firstGroupOfSlot);
}

int extentAlong(const std::vector<int>& block, int d) {
    return d < static_cast<int>(block.size()) ? std::max(block[static_cast<std::size_t>(d)], 1) : 1;
}

} // namespace

void colorChipsByGroup(const Topology& topology, const ChipGrouping& grouping, ColorMode mode,
                       std::vector<Rgb>& chips, Legend& legend) {
    const std::vector<int>& tile = grouping.replicaTile;
    const auto tiled = [&topology](const std::vector<int>& block) {
        return [&topology, block](ChipId c, int d) {
            return topology.coord(c, d) / extentAlong(block, d);
        };
    };
    switch (mode) {
    case ColorMode::Replica: {
        const GroupLayout replicas{GroupLayout::Kind::WithinTile, tile};
        const int count = static_cast<int>(topology.chipCount() / groupSizeOf(topology, replicas));
        const auto replicaOf = [&](ChipId c) { return groupOf(topology, replicas, c); };
        if (grouping.replicasPerChip > 1) {
            // Replicas smaller than a chip: a colour per chip, for the replicas on its cores.
            colorByGroup(topology, "chip", count, replicaOf, tiled(tile), chips, legend);
            legend.note = "each chip holds " + std::to_string(grouping.replicasPerChip) +
                          " replicas, one per core" +
                          (legend.note.empty() ? "" : "; " + legend.note);
        } else {
            colorByGroup(topology, "replica", count, replicaOf, tiled(tile), chips, legend);
        }
        return;
    }
    case ColorMode::DataParallelGroup: {
        const GroupLayout groups{GroupLayout::Kind::AcrossTiles, tile};
        const int count = static_cast<int>(topology.chipCount() / groupSizeOf(topology, groups));
        // A group's members are never neighbours: its place in the tile tells groups apart.
        colorByGroup(
            topology, "data-parallel group", count,
            [&](ChipId c) { return groupOf(topology, groups, c); },
            [&](ChipId c, int d) { return topology.coord(c, d) % extentAlong(tile, d); }, chips,
            legend);
        if (legend.categories.size() == 1) {
            legend.note = "all chips sum their gradients together";
        }
        return;
    }
    case ColorMode::Host:
        colorByGroup(
            topology, "host", topology.hostCount(), [&](ChipId c) { return topology.hostOf(c); },
            tiled(topology.spec().hostBlock), chips, legend);
        return;
    case ColorMode::Pod: {
        std::vector<int> pod(static_cast<std::size_t>(topology.rank())); // missing: whole dim
        for (int d = 0; d < topology.rank(); ++d) {
            const auto& dims = topology.spec().podDims;
            pod[static_cast<std::size_t>(d)] = d < static_cast<int>(dims.size())
                                                   ? dims[static_cast<std::size_t>(d)]
                                                   : topology.size(d);
        }
        colorByGroup(
            topology, "pod", topology.podCount(), [&](ChipId c) { return topology.podOf(c); },
            tiled(pod), chips, legend);
        return;
    }
    case ColorMode::ChipState:
        return; // the replay's own colours
    }
}

} // namespace podscope::ui
