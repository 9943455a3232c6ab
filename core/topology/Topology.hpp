#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace podscope {

using ChipId = std::int32_t;
using LinkId = std::int32_t;

enum class Direction : int { Plus = 0, Minus = 1 };

// Everything needed to build a Topology; validated by the Topology constructor.
struct TopologySpec {
    std::string name;                // preset name, or the dimensions as text
    std::vector<int> dims;           // chips per dimension; dimension 0 is X
    std::vector<bool> wrap;          // wrap-around per dimension
    double linkBandwidthBps = 82e9;  // per direction
    double linkLatencyS = 1e-6;      // per hop
    double crossPodBandwidthBps = 0; // 0: same as linkBandwidthBps
    int coresPerChip = 2;
    std::vector<int> hostBlock; // chips per host along each dimension (missing: 1)
    std::vector<int> podDims;   // chips per pod along each dimension (missing: whole dim)
    // A twisted torus (isTwistableShape): each short dimension's wrap-around links land half-way
    // along every long dimension instead of on their own line.
    bool twisted = false;
};

// Whether dims can be twisted by the rule PodScope models: every dimension wraps, and the
// extents are K and 2K only (K x K x 2K, K x 2K x 2K and the like), so a short dimension's
// wrap-around can be shifted by K along each long one.
bool isTwistableShape(const std::vector<int>& dims, const std::vector<bool>& wrap);

// An N-dimensional grid of chips joined by directed links to their neighbours, with
// wrap-around per dimension. Chip ids run with X fastest. A directed link is identified by
// its source chip, dimension and direction; slots whose neighbour does not exist (edges of a
// dimension without wrap-around) are not links.
class Topology {
public:
    explicit Topology(TopologySpec spec);

    const TopologySpec& spec() const noexcept { return spec_; }
    int rank() const noexcept { return static_cast<int>(spec_.dims.size()); }
    int size(int dim) const { return spec_.dims[static_cast<std::size_t>(dim)]; }
    // Wrap-around that exists as links: a dimension of size 1 has none.
    bool wraps(int dim) const { return wraps_[static_cast<std::size_t>(dim)]; }
    // A twisted dimension's wrap-around leaves its line (it lands half-way along the long
    // dimensions), so a line along it is not a ring.
    bool twisted(int dim) const { return twisted_[static_cast<std::size_t>(dim)]; }
    bool lineIsRing(int dim) const { return wraps(dim) && !twisted(dim); }
    // Coordinates a wrap-around along `dim` adds along `other` (0 unless twisted).
    int twistShift(int dim, int other) const {
        return twistShift_[static_cast<std::size_t>(dim * rank() + other)];
    }
    std::int64_t chipCount() const noexcept { return chipCount_; }

    int coord(ChipId chip, int dim) const {
        return static_cast<int>((chip / strides_[static_cast<std::size_t>(dim)]) %
                                spec_.dims[static_cast<std::size_t>(dim)]);
    }
    ChipId chipAt(std::span<const int> coords) const;
    // Distance in chip ids between neighbours along a dimension.
    std::int64_t stride(int dim) const { return strides_[static_cast<std::size_t>(dim)]; }
    // The chip reached by moving `steps` along `dim` (negative allowed), wrapping where the
    // dimension wraps; -1 when the move leaves the grid.
    ChipId offset(ChipId chip, int dim, int steps) const;
    ChipId neighbour(ChipId chip, int dim, Direction dir) const;

    LinkId linkSlotCount() const noexcept { return static_cast<LinkId>(chipCount_ * 2 * rank()); }
    LinkId linkId(ChipId from, int dim, Direction dir) const {
        return from * 2 * rank() + 2 * dim + static_cast<int>(dir);
    }
    bool linkExists(LinkId link) const;
    ChipId linkSource(LinkId link) const { return link / (2 * rank()); }
    int linkDim(LinkId link) const { return (link % (2 * rank())) / 2; }
    Direction linkDirection(LinkId link) const { return static_cast<Direction>(link % 2); }
    ChipId linkTarget(LinkId link) const;
    bool linkCrossesPods(LinkId link) const;
    double linkBandwidth(LinkId link) const;
    double linkLatency() const noexcept { return spec_.linkLatencyS; }
    std::int64_t linkCount() const noexcept { return linkCount_; }
    // Outgoing links of a chip.
    int degree(ChipId chip) const;

    int coresPerChip() const noexcept { return spec_.coresPerChip; }
    int hostOf(ChipId chip) const;
    int hostCount() const noexcept { return hostCount_; }
    int podOf(ChipId chip) const;
    int podCount() const noexcept { return podCount_; }

    // "128x32" and the like.
    std::string dimsText() const;
    // "y", "xy", "none"; a twisted torus adds " twisted".
    std::string wrapText() const;

private:
    // Index of the block (host or pod) holding a chip, blocks numbered with X fastest.
    int blockOf(ChipId chip, const std::vector<int>& block) const;

    TopologySpec spec_;
    std::vector<bool> wraps_;
    std::vector<bool> twisted_;
    std::vector<int> twistShift_; // rank x rank
    std::vector<std::int64_t> strides_;
    std::int64_t chipCount_ = 0;
    std::int64_t linkCount_ = 0;
    int hostCount_ = 0;
    int podCount_ = 0;
};

} // namespace podscope
