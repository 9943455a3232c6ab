#include "input/HostInput.hpp"

#include <algorithm>
#include <limits>

namespace podscope {

HostInputResult evaluateHostInput(const InputCost& cost, const HostInputSettings& settings,
                                  int hosts, double chipsPerHost, double examplesPerHostPerStep,
                                  double deviceStepS, double hostToDeviceBpsPerChip) {
    HostInputResult r;
    r.hosts = hosts;
    r.chipsPerHost = chipsPerHost;
    r.cpuCores = settings.cpuCores;
    r.coreSecondsPerExample =
        cost.readS + (settings.decodedCache ? 0.0 : cost.decodeS) + cost.augmentS + cost.batchS;
    const double inf = std::numeric_limits<double>::infinity();
    const double cpuCapacity =
        r.coreSecondsPerExample > 0 ? settings.cpuCores / r.coreSecondsPerExample : inf;
    const double linkCapacity =
        cost.bytesToDevice > 0 ? hostToDeviceBpsPerChip * chipsPerHost / cost.bytesToDevice : inf;
    r.capacityExamplesPerSPerHost = std::min(cpuCapacity, linkCapacity);
    r.requiredExamplesPerSPerHost = examplesPerHostPerStep / deviceStepS;
    const double hostStepS = examplesPerHostPerStep / r.capacityExamplesPerSPerHost;
    r.stallS = std::max(0.0, hostStepS - deviceStepS);
    r.inputBound = r.stallS > 0;
    return r;
}

} // namespace podscope
