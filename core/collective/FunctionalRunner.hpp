#pragma once

#include "collective/CollectiveSpec.hpp"
#include "topology/Topology.hpp"

#include <cstdint>
#include <string>

namespace podscope {

struct FunctionalCheck {
    bool verified = false;
    std::int64_t elementsPerChip = 0; // length of the test vector each chip held
    std::string problem;              // first mismatch, when not verified
};

// Runs the collective's schedule on real data: every chip holds a small integer vector,
// every ring step adds (reduce-scatter) or copies (all-gather) the shards the schedule says
// it sends. Afterwards every chip must hold its group's sum (all-reduce), exactly the shards
// it owns with their sums, each element owned once per group (reduce-scatter), or every
// member's contribution (all-gather). Proves a schedule computes what it claims.
FunctionalCheck runFunctional(const Topology& topology, const CollectiveSpec& spec);

// The same check on a given schedule (built with ScheduleScope::Full), so that tests can show
// that a wrong schedule is caught.
struct Schedule;
FunctionalCheck runFunctional(const Topology& topology, const Schedule& schedule);

// Length of the test vector: enough elements that every shard is non-empty where the
// payload allows, bounded so that all chips together hold at most about 64 MB.
std::int64_t functionalElementsPerChip(const Topology& topology, const CollectiveSpec& spec);

} // namespace podscope
