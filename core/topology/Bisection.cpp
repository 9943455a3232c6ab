#include "topology/Bisection.hpp"

#include <algorithm>
#include <limits>

namespace podscope {

double halfCutBandwidth(const Topology& topology, int dim) {
    const int half = topology.size(dim) / 2;
    double crossing = 0;
    for (LinkId link = 0; link < topology.linkSlotCount(); ++link) {
        const ChipId target = topology.linkTarget(link);
        if (target >= 0 && topology.coord(topology.linkSource(link), dim) < half &&
            topology.coord(target, dim) >= half) {
            crossing += topology.linkBandwidth(link);
        }
    }
    return crossing;
}

double planeBisectionBandwidth(const Topology& topology) {
    double narrowest = std::numeric_limits<double>::infinity();
    for (int d = 0; d < topology.rank(); ++d) {
        const int n = topology.size(d);
        if (n >= 2 && n % 2 == 0) {
            narrowest = std::min(narrowest, halfCutBandwidth(topology, d));
        }
    }
    return narrowest == std::numeric_limits<double>::infinity() ? 0.0 : narrowest;
}

} // namespace podscope
