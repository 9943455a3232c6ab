#include "topology/Hardware.hpp"

#include "common/InputError.hpp"
#include "common/Units.hpp"
#include "resources/BundledResources.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>

namespace podscope {

Hardware loadHardware(const std::string& name) {
    std::string_view text;
    try {
        text = resources::text("hardware/" + name + ".json");
    } catch (const std::out_of_range&) {
        throw InputError("hardware", "unknown hardware '" + name + "'");
    }
    const auto json = nlohmann::json::parse(text);
    Hardware hw;
    hw.name = json.at("name").get<std::string>();
    hw.coresPerChip = json.at("cores_per_chip").at("value").get<int>();
    hw.peakFlopsPerChip = json.at("peak_bf16_flops_per_chip").at("value").get<double>();
    hw.hbmBytesPerChip = json.at("hbm_bytes_per_chip").at("value").get<double>();
    hw.linkBandwidthBps = json.at("link_bandwidth_GBps").at("value").get<double>() * units::kGB;
    // The per-hop latency is not published for v3: it is one of the calibrated parameters.
    const auto fit =
        nlohmann::json::parse(resources::text("hardware/" + name + "-calibration.json"));
    hw.linkLatencyS = fit.at("link_latency_us").at("value").get<double>() * units::kMicrosecond;
    hw.hostChipBlock = json.at("host_chip_block").at("value").get<std::vector<int>>();
    hw.podDims = json.at("pod_dims").at("value").get<std::vector<int>>();
    return hw;
}

std::vector<std::string> hardwareNames() {
    const std::string prefix = "hardware/";
    const auto files = resources::list("");
    auto bundled = [&](const std::string& path) {
        return std::find(files.begin(), files.end(), path) != files.end();
    };
    std::vector<std::string> names;
    for (const auto& path : resources::list(prefix)) {
        const std::string stem = path.substr(prefix.size(), path.size() - prefix.size() - 5);
        if (bundled(prefix + stem + "-core.json") && bundled(prefix + stem + "-calibration.json") &&
            bundled("training/" + stem + "-platform.json")) {
            names.push_back(stem);
        }
    }
    return names;
}

} // namespace podscope
