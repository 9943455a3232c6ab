#include "collective/CollectiveSpec.hpp"
#include "common/InputError.hpp"

#include <gtest/gtest.h>

namespace podscope {
namespace {

TEST(CollectiveSpec, NamesRoundTrip) {
    for (auto op : {CollectiveOp::AllReduce, CollectiveOp::ReduceScatter, CollectiveOp::AllGather}) {
        EXPECT_EQ(parseCollectiveOp(toString(op)), op);
    }
    for (auto a : {Algorithm::Ring, Algorithm::BidirRing, Algorithm::TwoD, Algorithm::FlatRing}) {
        EXPECT_EQ(parseAlgorithm(toString(a)), a);
    }
    for (auto e : {ElementType::BF16, ElementType::FP32}) {
        EXPECT_EQ(parseElementType(toString(e)), e);
    }
    for (const char* text : {"all", "within:2x2", "across:4x2"}) {
        EXPECT_EQ(toString(parseGroupLayout(text)), text);
    }
    EXPECT_EQ(elementBytes(ElementType::BF16), 2);
    EXPECT_EQ(elementBytes(ElementType::FP32), 4);
}

TEST(CollectiveSpec, UnknownNamesAreRefusedWithTheField) {
    try {
        parseAlgorithm("torus-magic");
        FAIL();
    } catch (const InputError& e) {
        EXPECT_EQ(e.field(), "algorithm");
        EXPECT_NE(std::string(e.what()).find("torus-magic"), std::string::npos);
    }
    EXPECT_THROW(parseCollectiveOp("broadcast"), InputError);
    EXPECT_THROW(parseElementType("fp8"), InputError);
    EXPECT_THROW(parseGroupLayout("within"), InputError);
    EXPECT_THROW(parseGroupLayout("around:2x2"), InputError);
    EXPECT_THROW(parseGroupLayout("within:0x2"), InputError);
}

TEST(CollectiveSpec, ByteSizes) {
    EXPECT_DOUBLE_EQ(parseByteSize("67108864"), 67108864.0);
    EXPECT_DOUBLE_EQ(parseByteSize("64MiB"), 67108864.0);
    EXPECT_DOUBLE_EQ(parseByteSize("1.5GB"), 1.5e9);
    EXPECT_DOUBLE_EQ(parseByteSize("512K"), 512e3);
    for (const char* bad : {"", "0", "-1", "abc", "64 MiB", "64XB", "nan", "inf", "2TiB", "1e400"}) {
        EXPECT_THROW(parseByteSize(bad), InputError) << bad;
    }
}

TEST(CollectiveSpec, DimOrder) {
    EXPECT_EQ(parseDimOrder("yx", 2), (std::vector<int>{1, 0}));
    EXPECT_EQ(parseDimOrder("zxy", 3), (std::vector<int>{2, 0, 1}));
    EXPECT_THROW(parseDimOrder("xx", 2), InputError);
    EXPECT_THROW(parseDimOrder("z", 2), InputError);
    EXPECT_THROW(parseDimOrder("", 2), InputError);
}

} // namespace
} // namespace podscope
