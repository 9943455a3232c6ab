#pragma once

#include <string>
#include <vector>

namespace podscope {

enum class CollectiveOp { AllReduce, ReduceScatter, AllGather };

// ring: unidirectional rings, dimension by dimension. bidir-ring: two counter-rotating rings
// with half the data each, in every dimension. twoD: bidirectional where a dimension wraps,
// unidirectional (folded) where it does not. twoDDual: twoD run in two dimension orders at once
// (the order and its reverse), each on its share of the payload, so that every dimension's links
// carry traffic in the first phase. flatRing: one ring over a snake order of all chips.
enum class Algorithm { Ring, BidirRing, TwoD, TwoDDual, FlatRing };

enum class ElementType { BF16, FP32 };

// Which chips reduce together. All: every chip. WithinTile: each tile of `tile` chips is a
// group (a replica of several chips). AcrossTiles: chips at the same offset in every tile form
// a group (the data-parallel groups, which sum gradients, when a replica occupies a tile).
struct GroupLayout {
    enum class Kind { All, WithinTile, AcrossTiles };
    Kind kind = Kind::All;
    std::vector<int> tile;
};

struct CollectiveSpec {
    CollectiveOp op = CollectiveOp::AllReduce;
    Algorithm algorithm = Algorithm::TwoD;
    // Payload per chip: the buffer each chip holds (for all-gather, the gathered result).
    double bytesPerChip = 64.0 * 1024 * 1024;
    ElementType element = ElementType::BF16;
    // The payload is split into this many chunks that pipeline through the ring steps.
    int chunks = 1;
    // Dimensions in the order the reduce-scatter visits them; empty: fastest ring first.
    std::vector<int> dimOrder;
    GroupLayout groups;
};

int elementBytes(ElementType element);

std::string toString(CollectiveOp op);
std::string toString(Algorithm algorithm);
std::string toString(ElementType element);
std::string toString(const GroupLayout& groups);

// Parsers for user text; each throws InputError naming `field` and the accepted values.
CollectiveOp parseCollectiveOp(const std::string& text, const std::string& field = "op");
Algorithm parseAlgorithm(const std::string& text, const std::string& field = "algorithm");
ElementType parseElementType(const std::string& text, const std::string& field = "element");
// "all", "within:2x2", "across:2x2".
GroupLayout parseGroupLayout(const std::string& text, const std::string& field = "groups");
// "yx", "xyz": a permutation of dimension letters.
std::vector<int> parseDimOrder(const std::string& text, int rank, const std::string& field = "dim-order");
// "67108864", "64MiB", "1.5GB", "512K": bytes, positive and at most the payload limit.
double parseByteSize(const std::string& text, const std::string& field = "bytes");

} // namespace podscope
