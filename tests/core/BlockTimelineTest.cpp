#include "collective/BlockTimeline.hpp"

#include "collective/Schedule.hpp"
#include "common/InputError.hpp"
#include "topology/TopologyPresets.hpp"

#include <bit>
#include <gtest/gtest.h>
#include <set>

namespace podscope {
namespace {

Topology ringOf(const std::string& dims, const std::string& wrap) {
    return Topology(resolveTopology(dims, wrap, loadHardware("tpu-v3")));
}

CollectiveSpec specFor(Algorithm algorithm, CollectiveOp op = CollectiveOp::AllReduce,
                       int chunks = 1) {
    CollectiveSpec spec;
    spec.op = op;
    spec.algorithm = algorithm;
    spec.chunks = chunks;
    spec.bytesPerChip = 64.0 * 1024 * 1024;
    return spec;
}

int contributorCount(const BlockState& block) {
    return std::popcount(block.contributors);
}

std::uint64_t everyone(int members) {
    return members == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << members) - 1;
}

// Blocks of one stream on one chip holding exactly `count` contributors.
int blocksWith(const std::vector<BlockState>& row, int stream, int count) {
    int n = 0;
    for (const auto& block : row) {
        n += block.stream == stream && contributorCount(block) == count ? 1 : 0;
    }
    return n;
}

int mostContributors(const std::vector<BlockState>& row, int stream) {
    int most = 0;
    for (const auto& block : row) {
        if (block.stream == stream) {
            most = std::max(most, contributorCount(block));
        }
    }
    return most;
}

// The closed forms of a ring all-reduce on n chips, for every stream of the timeline: after
// reduce-scatter step k each chip's best block has k+1 contributors and it has exactly one
// such; after the reduce-scatter each chip owns a different fully summed block; at the end
// every block everywhere is the full sum.
void expectRingAllReduce(const BlockTimeline& timeline, int n) {
    ASSERT_EQ(static_cast<int>(timeline.frames.size()), 1 + 2 * (n - 1));
    ASSERT_EQ(static_cast<int>(timeline.chips.size()), n);
    for (int stream = 0; stream < timeline.streams; ++stream) {
        for (const auto& row : timeline.frames[0].chips) {
            EXPECT_EQ(blocksWith(row, stream, 1), n);
        }
        for (int k = 1; k < n; ++k) {
            for (const auto& row : timeline.frames[static_cast<std::size_t>(k)].chips) {
                EXPECT_EQ(mostContributors(row, stream), k + 1) << "after step " << k;
                EXPECT_EQ(blocksWith(row, stream, k + 1), 1) << "after step " << k;
            }
        }
        std::set<int> ownedShards;
        for (const auto& row : timeline.frames[static_cast<std::size_t>(n - 1)].chips) {
            ASSERT_EQ(blocksWith(row, stream, n), 1);
            for (const auto& block : row) {
                if (block.stream == stream && block.contributors == everyone(n)) {
                    ownedShards.insert(block.shard);
                }
            }
        }
        EXPECT_EQ(static_cast<int>(ownedShards.size()), n) << "each chip owns a different block";
    }
    for (const auto& row : timeline.frames.back().chips) {
        for (const auto& block : row) {
            EXPECT_EQ(block.contributors, everyone(n));
        }
    }
}

TEST(BlockTimeline, EightChipRingAllReduce) {
    const Topology t = ringOf("8", "x");
    const auto timeline = blockTimeline(t, specFor(Algorithm::Ring));
    EXPECT_EQ(timeline.streams, 1);
    EXPECT_EQ(timeline.shards, 8);
    EXPECT_DOUBLE_EQ(timeline.blockBytes, 8.0 * 1024 * 1024);
    expectRingAllReduce(timeline, 8);
    EXPECT_TRUE(timeline.check.verified) << timeline.check.problem;
    // Each step moves one block per chip: exactly one block of every chip changes.
    for (std::size_t f = 1; f < timeline.frames.size(); ++f) {
        EXPECT_EQ(timeline.frames[f].bytesPerRingStep, 8.0 * 1024 * 1024);
        for (const auto& row : timeline.frames[f].chips) {
            EXPECT_EQ(std::count_if(row.begin(), row.end(),
                                    [](const BlockState& b) { return b.changed; }),
                      1);
        }
    }
    EXPECT_EQ(timeline.frames[0].phase, -1);
    EXPECT_EQ(timeline.frames[3].label, "reduce-scatter along X, step 3/7 (clockwise ring)");
    EXPECT_NE(timeline.frames[7].label.find("each chip owns 1/8 of the sum"), std::string::npos);
    EXPECT_NE(timeline.frames.back().label.find("full sum"), std::string::npos);
}

// Same number of steps, but each ring carries half the data: blocks and messages are half the
// size, and the two rings use opposite link directions, so the collective takes half as long.
TEST(BlockTimeline, BidirectionalRingMovesHalfTheDataPerRing) {
    const Topology t = ringOf("8", "x");
    const auto one = blockTimeline(t, specFor(Algorithm::Ring));
    const auto two = blockTimeline(t, specFor(Algorithm::BidirRing));
    EXPECT_EQ(two.streams, 2);
    EXPECT_EQ(two.frames.size(), one.frames.size());
    EXPECT_DOUBLE_EQ(two.blockBytes, one.blockBytes / 2);
    EXPECT_EQ(two.frames[0].chips[0].size(), 16u);
    for (std::size_t f = 1; f < two.frames.size(); ++f) {
        EXPECT_DOUBLE_EQ(two.frames[f].bytesPerRingStep, one.frames[f].bytesPerRingStep / 2);
        for (const auto& row : two.frames[f].chips) {
            EXPECT_EQ(std::count_if(row.begin(), row.end(),
                                    [](const BlockState& b) { return b.changed; }),
                      2)
                << "one block per ring per step";
        }
    }
    expectRingAllReduce(two, 8);
    EXPECT_NE(two.frames[1].label.find("two rings, half the data each"), std::string::npos);
    // The counter-clockwise ring's first step sums chip 1's block into chip 0, the clockwise
    // ring's chip 7's.
    const auto& chip0 = two.frames[1].chips[0];
    std::set<std::uint64_t> received;
    for (const auto& block : chip0) {
        if (block.changed) {
            received.insert(block.contributors);
        }
    }
    EXPECT_EQ(received, (std::set<std::uint64_t>{0b1000'0001, 0b0000'0011}));
}

// The frames come from the functional check's own run: its verdict comes with them, and the
// final frame holds what the check verified.
TEST(BlockTimeline, FinalStateIsWhatTheFunctionalCheckVerified) {
    const Topology t = ringOf("8", "x");
    for (auto algorithm :
         {Algorithm::Ring, Algorithm::BidirRing, Algorithm::TwoD, Algorithm::FlatRing}) {
        for (auto op :
             {CollectiveOp::AllReduce, CollectiveOp::ReduceScatter, CollectiveOp::AllGather}) {
            for (int chunks : {1, 3}) {
                const auto spec = specFor(algorithm, op, chunks);
                const auto timeline = blockTimeline(t, spec);
                EXPECT_TRUE(timeline.check.verified)
                    << toString(algorithm) << " " << toString(op) << ": " << timeline.check.problem;
                EXPECT_TRUE(runFunctional(t, spec).verified);
                EXPECT_EQ(timeline.check.elementsPerChip,
                          static_cast<std::int64_t>(timeline.frames.back().chips[0].size()));
                EXPECT_EQ(timeline.frames.size(), op == CollectiveOp::AllReduce ? 15u : 8u);
            }
        }
    }
}

TEST(BlockTimeline, ReduceScatterLeavesEachBlockSummedOnExactlyOneChip) {
    const Topology t = ringOf("8", "x");
    const auto timeline =
        blockTimeline(t, specFor(Algorithm::BidirRing, CollectiveOp::ReduceScatter));
    const auto& last = timeline.frames.back();
    for (std::size_t b = 0; b < last.chips[0].size(); ++b) {
        int owners = 0;
        for (const auto& row : last.chips) {
            owners += row[b].contributors == everyone(8) ? 1 : 0;
        }
        EXPECT_EQ(owners, 1) << "block " << b;
    }
}

TEST(BlockTimeline, AllGatherSpreadsEachOwnersBlock) {
    const Topology t = ringOf("8", "x");
    const auto timeline = blockTimeline(t, specFor(Algorithm::Ring, CollectiveOp::AllGather));
    for (std::size_t m = 0; m < 8; ++m) {
        const auto& row = timeline.frames[0].chips[m];
        EXPECT_EQ(blocksWith(row, 0, 0), 7) << "nothing has arrived yet";
        EXPECT_EQ(blocksWith(row, 0, 1), 1);
    }
    const auto& last = timeline.frames.back().chips;
    for (const auto& row : last) {
        for (std::size_t b = 0; b < row.size(); ++b) {
            EXPECT_EQ(contributorCount(row[b]), 1);
            EXPECT_EQ(row[b].contributors, last[0][b].contributors)
                << "every chip holds the same data";
        }
    }
}

// 2-D all-reduce on a 4x4 torus: reduce-scatter along X then Y, all-gather along Y then X,
// both dimensions bidirectional.
TEST(BlockTimeline, TwoDimensionalAllReduceOnATorus) {
    const Topology t = ringOf("4x4", "xy");
    const auto timeline = blockTimeline(t, specFor(Algorithm::TwoD));
    ASSERT_EQ(timeline.frames.size(), 1u + 2 * (3 + 3));
    EXPECT_EQ(timeline.chips.size(), 16u);
    EXPECT_EQ(timeline.streams, 2);
    EXPECT_TRUE(timeline.check.verified) << timeline.check.problem;
    for (int stream = 0; stream < 2; ++stream) {
        for (const auto& row : timeline.frames[3].chips) {
            EXPECT_EQ(blocksWith(row, stream, 4), 4)
                << "a quarter of the stream summed over a line of 4";
        }
        for (const auto& row : timeline.frames[6].chips) {
            EXPECT_EQ(blocksWith(row, stream, 16), 1) << "one block summed over all 16";
        }
    }
    for (const auto& row : timeline.frames.back().chips) {
        for (const auto& block : row) {
            EXPECT_EQ(block.contributors, everyone(16));
        }
    }
}

TEST(BlockTimeline, GroupsShowTheGroupOfChipZero) {
    const Topology t = ringOf("16x8", "xy");
    auto spec = specFor(Algorithm::TwoD);
    spec.groups = {GroupLayout::Kind::WithinTile, {4, 2}};
    const auto timeline = blockTimeline(t, spec);
    EXPECT_EQ(timeline.chips, (std::vector<ChipId>{0, 1, 2, 3, 16, 17, 18, 19}));
    EXPECT_TRUE(timeline.check.verified) << timeline.check.problem;
    for (const auto& row : timeline.frames.back().chips) {
        for (const auto& block : row) {
            EXPECT_EQ(block.contributors, everyone(8));
        }
    }
}

TEST(BlockTimeline, SixtyFourChipsAtMost) {
    const auto sixtyFour = blockTimeline(ringOf("64", "x"), specFor(Algorithm::Ring));
    EXPECT_TRUE(sixtyFour.check.verified) << sixtyFour.check.problem;
    EXPECT_EQ(sixtyFour.frames.back().chips[63][0].contributors, ~std::uint64_t{0});
    try {
        blockTimeline(ringOf("128", "x"), specFor(Algorithm::Ring));
        FAIL() << "128 chips accepted";
    } catch (const InputError& error) {
        EXPECT_EQ(error.field(), "chips");
    }
}

} // namespace
} // namespace podscope
