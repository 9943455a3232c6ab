#pragma once

#include <string>
#include <vector>

namespace podscope {

// What the topology needs of a machine (resources/machines/<name>.json): devices per chip,
// links, hosts and pods.
struct Hardware {
    std::string name;
    int coresPerChip = 0; // devices per chip: TensorCores, or 1 where they act as one (megacore)
    double peakFlopsPerChip = 0;
    double hbmBytesPerChip = 0;
    double linkBandwidthBps = 0;
    double linkLatencyS = 0;
    std::vector<int> hostChipBlock;
    std::vector<int> podDims;
};

// The bundled machine's topology facts; throws InputError for an unknown name.
Hardware loadHardware(const std::string& name);

// The bundled machines (resources/machines/*.json), sorted.
std::vector<std::string> hardwareNames();

} // namespace podscope
