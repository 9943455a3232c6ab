#pragma once

#include "topology/TopologyPresets.hpp"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace podscope::analysis {

// The machine's standard slices that the scaling sweeps visit (the app's and the report's):
// those of 16 chips or more, where a slice spans several hosts.
inline std::vector<std::int64_t> sweepSliceChips(const std::string& hardware) {
    std::vector<std::int64_t> chips = standardChipCounts(hardware);
    std::erase_if(chips, [](std::int64_t n) { return n < 16; });
    return chips;
}

// The global batches the batch sweep visits on a slice of `replicas` replica groups: 1 to 2048
// examples per replica in powers of two (every replica the same whole number of examples), and
// the configuration's own batch; ascending, without repeats.
inline std::vector<std::int64_t> sweepBatches(std::int64_t replicas, std::int64_t globalBatch) {
    std::vector<std::int64_t> batches;
    for (std::int64_t perReplica = 1; perReplica <= 2048; perReplica *= 2) {
        batches.push_back(replicas * perReplica);
    }
    batches.push_back(globalBatch);
    std::sort(batches.begin(), batches.end());
    batches.erase(std::unique(batches.begin(), batches.end()), batches.end());
    return batches;
}

} // namespace podscope::analysis
