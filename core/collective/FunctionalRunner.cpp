#include "collective/FunctionalRunner.hpp"

#include "collective/Schedule.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace podscope {
namespace {

struct Segment {
    std::int64_t lo = 0;
    std::int64_t hi = 0;
    bool operator==(const Segment&) const = default;
};

Segment shardOf(Segment segment, int shards, int index) {
    const std::int64_t length = segment.hi - segment.lo;
    return {segment.lo + length * index / shards, segment.lo + length * (index + 1) / shards};
}

std::uint64_t initialValue(ChipId chip, std::int64_t element) {
    const std::int64_t value =
        (static_cast<std::int64_t>(chip) * 7919 + element * 104729 + 13) % 1000003;
    return static_cast<std::uint64_t>(value);
}

// Data and segment stacks of every chip for one (stream, chunk) slice of the buffer.
class SliceRun {
public:
    SliceRun(std::int64_t chips, Segment slice, int depth)
        : slice_(slice)
        , stacks_(static_cast<std::size_t>(chips)) {
        for (auto& stack : stacks_) {
            stack.reserve(static_cast<std::size_t>(depth) + 1);
            stack.push_back(slice);
        }
    }

    std::vector<Segment>& stack(ChipId chip) { return stacks_[static_cast<std::size_t>(chip)]; }

    // Narrows every member's segment to its shard; returns false if members disagree.
    bool narrow(const RingSet& rings, std::string& problem) {
        for (int r = 0; r < rings.ringCount(); ++r) {
            const auto ring = rings.ring(r);
            const Segment segment = stack(ring[0]).back();
            for (int i = 0; i < rings.ringSize; ++i) {
                if (!(stack(ring[static_cast<std::size_t>(i)]).back() == segment)) {
                    problem = "ring members enter a phase with different segments";
                    return false;
                }
            }
            for (int i = 0; i < rings.ringSize; ++i) {
                stack(ring[static_cast<std::size_t>(i)]).push_back(shardOf(segment, rings.ringSize, (i + 1) % rings.ringSize));
            }
        }
        return true;
    }

private:
    Segment slice_;
    std::vector<std::vector<Segment>> stacks_;
};

// One reduce-scatter step of one ring: member i sends shard (i - step) and its successor adds
// it to its own copy. No member sends a shard it receives in the same step, so the order of
// the members does not matter.
void reduceScatterStep(std::span<const ChipId> ring, Segment segment, int step, ChipBuffers& data) {
    const int n = static_cast<int>(ring.size());
    for (int i = 0; i < n; ++i) {
        const Segment shard = shardOf(segment, n, ((i - step) % n + n) % n);
        const auto& from = data[static_cast<std::size_t>(ring[static_cast<std::size_t>(i)])];
        auto& to = data[static_cast<std::size_t>(ring[static_cast<std::size_t>((i + 1) % n)])];
        for (auto e = shard.lo; e < shard.hi; ++e) {
            to[static_cast<std::size_t>(e)] += from[static_cast<std::size_t>(e)];
        }
    }
}

// One all-gather step of one ring: member i owns shard i+1 and at step s forwards shard
// (i + 1 - s) to its successor, which copies it.
void allGatherStep(std::span<const ChipId> ring, Segment segment, int step, ChipBuffers& data) {
    const int n = static_cast<int>(ring.size());
    for (int i = 0; i < n; ++i) {
        const Segment shard = shardOf(segment, n, ((i + 1 - step) % n + n) % n);
        const auto& from = data[static_cast<std::size_t>(ring[static_cast<std::size_t>(i)])];
        auto& to = data[static_cast<std::size_t>(ring[static_cast<std::size_t>((i + 1) % n)])];
        std::copy(from.begin() + shard.lo, from.begin() + shard.hi, to.begin() + shard.lo);
    }
}

} // namespace

std::int64_t functionalElementsPerChip(const Topology& topology, const CollectiveSpec& spec) {
    const auto real = static_cast<std::int64_t>(std::floor(spec.bytesPerChip / elementBytes(spec.element)));
    const std::int64_t wanted = 2LL * spec.chunks * groupSizeOf(topology, spec.groups) + 1;
    const std::int64_t budget = std::max<std::int64_t>(17, (8LL << 20) / topology.chipCount());
    return std::max<std::int64_t>(1, std::min({real, wanted, budget}));
}

