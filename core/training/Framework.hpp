#pragma once

#include <string>
#include <vector>

namespace podscope {

// What a training framework adds around the device work, from resources/frameworks/<name>.json.
// TF and JAX compile the training loop to the device; TF2 drives each loop from the host.
// Start-up and evaluation costs differ per model and live with the workload.
struct Framework {
    std::string name;
    double perStepOverheadS = 0;  // every step, on the device's critical path
    double perLoopRoundTripS = 0; // every device loop (a block of steps ending in an evaluation)
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
