#include "topology/Topology.hpp"

#include "common/InputError.hpp"
#include "common/Limits.hpp"

#include <algorithm>
#include <cmath>

namespace podscope {
namespace {

const char* dimLetter(std::size_t dim) {
    static const char* letters[] = {"x", "y", "z", "w"};
    return dim < 4 ? letters[dim] : "?";
}

// Pads or trims a per-dimension block to `rank` entries; missing entries take `fill`.
std::vector<int> fitBlock(const std::vector<int>& block, const std::vector<int>& dims,
                          bool fillWithDim) {
    std::vector<int> out(dims.size());
    for (std::size_t d = 0; d < dims.size(); ++d) {
        out[d] = d < block.size() ? block[d] : (fillWithDim ? dims[d] : 1);
    }
    return out;
}

int blocksAlong(int dim, int block) {
    return (dim + block - 1) / block;
}

} // namespace

bool isTwistableShape(const std::vector<int>& dims, const std::vector<bool>& wrap) {
    if (dims.size() < 2 || wrap.size() != dims.size()) {
        return false;
    }
    int shortest = dims[0];
    for (const int d : dims) {
        shortest = d < shortest ? d : shortest;
    }
    bool hasShort = false;
    bool hasLong = false;
    for (std::size_t d = 0; d < dims.size(); ++d) {
        if (!wrap[d] || (dims[d] != shortest && dims[d] != 2 * shortest)) {
            return false;
        }
        hasShort = hasShort || dims[d] == shortest;
        hasLong = hasLong || dims[d] == 2 * shortest;
    }
    return hasShort && hasLong && shortest >= 2;
}

Topology::Topology(TopologySpec spec)
    : spec_(std::move(spec)) {
    const auto& dims = spec_.dims;
    if (dims.empty()) {
        throw InputError("topology", "needs at least one dimension");
    }
    if (static_cast<int>(dims.size()) > limits::kMaxRank) {
        throw InputError("topology", "at most " + std::to_string(limits::kMaxRank) +
                                         " dimensions are supported, got " +
                                         std::to_string(dims.size()));
    }
    if (spec_.wrap.size() != dims.size()) {
        throw InputError("wrap", "names " + std::to_string(spec_.wrap.size()) +
                                     " dimensions but the topology has " +
                                     std::to_string(dims.size()));
    }
    std::int64_t chips = 1;
    for (std::size_t d = 0; d < dims.size(); ++d) {
        if (dims[d] < 1 || dims[d] > limits::kMaxDimSize) {
            throw InputError("topology", std::string("dimension ") + dimLetter(d) +
                                             " must be between 1 and " +
                                             std::to_string(limits::kMaxDimSize) + ", got " +
                                             std::to_string(dims[d]));
        }
        chips *= dims[d];
        if (chips > limits::kMaxChips) {
            throw InputError("topology", "more than " + std::to_string(limits::kMaxChips) +
                                             " chips are not supported");
        }
    }
    if (!(spec_.linkBandwidthBps > 0) || !std::isfinite(spec_.linkBandwidthBps) ||
        spec_.linkBandwidthBps > limits::kMaxLinkBandwidthGBps * 1e9) {
        throw InputError("link-bw", "must be a positive finite bandwidth up to 1e6 GB/s");
    }
    if (spec_.crossPodBandwidthBps == 0) {
        spec_.crossPodBandwidthBps = spec_.linkBandwidthBps;
    }
    if (!(spec_.crossPodBandwidthBps > 0) || !std::isfinite(spec_.crossPodBandwidthBps) ||
        spec_.crossPodBandwidthBps > limits::kMaxLinkBandwidthGBps * 1e9) {
        throw InputError("cross-pod-bw", "must be a positive finite bandwidth up to 1e6 GB/s");
    }
    if (!(spec_.linkLatencyS >= 0) || !std::isfinite(spec_.linkLatencyS) ||
        spec_.linkLatencyS > limits::kMaxLatencyUs * 1e-6) {
        throw InputError("latency-us", "must be a finite latency between 0 and 1e6 µs");
    }
    if (spec_.coresPerChip < 1 || spec_.coresPerChip > 64) {
        throw InputError("cores_per_chip", "must be between 1 and 64");
    }
    spec_.hostBlock = fitBlock(spec_.hostBlock, dims, false);
    spec_.podDims = fitBlock(spec_.podDims, dims, true);
    for (std::size_t d = 0; d < dims.size(); ++d) {
        if (spec_.hostBlock[d] < 1 || spec_.podDims[d] < 1) {
            throw InputError("topology", "host and pod blocks must be positive");
        }
    }

    chipCount_ = chips;
    strides_.resize(dims.size());
    std::int64_t stride = 1;
    wraps_.resize(dims.size());
    hostCount_ = 1;
    podCount_ = 1;
    for (std::size_t d = 0; d < dims.size(); ++d) {
        strides_[d] = stride;
        stride *= dims[d];
        wraps_[d] = spec_.wrap[d] && dims[d] > 1;
        hostCount_ *= blocksAlong(dims[d], spec_.hostBlock[d]);
        podCount_ *= blocksAlong(dims[d], spec_.podDims[d]);
    }
    const auto rankSize = dims.size();
    twisted_.assign(rankSize, false);
    twistShift_.assign(rankSize * rankSize, 0);
    if (spec_.twisted) {
        if (!isTwistableShape(dims, spec_.wrap)) {
            throw InputError("twisted", "a twisted torus needs every dimension wrapped and extents "
                                        "K and 2K only (such as 4x4x8 or 4x8x8), got " +
                                            dimsText() + " wrap " + wrapText());
        }
        const int shortest = *std::min_element(dims.begin(), dims.end());
        for (std::size_t d = 0; d < rankSize; ++d) {
            if (dims[d] != shortest) {
                continue;
            }
            twisted_[d] = true;
            for (std::size_t e = 0; e < rankSize; ++e) {
                if (dims[e] == 2 * shortest) {
                    twistShift_[d * rankSize + e] = shortest;
                }
            }
        }
    }
    linkCount_ = 0;
    for (std::size_t d = 0; d < dims.size(); ++d) {
        const std::int64_t perLine = wraps_[d] ? dims[d] : dims[d] - 1;
        linkCount_ += 2 * perLine * (chips / dims[d]);
    }
}

ChipId Topology::chipAt(std::span<const int> coords) const {
    std::int64_t id = 0;
    for (std::size_t d = 0; d < coords.size(); ++d) {
        id += coords[d] * strides_[d];
    }
    return static_cast<ChipId>(id);
}

ChipId Topology::offset(ChipId chip, int dim, int steps) const {
    const int n = size(dim);
    const int c = coord(chip, dim);
    int target = c + steps;
    if (target >= 0 && target < n) {
        return static_cast<ChipId>(chip + (target - c) * strides_[static_cast<std::size_t>(dim)]);
    }
    if (!wraps(dim)) {
        return -1;
    }
    // Times round the ring (negative going minus), each crossing adding the twist.
    const int laps = target >= 0 ? target / n : -((-target + n - 1) / n);
    target -= laps * n;
    std::int64_t id =
        chip + static_cast<std::int64_t>(target - c) * strides_[static_cast<std::size_t>(dim)];
    if (twisted(dim)) {
        for (int e = 0; e < rank(); ++e) {
            const int shift = twistShift(dim, e);
            if (shift == 0) {
                continue;
            }
            const int m = size(e);
            const int from = coord(chip, e);
            const int to =
                static_cast<int>((((from + static_cast<std::int64_t>(laps) * shift) % m) + m) % m);
            id += static_cast<std::int64_t>(to - from) * strides_[static_cast<std::size_t>(e)];
        }
    }
    return static_cast<ChipId>(id);
}

ChipId Topology::neighbour(ChipId chip, int dim, Direction dir) const {
    return offset(chip, dim, dir == Direction::Plus ? 1 : -1);
}

bool Topology::linkExists(LinkId link) const {
    if (link < 0 || link >= linkSlotCount()) {
        return false;
    }
    return linkTarget(link) >= 0;
}

ChipId Topology::linkTarget(LinkId link) const {
    return neighbour(linkSource(link), linkDim(link), linkDirection(link));
}

bool Topology::linkCrossesPods(LinkId link) const {
    if (spec_.twisted) {
        // A twisted wrap-around also moves along the long dimensions.
        const ChipId target = linkTarget(link);
        return target >= 0 && podOf(linkSource(link)) != podOf(target);
    }
    // Pods are blocks, so only the coordinate along the link's dimension matters.
    const int dim = linkDim(link);
    const int n = size(dim);
    const int from = coord(linkSource(link), dim);
    int to = from + (linkDirection(link) == Direction::Plus ? 1 : -1);
    if (to < 0 || to >= n) {
        if (!wraps(dim)) {
            return false;
        }
        to = (to + n) % n;
    }
    const int pod = spec_.podDims[static_cast<std::size_t>(dim)];
    return from / pod != to / pod;
}

double Topology::linkBandwidth(LinkId link) const {
    if (spec_.crossPodBandwidthBps == spec_.linkBandwidthBps) {
        return spec_.linkBandwidthBps;
    }
    return linkCrossesPods(link) ? spec_.crossPodBandwidthBps : spec_.linkBandwidthBps;
}

int Topology::degree(ChipId chip) const {
    int links = 0;
    for (int d = 0; d < rank(); ++d) {
        links += neighbour(chip, d, Direction::Plus) >= 0;
        links += neighbour(chip, d, Direction::Minus) >= 0;
    }
    return links;
}

int Topology::blockOf(ChipId chip, const std::vector<int>& block) const {
    int id = 0;
    int scale = 1;
    for (int d = 0; d < rank(); ++d) {
        const int extent = block[static_cast<std::size_t>(d)];
        id += (coord(chip, d) / extent) * scale;
        scale *= blocksAlong(size(d), extent);
    }
    return id;
}

int Topology::hostOf(ChipId chip) const {
    return blockOf(chip, spec_.hostBlock);
}

int Topology::podOf(ChipId chip) const {
    return blockOf(chip, spec_.podDims);
}

std::string Topology::dimsText() const {
    // Appended piece by piece: GCC 12 at -O3 reports a false -Wrestrict on
    // `const char* + std::string` (GCC bug 105329).
    std::string text;
    for (std::size_t d = 0; d < spec_.dims.size(); ++d) {
        if (d > 0) {
            text += 'x';
        }
        text += std::to_string(spec_.dims[d]);
    }
    return text;
}

std::string Topology::wrapText() const {
    std::string text;
    for (std::size_t d = 0; d < spec_.wrap.size(); ++d) {
        if (spec_.wrap[d]) {
            text += dimLetter(d);
        }
    }
    if (text.empty()) {
        return "none";
    }
    return spec_.twisted ? text + " twisted" : text;
}

} // namespace podscope
