#include "collective/Schedule.hpp"

#include "common/InputError.hpp"
#include "common/Limits.hpp"
#include "topology/Routing.hpp"

#include <algorithm>
#include <numeric>

namespace podscope {
namespace {

const char* dimName(int dim) {
    static const char* names[] = {"X", "Y", "Z", "W"};
    return dim >= 0 && dim < 4 ? names[dim] : "?";
}

std::vector<int> paddedTile(const Topology& topology, const GroupLayout& groups) {
    std::vector<int> tile(static_cast<std::size_t>(topology.rank()), 1);
    for (std::size_t d = 0; d < groups.tile.size() && d < tile.size(); ++d) {
        tile[d] = groups.tile[d];
    }
    return tile;
}

// How a group spans one dimension: `members` chips, `step` apart.
struct GroupAxis {
    int members = 1;
    int step = 1;
    bool wrapUsable = false;
};

GroupAxis groupAxis(const Topology& topology, const GroupLayout& groups, int dim) {
    const int size = topology.size(dim);
    const int tile = groups.kind == GroupLayout::Kind::All
                         ? size
                         : paddedTile(topology, groups)[static_cast<std::size_t>(dim)];
    switch (groups.kind) {
    // A twisted dimension's lines are not rings (the wrap-around leaves the line): they fold.
    case GroupLayout::Kind::All: return {size, 1, topology.lineIsRing(dim)};
    case GroupLayout::Kind::WithinTile: return {tile, 1, topology.lineIsRing(dim) && tile == size};
    case GroupLayout::Kind::AcrossTiles: return {size / tile, tile, topology.lineIsRing(dim)};
    }
    return {};
}

// Is `coordinate` the first member of a group's line along a dimension?
bool startsLine(const GroupLayout& groups, int tile, int coordinate) {
    switch (groups.kind) {
    case GroupLayout::Kind::All: return coordinate == 0;
    case GroupLayout::Kind::WithinTile: return coordinate % tile == 0;
    case GroupLayout::Kind::AcrossTiles: return coordinate < tile;
    }
    return false;
}

// Positions 0..m-1 in ring order. Without wrap-around the ring folds onto the line: out
// along the even positions and back along the odd ones, so each direction of every link
// carries one hop per step.
std::vector<int> ringOrder(int m, bool wrapUsable, bool reversed) {
    std::vector<int> order;
    order.reserve(static_cast<std::size_t>(m));
    if (wrapUsable) {
        for (int k = 0; k < m; ++k) {
            order.push_back(k);
        }
    } else {
        for (int k = 0; k < m; k += 2) {
            order.push_back(k);
        }
        for (int k = (m - 1) % 2 == 1 ? m - 1 : m - 2; k > 0; k -= 2) {
            order.push_back(k);
        }
    }
    if (reversed) {
        std::reverse(order.begin(), order.end());
    }
    return order;
}

void appendRing(const Topology& topology, std::span<const ChipId> members, RingSet& set) {
    const auto n = members.size();
    for (std::size_t i = 0; i < n; ++i) {
        set.members.push_back(members[i]);
        appendRoute(topology, members[i], members[(i + 1) % n], set.hopLinks);
        set.hopStart.push_back(static_cast<std::int32_t>(set.hopLinks.size()));
    }
}

RingSet dimensionRings(const Topology& topology, const GroupLayout& groups, int dim, bool reversed,
                       ScheduleScope scope) {
    const GroupAxis axis = groupAxis(topology, groups, dim);
    const int tile = groups.kind == GroupLayout::Kind::All
                         ? topology.size(dim)
                         : paddedTile(topology, groups)[static_cast<std::size_t>(dim)];
    const auto order = ringOrder(axis.members, axis.wrapUsable, reversed);
    RingSet set;
    set.ringSize = axis.members;
    // A line starts at coordinate `first` along dim; lineOrigin is its chip at coordinate 0.
    auto addLine = [&](ChipId start) {
        const int first = topology.coord(start, dim);
        const auto lineOrigin = static_cast<ChipId>(start - first * topology.stride(dim));
        const std::size_t n = order.size();
        for (std::size_t i = 0; i < n; ++i) {
            const int from = first + order[i] * axis.step;
            const int to = first + order[(i + 1) % n] * axis.step;
            set.members.push_back(static_cast<ChipId>(lineOrigin + from * topology.stride(dim)));
            appendLineRoute(topology, lineOrigin, dim, from, to, set.hopLinks);
            set.hopStart.push_back(static_cast<std::int32_t>(set.hopLinks.size()));
        }
    };
    if (scope == ScheduleScope::ThroughChipZero) {
        for (int c = 0; c < topology.size(dim); ++c) {
            if (startsLine(groups, tile, c)) {
                addLine(topology.offset(0, dim, c));
            }
        }
    } else {
        const auto chips = static_cast<ChipId>(topology.chipCount());
        set.members.reserve(static_cast<std::size_t>(chips));
        set.hopStart.reserve(static_cast<std::size_t>(chips) + 1);
        for (ChipId chip = 0; chip < chips; ++chip) {
            if (startsLine(groups, tile, topology.coord(chip, dim))) {
                addLine(chip);
            }
        }
    }
    return set;
}

// Snake (boustrophedon) order over a group's sub-grid: consecutive members are neighbours,
// and dimension 0 runs back and forth.
std::vector<std::vector<int>> snakeIndices(const std::vector<int>& extent) {
    const int rank = static_cast<int>(extent.size());
    const int total = std::accumulate(extent.begin(), extent.end(), 1, std::multiplies<>());
    std::vector<std::vector<int>> indices(static_cast<std::size_t>(total), std::vector<int>(extent.size()));
    for (int j = 0; j < total; ++j) {
        int below = 1;
        for (int d = 0; d < rank; ++d) {
            const int n = extent[static_cast<std::size_t>(d)];
            const int raw = (j / below) % n;
            const bool reflect = ((j / (below * n)) % 2) == 1;
            indices[static_cast<std::size_t>(j)][static_cast<std::size_t>(d)] = reflect ? n - 1 - raw : raw;
            below *= n;
        }
    }
    return indices;
}

RingSet flatRings(const Topology& topology, const GroupLayout& groups, ScheduleScope scope) {
    const int rank = topology.rank();
    std::vector<GroupAxis> axes;
    std::vector<int> extent;
    for (int d = 0; d < rank; ++d) {
        axes.push_back(groupAxis(topology, groups, d));
        extent.push_back(axes.back().members);
    }
    const auto tile = paddedTile(topology, groups);
    const auto snake = snakeIndices(extent);
    RingSet set;
    set.ringSize = static_cast<int>(snake.size());
    std::vector<ChipId> ring(snake.size());
    const auto chips = static_cast<ChipId>(topology.chipCount());
    for (ChipId base = 0; base < chips; ++base) {
        bool isBase = true;
        for (int d = 0; d < rank && isBase; ++d) {
            const int t = groups.kind == GroupLayout::Kind::All ? topology.size(d) : tile[static_cast<std::size_t>(d)];
            isBase = startsLine(groups, t, topology.coord(base, d));
        }
        if (!isBase) {
            continue;
        }
        if (scope == ScheduleScope::ThroughChipZero && groups.kind == GroupLayout::Kind::WithinTile && base != 0) {
            continue; // other tiles share no links with the one through chip 0
        }
        for (std::size_t j = 0; j < snake.size(); ++j) {
            ChipId chip = base;
            for (int d = 0; d < rank; ++d) {
                chip = topology.offset(chip, d, snake[j][static_cast<std::size_t>(d)] * axes[static_cast<std::size_t>(d)].step);
            }
            ring[j] = chip;
        }
        appendRing(topology, ring, set);
    }
    return set;
}

std::string phaseName(PhaseKind kind, int dim) {
    const std::string op = kind == PhaseKind::ReduceScatter ? "reduce-scatter" : "all-gather";
    return dim < 0 ? op + " on the flat ring" : op + " along " + dimName(dim);
}

std::vector<int> activeDims(const Topology& topology, const GroupLayout& groups) {
    std::vector<int> dims;
    for (int d = 0; d < topology.rank(); ++d) {
        if (groupAxis(topology, groups, d).members > 1) {
            dims.push_back(d);
        }
    }
    return dims;
}

std::vector<int> resolveDimOrder(const Topology& topology, const CollectiveSpec& spec) {
    const auto active = activeDims(topology, spec.groups);
    if (!spec.dimOrder.empty()) {
        std::vector<int> order;
        for (int d : spec.dimOrder) {
            if (std::find(active.begin(), active.end(), d) != active.end()) {
                order.push_back(d);
            }
        }
        return order;
    }
    // Dimensions whose rings close through wrap-around links go first: they can run both
    // directions at full bandwidth, so they should carry the full payload, and the folded
    // (slower) dimensions the reduced one.
    auto order = active;
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        return groupAxis(topology, spec.groups, a).wrapUsable > groupAxis(topology, spec.groups, b).wrapUsable;
    });
    return order;
}

