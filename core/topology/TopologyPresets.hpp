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

// Named presets (tpu-v3-multipod, tpu-v3-2pod, tpu-v3-pod), from resources/topologies.
std::vector<TopologyPreset> namedTopologyPresets();

// The standard slice for a chip count (16, 32, ... 4096); InputError for other counts.
TopologyPreset standardSlice(std::int64_t chips);
// The chip counts that have a standard slice, ascending.
std::vector<std::int64_t> standardChipCounts();

// "128x32", "128", "16x16x16" -> dimensions. InputError naming `field` when malformed.
std::vector<int> parseDims(const std::string& text, const std::string& field = "topology");

// "x", "y", "xy", "xyz", "none", "all" -> wrap flags for `rank` dimensions.
std::vector<bool> parseWrap(const std::string& text, int rank, const std::string& field = "wrap");

// Resolves --topology (a preset name or DIMS) and --wrap into a spec with the hardware's
// links, hosts and pods. DIMS without --wrap have no wrap-around.
TopologySpec resolveTopology(const std::string& topology, const std::optional<std::string>& wrap,
                             const Hardware& hardware);

} // namespace podscope
