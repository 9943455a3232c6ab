#include "TestTopologies.hpp"
#include "collective/Schedule.hpp"
#include "common/InputError.hpp"

#include <gtest/gtest.h>

#include <map>
#include <set>

namespace podscope {
namespace {

CollectiveSpec allReduce(Algorithm algorithm, GroupLayout groups = {}) {
    CollectiveSpec spec;
    spec.algorithm = algorithm;
    spec.bytesPerChip = 1 << 20;
    spec.groups = std::move(groups);
    return spec;
}

// Directed-link loads of one step of every ring in a phase, over all streams.
std::map<LinkId, int> stepLoads(const Schedule& schedule, int phase) {
    std::map<LinkId, int> loads;
    for (const auto& stream : schedule.streams) {
        const RingSet& rings = stream.phases[static_cast<std::size_t>(phase)].rings;
        for (int r = 0; r < rings.ringCount(); ++r) {
            for (int i = 0; i < rings.ringSize; ++i) {
                for (LinkId l : rings.hop(r, i)) {
                    ++loads[l];
                }
            }
        }
    }
    return loads;
}

TEST(Schedule, FoldedLineUsesEachDirectionOfEveryLinkOnce) {
    for (int n : {2, 3, 4, 5, 8, 9}) {
        const Topology line = test::grid({n}, {false});
        const Schedule s = buildSchedule(line, allReduce(Algorithm::Ring));
        const auto loads = stepLoads(s, 0);
        EXPECT_EQ(static_cast<std::int64_t>(loads.size()), line.linkCount()) << n;
        for (const auto& [link, load] : loads) {
            EXPECT_EQ(load, 1) << "n=" << n << " link " << link;
        }
    }
}

TEST(Schedule, TorusRingUsesOneDirection) {
    const Topology ring = test::grid({8}, {true});
    const Schedule s = buildSchedule(ring, allReduce(Algorithm::Ring));
    for (const auto& [link, load] : stepLoads(s, 0)) {
        EXPECT_EQ(ring.linkDirection(link), Direction::Plus);
        EXPECT_EQ(load, 1);
    }
    const Schedule bidir = buildSchedule(ring, allReduce(Algorithm::BidirRing));
    EXPECT_EQ(bidir.streams.size(), 2u);
    EXPECT_EQ(stepLoads(bidir, 0).size(), 16u); // both directions, once each
}

TEST(Schedule, EveryChipIsInExactlyOneRingPerPhase) {
    const Topology t = test::grid({8, 4, 2}, {false, true, true});
    for (auto algorithm : {Algorithm::Ring, Algorithm::BidirRing, Algorithm::TwoD, Algorithm::FlatRing}) {
        const Schedule s = buildSchedule(t, allReduce(algorithm));
        for (const auto& stream : s.streams) {
            for (const auto& phase : stream.phases) {
                std::multiset<ChipId> seen(phase.rings.members.begin(), phase.rings.members.end());
                EXPECT_EQ(static_cast<std::int64_t>(seen.size()), t.chipCount());
                EXPECT_EQ(std::set<ChipId>(seen.begin(), seen.end()).size(), seen.size());
            }
        }
    }
}

TEST(Schedule, TwoDimensionalOrderPutsWrappedDimensionFirst) {
    const Topology multipodShape = test::grid({16, 8}, {false, true});
    const Schedule s = buildSchedule(multipodShape, allReduce(Algorithm::TwoD));
    ASSERT_EQ(s.phaseNames.size(), 4u);
    EXPECT_EQ(s.phaseNames[0], "reduce-scatter along Y");
    EXPECT_EQ(s.phaseNames[1], "reduce-scatter along X");
    EXPECT_EQ(s.phaseNames[2], "all-gather along X");
    EXPECT_EQ(s.phaseNames[3], "all-gather along Y");
    // Y wraps: a counter-rotating pair; X does not: both streams share the folded ring.
    EXPECT_FALSE(s.streams[1].phases[1].reversed);
    EXPECT_TRUE(s.streams[1].phases[0].reversed);
    // Segments shrink by the ring size after each reduce-scatter.
    EXPECT_DOUBLE_EQ(s.streams[0].phases[0].bytesPerMember, (1 << 20) / 2.0);
    EXPECT_DOUBLE_EQ(s.streams[0].phases[1].bytesPerMember, (1 << 20) / 2.0 / 8);

    CollectiveSpec xFirst = allReduce(Algorithm::TwoD);
    xFirst.dimOrder = {0, 1};
    EXPECT_EQ(buildSchedule(multipodShape, xFirst).phaseNames[0], "reduce-scatter along X");
}

TEST(Schedule, GroupsWithinAndAcrossTiles) {
    const Topology t = test::grid({8, 4}, {false, true});
    const GroupLayout within{GroupLayout::Kind::WithinTile, {2, 2}};
    const GroupLayout across{GroupLayout::Kind::AcrossTiles, {2, 2}};
    EXPECT_EQ(groupSizeOf(t, within), 4);
    EXPECT_EQ(groupSizeOf(t, across), 8);
    std::map<int, int> members;
    for (ChipId c = 0; c < t.chipCount(); ++c) {
        ++members[groupOf(t, across, c)];
    }
    EXPECT_EQ(members.size(), 4u);
    for (const auto& [group, count] : members) {
        EXPECT_EQ(count, 8);
    }
    const Schedule s = buildSchedule(t, allReduce(Algorithm::TwoD, across));
    // Every ring stays inside one group.
    for (const auto& stream : s.streams) {
        for (const auto& phase : stream.phases) {
            for (int r = 0; r < phase.rings.ringCount(); ++r) {
                const auto ring = phase.rings.ring(r);
                for (ChipId c : ring) {
                    EXPECT_EQ(groupOf(t, across, c), groupOf(t, across, ring[0]));
                }
            }
        }
    }
}

TEST(Schedule, InvalidGroupsAndOrdersAreRefused) {
    const Topology t = test::grid({8, 4}, {false, true});
    EXPECT_THROW(buildSchedule(t, allReduce(Algorithm::Ring, {GroupLayout::Kind::WithinTile, {3, 2}})), InputError);
    EXPECT_THROW(buildSchedule(t, allReduce(Algorithm::Ring, {GroupLayout::Kind::WithinTile, {2, 2, 2}})), InputError);
    CollectiveSpec missing = allReduce(Algorithm::TwoD);
    missing.dimOrder = {1};
    EXPECT_THROW(buildSchedule(t, missing), InputError);
    CollectiveSpec chunks = allReduce(Algorithm::TwoD);
    chunks.chunks = 0;
    EXPECT_THROW(buildSchedule(t, chunks), InputError);
}

TEST(Schedule, SingleChipGroupsHaveNothingToDo) {
    const Topology t = test::grid({4, 4}, {false, false});
    const Schedule s = buildSchedule(t, allReduce(Algorithm::TwoD, {GroupLayout::Kind::WithinTile, {1, 1}}));
    EXPECT_EQ(s.phaseCount(), 0);
    EXPECT_EQ(s.groupCount, 16);
}

} // namespace
} // namespace podscope
