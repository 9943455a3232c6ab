#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace podscope::report {

// The standard TPU-v3 slices that the scaling sweeps visit (the app's and the report's).
inline constexpr std::int64_t kSweepSliceChips[] = {16, 32, 64, 128, 256, 512, 1024, 2048, 4096};

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

} // namespace podscope::report
