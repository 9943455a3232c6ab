#pragma once

#include "collective/CollectiveSpec.hpp"
#include "topology/Topology.hpp"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace podscope {

struct FunctionalCheck {
    bool verified = false;
    std::int64_t elementsPerChip = 0; // length of the test vector each chip held
    std::string problem;              // first mismatch, when not verified
};

// What every chip holds during a functional run, one integer per element. Sums wrap modulo
// 2^64, so values that are distinct powers of two add up like a set of bits.
using ChipBuffers = std::vector<std::vector<std::uint64_t>>;

// Where a functional run stands when it shows its data: one (stream, chunk) slice of the
// buffer, elements [sliceBegin, sliceEnd) on every chip, either before its first ring step
// (phase -1) or just after step `step` (0-based) of the `steps` steps of phase `phase`. Only
// the slice's elements changed since the slice's previous report: slices never touch each
// other's elements.
struct RingStep {
    int stream = 0;
    int chunk = 0;
    std::int64_t sliceBegin = 0;
    std::int64_t sliceEnd = 0;
    int phase = -1;
    int step = -1;
    int steps = 0;
};

// How to run the check. The defaults are the check's own: functionalElementsPerChip elements
// of pseudo-random integers, nobody watching. Callers that want to see the data step by step
// (the block timeline) choose their own values and an observer; the stepping is the same.
struct FunctionalRun {
    std::int64_t elementsPerChip = 0; // 0: functionalElementsPerChip
    std::function<std::uint64_t(ChipId chip, std::int64_t element)>
        initialValue; // empty: the check's
    // What an all-gather leaves where nothing has arrived yet: a value the data never takes.
    std::uint64_t unsetValue = ~std::uint64_t{0};
    // Called before each slice's first step and after every ring step (once per step for
    // all rings of the phase). When the group has a single chip, called once for the whole
    // buffer with phase -1.
    std::function<void(const RingStep&, const ChipBuffers&)> observe;
};

// Runs the collective's schedule on real data: every chip holds a small integer vector,
// every ring step adds (reduce-scatter) or copies (all-gather) the shards the schedule says
// it sends. Afterwards every chip must hold its group's sum (all-reduce), exactly the shards
// it owns with their sums, each element owned once per group (reduce-scatter), or every
// member's contribution (all-gather). Proves a schedule computes what it claims.
FunctionalCheck runFunctional(const Topology& topology, const CollectiveSpec& spec);

// The same check on a given schedule (built with ScheduleScope::Full), so that tests can show
// that a wrong schedule is caught, optionally on chosen data and with an observer.
struct Schedule;
FunctionalCheck runFunctional(const Topology& topology, const Schedule& schedule);
FunctionalCheck runFunctional(const Topology& topology, const Schedule& schedule,
                              const FunctionalRun& how);

// Length of the test vector: enough elements that every shard is non-empty where the
// payload allows, bounded so that all chips together hold at most about 64 MB.
std::int64_t functionalElementsPerChip(const Topology& topology, const CollectiveSpec& spec);

} // namespace podscope
