#include "training/WhatIf.hpp"

#include "common/InputError.hpp"
#include "topology/Hardware.hpp"
#include "training/ResourceCache.hpp"

namespace podscope {

std::vector<WhatIf> whatIfs(const Scenario& scenario) {
    std::vector<WhatIf> list;
    Scenario faster = scenario;
    const double linkGBps = scenario.linkBandwidthGBps.value_or(
        cachedResource<Hardware>(scenario.hardware, loadHardware).linkBandwidthBps / 1e9);
    faster.linkBandwidthGBps = 2 * linkGBps;
    list.push_back(
        {"link_bandwidth_x2", "twice the link bandwidth", faster, simulateTraining(faster)});

    // The cache saves the decode stage only: offered where there is decoding to save.
    const double decodeS = scenario.inputCost.decodeS.value_or(
        cachedWorkload(scenario.workload).input.decodeS);
    if (decodeS > 0) {
        Scenario cache = scenario;
        cache.input.decodedCache = !scenario.input.decodedCache;
        const bool on = cache.input.decodedCache;
        list.push_back({on ? "decoded_cache_on" : "decoded_cache_off",
                        on ? "decoded-example cache on" : "decoded-example cache off", cache,
                        simulateTraining(cache)});
    }

    Scenario sharding = scenario;
    sharding.weightUpdateSharding = !scenario.weightUpdateSharding;
    try {
        const bool on = sharding.weightUpdateSharding;
        list.push_back({on ? "wus_on" : "wus_off",
                        on ? "weight-update sharding on" : "weight-update sharding off", sharding,
                        simulateTraining(sharding)});
    } catch (const InputError&) {
        // A combination the model refuses is no answer to "what if".
    }
    return list;
}

} // namespace podscope
