// The padded HBM layout of feature maps, against the layouts XLA chose in Google's TPU-v3
// profiles (google/paragraph hlo_after_optimizations_*_32_tpuv3_stats.csv, each op's HLO text;
// docs/training-model.md section 3 rule 11).
#include "compute/CoreModel.hpp"
#include "compute/TiledLayout.hpp"

#include <gtest/gtest.h>

namespace podscope {
namespace {

CoreModel v3() {
    return loadCoreModel("tpu-v3");
}

// ResNet-50 at 128 images per core stores its 64-feature maps batch-minor ({0,3,2,1}: the batch
// on the 128 lanes, the features on whole 8-sublane tiles): nothing is padded.
TEST(TiledLayout, FullBatchOnTheLanesPadsNothing) {
    EXPECT_DOUBLE_EQ(mapPadding(128, 64, v3()), 1.0);
    EXPECT_DOUBLE_EQ(mapPadding(256, 1024, v3()), 1.0);
}

// SSD at 16 per core stores them feature-minor ({3,0,2,1}, T(8,128)): 64 of 128 lanes.
TEST(TiledLayout, SixtyFourFeaturesAtSixteenPerCoreFillHalfTheLanes) {
    EXPECT_DOUBLE_EQ(paddedMapPosition(16, 64, v3()), 128.0 * 16);
    EXPECT_DOUBLE_EQ(mapPadding(16, 64, v3()), 2.0);
}

// A 3-channel image at 16 per core is read batch-minor with a 4-sublane tile
// (bf16[300,300,3,16]{3,2,1,0:T(4,128)}): 128 x 4 elements hold 16 x 3.
TEST(TiledLayout, FewRowsTakeTheNextPowerOfTwoOfSublanes) {
    EXPECT_DOUBLE_EQ(paddedMapPosition(16, 3, v3()), 128.0 * 4);
    // Mask R-CNN's space-to-depth stem input at 4 per core: 12 features on the lanes, the batch
    // on a 4-sublane tile (bf16[416,672,4,12]{3,2,1,0:T(4,128)}).
    EXPECT_DOUBLE_EQ(paddedMapPosition(4, 12, v3()), 128.0 * 4);
    // One example: a one-sublane tile.
    EXPECT_DOUBLE_EQ(paddedMapPosition(1, 64, v3()), 128.0);
}

// The layout that pads less wins, whichever dimension is larger; padding never loses elements.
TEST(TiledLayout, PaddingIsNeverBelowTheElements) {
    const CoreModel c = v3();
    for (double batch : {1.0, 2.0, 3.0, 7.0, 8.0, 16.0, 100.0, 128.0, 129.0}) {
        for (double features : {1.0, 3.0, 12.0, 64.0, 127.0, 128.0, 256.0, 300.0}) {
            EXPECT_GE(mapPadding(batch, features, c), 1.0) << batch << " x " << features;
            EXPECT_DOUBLE_EQ(paddedMapPosition(batch, features, c),
                             paddedMapPosition(features, batch, c))
                << batch << " x " << features;
        }
    }
    EXPECT_DOUBLE_EQ(paddedMapPosition(0, 64, c), 0.0);
}

// The tile is the machine's fact: v6e's 256-wide MXU does not widen its 128 vector lanes.
TEST(TiledLayout, TheLanesAreTheMachinesNotTheMxus) {
    const CoreModel v6e = loadCoreModel("tpu-v6e");
    EXPECT_EQ(v6e.mxuDim, 256);
    EXPECT_DOUBLE_EQ(mapPadding(16, 64, v6e), 2.0);
}

// Any array in any layout: the bytes the profiler counts for Mask R-CNN's relayouts
// (its GB/s times its time, section 14 "Relayouts and transposes") are the tiled bytes.
TEST(TiledLayout, ArraysInAnyLayoutPadTheirTwoMinorAxes) {
    const CoreModel c = v3();
    // %copy.8146: bf16[4,209664,4]{2,1,0:T(8,128)} to {1,2,0:T(4,128)}, 221.4 MB in all.
    const double rowMajor = tiledArrayElements({4, 209664, 4}, {2, 1, 0}, c);
    const double anchorsMinor = tiledArrayElements({4, 209664, 4}, {1, 2, 0}, c);
    EXPECT_DOUBLE_EQ(rowMajor, 4.0 * 209664 * 128);
    EXPECT_DOUBLE_EQ(anchorsMinor, 4.0 * 209664 * 4);
    EXPECT_NEAR(2 * (rowMajor + anchorsMinor) / 1e6, 221.4, 0.1);
    // %copy.8285: bf16[4,512,7,7,256] {1,0,4,3,2:T(4,128)} and {4,3,2,1,0:T(8,128)}: 110.1 MB.
    const double roiMinor = tiledArrayElements({4, 512, 7, 7, 256}, {1, 0, 4, 3, 2}, c);
    const double featureMinor = tiledArrayElements({4, 512, 7, 7, 256}, {4, 3, 2, 1, 0}, c);
    EXPECT_DOUBLE_EQ(roiMinor, 4.0 * 512 * 7 * 7 * 256);
    EXPECT_DOUBLE_EQ(featureMinor, 4.0 * 512 * 7 * 8 * 256);
    EXPECT_NEAR(2 * (roiMinor + featureMinor) / 1e6, 110.1, 0.1);
    // One axis, or one element per axis: nothing to pad beyond the elements.
    EXPECT_DOUBLE_EQ(tiledArrayElements({4 * 13104 * 4}, {0}, c), 4.0 * 13104 * 4);
    EXPECT_DOUBLE_EQ(tiledArrayElements({1, 1}, {1, 0}, c), 128.0);
}

} // namespace
} // namespace podscope
