#pragma once

#include "topology/Hardware.hpp"
#include "topology/Topology.hpp"

#include <optional>
#include <string>
#include <vector>

namespace podscope {

struct TopologyPreset {
    std::string name;
    std::vector<int> dims;
    std::vector<bool> wrap;
    std::string description;
};

// A machine's named presets (its pods and multipods), from resources/machines/<hardware>.json.
std::vector<TopologyPreset> namedTopologyPresets(const std::string& hardware);

// The machine's standard slice for a chip count; InputError naming chips for other counts.
TopologyPreset standardSlice(const std::string& hardware, std::int64_t chips);
// The chip counts that have a standard slice on the machine, ascending.
std::vector<std::int64_t> standardChipCounts(const std::string& hardware);

// "128x32", "128", "16x16x16" -> dimensions. InputError naming `field` when malformed.
std::vector<int> parseDims(const std::string& text, const std::string& field = "topology");

// "x", "y", "xy", "xyz", "none", "all" -> wrap flags for `rank` dimensions.
std::vector<bool> parseWrap(const std::string& text, int rank, const std::string& field = "wrap");

// Resolves --topology (a preset, the hardware's or another machine's grid, or DIMS) and --wrap
// into a spec with the hardware's links, hosts and pods. DIMS without --wrap have no wrap-around.
TopologySpec resolveTopology(const std::string& topology, const std::optional<std::string>& wrap,
                             const Hardware& hardware);

// Makes the spec a twisted torus; InputError("twisted") listing the shapes the machine offers
// twisted when its file does not mark this shape twistable.
void twistTopology(TopologySpec& spec, const std::string& hardware);

} // namespace podscope