// A phase of an earlier stream that runs the rings of `dim` in the given direction.
const Phase* phaseWithRings(const Schedule& schedule, int dim, bool reversed) {
    for (const Stream& stream : schedule.streams) {
        for (const Phase& phase : stream.phases) {
            if (phase.dim == dim && phase.reversed == reversed) {
                return &phase;
            }
        }
    }
    return nullptr;
}

// Per payload byte, how long a reduce-scatter along `dim` alone keeps its busiest link busy:
// (n-1)/n of the data crosses every link that a ring step loads, and a counter-rotating ring
// takes half of it to the other direction. Counted on the lines through chip 0.
double secondsPerPayloadByte(const Topology& topology, const GroupLayout& groups, int dim,
                             bool bidirectional) {
    const RingSet rings =
        dimensionRings(topology, groups, dim, false, ScheduleScope::ThroughChipZero);
    std::vector<std::pair<LinkId, int>> loads;
    for (LinkId link : rings.hopLinks) {
        loads.emplace_back(link, 1);
    }
    std::sort(loads.begin(), loads.end());
    double worst = 0;
    for (std::size_t k = 0; k < loads.size();) {
        std::size_t next = k;
        while (next < loads.size() && loads[next].first == loads[k].first) {
            ++next;
        }
        worst =
            std::max(worst, static_cast<double>(next - k) / topology.linkBandwidth(loads[k].first));
        k = next;
    }
    const double n = rings.ringSize;
    return (n - 1) / n * worst / (bidirectional ? 2 : 1);
}

