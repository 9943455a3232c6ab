#pragma once

#include "collective/CollectiveSpec.hpp"
#include "topology/Topology.hpp"

#include <span>
#include <string>
#include <vector>

namespace podscope {

enum class PhaseKind { ReduceScatter, AllGather };

// Rings of equal size in flat storage. Member i of a ring sends to member i+1 (and the last
// to the first) along the route hopLinks[hopStart[h] .. hopStart[h+1]), h = ring*size + i.
struct RingSet {
    int ringSize = 0;
    std::vector<ChipId> members;
    std::vector<std::int32_t> hopStart{0};
    std::vector<LinkId> hopLinks;

    int ringCount() const { return ringSize ? static_cast<int>(members.size()) / ringSize : 0; }
    std::span<const ChipId> ring(int r) const {
        return {members.data() + static_cast<std::size_t>(r) * ringSize, static_cast<std::size_t>(ringSize)};
    }
    std::span<const LinkId> hop(int r, int i) const {
        const auto h = static_cast<std::size_t>(r) * ringSize + i;
        return {hopLinks.data() + hopStart[h], static_cast<std::size_t>(hopStart[h + 1] - hopStart[h])};
    }
};

// One ring pass: every ring of the set runs ringSize-1 steps of reduce-scatter or all-gather
// on a segment of bytesPerMember bytes per chip (before chunking).
struct Phase {
    PhaseKind kind = PhaseKind::ReduceScatter;
    int dim = -1;          // -1: a flat ring over all dimensions
    bool reversed = false; // counter-rotating ring of a bidirectional pair
    double bytesPerMember = 0;
    RingSet rings;
};

// A share of the payload that runs its own sequence of phases. Bidirectional algorithms
// have two streams, each with half the data; 2d-dual has one or two per dimension order
// (four on a grid with a wrapped dimension). Streams' phases line up one to one: phase k is
// of the same kind in every stream and a chip starts phase k+1 once it has finished phase k
// of all of them, but the dimension may differ (2d-dual's orders run on different links).
struct Stream {
    double payloadFraction = 1;
    std::vector<Phase> phases;
};

enum class ScheduleScope {
    Full,            // every ring of every group
    ThroughChipZero, // only the rings on the physical lines through chip 0 (analytic engine)
};

struct Schedule {
    CollectiveSpec spec;
    ScheduleScope scope = ScheduleScope::Full;
    int groupSize = 1;
    int groupCount = 1;
    std::vector<int> dimOrder; // dimensions the first stream's reduce-scatter visits, in order
    std::vector<Stream> streams;
    std::vector<std::string> phaseNames; // one per phase index, naming what every stream does

    int phaseCount() const { return streams.empty() ? 0 : static_cast<int>(streams[0].phases.size()); }
};

// Group membership for a layout (validated against the topology): group id of each chip.
int groupOf(const Topology& topology, const GroupLayout& groups, ChipId chip);
int groupSizeOf(const Topology& topology, const GroupLayout& groups);

// Checks the spec against the topology (tile divides the dimensions, the dimension order
// names the active dimensions, chunk count in range); throws InputError naming the field.
void validateCollective(const Topology& topology, const CollectiveSpec& spec);

Schedule buildSchedule(const Topology& topology, const CollectiveSpec& spec,
                       ScheduleScope scope = ScheduleScope::Full);

} // namespace podscope
