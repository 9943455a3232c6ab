#pragma once

#include <string>
#include <vector>

namespace podscope {

// What a training framework adds around the device work, from resources/frameworks/<name>.json.
// TF: one controller for all hosts, a host round trip at the end of every device loop and a
// longer start inside the run. JAX: one process per host, the loop compiled to the device.
struct Framework {
    std::string name;
    double perStepOverheadS = 0;  // every step, on the device's critical path
    double perLoopRoundTripS = 0; // every device loop (a block of steps ending in an evaluation)
    double inRunStartupS = 0;     // from run_start to the first step
};

Framework loadFramework(const std::string& name);
std::vector<std::string> frameworkNames();

// Facts about the machine around the chips that the training model needs.
struct PlatformFacts {
    double hbmBandwidthBpsPerChip = 0;
    double hostCpuCores = 0;
    double hostToDeviceBpsPerChip = 0;
};

PlatformFacts loadPlatformFacts(const std::string& hardware);

} // namespace podscope