// 2d-dual runs the order and its reverse at once. The shares balance the first phase: the
// half that starts on the faster dimension takes more, so both first reduce-scatters end
// together (equal halves where the two dimensions are alike, as on a square torus).
template <typename Bidirectional>
std::vector<std::pair<std::vector<int>, double>>
dualShares(const Topology& topology, const GroupLayout& groups, const std::vector<int>& order,
           Bidirectional&& bidirectional) {
    const std::vector<int> reverse(order.rbegin(), order.rend());
    const double first =
        secondsPerPayloadByte(topology, groups, order.front(), bidirectional(order.front()));
    const double last =
        secondsPerPayloadByte(topology, groups, order.back(), bidirectional(order.back()));
    const double share = last / (first + last);
    return {{order, share}, {reverse, 1 - share}};
}

// "reduce-scatter along Y", or what every stream does at once: "reduce-scatter along Y and X".
std::string phaseName(const Schedule& schedule, int p) {
    const Phase& first = schedule.streams[0].phases[static_cast<std::size_t>(p)];
    std::vector<int> dims;
    for (const Stream& stream : schedule.streams) {
        const int dim = stream.phases[static_cast<std::size_t>(p)].dim;
        if (std::find(dims.begin(), dims.end(), dim) == dims.end()) {
            dims.push_back(dim);
        }
    }
    std::string name = phaseName(first.kind, dims.front());
    for (std::size_t k = 1; k < dims.size(); ++k) {
        name += (k + 1 == dims.size() ? " and " : ", ") + std::string(dimName(dims[k]));
    }
    return name;
}

} // namespace

int groupSizeOf(const Topology& topology, const GroupLayout& groups) {
    int size = 1;
    for (int d = 0; d < topology.rank(); ++d) {
        size *= groupAxis(topology, groups, d).members;
    }
    return size;
}

int groupOf(const Topology& topology, const GroupLayout& groups, ChipId chip) {
    if (groups.kind == GroupLayout::Kind::All) {
        return 0;
    }
    const auto tile = paddedTile(topology, groups);
    int id = 0;
    int scale = 1;
    for (int d = 0; d < topology.rank(); ++d) {
        const int t = tile[static_cast<std::size_t>(d)];
        const int c = topology.coord(chip, d);
        if (groups.kind == GroupLayout::Kind::WithinTile) {
            id += (c / t) * scale;
            scale *= topology.size(d) / t;
        } else {
            id += (c % t) * scale;
            scale *= t;
        }
    }
    return id;
}

