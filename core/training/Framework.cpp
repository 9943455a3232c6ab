#include "training/Framework.hpp"

#include "common/InputError.hpp"
#include "common/Units.hpp"
#include "machine/Machine.hpp"
#include "resources/BundledResources.hpp"
#include "workload/SourcedJson.hpp"

#include <nlohmann/json.hpp>
#include <stdexcept>

namespace podscope {

std::vector<std::string> frameworkNames() {
    std::vector<std::string> names;
    const std::string prefix = "frameworks/";
    for (const auto& path : resources::list(prefix)) {
        const auto stem = path.substr(prefix.size());
        names.push_back(stem.substr(0, stem.size() - 5));
    }
    return names;
}

Framework loadFramework(const std::string& name) {
    const std::string file = "frameworks/" + name + ".json";
    std::string_view text;
    try {
        text = resources::text(file);
    } catch (const std::out_of_range&) {
        std::string known;
        for (const auto& n : frameworkNames()) {
            known += (known.empty() ? "" : ", ") + n;
        }
        throw InputError("framework", "unknown framework '" + name + "' (known: " + known + ")");
    }
    const auto json = nlohmann::json::parse(text);
    Framework f;
    f.name = json.at("name").get<std::string>();
    f.perStepOverheadS = sourcedValue(json, "per_step_overhead_s", file);
    f.perLoopRoundTripS = sourcedValue(json, "per_loop_round_trip_s", file);
    return f;
}

PlatformFacts loadPlatformFacts(const std::string& hardware) {
    const Machine& m = bundledMachine(hardware);
    PlatformFacts p;
    p.hbmBandwidthBpsPerChip = m.hbmBpsPerChip;
    p.hostCpuCores = m.hostCpuCores;
    p.hostToDeviceBpsPerChip = m.pcieBpsPerChip;
    return p;
}

} // namespace podscope
