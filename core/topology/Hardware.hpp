#pragma once

#include <string>
#include <vector>

namespace podscope {

// A chip generation's facts, loaded from resources/hardware/<name>.json.
struct Hardware {
    std::string name;
    int coresPerChip = 0;
    double peakFlopsPerChip = 0;
    double hbmBytesPerChip = 0;
    double linkBandwidthBps = 0;
    double linkLatencyS = 0;
    std::vector<int> hostChipBlock;
    std::vector<int> podDims;
};

// Loads a bundled hardware description; throws InputError for an unknown name.
Hardware loadHardware(const std::string& name);

// The bundled machines: each a chip (resources/hardware/NAME.json) with its core model and
// calibration beside it (NAME-core.json, NAME-calibration.json) and its host platform
// (resources/training/NAME-platform.json).
std::vector<std::string> hardwareNames();

} // namespace podscope
