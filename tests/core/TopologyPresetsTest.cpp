#include "common/InputError.hpp"
#include "compute/CoreModel.hpp"
#include "topology/Hardware.hpp"
#include "topology/TopologyPresets.hpp"

#include <gtest/gtest.h>

namespace podscope {
namespace {

TEST(Hardware, TpuV3FactsComeFromTheReference) {
    const Hardware hw = loadHardware("tpu-v3");
    EXPECT_EQ(hw.coresPerChip, 2);
    EXPECT_DOUBLE_EQ(hw.linkBandwidthBps, 82e9); // 656 Gbit/s per direction
    // The per-hop latency is not published: it is the calibrated value, and a physical one.
    EXPECT_DOUBLE_EQ(hw.linkLatencyS, loadCoreCalibration("tpu-v3").linkLatencyS);
    EXPECT_GT(hw.linkLatencyS, 0.05e-6);
    EXPECT_LT(hw.linkLatencyS, 3e-6);
    EXPECT_DOUBLE_EQ(hw.peakFlopsPerChip, 123e12);
    EXPECT_EQ(hw.hostChipBlock, (std::vector<int>{4, 2}));
    EXPECT_THROW(loadHardware("tpu-v9"), InputError);
}

TEST(TopologyPresets, NamedPresets) {
    const auto hw = loadHardware("tpu-v3");
    const auto multipod = resolveTopology("tpu-v3-multipod", std::nullopt, hw);
    EXPECT_EQ(multipod.dims, (std::vector<int>{128, 32}));
    EXPECT_EQ(multipod.wrap, (std::vector<bool>{false, true}));
    const auto twoPod = resolveTopology("tpu-v3-2pod", std::nullopt, hw);
    EXPECT_EQ(twoPod.dims, (std::vector<int>{64, 32}));
    EXPECT_EQ(twoPod.wrap, (std::vector<bool>{false, true}));
    const auto pod = resolveTopology("tpu-v3-pod", std::nullopt, hw);
    EXPECT_EQ(pod.dims, (std::vector<int>{32, 32}));
    EXPECT_EQ(pod.wrap, (std::vector<bool>{true, true}));
}

TEST(TopologyPresets, StandardSlicesByChipCount) {
    const std::pair<int, std::vector<int>> expected[] = {
        {4, {2, 2}},      {16, {4, 4}},     {32, {4, 8}},     {64, {8, 8}},     {128, {8, 16}},  {256, {16, 16}},
        {512, {16, 32}},  {1024, {32, 32}}, {2048, {64, 32}}, {4096, {128, 32}}};
    for (const auto& [chips, dims] : expected) {
        const auto slice = standardSlice("tpu-v3", chips);
        EXPECT_EQ(slice.dims, dims) << chips;
    }
    EXPECT_EQ(standardSlice("tpu-v3", 4096).wrap, (std::vector<bool>{false, true}));
    EXPECT_EQ(standardSlice("tpu-v3", 1024).wrap, (std::vector<bool>{true, true}));
    EXPECT_THROW(standardSlice("tpu-v3", 100), InputError);
}

TEST(TopologyPresets, DimsParse) {
    EXPECT_EQ(parseDims("128x32"), (std::vector<int>{128, 32}));
    EXPECT_EQ(parseDims("128"), (std::vector<int>{128}));
    EXPECT_EQ(parseDims("16x16x16"), (std::vector<int>{16, 16, 16}));
    for (const char* bad : {"", "x", "128x", "x32", "12a", "-4x4", "0x4", "1000000x1000000", "99999999999999999999",
                            "2x2x2x2x2", "4 x4"}) {
        EXPECT_THROW(parseDims(bad), InputError) << bad;
    }
}

TEST(TopologyPresets, WrapParse) {
    EXPECT_EQ(parseWrap("y", 2), (std::vector<bool>{false, true}));
    EXPECT_EQ(parseWrap("xy", 2), (std::vector<bool>{true, true}));
    EXPECT_EQ(parseWrap("none", 3), (std::vector<bool>{false, false, false}));
    EXPECT_EQ(parseWrap("all", 3), (std::vector<bool>{true, true, true}));
    EXPECT_THROW(parseWrap("z", 2), InputError);
    EXPECT_THROW(parseWrap("xx", 2), InputError);
    EXPECT_THROW(parseWrap("", 2), InputError);
    EXPECT_THROW(parseWrap("q", 2), InputError);
}

TEST(TopologyPresets, DimsWithoutWrapAreMeshes) {
    const auto spec = resolveTopology("16x16x16", std::nullopt, loadHardware("tpu-v3"));
    EXPECT_EQ(spec.wrap, (std::vector<bool>{false, false, false}));
    const auto torus = resolveTopology("16x16x16", std::string("xyz"), loadHardware("tpu-v3"));
    EXPECT_EQ(torus.wrap, (std::vector<bool>{true, true, true}));
}

} // namespace
} // namespace podscope
