#include "TestTopologies.hpp"
#include "collective/FunctionalRunner.hpp"
#include "collective/Schedule.hpp"

#include <gtest/gtest.h>

namespace podscope {
namespace {

struct Shape {
    std::vector<int> dims;
    std::vector<bool> wrap;
};

// Every algorithm computes what it claims, on 1-D, 2-D and 3-D grids, with and without
// wrap-around, odd sizes, several chunks, and groups.
TEST(FunctionalRunner, EveryAlgorithmComputesItsCollective) {
    const std::vector<Shape> shapes = {
        {{1}, {false}},           {{2}, {true}},           {{5}, {false}},           {{7}, {true}},
        {{4, 4}, {true, true}},   {{4, 4}, {false, false}}, {{6, 3}, {false, true}},  {{8, 4}, {false, true}},
        {{3, 2, 4}, {false, false, false}}, {{4, 4, 4}, {true, true, true}}, {{2, 3, 2}, {true, false, true}},
    };
    for (const auto& shape : shapes) {
        const Topology t = test::grid(shape.dims, shape.wrap);
        for (auto algorithm : {Algorithm::Ring, Algorithm::BidirRing, Algorithm::TwoD, Algorithm::FlatRing}) {
            for (auto op : {CollectiveOp::AllReduce, CollectiveOp::ReduceScatter, CollectiveOp::AllGather}) {
                for (int chunks : {1, 3}) {
                    CollectiveSpec spec;
                    spec.op = op;
                    spec.algorithm = algorithm;
                    spec.chunks = chunks;
                    spec.bytesPerChip = 1e6;
                    const auto check = runFunctional(t, spec);
                    EXPECT_TRUE(check.verified) << t.dimsText() << " wrap " << t.wrapText() << " "
                                                << toString(algorithm) << " " << toString(op) << " chunks "
                                                << chunks << ": " << check.problem;
                }
            }
        }
    }
}

TEST(FunctionalRunner, GroupsReduceOnlyWithinThemselves) {
    const Topology t = test::grid({8, 4}, {false, true});
    for (const char* kind : {"within", "across"}) {
        for (auto algorithm : {Algorithm::Ring, Algorithm::TwoD, Algorithm::FlatRing}) {
            for (auto op : {CollectiveOp::AllReduce, CollectiveOp::ReduceScatter, CollectiveOp::AllGather}) {
                CollectiveSpec spec;
                spec.op = op;
                spec.algorithm = algorithm;
                spec.chunks = 2;
                spec.bytesPerChip = 1e5;
                spec.groups = {std::string(kind) == "within" ? GroupLayout::Kind::WithinTile
                                                             : GroupLayout::Kind::AcrossTiles,
                               {2, 2}};
                const auto check = runFunctional(t, spec);
                EXPECT_TRUE(check.verified) << kind << " " << toString(algorithm) << " " << toString(op) << ": "
                                            << check.problem;
            }
        }
    }
}

TEST(FunctionalRunner, PayloadsWithFewerElementsThanChips) {
    const Topology t = test::grid({8, 4}, {true, true});
    CollectiveSpec spec;
    spec.bytesPerChip = 10; // five bf16 elements over 32 chips: most shards are empty
    spec.chunks = 2;
    const auto check = runFunctional(t, spec);
    EXPECT_EQ(check.elementsPerChip, 5);
    EXPECT_TRUE(check.verified) << check.problem;
}

// The check is only worth something if it can fail: a ring that loses a member must be caught.
TEST(FunctionalRunner, CatchesABrokenSchedule) {
    const Topology t = test::grid({4, 4}, {true, true});
    for (auto op : {CollectiveOp::AllReduce, CollectiveOp::ReduceScatter, CollectiveOp::AllGather}) {
        CollectiveSpec spec;
        spec.op = op;
        spec.algorithm = Algorithm::Ring;
        spec.bytesPerChip = 1e4;
        Schedule schedule = buildSchedule(t, spec);
        auto& members = schedule.streams[0].phases.front().rings.members;
        members[1] = members[0]; // one chip takes part twice, its neighbour not at all
        const auto check = runFunctional(t, schedule);
        EXPECT_FALSE(check.verified) << toString(op);
        EXPECT_FALSE(check.problem.empty());
    }
}

// The observer sees every slice (stream, chunk) before its first step and after each of its
// ring steps, with the check's own data: watching does not change the verdict.
TEST(FunctionalRunner, ObserverSeesEveryRingStep) {
    const Topology t = test::grid({8}, {true});
    CollectiveSpec spec;
    spec.algorithm = Algorithm::BidirRing;
    spec.chunks = 2;
    spec.bytesPerChip = 1e4;
    int initial = 0;
    int steps = 0;
    std::uint64_t lastSeen = 0;
    FunctionalRun how;
    how.observe = [&](const RingStep& at, const ChipBuffers& data) {
        (at.phase < 0 ? initial : steps) += 1;
        EXPECT_LT(at.step, at.steps);
        lastSeen = data[0][static_cast<std::size_t>(at.sliceBegin)];
    };
    const auto check = runFunctional(t, buildSchedule(t, spec), how);
    EXPECT_TRUE(check.verified) << check.problem;
    EXPECT_EQ(initial, 2 * 2);         // streams x chunks
    EXPECT_EQ(steps, 2 * 2 * 2 * 7);   // x (reduce-scatter + all-gather) x 7 steps
    EXPECT_NE(lastSeen, 0u);
}

} // namespace
} // namespace podscope