FunctionalCheck runFunctional(const Topology& topology, const CollectiveSpec& spec) {
    return runFunctional(topology, buildSchedule(topology, spec, ScheduleScope::Full));
}

FunctionalCheck runFunctional(const Topology& topology, const Schedule& schedule) {
    return runFunctional(topology, schedule, FunctionalRun{});
}

FunctionalCheck runFunctional(const Topology& topology, const Schedule& schedule,
                              const FunctionalRun& how) {
    const CollectiveSpec& spec = schedule.spec;
    FunctionalCheck check;
    const std::int64_t elements =
        how.elementsPerChip > 0 ? how.elementsPerChip : functionalElementsPerChip(topology, spec);
    check.elementsPerChip = elements;
    const auto chips = topology.chipCount();
    const auto valueOf = [&](ChipId chip, std::int64_t e) {
        return how.initialValue ? how.initialValue(chip, e) : initialValue(chip, e);
    };

    const std::vector<std::uint64_t> zeros(static_cast<std::size_t>(elements), 0);
    ChipBuffers initial(static_cast<std::size_t>(chips), zeros);
    for (ChipId chip = 0; chip < chips; ++chip) {
        for (std::int64_t e = 0; e < elements; ++e) {
            initial[static_cast<std::size_t>(chip)][static_cast<std::size_t>(e)] = valueOf(chip, e);
        }
    }
    std::vector<int> group(static_cast<std::size_t>(chips));
    ChipBuffers groupSum(static_cast<std::size_t>(schedule.groupCount), zeros);
    for (ChipId chip = 0; chip < chips; ++chip) {
        group[static_cast<std::size_t>(chip)] = groupOf(topology, spec.groups, chip);
        auto& sum = groupSum[static_cast<std::size_t>(group[static_cast<std::size_t>(chip)])];
        for (std::int64_t e = 0; e < elements; ++e) {
            sum[static_cast<std::size_t>(e)] += initial[static_cast<std::size_t>(chip)][static_cast<std::size_t>(e)];
        }
    }

    ChipBuffers data = initial;
    // Element e of group g is owned by ownerOf[g][e] after a reduce-scatter (or before an
    // all-gather); -1 while unowned.
    std::vector<std::vector<ChipId>> ownerOf(static_cast<std::size_t>(schedule.groupCount),
                                             std::vector<ChipId>(static_cast<std::size_t>(elements), -1));
    const bool gatherOnly = spec.op == CollectiveOp::AllGather;
    if (gatherOnly) {
        for (auto& buffer : data) {
            std::fill(buffer.begin(), buffer.end(), how.unsetValue);
        }
    }
    if (how.observe && (schedule.groupSize <= 1 || schedule.streams.empty())) {
        how.observe(RingStep{0, 0, 0, elements, -1, -1, 0}, data);
    }

    const int streamCount = static_cast<int>(schedule.streams.size());
    for (int s = 0; s < streamCount && schedule.groupSize > 1; ++s) {
        const Stream& stream = schedule.streams[static_cast<std::size_t>(s)];
        const Segment streamSlice{elements * s / streamCount, elements * (s + 1) / streamCount};
        for (int c = 0; c < spec.chunks; ++c) {
            const Segment slice = shardOf(streamSlice, spec.chunks, c);
            RingStep at{s, c, slice.lo, slice.hi, -1, -1, 0};
            SliceRun run(chips, slice, static_cast<int>(stream.phases.size()));
            if (gatherOnly) {
                // Ownership is what the matching reduce-scatter would leave: narrow through
                // the all-gather phases in reverse order, then seed each owner's shard.
                for (auto phase = stream.phases.rbegin(); phase != stream.phases.rend(); ++phase) {
                    if (!run.narrow(phase->rings, check.problem)) {
                        return check;
                    }
                }
                for (ChipId chip = 0; chip < chips; ++chip) {
                    const Segment own = run.stack(chip).back();
                    for (auto e = own.lo; e < own.hi; ++e) {
                        data[static_cast<std::size_t>(chip)][static_cast<std::size_t>(e)] =
                            initial[static_cast<std::size_t>(chip)][static_cast<std::size_t>(e)];
                        ownerOf[static_cast<std::size_t>(group[static_cast<std::size_t>(chip)])][static_cast<std::size_t>(e)] = chip;
                    }
                }
            }
            if (how.observe) {
                how.observe(at, data);
            }
            for (std::size_t p = 0; p < stream.phases.size(); ++p) {
                const Phase& phase = stream.phases[p];
                const RingSet& rings = phase.rings;
                if (phase.kind == PhaseKind::AllGather) {
                    for (int r = 0; r < rings.ringCount(); ++r) {
                        for (ChipId chip : rings.ring(r)) {
                            if (run.stack(chip).size() < 2) {
                                check.problem = "an all-gather phase found a chip with no shard to widen";
                                return check;
                            }
                            run.stack(chip).pop_back();
                        }
                    }
                }
                // Every ring works on the segment its first member holds on entering the phase.
                std::vector<Segment> segments(static_cast<std::size_t>(rings.ringCount()));
                for (int r = 0; r < rings.ringCount(); ++r) {
                    segments[static_cast<std::size_t>(r)] = run.stack(rings.ring(r)[0]).back();
                }
                at.phase = static_cast<int>(p);
                at.steps = rings.ringSize - 1;
                for (int step = 0; step < at.steps; ++step) {
                    for (int r = 0; r < rings.ringCount(); ++r) {
                        const Segment segment = segments[static_cast<std::size_t>(r)];
                        if (phase.kind == PhaseKind::ReduceScatter) {
                            reduceScatterStep(rings.ring(r), segment, step, data);
                        } else {
                            allGatherStep(rings.ring(r), segment, step, data);
                        }
                    }
                    if (how.observe) {
                        at.step = step;
                        how.observe(at, data);
                    }
                }
                if (phase.kind == PhaseKind::ReduceScatter && !run.narrow(rings, check.problem)) {
                    return check;
                }
            }
            if (spec.op == CollectiveOp::ReduceScatter) {
                for (ChipId chip = 0; chip < chips; ++chip) {
                    const Segment own = run.stack(chip).back();
                    auto& owners = ownerOf[static_cast<std::size_t>(group[static_cast<std::size_t>(chip)])];
                    for (auto e = own.lo; e < own.hi; ++e) {
                        if (owners[static_cast<std::size_t>(e)] != -1) {
                            check.problem = "element " + std::to_string(e) + " is owned by chips " +
                                            std::to_string(owners[static_cast<std::size_t>(e)]) + " and " +
                                            std::to_string(chip);
                            return check;
                        }
                        owners[static_cast<std::size_t>(e)] = chip;
                    }
                }
            }
        }
    }

    for (ChipId chip = 0; chip < chips; ++chip) {
        const auto g = static_cast<std::size_t>(group[static_cast<std::size_t>(chip)]);
        for (std::int64_t e = 0; e < elements; ++e) {
            const auto idx = static_cast<std::size_t>(e);
            const std::uint64_t got = data[static_cast<std::size_t>(chip)][idx];
            std::uint64_t want = 0;
            bool checked = true;
            switch (spec.op) {
            case CollectiveOp::AllReduce: want = schedule.groupSize > 1 ? groupSum[g][idx] : initial[static_cast<std::size_t>(chip)][idx]; break;
            case CollectiveOp::ReduceScatter:
                checked = schedule.groupSize == 1 || ownerOf[g][idx] == chip;
                want = groupSum[g][idx];
                if (schedule.groupSize > 1 && ownerOf[g][idx] == -1) {
                    check.problem = "element " + std::to_string(e) + " of group " + std::to_string(g) + " has no owner";
                    return check;
                }
                break;
            case CollectiveOp::AllGather: {
                const ChipId owner = schedule.groupSize > 1 ? ownerOf[g][idx] : chip;
                if (owner < 0) {
                    check.problem = "element " + std::to_string(e) + " of group " + std::to_string(g) + " has no owner";
                    return check;
                }
                want = initial[static_cast<std::size_t>(owner)][idx];
                if (schedule.groupSize == 1) {
                    checked = false;
                }
                break;
            }
            }
            if (checked && got != want) {
                check.problem = "chip " + std::to_string(chip) + " element " + std::to_string(e) + " holds " +
                                std::to_string(got) + ", expected " + std::to_string(want);
                return check;
            }
        }
    }
    check.verified = true;
    return check;
}

} // namespace podscope
