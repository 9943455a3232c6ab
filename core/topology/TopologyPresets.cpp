#include "topology/TopologyPresets.hpp"

#include "common/InputError.hpp"
#include "common/Limits.hpp"
#include "machine/Machine.hpp"

#include <algorithm>
#include <charconv>

namespace podscope {
namespace {

TopologyPreset presetFrom(const MachineSlice& slice, std::string name, std::string description) {
    return {std::move(name), slice.dims, slice.wrap, std::move(description)};
}

} // namespace

std::vector<TopologyPreset> namedTopologyPresets(const std::string& hardware) {
    std::vector<TopologyPreset> presets;
    for (const MachineSlice& slice : bundledMachine(hardware).named) {
        presets.push_back(presetFrom(slice, slice.name, slice.description));
    }
    return presets;
}

TopologyPreset standardSlice(const std::string& hardware, std::int64_t chips) {
    std::string known;
    for (const MachineSlice& slice : bundledMachine(hardware).slices) {
        if (slice.chips == chips) {
            return presetFrom(slice, hardware + "-slice-" + std::to_string(chips),
                              std::to_string(chips) + "-chip standard slice");
        }
        known += (known.empty() ? "" : ", ") + std::to_string(slice.chips);
    }
    throw InputError("chips", "no standard slice has " + std::to_string(chips) + " chips on " +
                                  hardware + " (known: " + known + ")");
}

std::vector<std::int64_t> standardChipCounts(const std::string& hardware) {
    std::vector<std::int64_t> counts;
    for (const MachineSlice& slice : bundledMachine(hardware).slices) {
        counts.push_back(slice.chips);
    }
    return counts;
}

std::vector<int> parseDims(const std::string& text, const std::string& field) {
    if (text.empty()) {
        throw InputError(field, "is empty; expected dimensions such as 128x32");
    }
    std::vector<int> dims;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t end = std::min(text.find('x', start), text.size());
        const std::string part = text.substr(start, end - start);
        int value = 0;
        const auto [ptr, ec] = std::from_chars(part.data(), part.data() + part.size(), value);
        if (part.empty() || ec != std::errc() || ptr != part.data() + part.size()) {
            throw InputError(field,
                             "'" + text + "' is neither a preset nor dimensions such as 128x32");
        }
        if (value < 1 || value > limits::kMaxDimSize) {
            throw InputError(field, "dimension " + part + " in '" + text +
                                        "' must be between 1 and " +
                                        std::to_string(limits::kMaxDimSize));
        }
        dims.push_back(value);
        if (static_cast<int>(dims.size()) > limits::kMaxRank) {
            throw InputError(field, "'" + text + "' has more than " +
                                        std::to_string(limits::kMaxRank) + " dimensions");
        }
        start = end + 1;
    }
    return dims;
}

std::vector<bool> parseWrap(const std::string& text, int rank, const std::string& field) {
    std::vector<bool> wrap(static_cast<std::size_t>(rank), false);
    if (text == "none") {
        return wrap;
    }
    if (text == "all") {
        return std::vector<bool>(static_cast<std::size_t>(rank), true);
    }
    if (text.empty()) {
        throw InputError(field, "is empty; expected x, y, xy, xyz, all or none");
    }
    static const std::string letters = "xyzw";
    for (const char c : text) {
        const auto dim = letters.find(c);
        if (dim == std::string::npos) {
            throw InputError(field, "'" + text + "' is not a wrap spec (x, y, xy, xyz, all, none)");
        }
        if (static_cast<int>(dim) >= rank) {
            throw InputError(field, std::string("'") + c + "' names a dimension the " +
                                        std::to_string(rank) + "-D topology does not have");
        }
        if (wrap[dim]) {
            throw InputError(field, std::string("'") + c + "' appears twice in '" + text + "'");
        }
        wrap[dim] = true;
    }
    return wrap;
}

TopologySpec resolveTopology(const std::string& topology, const std::optional<std::string>& wrap,
                             const Hardware& hardware) {
    TopologySpec spec;
    spec.linkBandwidthBps = hardware.linkBandwidthBps;
    spec.linkLatencyS = hardware.linkLatencyS;
    spec.coresPerChip = hardware.coresPerChip;
    spec.hostBlock = hardware.hostChipBlock;
    spec.podDims = hardware.podDims;
    // The machine's own presets first; another machine's preset gives its grid with this
    // machine's links (a what-if: a configuration keeps its grid when only its hardware changes).
    std::vector<std::string> machines = {hardware.name};
    for (const auto& name : machineNames()) {
        if (name != hardware.name) {
            machines.push_back(name);
        }
    }
    bool found = false;
    for (const auto& machine : machines) {
        for (const auto& preset : namedTopologyPresets(machine)) {
            if (!found && preset.name == topology) {
                spec.name = preset.name;
                spec.dims = preset.dims;
                spec.wrap = preset.wrap;
                found = true;
            }
        }
    }
    if (!found) {
        try {
            spec.dims = parseDims(topology);
        } catch (const InputError& error) {
            std::string presets;
            for (const auto& preset : namedTopologyPresets(hardware.name)) {
                presets += (presets.empty() ? "" : ", ") + preset.name;
            }
            throw InputError("topology",
                             std::string(error.what()).substr(error.field().size() + 2) + " (" +
                                 hardware.name + " presets: " + presets + ")");
        }
        spec.name = topology;
        spec.wrap.assign(spec.dims.size(), false);
    }
    if (wrap) {
        spec.wrap = parseWrap(*wrap, static_cast<int>(spec.dims.size()));
    }
    return spec;
}

void twistTopology(TopologySpec& spec, const std::string& hardware) {
    const Machine& machine = bundledMachine(hardware);
    if (machine.twistableSlice(spec.dims) != nullptr &&
        std::all_of(spec.wrap.begin(), spec.wrap.end(), [](bool w) { return w; })) {
        spec.twisted = true;
        return;
    }
    std::string offered;
    for (const MachineSlice& s : machine.slices) {
        if (s.twistable) {
            offered += (offered.empty() ? "" : ", ");
            for (std::size_t d = 0; d < s.dims.size(); ++d) {
                offered += (d > 0 ? "x" : "") + std::to_string(s.dims[d]);
            }
        }
    }
    std::string shape;
    for (std::size_t d = 0; d < spec.dims.size(); ++d) {
        shape += (d > 0 ? "x" : "") + std::to_string(spec.dims[d]);
    }
    throw InputError("twisted",
                     hardware + " offers no twisted " + shape +
                         (offered.empty()
                              ? " (it offers no twisted tori)"
                              : " with every dimension wrapped (twisted: " + offered + ")"));
}

} // namespace podscope
