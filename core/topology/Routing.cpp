#include "topology/Routing.hpp"

namespace podscope {
namespace {

// Signed number of steps along `dim` from coordinate a to b on the shortest way.
int signedDistance(const Topology& topology, int dim, int a, int b) {
    int forward = b - a;
    if (!topology.wraps(dim)) {
        return forward;
    }
    const int n = topology.size(dim);
    forward = ((forward % n) + n) % n;
    const int backward = n - forward;
    return forward <= backward ? forward : -backward;
}

} // namespace

int appendRoute(const Topology& topology, ChipId from, ChipId to, std::vector<LinkId>& path) {
    int hops = 0;
    ChipId at = from;
    for (int dim = 0; dim < topology.rank(); ++dim) {
        const int steps = signedDistance(topology, dim, topology.coord(at, dim), topology.coord(to, dim));
        const Direction dir = steps >= 0 ? Direction::Plus : Direction::Minus;
        for (int i = 0; i < (steps >= 0 ? steps : -steps); ++i) {
            path.push_back(topology.linkId(at, dim, dir));
            at = topology.neighbour(at, dim, dir);
            ++hops;
        }
    }
    return hops;
}

int appendLineRoute(const Topology& topology, ChipId lineStart, int dim, int fromCoord, int toCoord,
                    std::vector<LinkId>& path) {
    const int steps = signedDistance(topology, dim, fromCoord, toCoord);
    const Direction dir = steps >= 0 ? Direction::Plus : Direction::Minus;
    const int delta = steps >= 0 ? 1 : -1;
    const int n = topology.size(dim);
    const auto stride = topology.stride(dim);
    int at = fromCoord;
    for (int i = 0; i < (steps >= 0 ? steps : -steps); ++i) {
        path.push_back(topology.linkId(static_cast<ChipId>(lineStart + at * stride), dim, dir));
        at += delta;
        at = at < 0 ? at + n : (at >= n ? at - n : at);
    }
    return steps >= 0 ? steps : -steps;
}

int routeLength(const Topology& topology, ChipId from, ChipId to) {
    int hops = 0;
    for (int dim = 0; dim < topology.rank(); ++dim) {
        const int steps = signedDistance(topology, dim, topology.coord(from, dim), topology.coord(to, dim));
        hops += steps >= 0 ? steps : -steps;
    }
    return hops;
}

} // namespace podscope
