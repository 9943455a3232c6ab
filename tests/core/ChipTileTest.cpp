// Tiles of neighbouring chips (a replica of several chips, a batch-norm group): strict turns
// where they fit, and a tile wherever one of that many chips fits the topology.
#include "parallelism/ParallelismPlan.hpp"

#include "TestTopologies.hpp"
#include "common/InputError.hpp"
#include "training/Presets.hpp"
#include "training/StepModel.hpp"

#include <gtest/gtest.h>

namespace podscope {
namespace {

using test::grid;

int product(const std::vector<int>& tile) {
    int p = 1;
    for (const int t : tile) {
        p *= t;
    }
    return p;
}

TEST(ChipTile, StrictTurnsWhereTheyFit) {
    const Topology multipod = grid({128, 32}, {false, true});
    EXPECT_EQ(chipTile(multipod, 1, "f"), (std::vector<int>{1, 1}));
    EXPECT_EQ(chipTile(multipod, 2, "f"), (std::vector<int>{2, 1}));
    EXPECT_EQ(chipTile(multipod, 8, "f"), (std::vector<int>{4, 2}));
    const Topology cube = grid({8, 8, 8}, {true, true, true});
    EXPECT_EQ(chipTile(cube, 16, "f"), (std::vector<int>{4, 2, 2}));
}

TEST(ChipTile, PassesOverADimensionTheTileWouldNotDivide) {
    // 128 chips on 4x8x8: strict turns give 8x4x4, which X's 4 does not hold.
    const Topology slice = grid({4, 8, 8}, {true, true, true});
    const std::vector<int> tile = chipTile(slice, 128, "batch_norm_group");
    EXPECT_EQ(product(tile), 128);
    for (int d = 0; d < 3; ++d) {
        EXPECT_EQ(slice.size(d) % tile[static_cast<std::size_t>(d)], 0) << d;
    }
    EXPECT_EQ(tile, (std::vector<int>{4, 8, 4})); // X full, then Y and Z in turn
    // A line of chips: only its one dimension grows.
    EXPECT_EQ(chipTile(grid({1, 16}, {false, false}), 8, "f"), (std::vector<int>{1, 8}));
}

TEST(ChipTile, RefusesOnlyWhatCannotFit) {
    const Topology slice = grid({4, 8, 8}, {true, true, true});
    EXPECT_EQ(product(chipTile(slice, 256, "f")), 256); // the whole slice
    try {
        chipTile(slice, 512, "batch_norm_group");
        ADD_FAILURE();
    } catch (const InputError& e) {
        EXPECT_EQ(e.field(), "batch_norm_group");
        EXPECT_NE(std::string(e.what()).find("4x8x8"), std::string::npos) << e.what();
    }
    EXPECT_THROW(chipTile(grid({6, 6}, {true, true}), 8, "f"), InputError);
}

// The SSD preset's batch-norm group (16 replicas of 8 spatial partitions: 128 chips on a v4,
// one device per chip) on a 256-chip v4 slice: refused before, it simulates.
TEST(ChipTile, SsdsBatchNormGroupFitsAV4Slice) {
    Scenario s = loadPreset("mlperf07-ssd-tf-4096").scenario;
    s.hardware = "tpu-v4";
    s.topology = "4x8x8";
    s.wrap = "xyz";
    s.globalBatch = 2048;
    EXPECT_GT(simulateTraining(s).stepTimeS, 0);
}

} // namespace
} // namespace podscope
