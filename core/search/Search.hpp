#pragma once

#include "search/Objective.hpp"
#include "search/SearchSpace.hpp"
#include "search/SearchTally.hpp"

#include <atomic>
#include <cstdint>

namespace podscope::search {

struct SearchOptions {
    Objective objective = Objective::TimeToTrain;
    std::size_t keep = 10; // configurations kept in rank order
    int threads = 1;
    // This process evaluates the step plans p with p % ranks == rank (MPI ranks split the space).
    int rank = 0;
    int ranks = 1;
    // Set from another thread (Ctrl-C, Cancel): the search stops after the plans under way and
    // returns what it found.
    const std::atomic<bool>* cancel = nullptr;
    // Configurations evaluated or skipped so far by this process, for a progress line.
    std::atomic<std::uint64_t>* progress = nullptr;
};

// Configurations of this rank's share (evaluated plus skipped when the search completes).
std::uint64_t configurationsOfRank(const SearchSpace& space, int rank, int ranks);

// Evaluates every configuration of this rank's share with the analytic model on `threads`
// threads. One step plan serves all the configurations that differ only in the collective's
// algorithm, dimension order and chunks, the evaluation mode and the decoded cache. The result
// does not depend on the thread count.
SearchTally runSearch(const SearchSpace& space, const SearchOptions& options);

} // namespace podscope::search
