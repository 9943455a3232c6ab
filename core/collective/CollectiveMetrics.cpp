#include "collective/CollectiveMetrics.hpp"

#include "collective/Schedule.hpp"
#include "topology/Bisection.hpp"

#include <algorithm>
#include <limits>

namespace podscope {

double busBandwidthFactor(CollectiveOp op, int groupSize) {
    const double n = groupSize;
    const double share = (n - 1) / n;
    return op == CollectiveOp::AllReduce ? 2 * share : share;
}

namespace {

// Bandwidth of the link leaving coordinate c along dim in direction dir, or 0 if none. A
// link's existence and bandwidth depend only on that coordinate (pods are blocks), so the
// bounds below work per dimension instead of per chip.
double linkBandwidthAt(const Topology& topology, int dim, int c, Direction dir) {
    if (topology.spec().crossPodBandwidthBps == topology.spec().linkBandwidthBps) {
        // Uniform links: only existence matters.
        const int n = topology.size(dim);
        const bool exists = topology.wraps(dim) || (dir == Direction::Plus ? c + 1 < n : c > 0);
        return exists ? topology.spec().linkBandwidthBps : 0.0;
    }
    const ChipId chip = topology.offset(0, dim, c);
    const LinkId link = topology.linkId(chip, dim, dir);
    return topology.linkExists(link) ? topology.linkBandwidth(link) : 0.0;
}

} // namespace

double bandwidthLowerBound(const Topology& topology, const CollectiveSpec& spec) {
    const int n = groupSizeOf(topology, spec.groups);
    if (n <= 1) {
        return 0;
    }
    const double volume = busBandwidthFactor(spec.op, n) * spec.bytesPerChip;
    // The chip with the least injection bandwidth takes its weakest position in every dimension.
    double weakestInjection = 0;
    for (int d = 0; d < topology.rank(); ++d) {
        double weakest = std::numeric_limits<double>::infinity();
        for (int c = 0; c < topology.size(d); ++c) {
            weakest = std::min(weakest, linkBandwidthAt(topology, d, c, Direction::Plus) +
                                            linkBandwidthAt(topology, d, c, Direction::Minus));
        }
        weakestInjection += weakest;
    }
    double bound = volume / weakestInjection;
    if (spec.groups.kind == GroupLayout::Kind::All) {
        const double crossing = spec.op == CollectiveOp::AllReduce ? spec.bytesPerChip : spec.bytesPerChip / 2;
        for (int d = 0; d < topology.rank(); ++d) {
            const int size = topology.size(d);
            if (size < 2) {
                continue;
            }
            if (topology.spec().twisted) {
                // Twisted wrap-around links cross other dimensions' cuts: count the links.
                bound = std::max(bound, crossing / halfCutBandwidth(topology, d));
                continue;
            }
            // Cut between coordinates size/2-1 and size/2 and, with wrap-around, between the
            // last and the first: bandwidth crossing it in one direction, over all lines.
            double perLine = linkBandwidthAt(topology, d, size / 2 - 1, Direction::Plus);
            if (topology.wraps(d)) {
                perLine += linkBandwidthAt(topology, d, size - 1, Direction::Plus);
            }
            const double lines = static_cast<double>(topology.chipCount()) / size;
            bound = std::max(bound, crossing / (perLine * lines));
        }
    }
    return bound;
}

void completeMetrics(const Topology& topology, const CollectiveSpec& spec, CollectiveResult& result) {
    result.groupSize = groupSizeOf(topology, spec.groups);
    result.groupCount = static_cast<int>(topology.chipCount() / result.groupSize);
    result.lowerBoundS = bandwidthLowerBound(topology, spec);
    if (result.timeS > 0) {
        result.algbwBps = spec.bytesPerChip / result.timeS;
        result.busbwBps = result.algbwBps * busBandwidthFactor(spec.op, result.groupSize);
        result.efficiency = result.lowerBoundS / result.timeS;
    }
}

} // namespace podscope