void validateCollective(const Topology& topology, const CollectiveSpec& spec) {
    if (spec.chunks < 1 || spec.chunks > limits::kMaxChunks) {
        throw InputError("chunks", "must be between 1 and " + std::to_string(limits::kMaxChunks) +
                                       ", got " + std::to_string(spec.chunks));
    }
    if (!(spec.bytesPerChip > 0) || spec.bytesPerChip > limits::kMaxPayloadBytes) {
        throw InputError("bytes", "must be positive and at most 1 TiB per chip");
    }
    if (spec.groups.kind != GroupLayout::Kind::All) {
        if (static_cast<int>(spec.groups.tile.size()) > topology.rank()) {
            throw InputError("groups", "the tile has more dimensions than the topology");
        }
        const auto tile = paddedTile(topology, spec.groups);
        for (int d = 0; d < topology.rank(); ++d) {
            const int t = tile[static_cast<std::size_t>(d)];
            if (t < 1 || topology.size(d) % t != 0) {
                throw InputError("groups", "tile size " + std::to_string(t) + " along " + dimName(d) +
                                               " does not divide the topology's " +
                                               std::to_string(topology.size(d)));
            }
        }
    }
    if (!spec.dimOrder.empty()) {
        for (int d : activeDims(topology, spec.groups)) {
            if (std::find(spec.dimOrder.begin(), spec.dimOrder.end(), d) == spec.dimOrder.end()) {
                throw InputError("dim-order", std::string("leaves out dimension ") + dimName(d) +
                                                  ", which the groups span");
            }
        }
        for (int d : spec.dimOrder) {
            if (d < 0 || d >= topology.rank()) {
                throw InputError("dim-order", "names a dimension the topology does not have");
            }
        }
    }
}

Schedule buildSchedule(const Topology& topology, const CollectiveSpec& spec, ScheduleScope scope) {
    validateCollective(topology, spec);
    Schedule schedule;
    schedule.spec = spec;
    schedule.scope = scope;
    schedule.groupSize = groupSizeOf(topology, spec.groups);
    schedule.groupCount = static_cast<int>(topology.chipCount() / schedule.groupSize);
    if (schedule.groupSize == 1) {
        return schedule; // nothing to exchange
    }

    const bool flat = spec.algorithm == Algorithm::FlatRing;
    schedule.dimOrder = flat ? std::vector<int>{-1} : resolveDimOrder(topology, spec);

    // Which dimensions get a counter-rotating second ring.
    auto bidirectional = [&](int dim) {
        switch (spec.algorithm) {
        case Algorithm::BidirRing: return true;
        case Algorithm::TwoD:
        case Algorithm::TwoDDual:
            return groupAxis(topology, spec.groups, dim).wrapUsable;
        default: return false;
        }
    };
    const bool twoDirections =
        !flat && std::any_of(schedule.dimOrder.begin(), schedule.dimOrder.end(), bidirectional);
    const int streamsPerOrder = twoDirections ? 2 : 1;

    // The dimension orders that run at once, each with its share of the payload.
    std::vector<std::pair<std::vector<int>, double>> orders{{schedule.dimOrder, 1.0}};
    if (spec.algorithm == Algorithm::TwoDDual && schedule.dimOrder.size() > 1) {
        orders = dualShares(topology, spec.groups, schedule.dimOrder, bidirectional);
    }

    const bool doReduceScatter = spec.op != CollectiveOp::AllGather;
    const bool doAllGather = spec.op != CollectiveOp::ReduceScatter;
    for (const auto& [order, share] : orders) {
        for (int s = 0; s < streamsPerOrder; ++s) {
            const bool counterRotating = s == 1;
            Stream stream;
            stream.payloadFraction = share / streamsPerOrder;
            // Segment size entering each dimension's reduce-scatter.
            std::vector<double> segment;
            double bytes = spec.bytesPerChip * stream.payloadFraction;
            std::vector<RingSet> rings;
            for (int dim : order) {
                const bool reversed = counterRotating && bidirectional(dim);
                if (const Phase* same = phaseWithRings(schedule, dim, reversed)) {
                    rings.push_back(same->rings); // an earlier stream runs the same rings
                } else {
                    rings.push_back(
                        flat ? flatRings(topology, spec.groups, scope)
                             : dimensionRings(topology, spec.groups, dim, reversed, scope));
                }
                segment.push_back(bytes);
                bytes /= rings.back().ringSize;
            }
            const auto count = order.size();
            if (doReduceScatter) {
                for (std::size_t k = 0; k < count; ++k) {
                    const int dim = order[k];
                    stream.phases.push_back({PhaseKind::ReduceScatter, dim,
                                             counterRotating && bidirectional(dim), segment[k],
                                             doAllGather ? rings[k] : std::move(rings[k])});
                }
            }
            if (doAllGather) {
                for (std::size_t k = count; k-- > 0;) {
                    const int dim = order[k];
                    stream.phases.push_back({PhaseKind::AllGather, dim,
                                             counterRotating && bidirectional(dim), segment[k],
                                             std::move(rings[k])});
                }
            }
            schedule.streams.push_back(std::move(stream));
        }
    }
    for (int p = 0; p < schedule.phaseCount(); ++p) {
        schedule.phaseNames.push_back(phaseName(schedule, p));
    }
    return schedule;
}

} // namespace podscope
