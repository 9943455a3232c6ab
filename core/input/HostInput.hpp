#pragma once

#include "workload/Workload.hpp"

namespace podscope {

// The host side of the input pipeline. Every host feeds its own chips.
struct HostInputSettings {
    double cpuCores = 0;      // per host; 0: the platform default
    bool decodedCache = true; // decoded examples kept in host RAM: no decode per step
    int prefetchBatches = 2;  // hides jitter, not a shortfall of steady capacity
};

struct HostInputResult {
    int hosts = 0;
    double chipsPerHost = 0;
    double cpuCores = 0;
    double coreSecondsPerExample = 0;
    double capacityExamplesPerSPerHost = 0; // min(CPU, host-to-device link)
    double requiredExamplesPerSPerHost = 0; // to keep the device step fed
    double stallS = 0;                      // per step, when capacity falls short
    bool inputBound = false;
};

// `deviceStepS` is the step time without input stall; `examplesPerHostPerStep` the host's share
// of the global batch.
HostInputResult evaluateHostInput(const InputCost& cost, const HostInputSettings& settings,
                                  int hosts, double chipsPerHost, double examplesPerHostPerStep,
                                  double deviceStepS, double hostToDeviceBpsPerChip);

} // namespace podscope
