#include "compute/CoreModel.hpp"

#include "common/InputError.hpp"
#include "common/Units.hpp"
#include "machine/Machine.hpp"
#include "resources/BundledResources.hpp"
#include "workload/SourcedJson.hpp"

#include <nlohmann/json.hpp>

namespace podscope {

CoreModel loadCoreModel(const std::string& hardware) {
    const Machine& m = bundledMachine(hardware);
    const int devices = m.devicesPerChip();
    const int tensorcores = m.tensorcoresPerDevice();
    CoreModel c;
    c.mxus = m.mxusPerTensorcore * tensorcores;
    c.mxuDim = m.mxuDim;
    c.rowGranule = m.rowGranule;
    c.vectorLanes = m.vectorLanes;
    c.clockHz = m.clockHz;
    c.vpuOpsPerS = m.vpuOpsPerSPerTensorcore * tensorcores;
    c.eupOpsPerS = m.eupOpsPerSPerTensorcore * tensorcores;
    c.permuteElementsPerS = m.permuteElementsPerSPerTensorcore * tensorcores;
    c.hbmBps = m.hbmBpsPerChip / devices;
    c.hbmBytes = m.hbmBytesPerChip / devices;
    c.vmemBytes = m.vmemBytesPerTensorcore * tensorcores;
    c.hbmEfficiency = m.hbmAchievedBpsPerChip / m.hbmBpsPerChip;
    c.hbmTransposeBps = m.hbmTransposeBpsPerChip.value_or(m.hbmAchievedBpsPerChip) / devices;
    // A device's TensorCores split the rows between them (megacore).
    c.gatherRowS = m.gatherRowSPerTensorcore.value_or(0) / tensorcores;
    c.rooflineRidgeFlopPerByte = m.rooflineRidgeFlopPerByte.value_or(c.peakFlops() / c.hbmBps);
    const CoreCalibration fit = loadCoreCalibration(hardware);
    c.kernelOverheadS = fit.kernelOverheadS;
    c.mxuEfficiency = fit.mxuEfficiency;
    return c;
}

CoreCalibration loadCoreCalibration(const std::string& hardware) {
    const std::string file = "calibration/" + bundledMachine(hardware).calibrationFit + "-fit.json";
    std::string_view text;
    try {
        text = resources::text(file);
    } catch (const std::out_of_range&) {
        throw InputError("hardware", "machine '" + hardware + "' names the calibration " + file +
                                         ", which is not bundled");
    }
    const auto json = nlohmann::json::parse(text);
    CoreCalibration c;
    c.kernelOverheadS = sourcedValue(json, "kernel_overhead_us", file) * units::kMicrosecond;
    c.mxuEfficiency = sourcedValue(json, "mxu_efficiency", file);
    c.linkLatencyS = sourcedValue(json, "link_latency_us", file) * units::kMicrosecond;
    return c;
}

} // namespace podscope
