#include "collective/CollectiveSpec.hpp"

#include "common/InputError.hpp"
#include "common/Limits.hpp"
#include "topology/TopologyPresets.hpp"

#include <cmath>
#include <cstdlib>

namespace podscope {

int elementBytes(ElementType element) { return element == ElementType::BF16 ? 2 : 4; }

std::string toString(CollectiveOp op) {
    switch (op) {
    case CollectiveOp::AllReduce: return "all-reduce";
    case CollectiveOp::ReduceScatter: return "reduce-scatter";
    case CollectiveOp::AllGather: return "all-gather";
    }
    return "?";
}

std::string toString(Algorithm algorithm) {
    switch (algorithm) {
    case Algorithm::Ring: return "ring";
    case Algorithm::BidirRing: return "bidir-ring";
    case Algorithm::TwoD: return "2d";
    case Algorithm::TwoDDual:
        return "2d-dual";
    case Algorithm::FlatRing: return "flat-ring";
    }
    return "?";
}

std::string toString(ElementType element) { return element == ElementType::BF16 ? "bf16" : "fp32"; }

std::string toString(const GroupLayout& groups) {
    if (groups.kind == GroupLayout::Kind::All) {
        return "all";
    }
    // Appended piece by piece: GCC 12 at -O3 reports a false -Wrestrict on
    // `const char* + std::string` (GCC bug 105329).
    std::string text = groups.kind == GroupLayout::Kind::WithinTile ? "within:" : "across:";
    for (std::size_t d = 0; d < groups.tile.size(); ++d) {
        if (d > 0) {
            text += 'x';
        }
        text += std::to_string(groups.tile[d]);
    }
    return text;
}

CollectiveOp parseCollectiveOp(const std::string& text, const std::string& field) {
    for (auto op : {CollectiveOp::AllReduce, CollectiveOp::ReduceScatter, CollectiveOp::AllGather}) {
        if (toString(op) == text) {
            return op;
        }
    }
    throw InputError(field, "unknown operation '" + text +
                                "' (expected all-reduce, reduce-scatter or all-gather)");
}

Algorithm parseAlgorithm(const std::string& text, const std::string& field) {
    for (auto a : {Algorithm::Ring, Algorithm::BidirRing, Algorithm::TwoD, Algorithm::TwoDDual,
                   Algorithm::FlatRing}) {
        if (toString(a) == text) {
            return a;
        }
    }
    throw InputError(field, "unknown algorithm '" + text +
                                "' (expected ring, bidir-ring, 2d, 2d-dual or flat-ring)");
}

ElementType parseElementType(const std::string& text, const std::string& field) {
    if (text == "bf16") {
        return ElementType::BF16;
    }
    if (text == "fp32") {
        return ElementType::FP32;
    }
    throw InputError(field, "unknown element type '" + text + "' (expected bf16 or fp32)");
}

GroupLayout parseGroupLayout(const std::string& text, const std::string& field) {
    GroupLayout groups;
    if (text == "all") {
        return groups;
    }
    const auto colon = text.find(':');
    const std::string kind = text.substr(0, colon);
    if (colon == std::string::npos || (kind != "within" && kind != "across")) {
        throw InputError(field, "'" + text + "' is not a group layout (all, within:TILE, across:TILE)");
    }
    groups.kind = kind == "within" ? GroupLayout::Kind::WithinTile : GroupLayout::Kind::AcrossTiles;
    groups.tile = parseDims(text.substr(colon + 1), field);
    return groups;
}

std::vector<int> parseDimOrder(const std::string& text, int rank, const std::string& field) {
    static const std::string letters = "xyzw";
    std::vector<int> order;
    std::vector<bool> seen(static_cast<std::size_t>(rank), false);
    for (const char c : text) {
        const auto dim = letters.find(c);
        if (dim == std::string::npos || static_cast<int>(dim) >= rank) {
            throw InputError(field, "'" + text + "' must list dimensions of the " +
                                        std::to_string(rank) + "-D topology, such as yx");
        }
        if (seen[dim]) {
            throw InputError(field, std::string("'") + c + "' appears twice in '" + text + "'");
        }
        seen[dim] = true;
        order.push_back(static_cast<int>(dim));
    }
    if (order.empty()) {
        throw InputError(field, "is empty; expected dimension letters such as yx");
    }
    return order;
}

double parseByteSize(const std::string& text, const std::string& field) {
    const char* begin = text.c_str();
    char* end = nullptr;
    const double number = std::strtod(begin, &end);
    if (end == begin || text.empty() || std::isspace(static_cast<unsigned char>(text[0]))) {
        throw InputError(field, "'" + text + "' is not a size (examples: 67108864, 64MiB, 1.5GB)");
    }
    const std::string suffix(end);
    double scale = 0;
    static const std::pair<const char*, double> suffixes[] = {
        {"", 1},          {"B", 1},          {"K", 1e3},          {"KB", 1e3},
        {"M", 1e6},       {"MB", 1e6},       {"G", 1e9},          {"GB", 1e9},
        {"T", 1e12},      {"TB", 1e12},      {"KiB", 1024.0},     {"MiB", 1048576.0},
        {"GiB", 1073741824.0}, {"TiB", 1099511627776.0}};
    for (const auto& [name, factor] : suffixes) {
        if (suffix == name) {
            scale = factor;
        }
    }
    if (scale == 0) {
        throw InputError(field, "'" + text + "' is not a size: unknown unit '" + suffix +
                                    "' (use B, KB, MB, GB, KiB, MiB, GiB)");
    }
    const double bytes = number * scale;
    if (!std::isfinite(bytes) || !(bytes > 0)) {
        throw InputError(field, "'" + text + "' is not a positive size");
    }
    if (bytes > limits::kMaxPayloadBytes) {
        throw InputError(field, "'" + text + "' is larger than the 1 TiB limit per chip");
    }
    return bytes;
}

} // namespace podscope
