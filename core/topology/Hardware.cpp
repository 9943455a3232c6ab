#include "topology/Hardware.hpp"

#include "compute/CoreModel.hpp"
#include "machine/Machine.hpp"

namespace podscope {

Hardware loadHardware(const std::string& name) {
    const Machine& m = bundledMachine(name);
    Hardware hw;
    hw.name = m.name;
    hw.coresPerChip = m.devicesPerChip();
    hw.peakFlopsPerChip = m.peakFlopsPerChip;
    hw.hbmBytesPerChip = m.hbmBytesPerChip;
    hw.linkBandwidthBps = m.linkBandwidthBps;
    // No generation publishes its per-hop latency: it is one of the calibrated parameters.
    hw.linkLatencyS = m.hopLatencyS ? *m.hopLatencyS : loadCoreCalibration(name).linkLatencyS;
    hw.hostChipBlock = m.hostBlock;
    hw.podDims = m.podDims;
    return hw;
}

std::vector<std::string> hardwareNames() {
    return machineNames();
}

} // namespace podscope
