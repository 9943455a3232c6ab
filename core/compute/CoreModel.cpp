#include "compute/CoreModel.hpp"

#include "common/InputError.hpp"
#include "common/Units.hpp"
#include "resources/BundledResources.hpp"
#include "workload/SourcedJson.hpp"

#include <nlohmann/json.hpp>

namespace podscope {

CoreModel loadCoreModel(const std::string& hardware) {
    const std::string file = "hardware/" + hardware + "-core.json";
    std::string_view text;
    try {
        text = resources::text(file);
    } catch (const std::out_of_range&) {
        throw InputError("hardware", "no core model for '" + hardware + "'");
    }
    const auto json = nlohmann::json::parse(text);
    CoreModel c;
    c.mxus = static_cast<int>(sourcedValue(json, "mxus", file));
    c.mxuDim = static_cast<int>(sourcedValue(json, "mxu_dim", file));
    c.rowGranule = static_cast<int>(sourcedValue(json, "row_granule", file));
    c.clockHz = sourcedValue(json, "clock_MHz", file) * 1e6;
    c.vpuOpsPerS = sourcedValue(json, "vpu_ops_per_s", file);
    c.eupOpsPerS = sourcedValue(json, "eup_ops_per_s", file);
    c.hbmBps = sourcedValue(json, "hbm_GBps", file) * units::kGB;
    c.hbmBytes = sourcedValue(json, "hbm_GiB", file) * 1024.0 * 1024.0 * 1024.0;
    c.vmemBytes = sourcedValue(json, "vmem_MiB", file) * 1024.0 * 1024.0;

    c.hbmEfficiency = sourcedValue(json, "hbm_achieved_GBps", file) * units::kGB / c.hbmBps;
    const CoreCalibration fit = loadCoreCalibration(hardware);
    c.kernelOverheadS = fit.kernelOverheadS;
    c.mxuEfficiency = fit.mxuEfficiency;
    return c;
}

CoreCalibration loadCoreCalibration(const std::string& hardware) {
    const std::string file = "hardware/" + hardware + "-calibration.json";
    const auto json = nlohmann::json::parse(resources::text(file));
    CoreCalibration c;
    c.kernelOverheadS = sourcedValue(json, "kernel_overhead_us", file) * units::kMicrosecond;
    c.mxuEfficiency = sourcedValue(json, "mxu_efficiency", file);
    c.linkLatencyS = sourcedValue(json, "link_latency_us", file) * units::kMicrosecond;
    return c;
}

} // namespace podscope
